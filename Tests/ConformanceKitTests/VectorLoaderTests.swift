import ConformanceKit
import Foundation
import Testing

/// The loader refuses malformed vector files with a message that says why.
@Suite struct VectorLoaderTests {
    static func file(tests: String, number: Int = 1, family: String = "cbor", schema: String = "trustsuite-vectors/1") -> Data {
        Data("""
            {"schema": "\(schema)", "family": "\(family)", "title": "t", "source": "s", "numberOfTests": \(number),
             "testGroups": [{"defaults": {"mode": "wellFormed"}, "tests": [\(tests)]}]}
            """.utf8)
    }

    static let good = #"{"tcId": 1, "id": "cbor-x::a", "comment": "", "flags": [], "input": {"cborHex": "00"}, "result": "valid", "output": {"diagnostic": "0"}}"#

    @Test func acceptsAWellFormedFileAndMergesDefaults() throws {
        let loaded = try VectorLoader.parse(Self.file(tests: Self.good), path: "good.json")
        #expect(loaded.family == .cbor)
        #expect(loaded.vectors.count == 1)
        #expect(loaded.vectors.first?.input["mode"]?.stringValue == "wellFormed")
        #expect(loaded.vectors.first?.input["cborHex"]?.stringValue == "00")
    }

    @Test(arguments: [
        ("duplicate tcId", file(tests: good + "," + good.replacingOccurrences(of: "::a", with: "::b"), number: 2)),
        ("numberOfTests is 3", file(tests: good, number: 3)),
        ("acceptable result without a flag",
         file(tests: #"{"tcId": 1, "id": "x", "input": {}, "result": "acceptable", "flags": []}"#)),
        ("invalid result without an error code", file(tests: #"{"tcId": 1, "id": "x", "input": {}, "result": "invalid"}"#)),
        ("unknown family \"nope\"", file(tests: good, family: "nope")),
        ("schema \"v0\"", file(tests: good, schema: "v0")),
        ("not valid JSON", Data("{".utf8)),
        ("missing \"input\"", file(tests: #"{"tcId": 1, "id": "x", "result": "valid"}"#)),
        ("\"result\" must be", file(tests: #"{"tcId": 1, "id": "x", "input": {}, "result": "maybe"}"#)),
    ])
    func rejects(_ expected: String, _ data: Data) {
        do {
            _ = try VectorLoader.parse(data, path: "bad.json")
            Issue.record("accepted a file with: \(expected)")
        } catch {
            #expect(error.description.contains(expected), "message was: \(error.description)")
            #expect(error.description.hasPrefix("bad.json: "))
        }
    }

    @Test func rejectsAnIdUsedInTwoFiles() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ts-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Self.file(tests: Self.good).write(to: folder.appendingPathComponent("a.json"))
        try Self.file(tests: Self.good).write(to: folder.appendingPathComponent("b.json"))
        #expect(throws: VectorLoadError.self) { try VectorLoader.load(paths: [folder.path]) }
    }
}
