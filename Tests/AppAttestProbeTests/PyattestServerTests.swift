import AppAttestDevice
import AppAttestProbe
import Foundation
import Testing
import TestSupport
import TrustSuiteSupport

/// The probe against a server written on a real third-party verifier:
/// pyattest 1.0.5 behind Flask (Adapters/pyattest/server.py), started on a
/// free loopback port and stopped. Its findings are exactly those of
/// Adapters/pyattest/probe-expected.json, and each names vectors the
/// adapter matrix (Adapters/pyattest/expected.json) reports as accepted too.
@Suite struct PyattestServerTests {
    static let folder = Locations.packageRoot.appendingPathComponent("Adapters/pyattest")

    @Test(.enabled(if: Locations.adapterPython != nil, Comment(rawValue: Locations.adapterPythonMissingReason)))
    func findingsMatchTheExpectedFileAndTheMatrix() async throws {
        let python = try #require(Locations.adapterPython)
        let fixture = try ProbeFixture()
        defer { fixture.remove() }
        let root = fixture.folder.appendingPathComponent("root.pem")
        try Data(fixture.device.testRootsPEM.attestation.utf8).write(to: root)
        let server = try ListeningProcess(
            executable: URL(fileURLWithPath: python),
            arguments: [
                Self.folder.appendingPathComponent("server.py").path, "--port", "0", "--app-id", ProbeFixture.appId, "--root", root.path,
            ])
        let report: ProbeReport
        do {
            // pyattest's app answers 201 with no status field: no acceptedWhen.
            report = try await ProbeRunner(
                config: ProbeFixture.config(port: server.port, acceptedWhen: false), device: fixture.device
            ).run()
            server.stop()
        } catch {
            server.stop()
            throw error
        }
        let found = Dictionary(uniqueKeysWithValues: report.findings.map { ($0.check.id, $0.grade.rawValue) })
        let expected = try Self.json("probe-expected.json")["findings"]?.objectValue ?? [:]
        #expect(found == expected.mapValues { $0["grade"]?.stringValue ?? "" }, "\(report.scorecard())")
        #expect(report.count(.pass) == report.results.count - expected.count)
        let matrix = try Self.json("expected.json")
        for (check, entry) in expected {
            let vectors = entry["matrix"]?.arrayValue?.compactMap(\.stringValue) ?? []
            #expect(!vectors.isEmpty, "\(check) names no matrix vector")
            for id in vectors {
                #expect(
                    matrix[id]?.stringValue?.hasPrefix("accepted an invalid input") == true,
                    "\(check): \(id) is not an accepted-invalid finding of the matrix")
            }
        }
    }

    static func json(_ name: String) throws -> JSONValue {
        try JSONDecoder().decode(JSONValue.self, from: Data(contentsOf: folder.appendingPathComponent(name)))
    }
}
