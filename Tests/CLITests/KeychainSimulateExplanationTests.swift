import Foundation
import Testing
import TestSupport

/// `trustsuite keychain simulate` prints the rule and reason under each
/// step, a mismatched one included (issue 56, item 4), and its JSON carries them.
@Suite struct KeychainSimulateExplanationTests {
    static let trace = """
        {"steps": [
          {"op": "device", "event": "lock"},
          {"op": "add", "item": {"class": "genericPassword", "service": "svc", "account": "alice", "data": "c2VjcmV0"},
           "expect": {"status": 0, "prompts": 0}}
        ]}
        """

    @Test func aMismatchedStepShowsWhyItAnsweredAsItDid() throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let steps = folder.appendingPathComponent("trace.json")
        try Data(Self.trace.utf8).write(to: steps)
        let text = try CLI.run(["keychain", "simulate", "--steps", steps.path])
        #expect(text.status == 1, "\(text)")
        let lines = text.stdout.split(separator: "\n").map(String.init)
        let mismatch = try #require(lines.firstIndex { $0.contains("MISMATCH") }, "\(text)")
        #expect(lines.indices.contains(mismatch + 1) && lines[mismatch + 1].hasPrefix("   why: A6: the class ak is locked"), "\(text)")
        let json = try CLI.run(["keychain", "simulate", "--steps", steps.path, "--json"])
        let object = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
        let explanations = (object?["steps"] as? [[String: Any]])?.compactMap { $0["explanation"] as? String } ?? []
        #expect(explanations.count == 2 && explanations[1].hasPrefix("A6: "), "\(json)")
    }
}
