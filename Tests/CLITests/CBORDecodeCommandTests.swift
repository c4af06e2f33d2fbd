import ConformanceKit
import VectorContract
import Foundation
import Testing
import TestSupport
import TrustSuiteSupport

/// `trustsuite cbor decode` with the round-3 options: `--tag-validity`
/// (invalidTagContent and its offset) and `--max-depth` (1 … 10,000), one
/// input or one JSON line per input line.
@Suite struct CBORDecodeCommandTests {
    @Test func tagValidityRefusesWrongContent() throws {
        let passed = try CLI.run(["cbor", "decode", "--json", "--hex", "8201c000"])
        #expect(passed.status == 0 && passed.stdout.contains("[1, 0(0)]"), "\(passed)")
        let checked = try CLI.run(["cbor", "decode", "--json", "--tag-validity", "--hex", "8201c000"])
        #expect(checked.status == 1, "\(checked)")
        let answer = try JSONDecoder().decode(JSONValue.self, from: Data(checked.stdout.utf8))
        #expect(answer["error"]?.stringValue == "invalidTagContent")
        #expect(answer["offset"]?.int64Value == 2)
    }

    @Test func maxDepthPerLine() throws {
        func nested(_ levels: Int) -> String { String(repeating: "81", count: levels) + "00" }
        let input = [nested(64), nested(65), nested(512), nested(513), "c0a1616100"].joined(separator: "\n") + "\n"
        let deep = try CLI.run(
            ["cbor", "decode", "--tag-validity", "--max-depth", "512", "--lines", "--json"],
            stdin: Data(input.utf8))
        #expect(deep.status == 0, "\(deep)")
        let answers = deep.stdout.split(separator: "\n").compactMap {
            try? JSONDecoder().decode(JSONValue.self, from: Data($0.utf8))
        }
        #expect(
            answers.map { $0["error"]?.stringValue ?? "valid" }
                == ["valid", "valid", "valid", "depthLimitExceeded", "invalidTagContent"])
        #expect(answers.count == 5 && answers[3]["offset"]?.int64Value == 512)
        let shallow = try CLI.run(["cbor", "decode", "--lines"], stdin: Data(input.utf8))
        #expect(
            shallow.stdout.split(separator: "\n").map { $0.contains("depthLimitExceeded") }
                == [false, true, true, true, false], "\(shallow)")
        let most = try CLI.run(["cbor", "decode", "--max-depth", "10000", "--mode", "ctap2", "--hex", nested(10_000)])
        #expect(most.status == 0 && most.stdout.hasPrefix("[[[["), "\(most.stderr)")
    }

    /// The working group's 1,381 tests through the CLI, one line each: with
    /// the options its processing asks for every verdict agrees; with the
    /// defaults only the five listed cases differ (two tag-content, three depth).
    @Test(
        .enabled(
            if: FileManager.default.fileExists(atPath: WorkingGroupVectors.folder.path),
            "the CBOR working group's vectors are not in the external folder"))
    func workingGroupVerdictsPerLine() throws {
        let cases = WorkingGroupVectors.cases
        #expect(cases.count == 1_381)
        let input = Data(cases.map { BinaryText.hex($0.encoded) + "\n" }.joined().utf8)
        func verdicts(_ options: [String]) throws -> [Bool] {
            let outcome = try CLI.run(["cbor", "decode", "--lines", "--json"] + options, stdin: input, timeout: 120)
            #expect(outcome.status == 0, "\(outcome.stderr)")
            return outcome.stdout.split(separator: "\n").map { $0.hasPrefix("{\"diagnostic\"") }
        }
        let checked = try verdicts(["--tag-validity", "--max-depth", "512"])
        #expect(checked.count == cases.count)
        let wrong = zip(cases, checked).filter { $0.0.fail == $0.1 }.map(\.0.description)
        #expect(wrong.isEmpty, "\(wrong)")
        let defaults = try verdicts([])
        let differing = zip(cases, defaults).filter { $0.0.fail == $0.1 }.map(\.0.description)
        #expect(
            differing == [
                "rfc8949/bad.cbor #45", "rfc8949/bad.cbor #46", "rfc8949/good.cbor #84",
                "rfc8949/good.cbor #85", "rfc8949/good.cbor #86",
            ])
    }
}
