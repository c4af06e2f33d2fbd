import Foundation
import Testing
import TestSupport
import TrustSuiteSupport

/// The hello's `callerChecks` (spec/vectors.md, "App Attest vectors any
/// verifier can run (round 3)"): kept in the run's JSON and scorecard, and
/// shown per implementation in the matrix (JSON, Markdown, HTML).
@Suite struct CallerChecksTests {
    /// An adapter that refuses every vector and declares `checks`.
    static func adapter(_ checks: String, in folder: URL) throws -> String {
        let script = folder.appendingPathComponent("adapter-\(UUID().uuidString).py")
        try Data(
            """
            import json, sys
            print(json.dumps({"adapter": "checked", "version": "1", "families": ["app-attest-assertion"], "callerChecks": \(checks)}), flush=True)
            for line in sys.stdin:
                print(json.dumps({"id": json.loads(line)["id"], "result": "invalid", "error": "no"}), flush=True)
            """.utf8
        ).write(to: script)
        return "python3 \(script.path)"
    }

    @Test func runAndMatrixShowTheCallerChecks() throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let vectors = Locations.fixtures.appendingPathComponent("app-attest/assertion.json").path
        let json = folder.appendingPathComponent("run.json")
        let run = try CLI.run([
            "run", "--only", "--fixtures", vectors, "--quiet", "--adapter", try Self.adapter(#"["keyId", "counter"]"#, in: folder),
            "--json", json.path,
        ])
        #expect(run.stdout.contains("(caller checks: keyId, counter"), "\(run)")
        let report = try JSONDecoder().decode(JSONValue.self, from: Data(contentsOf: json))
        #expect(report["callerChecks"] == .array([.string("keyId"), .string("counter")]))

        let names = ["m.json", "m.md", "m.html"].map { folder.appendingPathComponent($0) }
        let matrix = try CLI.run([
            "matrix", "--only", "--fixtures", vectors, "--quiet",
            "--adapter", "both=" + (try Self.adapter(#"["keyId", "counter"]"#, in: folder)),
            "--adapter", "none=" + (try Self.adapter("[]", in: folder)),
            "--json", names[0].path, "--markdown", names[1].path, "--html", names[2].path,
        ])
        #expect(matrix.status == 0, "\(matrix)")
        let implementations =
            try JSONDecoder().decode(JSONValue.self, from: Data(contentsOf: names[0]))["implementations"]?.arrayValue ?? []
        func checks(_ name: String) -> JSONValue? { implementations.first { $0["name"]?.stringValue == name }?["callerChecks"] }
        #expect(checks("both") == .array([.string("keyId"), .string("counter")]))
        #expect(checks("none") == .array([]))
        #expect(checks("reference") == nil)
        let markdown = try String(contentsOf: names[1], encoding: .utf8)
        #expect(markdown.contains("| both | no | keyId, counter |") && markdown.contains("| none | no | — |"), "\(markdown.prefix(3000))")
        #expect(try String(contentsOf: names[2], encoding: .utf8).contains("<td>both</td><td>no</td><td>keyId, counter</td>"))
    }
}
