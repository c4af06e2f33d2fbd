#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing
import TestSupport

/// `run` grades the vectors it says it grades (issue 61, item 6): one
/// search order (TRUSTSUITE_FIXTURES, beside the binary, the checkout the
/// binary lies in), never the working directory, never a build path of a
/// binary that moved; the scorecard and the reports name the source and
/// its digest. Before: a folder holding a `Fixtures/` trimmed to valid
/// vectors was read first, and the scorecard did not name it.
@Suite(.serialized) struct VectorSourceTests {
    static func folder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("trustsuite-source-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    @Test func aFixturesFolderInTheWorkingDirectoryIsNotRead() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        // A vendored Fixtures/ holding one valid CBOR vector only.
        let trimmed = folder.appendingPathComponent("Fixtures/cbor")
        try FileManager.default.createDirectory(at: trimmed, withIntermediateDirectories: true)
        let checkoutCBOR = Locations.packageRoot.appendingPathComponent("Fixtures/cbor")
        let names = try FileManager.default.contentsOfDirectory(atPath: checkoutCBOR.path).filter { $0.hasSuffix(".json") }
        let first = try #require(names.sorted().first)
        try FileManager.default.copyItem(at: checkoutCBOR.appendingPathComponent(first), to: trimmed.appendingPathComponent(first))
        let json = folder.appendingPathComponent("report.json")
        let run = try CLI.run(["run", "--family", "cbor", "--quiet", "--json", json.path], timeout: 300, directory: folder)
        #expect(run.status == 0, "\(run)")
        let checkout = Locations.packageRoot.appendingPathComponent("Fixtures").standardizedFileURL.path
        let line = run.stdout.split(separator: "\n").first { $0.hasPrefix("vectors: ") }
        #expect(line?.hasPrefix("vectors: \(checkout) (the source checkout) — \(names.count) files, sha256 ") == true, "\(run)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: json)) as? [String: Any])
        let vectors = try #require(report["vectors"] as? [String: Any])
        #expect(vectors["files"] as? Int == names.count)
        #expect((vectors["sha256"] as? String)?.count == 64)
        #expect(line?.hasSuffix(vectors["sha256"] as? String ?? "?") == true)
    }

    @Test func aBinaryOutsideItsCheckoutDoesNotReadTheCheckout() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        // The same binary under another name, outside the checkout (a hard
        // link: a symbolic link resolves back into it), with no Fixtures beside it.
        let moved = folder.appendingPathComponent("trustsuite")
        try #require(link(CLI.binary.path, moved.path) == 0)
        let run = try CLI.run(["run", "--family", "cbor", "--quiet"], executable: moved, timeout: 300, directory: folder)
        #expect(run.status == 2, "\(run)")
        #expect(run.stderr.hasPrefix("trustsuite: cannot find the built-in Fixtures folder"), "\(run)")
        // Named explicitly, the same vectors run, and the scorecard says so.
        let named = try CLI.run(
            [
                "run", "--family", "cbor", "--quiet", "--only", "--fixtures",
                Locations.packageRoot.appendingPathComponent("Fixtures/cbor").path,
            ],
            executable: moved, timeout: 300, directory: folder)
        #expect(named.status == 0, "\(named)")
        #expect(named.stdout.contains("(--fixtures) — "), "\(named)")
    }

    /// The matrix's reports name their vectors too: the Markdown, the JSON,
    /// the HTML page, every SARIF run and the summary it prints, all with
    /// the digest `run` gives the same files.
    @Test func everyMatrixReportNamesTheVectorSource() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        // The trap of the first test again: a Fixtures/ in the working directory, never read.
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("Fixtures/cbor"), withIntermediateDirectories: true)
        let out = { (name: String) in folder.appendingPathComponent(name).path }
        let matrix = try CLI.run(
            [
                "matrix", "--family", "cbor", "--quiet", "--json", out("m.json"), "--markdown", out("m.md"), "--html", out("m.html"),
                "--sarif", out("m.sarif"),
            ], timeout: 300, directory: folder)
        #expect(matrix.status == 0, "\(matrix)")
        let run = try CLI.run(["run", "--family", "cbor", "--quiet", "--json", out("r.json")], timeout: 300, directory: folder)
        #expect(run.status == 0, "\(run)")
        func vectors(_ name: String) throws -> [String: Any] {
            let object = try #require(
                try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: out(name)))) as? [String: Any])
            return try #require(object["vectors"] as? [String: Any], "\(name) has no vectors object")
        }
        let digest = try #require(try vectors("r.json")["sha256"] as? String)
        let checkout = Locations.packageRoot.appendingPathComponent("Fixtures").standardizedFileURL.path
        let fromMatrix = try vectors("m.json")
        #expect(fromMatrix["sha256"] as? String == digest)
        #expect((fromMatrix["origins"] as? [String])?.first == "\(checkout) (the source checkout)")
        #expect(try vectors("r.json")["files"] as? Int == fromMatrix["files"] as? Int)
        let markdown = try String(contentsOfFile: out("m.md"), encoding: .utf8)
        let vectorsLine = markdown.split(separator: "\n").first { $0.hasPrefix("Vectors: ") }
        #expect(vectorsLine?.contains("\(checkout) (the source checkout)") == true && vectorsLine?.contains("sha256 `\(digest)`") == true)
        let html = try String(contentsOfFile: out("m.html"), encoding: .utf8)
        #expect(html.contains("id=\"vector-source\"") && html.contains("<code>\(digest)</code>"))
        let sarif = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: out("m.sarif")))) as? [String: Any])
        let runs = try #require(sarif["runs"] as? [[String: Any]])
        #expect(!runs.isEmpty)
        for run in runs {
            let properties = (run["tool"] as? [String: Any]).flatMap { $0["driver"] as? [String: Any] }.flatMap {
                $0["properties"] as? [String: Any]
            }
            #expect((properties?["vectors"] as? [String: Any])?["sha256"] as? String == digest, "\(run["tool"] ?? "")")
        }
        #expect(
            matrix.stdout.split(separator: "\n").contains {
                $0.hasPrefix("vectors: \(checkout) (the source checkout) — ") && $0.hasSuffix(digest)
            })
    }
}
