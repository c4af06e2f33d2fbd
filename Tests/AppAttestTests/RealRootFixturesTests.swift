import AppAttestGenerator
import ConformanceKit
import VectorContract
import Foundation
import Testing
import TestSupport
import TrustSuiteSupport

/// `Fixtures/real/` (spec/vectors.md, "App Attest vectors any verifier can
/// run (round 3)"): what `trustsuite generate real-app-attest` writes from
/// the external real-device data, byte for byte (no signature is made), and
/// holding every datum of it.
@Suite(.enabled(if: Locations.externalAvailable, Comment(rawValue: Locations.externalMissingReason)))
struct RealRootFixturesTests {
    static var committed: URL { Locations.fixtures.appendingPathComponent("real") }

    @Test func committedFilesAreTheGeneratorsOutput() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("trustsuite-real-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let written = try RealRootVectors.generate(external: Locations.externalVectors, into: folder)
        #expect(written.map(\.0) == RealRootVectors.fileNames)
        for (name, _) in written {
            let fresh = try Data(contentsOf: folder.appendingPathComponent(name))
            let committed = try Data(contentsOf: Self.committed.appendingPathComponent(name))
            #expect(
                fresh == committed, "Fixtures/real/\(name) differs from the generator's output: run `trustsuite generate real-app-attest`")
        }
    }

    /// Every real attestation, assertion and receipt is a valid baseline,
    /// anchored at Apple's roots (no anchors in the input).
    @Test func everyRealDatumIsABaseline() throws {
        let files = try VectorLoader.load(paths: [Self.committed.path])
        func baselines(_ family: Family) -> [Vector] {
            files.filter { $0.family == family }.flatMap(\.vectors).filter { $0.id.hasSuffix("::baseline") }
        }
        let expected: [(Family, Int)] = [
            (.appAttestAttestation, RealData.attestations.count),
            (.appAttestAssertion, RealData.assertions.count), (.appAttestReceipt, RealData.receipts.count),
        ]
        for (family, count) in expected {
            let found = baselines(family)
            #expect(found.count == count && count > 0, "\(family.rawValue): \(found.count) baselines for \(count) real data")
            for vector in found {
                #expect(vector.result == .valid, "\(vector.id)")
                #expect(vector.input["trustAnchorsPem"] == nil && vector.input["receiptTrustAnchorsPem"] == nil, "\(vector.id)")
            }
        }
        let attestationObjects = Set(baselines(.appAttestAttestation).compactMap { $0.input["attestationObject"]?.stringValue })
        #expect(attestationObjects == Set(RealData.attestations.map { Data($0.object).base64EncodedString() }))
        let receipts = Set(baselines(.appAttestReceipt).compactMap { $0.input["receipt"]?.stringValue })
        #expect(receipts == Set(RealData.receipts.map { Data($0.receipt).base64EncodedString() }))
        let assertions = Set(baselines(.appAttestAssertion).compactMap { $0.input["assertion"]?.stringValue })
        #expect(assertions == Set(RealData.assertions.map { Data($0.assertion).base64EncodedString() }))
        // Each file names its sources and their licences (outside the CC0 grant).
        for file in files {
            #expect(file.source.contains("veehaitch/devicecheck-appattest") && file.source.contains("not under this project's CC0 grant"))
        }
    }
}
