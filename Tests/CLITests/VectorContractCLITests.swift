import Foundation
import Testing
import TestSupport

/// Issue 24, "done when": a vector file with an unknown trace op or a
/// wrongly typed input is refused when `run` loads it — exit status 2 and
/// one line naming the file, the vector and the place — before any vector runs.
@Suite struct VectorContractCLITests {
    static func vectorFile(family: String, input: String) -> [UInt8] {
        Array(
            """
            {"schema": "trustsuite-vectors/1", "family": "\(family)", "title": "t", "source": "s", "numberOfTests": 1,
             "testGroups": [{"tests": [{"tcId": 3, "id": "contract::bad", "input": \(input), "result": "valid"}]}]}
            """.utf8)
    }

    @Test(arguments: [
        ("keychain-flow", #"{"steps": [{"op": "copyMatchin"}]}"#, "tcId 3: input.steps[0].op: unknown value \"copyMatchin\""),
        ("cbor", #"{"cborHex": 5}"#, "tcId 3: input.cborHex: must be a string"),
    ])
    func runRefusesAtLoad(_ family: String, _ input: String, _ expected: String) throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = try CLI.file("bad.json", Self.vectorFile(family: family, input: input), in: folder)
        let outcome = try CLI.run(["run", "--only", "--fixtures", file.path])
        #expect(outcome.status == 2, "\(outcome)")
        #expect(outcome.stderrLines.count == 1, "\(outcome)")
        #expect(outcome.stderr.contains(file.path) && outcome.stderr.contains(expected), "\(outcome)")
    }
}
