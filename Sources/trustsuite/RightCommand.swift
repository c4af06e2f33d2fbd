import ArgumentParser
import ConformanceKit
import VectorContract
import Foundation
import ReferenceSubjects
import TrustSuiteSupport

struct RightCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "right",
        abstract: "Simulate the LocalAuthentication right lifecycle (LARight, LARightStore, LAPersistedRight).",
        subcommands: [RightSimulateCommand.self]
    )
}

struct RightSimulateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "simulate",
        abstract: "Run a la-right trace and print the state and error after each step.",
        discussion: """
            FILE holds a list of steps, or an object with "steps" (and optionally "requirement" and \
            "device"). Steps: authorize (reason, user: biometry|passcode|fail|cancel), checkCanAuthorize, \
            deauthorize, release, device (event), save (identifier, secret), load, remove, removeAll, sign, \
            decrypt, exchangeKeys, exportPublicKey, loadSecret. A step's "expect" is compared with what \
            happened. Exit status: 0 every expectation matched, 1 a step did not, 2 bad usage.
            """
    )

    @Option(
        name: .long,
        help:
            "Apple's name: default, biometry, biometryCurrentSet, \"biometry(fallback: default)\" or \"biometry(fallback: devicePasscode)\"."
    )
    var requirement: String?
    @Option(name: .long, help: "Device state at the start (JSON object).") var device: String?
    @Option(name: .long, help: ArgumentHelp("The trace (JSON).", valueName: "file")) var steps: String
    @Flag(name: .long, help: "Print one JSON object with every step's answer and the notifications.") var json = false

    func run() async throws {
        let parsed = try InputFiles.json(steps, "--steps")
        var input: [String: JSONValue] = parsed.objectValue ?? ["steps": parsed]
        if let requirement { input["requirement"] = .string(requirement) }
        if let device {
            input["device"] = try InputFiles.json(text: device, "--device")
        }
        let result: (steps: [(step: JSONValue, answer: JSONValue)], notifications: JSONValue)
        do {
            result = try await LARightSubject.trace(.object(input))
        } catch {
            throw CLIError("\(error)")
        }
        var mismatches = 0
        for (index, entry) in result.steps.enumerated() {
            var verdict = ""
            if let expect = entry.step["expect"] {
                let same = Grader.firstDifference(expect, entry.answer, path: "step") == nil
                if !same { mismatches += 1 }
                verdict = same ? "  ok" : "  MISMATCH, expected \(expect.jsonText)"
            }
            if !json {
                let op = entry.step["op"]?.stringValue ?? "?"
                let detail = ["user", "identifier", "event"].compactMap { key in entry.step[key]?.stringValue.map { "\(key)=\($0)" } }
                let error = entry.answer["error"]?.stringValue.map { ", error \($0)" } ?? ""
                print(
                    "\(index + 1). \(op)\(detail.isEmpty ? "" : " " + detail.joined(separator: " ")) → \(entry.answer["state"]?.stringValue ?? "?")\(error)\(verdict)"
                )
            }
        }
        if let expected = input["expectNotifications"], Grader.firstDifference(expected, result.notifications, path: "notifications") != nil
        {
            mismatches += 1
        }
        if json {
            print(
                JSONValue.object([
                    "steps": .array(result.steps.map { .object(["step": $0.step, "answer": $0.answer]) }),
                    "notifications": result.notifications, "mismatches": .int(Int64(mismatches)),
                ]).jsonText)
        } else {
            print("notifications: \(result.notifications.jsonText)" + (mismatches > 0 ? "; \(mismatches) mismatch(es)" : ""))
        }
        if mismatches > 0 { throw ExitCode(1) }
    }
}
