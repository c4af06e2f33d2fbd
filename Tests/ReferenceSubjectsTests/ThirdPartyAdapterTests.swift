import ConformanceKit
import Foundation
import Testing
import TestSupport

/// The five real adapters of Adapters/ (installed by .ci/run into a virtual
/// environment) run against every vector: each run completes with a
/// well-formed report, and no adapter process is left behind. A third
/// party's wrong answers are findings, not test failures.
@Suite(.enabled(if: Locations.adapterPython != nil, Comment(rawValue: Locations.adapterPythonMissingReason)))
struct ThirdPartyAdapterTests {
    /// Adapter folder → the families it claims.
    static let adapters: [String: Set<Family>] = [
        "pyattest": [.appAttestAttestation, .appAttestAssertion],
        "cbor2": [.cbor], "cbor": [.cbor], "fido2": [.cbor], "cbor-diag": [.cbor],
    ]

    static let vectors: [Vector] = Family.allCases.flatMap { FixtureVectors.cases($0).map(\.vector) }

    @Test(arguments: adapters.keys.sorted())
    func runsToCompletion(_ folder: String) async throws {
        let python = try #require(Locations.adapterPython)
        let script = Locations.packageRoot.appendingPathComponent("Adapters/\(folder)/adapter.py").path
        let marker = "trustsuite-adapter-test-\(UUID().uuidString)"
        // The marker (an argument the adapter ignores) finds its processes.
        let subject = try await AdapterSubject.launch(command: "exec '\(python)' '\(script)' \(marker)", timeout: .seconds(10))
        #expect(subject.adapterName == folder)
        #expect(subject.families == Self.adapters[folder])
        let report = await Runner(subject: subject).run(Self.vectors)
        await subject.stop()
        #expect(Processes.mentioning(marker) == [])

        #expect(report.cases.count == Self.vectors.count)
        #expect(report.cases.map(\.vector.id) == Self.vectors.map(\.id))
        #expect(report.graded > 0, "\(folder) graded nothing")
        // Every vector of a family it does not claim is unsupported, and a
        // claimed family gets verdicts.
        for result in report.cases where !subject.families.contains(result.vector.family) {
            #expect(result.grade == .unsupported)
        }
        let json = try JSONDecoder().decode(JSONValue.self, from: Data(Reports.json(report).utf8))
        #expect(json["summary"]?["total"]?.int64Value == Int64(Self.vectors.count))
        #expect(json["cases"]?.arrayValue?.count == Self.vectors.count)
        let xml = Reports.junit(report)
        #expect(xml.components(separatedBy: "<testcase ").count - 1 == Self.vectors.count)
        #expect(Reports.scorecard(report).contains("accInv"))
    }
}
