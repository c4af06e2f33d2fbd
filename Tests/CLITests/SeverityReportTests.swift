import Foundation
import Testing
import TestSupport
import TrustSuiteSupport

/// An adapter that crashes on a truncated attestation (a `network` input)
/// is reported as critical, first, in every report of `run` and `matrix`
/// (spec/vectors.md, "App Attest vectors any verifier can run (round 3)",
/// Severity). The adapter (`Tests/Adapters/naive_cbor_adapter.py`) also accepts
/// every object it can walk, so high and low findings are there to be
/// outranked.
@Suite struct SeverityReportTests {
    static let script = Locations.packageRoot.appendingPathComponent("Tests/Adapters/naive_cbor_adapter.py").path
    static let vectors = Locations.fixtures.appendingPathComponent("app-attest/attestation.json").path

    static func json(_ url: URL) throws -> JSONValue {
        try JSONDecoder().decode(JSONValue.self, from: Data(contentsOf: url))
    }

    static func first(_ value: JSONValue?) -> JSONValue? { value?.arrayValue?.first }

    static func isTruncation(_ id: String?) -> Bool { id?.contains("-parse::truncated") == true }

    @Test func runReportsTheCrashAsCriticalFirst() throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let json = folder.appendingPathComponent("run.json"), junit = folder.appendingPathComponent("run.xml")
        let sarif = folder.appendingPathComponent("run.sarif")
        let outcome = try CLI.run(
            [
                "run", "--only", "--fixtures", Self.vectors, "--quiet", "--adapter", "python3 \(Self.script)",
                "--json", json.path, "--junit", junit.path, "--sarif", sarif.path,
            ], timeout: 300)
        #expect(outcome.status == 1, "\(outcome)")
        // Scorecard: the crit column and the first listed finding.
        let lines = outcome.stdout.split(separator: "\n")
        let row = lines.first { $0.hasPrefix("app-attest-attestation") }
        let critical = Int(row?.split(separator: " ").last ?? "") ?? 0
        #expect(critical >= 6, "\(row ?? "")")
        let listed = lines.drop { !$0.hasPrefix("Not passed") }.dropFirst()
        #expect(
            listed.first?.contains("[critical error]") == true && Self.isTruncation(listed.first.map(String.init)), "\(listed.first ?? "")")
        #expect(outcome.stdout.contains("CRITICAL: \(critical) network inputs"))
        // JSON: findings by severity, the count in the summary.
        let report = try Self.json(json)
        let cases = report["cases"]?.arrayValue ?? []
        #expect(cases.first?["severity"]?.stringValue == "critical" && Self.isTruncation(cases.first?["id"]?.stringValue))
        #expect(report["summary"]?["critical"]?.int64Value == Int64(critical))
        let severities = cases.compactMap { $0["severity"]?.stringValue }
        #expect(severities.contains("high") && severities.firstIndex(of: "high") ?? 0 > severities.lastIndex(of: "critical") ?? 0)
        // JUnit: the first case with a finding is the critical error.
        let xml = try String(contentsOf: junit, encoding: .utf8)
        let firstFinding = xml.split(separator: "\n").firstIndex { $0.contains("<failure") || $0.contains("<error") } ?? 0
        let xmlLines = xml.split(separator: "\n")
        #expect(xmlLines[firstFinding].contains("<error type=\"critical\" message=\"critical: "), "\(xmlLines[firstFinding])")
        #expect(Self.isTruncation(String(xmlLines[firstFinding - 1])), "\(xmlLines[firstFinding - 1])")
        // SARIF: the first result, at level error, with its severity.
        let log = try Self.json(sarif)
        let first = Self.first(Self.first(log["runs"])?["results"])
        #expect(first?["properties"]?["severity"]?.stringValue == "critical" && first?["level"]?.stringValue == "error")
        #expect(Self.isTruncation(first?["message"]?["text"]?.stringValue))
    }

    @Test func matrixReportsTheCrashAsCriticalFirst() throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let names = ["m.md", "m.json", "m.html", "m.sarif"].map { folder.appendingPathComponent($0) }
        let outcome = try CLI.run(
            [
                "matrix", "--only", "--fixtures", Self.vectors, "--quiet", "--adapter", "naive=python3 \(Self.script)",
                "--markdown", names[0].path, "--json", names[1].path, "--html", names[2].path,
                "--sarif", names[3].path,
            ], timeout: 300)
        #expect(outcome.status == 0 || outcome.status == 1, "\(outcome)")
        let markdown = try String(contentsOf: names[0], encoding: .utf8)
        #expect(markdown.contains("| implementation | family | vectors | critical |"))
        let cases = markdown.components(separatedBy: "## Cases not passed").last ?? ""
        let heading = cases.split(separator: "\n").first { $0.hasPrefix("### ") }
        #expect(Self.isTruncation(heading.map(String.init)), "\(heading ?? "")")
        let table = markdown.components(separatedBy: "## Vectors").last?.split(separator: "\n").first { $0.hasPrefix("| attestation-") }
        #expect(table?.contains("**CRITICAL**") == true && Self.isTruncation(table.map(String.init)), "\(table ?? "")")
        let matrix = try Self.json(names[1])
        let row = Self.first(matrix["rows"])
        #expect(row?["severity"]?.stringValue == "critical" && Self.isTruncation(row?["id"]?.stringValue))
        #expect(row?["results"]?["naive"]?["outcome"]?.stringValue == "critical")
        let naive = matrix["implementations"]?.arrayValue?.first { $0["name"]?.stringValue == "naive" }
        #expect((naive?["summary"]?["app-attest-attestation"]?["critical"]?.int64Value ?? 0) >= 6)
        let html = try String(contentsOf: names[2], encoding: .utf8)
        #expect(html.contains("<th>critical</th>"))
        let details = html.components(separatedBy: "<details><summary>").dropFirst().first
        #expect(Self.isTruncation(details), "\(details?.prefix(120) ?? "")")
        let log = try Self.json(names[3])
        let run = log["runs"]?.arrayValue?.first { $0["tool"]?["driver"]?["properties"]?["implementation"]?.stringValue == "naive" }
        let first = Self.first(run?["results"])
        #expect(first?["properties"]?["severity"]?.stringValue == "critical")
    }
}
