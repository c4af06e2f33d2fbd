import ArgumentParser
import ConformanceKit
import VectorContract
import KeychainAccessControl
import Foundation
import ReferenceSubjects
import TrustSuiteSupport

struct KeychainCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "keychain",
        abstract: "Simulate keychain item flows and LAContext reuse.",
        subcommands: [KeychainSimulateCommand.self]
    )
}

struct KeychainSimulateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "simulate",
        abstract: "Run a keychain-flow trace and print each step's status code and prompts.",
        discussion: """
            FILE holds {"device": {…}, "steps": [ … ]} (the input of a keychain-flow vector) or just the \
            list of steps. Steps: add, generateKey, copyMatching, update, delete, sign, evaluatePolicy, \
            canEvaluatePolicy, evaluateAccessControl, invalidateContext, device (docs/traces.md). \
            A step's "expect" is compared with what happened. Exit status: 0 the trace ran and matched \
            every expectation, 1 a step did not match, 2 bad usage.
            """
    )

    @Option(name: .long, help: ArgumentHelp("The trace (JSON).", valueName: "file")) var steps: String
    @Option(name: .long, help: "Device state at the start (JSON), overriding the file's.") var device: String?
    @Flag(name: .long, help: "Print one JSON object with every step's answer.") var json = false

    func run() throws {
        let parsed = try InputFiles.json(steps, "--steps")
        var input: [String: JSONValue] = parsed.objectValue ?? ["steps": parsed]
        if let device {
            input["device"] = try InputFiles.json(text: device, "--device")
        }
        let trace: [(step: JSONValue, answer: JSONValue, explanation: String?)]
        do {
            trace = try KeychainFlowSubject.trace(.object(input))
        } catch {
            throw CLIError("\(error)")
        }
        var mismatches = 0
        var lines: [JSONValue] = []
        var total = 0
        for (index, entry) in trace.enumerated() {
            let prompts = entry.answer["prompts"]?.int64Value ?? 0
            total += Int(prompts)
            var verdict = ""
            if let expect = entry.step["expect"] {
                let same = expect.objectValue?.allSatisfy { key, value in entry.answer[key].map(value.matches) ?? false } ?? false
                if !same { mismatches += 1 }
                verdict = same ? "  ok" : "  MISMATCH, expected \(expect.jsonText)"
            }
            if json {
                var line: [String: JSONValue] = ["step": entry.step, "answer": entry.answer]
                if let explanation = entry.explanation { line["explanation"] = .string(explanation) }
                lines.append(.object(line))
            } else {
                let op = entry.step["op"]?.stringValue ?? "?"
                let context = entry.step["context"]?.stringValue.map { " [\($0)]" } ?? ""
                let user = entry.step["user"]?.stringValue.map { " user=\($0)" } ?? ""
                let status = entry.answer["status"]?.int64Value ?? 0
                print(
                    "\(index + 1). \(op)\(context)\(user) → status \(status) (\(OSStatusCode.name(of: status) ?? "status")), prompts \(prompts)\(verdict)"
                )
                // The rule and reason that decided the step, under every step.
                if let explanation = entry.explanation { print("   why: \(explanation)") }
            }
        }
        if json {
            print(
                JSONValue.object(["steps": .array(lines), "prompts": .int(Int64(total)), "mismatches": .int(Int64(mismatches))]).jsonText)
        } else {
            print("prompts in total: \(total)" + (mismatches > 0 ? "; \(mismatches) step(s) did not match" : ""))
        }
        if mismatches > 0 { throw ExitCode(1) }
    }
}
