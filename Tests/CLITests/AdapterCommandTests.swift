import AdapterHost
import ConformanceKit
import VectorContract
import Foundation
import ReferenceSubjects
import Testing
import TestSupport
import TrustSuiteSupport

/// `trustsuite adapter` serves the reference over the adapter protocol; run
/// through the protocol it must answer every vector exactly as the
/// in-process reference does.
@Suite struct AdapterCommandTests {
    @Test func theProtocolAgreesWithTheInProcessReferenceVectorForVector() async throws {
        let vectors = Family.allCases.flatMap { FixtureVectors.cases($0).map(\.vector) }
        let subject = try await AdapterSubject.launch(command: "exec '\(CLI.binary.path)' adapter")
        #expect(subject.families == Set(Family.allCases))
        #expect(subject.gradesOutputs)
        let overProtocol = await Runner(subject: subject).run(vectors)
        await subject.stop()
        let inProcess = await Runner(subject: ReferenceSubject()).run(vectors)
        #expect(overProtocol.cases.count == inProcess.cases.count)
        var differences: [String] = []
        for (remote, local) in zip(overProtocol.cases, inProcess.cases) {
            let same =
                remote.grade == local.grade && remote.answer?.verdict == local.answer?.verdict
                && remote.answer?.error == local.answer?.error
                && (remote.answer?.output ?? .null).matches(local.answer?.output ?? .null)
            if !same { differences.append("\(remote.vector.id): \(remote.grade) \(remote.message) vs \(local.grade)") }
        }
        #expect(differences.isEmpty, "\(differences.count) differ, first: \(differences.prefix(3))")
        #expect(overProtocol.count(.pass) == vectors.count)
    }

    @Test func unreadableRequestsAreAnsweredNotFatal() throws {
        let lines =
            "not json\n{\"id\":\"7\",\"family\":\"nope\",\"input\":{}}\n{\"id\":\"8\",\"family\":\"cbor\"}\n"
            + "{\"id\":\"9\",\"family\":\"cbor\",\"input\":{\"cborHex\":\"00\",\"mode\":\"ctap2\"}}\n"
        let outcome = try CLI.run(["adapter"], stdin: Data(lines.utf8))
        #expect(outcome.status == 0)
        let replies = try outcome.stdout.split(separator: "\n").map { try JSONDecoder().decode(JSONValue.self, from: Data($0.utf8)) }
        #expect(replies.count == 5)
        #expect(replies[0]["gradeOutputs"]?.boolValue == true)
        #expect(replies[1]["result"]?.stringValue == "unsupported")
        #expect(replies[2]["id"]?.stringValue == "7" && replies[2]["result"]?.stringValue == "unsupported")
        #expect(replies[3]["id"]?.stringValue == "8" && replies[3]["result"]?.stringValue == "unsupported")
        #expect(replies[4]["id"]?.stringValue == "9" && replies[4]["result"]?.stringValue == "valid")
        #expect(replies[4]["output"]?["diagnostic"]?.stringValue == "0")
    }
}

/// `trustsuite run` and `trustsuite matrix` as a user calls them.
@Suite struct RunAndMatrixCommandTests {
    @Test func aRunThatGradesNothingExitsOne() throws {
        let none = try CLI.run([
            "run", "--family", "cbor", "--skip-flag", "LimitPolicy", "--only", "--fixtures",
            Locations.fixtures.appendingPathComponent("la-right").path,
        ])
        #expect(none.status == 1)
        #expect(none.stderr.contains("nothing was tested"))
        #expect(none.stdout.contains("NOTHING TESTED"))

        let unsupported = try CLI.run([
            "run", "--family", "cbor", "--adapter",
            "echo '{\"adapter\":\"none\",\"version\":\"1\",\"families\":[]}'; cat >/dev/null",
        ])
        #expect(unsupported.status == 1, "\(unsupported)")
        #expect(unsupported.stdout.contains("NOTHING TESTED"))
    }

    @Test func reportPathsAreCheckedBeforeTheRun() throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        for arguments in [["--json", folder.path], ["--junit", folder.appendingPathComponent("missing/r.xml").path], ["--json", ""]] {
            // An adapter that would leave a file behind if it were started.
            let started = folder.appendingPathComponent("started")
            let outcome = try CLI.run(["run", "--family", "cbor", "--adapter", "touch '\(started.path)'; exit 1"] + arguments)
            #expect(outcome.status == 2, "\(outcome)")
            #expect(outcome.stderrLines.count == 1 && outcome.stderr.hasPrefix("trustsuite: "), "\(outcome)")
            #expect(!FileManager.default.fileExists(atPath: started.path))
        }
    }

    @Test func hostileTimeoutsAreRefused() throws {
        for value in ["0", "-1", "inf", "nan", "1e19", "3601", "", "ten"] {
            let outcome = try CLI.run(["run", "--family", "cbor", "--adapter", "cat", "--timeout", value])
            #expect(outcome.status == 2 && !outcome.signaled, "--timeout \(value): \(outcome)")
            #expect(outcome.stderrLines.count == 1 && outcome.stderr.hasPrefix("trustsuite: "), "--timeout \(value): \(outcome)")
        }
    }

    @Test func matrixWritesAllThreeFormats() throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let markdown = folder.appendingPathComponent("m.md"), json = folder.appendingPathComponent("m.json")
        let html = folder.appendingPathComponent("m.html")
        // The reference against itself over the protocol, and a decoder that accepts everything.
        let lenient =
            "exec python3 -c \"import sys, json; print(json.dumps({'adapter': 'yes', 'version': '1', 'families': ['cbor']}), flush=True)\n"
            + "for l in sys.stdin: print(json.dumps({'id': json.loads(l)['id'], 'result': 'valid'}), flush=True)\""
        let outcome = try CLI.run([
            "matrix", "--family", "cbor", "--quiet",
            "--adapter", "self=exec '\(CLI.binary.path)' adapter", "--adapter", "yes=\(lenient)",
            "--markdown", markdown.path, "--json", json.path, "--html", html.path,
        ])
        #expect(outcome.status == 0, "\(outcome)")
        let matrix = try JSONDecoder().decode(JSONValue.self, from: Data(contentsOf: json))
        let rows = try #require(matrix["rows"]?.arrayValue)
        let cbor = FixtureVectors.cases(.cbor).count
        #expect(rows.count == cbor)
        #expect(matrix["implementations"]?.arrayValue?.map { $0["name"]?.stringValue } == ["reference", "self", "yes"])
        // The accept-everything decoder disagrees on exactly the invalid vectors; they come first.
        let invalid = FixtureVectors.cases(.cbor).filter { $0.vector.result == .invalid }.count
        let disagreeing = rows.prefix { $0["disagreement"]?.boolValue == true }
        #expect(disagreeing.count == invalid)
        #expect(rows.filter { $0["disagreement"]?.boolValue == true }.count == invalid)
        #expect(disagreeing.allSatisfy { $0["results"]?["yes"]?["outcome"]?.stringValue == "acceptedInvalid" })
        #expect(rows.allSatisfy { $0["results"]?["self"]?["outcome"]?.stringValue == "pass" })
        let summary = try #require(matrix["implementations"]?.arrayValue?.last?["summary"]?["cbor"])
        #expect(summary["acceptedInvalid"]?.int64Value == Int64(invalid))
        let text = try String(contentsOf: markdown, encoding: .utf8)
        #expect(text.contains("| yes | cbor | \(cbor) |"))
        let page = try String(contentsOf: html, encoding: .utf8)
        #expect(page.components(separatedBy: "<tr data-family=").count - 1 == cbor)
        #expect(page.contains("id=\"disagree\""))
    }

    /// `--adapters FILE` (Adapters/adapters.json's format): each entry is a
    /// column, in list order before any `--adapter`, its command run in the
    /// list's folder; an adapter reporting another version than the list
    /// pins is named; a list that is not one is refused before any run.
    @Test func matrixRunsAnAdapterList() throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let script =
            "import sys, json\nprint(json.dumps({'adapter': 'yes', 'version': '1', 'families': ['cbor']}), flush=True)\n"
            + "for l in sys.stdin: print(json.dumps({'id': json.loads(l)['id'], 'result': 'valid'}), flush=True)\n"
        try Data(script.utf8).write(to: folder.appendingPathComponent("yes.py"))
        // An entry's NAME/error-map.json beside the list is its error map.
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("yes"), withIntermediateDirectories: true)
        try Data(#"[{"pattern": "short", "code": "truncated"}]"#.utf8).write(to: folder.appendingPathComponent("yes/error-map.json"))
        func entry(_ name: String, _ version: String, _ command: String) -> JSONValue {
            .object([
                "name": .string(name), "language": .string("test"), "library": .string(name), "version": .string(version),
                "command": .string(command), "families": .array([.string("cbor")]),
            ])
        }
        let list = folder.appendingPathComponent("adapters.json")
        let entries: [JSONValue] = [entry("yes", "2", "python3 yes.py"), entry("self", "0", "'\(CLI.binary.path)' adapter")]
        try Data(JSONValue.object(["schema": .string("trustsuite-adapters/1"), "adapters": .array(entries)]).jsonText.utf8).write(to: list)
        let json = folder.appendingPathComponent("m.json")
        let outcome = try CLI.run([
            "matrix", "--family", "cbor", "--quiet", "--adapters", list.path,
            "--adapter", "last=exec '\(CLI.binary.path)' adapter", "--json", json.path,
        ])
        #expect(outcome.status == 0, "\(outcome)")
        #expect(outcome.stderr.contains("yes reports version 1, the list pins 2"), "\(outcome)")
        let matrix = try JSONDecoder().decode(JSONValue.self, from: Data(contentsOf: json))
        let implementations = try #require(matrix["implementations"]?.arrayValue)
        #expect(implementations.map { $0["name"]?.stringValue } == ["reference", "yes", "self", "last"])
        let invalid = FixtureVectors.cases(.cbor).filter { $0.vector.result == .invalid }.count
        #expect(implementations[1]["summary"]?["cbor"]?["acceptedInvalid"]?.int64Value == Int64(invalid))
        #expect(implementations[1]["gradesReasons"]?.boolValue == true, "yes/error-map.json was not loaded")
        #expect(implementations[3]["gradesReasons"]?.boolValue == true)

        // A name used twice, and a list of another schema: refused, nothing run.
        let twice: [JSONValue] = [entry("yes", "1", "python3 yes.py"), entry("yes", "1", "python3 yes.py")]
        for bad in [
            JSONValue.object(["schema": .string("trustsuite-adapters/1"), "adapters": .array(twice)]),
            JSONValue.object(["schema": .string("other/1"), "adapters": .array(entries)]),
        ] {
            try Data(bad.jsonText.utf8).write(to: list)
            let refused = try CLI.run(["matrix", "--family", "cbor", "--quiet", "--adapters", list.path, "--json", json.path])
            #expect(refused.status == 2 && refused.stderrLines.count == 1, "\(refused)")
        }
    }
}
