import ArgumentParser
import ConformanceKit
import VectorContract
import Foundation
import ReferenceSubjects
import TrustSuiteSupport

/// The reference implementation served over the adapter protocol, so other
/// runners can call it and the protocol is tested end to end.
struct AdapterCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "adapter",
        abstract: "Serve the reference implementation over the JSON-lines adapter protocol on stdin/stdout.",
        discussion: """
            Prints the introduction line (every family, "gradeOutputs": true, "codes": true, every capability), then answers one request \
            line with one reply line until stdin ends. A request that cannot be read is answered \
            "unsupported" with the reason. Try: trustsuite run --adapter "trustsuite adapter".
            """
    )

    func run() async throws {
        let subject = ReferenceSubject()
        let hello: JSONValue = .object([
            "adapter": .string("trustsuite-reference"),
            "version": .string(TrustSuiteCommand.configuration.version),
            "families": .array(Family.allCases.filter { subject.families.contains($0) }.map { .string($0.rawValue) }),
            "gradeOutputs": .bool(true),
            // Its errors are codes (docs/vectors.md, Amendments (round 3)), and it can do everything.
            "codes": .bool(true),
            "capabilities": .array(Capabilities.known.map(JSONValue.string)),
        ])
        Self.emit(hello)
        while let line = readLine(strippingNewline: true) {
            guard !line.isEmpty else { continue }
            Self.emit(await Self.reply(to: line, subject: subject))
        }
    }

    /// The reply line for one request line.
    static func reply(to line: String, subject: ReferenceSubject) async -> JSONValue {
        guard let request = try? JSONDecoder().decode(JSONValue.self, from: Data(line.utf8)), request.objectValue != nil else {
            return .object(["id": .null, "result": .string("unsupported"), "error": .string("request is not a JSON object")])
        }
        let id = request["id"] ?? .null
        func refuse(_ reason: String) -> JSONValue {
            .object(["id": id, "result": .string("unsupported"), "error": .string(reason)])
        }
        guard let name = request["family"]?.stringValue else { return refuse("request has no \"family\"") }
        guard let family = Family(rawValue: name) else { return refuse("unknown family \"\(name)\"") }
        guard let input = request["input"], input.objectValue != nil else { return refuse("request has no \"input\" object") }
        do {
            let answer = try await subject.evaluate(family: family, input: input)
            var reply = answer.replyFields
            reply["id"] = id
            // The reference's error is a code of docs/vectors.md.
            if answer.verdict == .invalid, answer.code == nil, let code = answer.error { reply["code"] = .string(code) }
            return .object(reply)
        } catch {
            return refuse("the reference cannot read this input: \(error)")
        }
    }

    static func emit(_ value: JSONValue) {
        FileHandle.standardOutput.write(Data((value.jsonText + "\n").utf8))
    }
}
