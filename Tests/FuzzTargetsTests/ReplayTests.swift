import Foundation
import FuzzTargets
import Testing
import TestSupport

/// Replays every committed fuzz finding (`Fuzz/FailCases/<harness>/`) and
/// every seed (`Fuzz/Corpus/<harness>/`) through the harness's oracle.
@Suite struct ReplayTests {
    struct Input: Sendable, CustomStringConvertible {
        let harness: String
        let kind: String
        let url: URL
        var description: String { "\(kind)/\(harness)/\(url.lastPathComponent)" }
    }

    static let harnesses: [String: @Sendable ([UInt8]) -> [String]] = [
        "FuzzCBOR": FuzzTargets.cbor,
        "FuzzAttestation": FuzzTargets.attestation,
        "FuzzAssertion": FuzzTargets.assertion,
        "FuzzReceipt": FuzzTargets.receipt,
        "FuzzACL": FuzzTargets.aclEvaluate,
    ]

    static func inputs(_ kind: String) -> [Input] {
        harnesses.keys.sorted().flatMap { harness in
            Locations.files(in: Locations.fuzz.appendingPathComponent(kind).appendingPathComponent(harness))
                .map { Input(harness: harness, kind: kind, url: $0) }
        }
    }

    @Test func corpusIsPresent() {
        for harness in Self.harnesses.keys {
            let seeds = Self.inputs("Corpus").filter { $0.harness == harness }
            #expect(seeds.count >= 20, "Fuzz/Corpus/\(harness) should hold a seed corpus")
        }
    }

    @Test(arguments: inputs("FailCases") + inputs("Corpus"))
    func replay(_ input: Input) throws {
        let bytes = [UInt8](try Data(contentsOf: input.url))
        let target = try #require(Self.harnesses[input.harness])
        for problem in target(bytes) {
            Issue.record("\(input): \(problem)")
        }
    }
}
