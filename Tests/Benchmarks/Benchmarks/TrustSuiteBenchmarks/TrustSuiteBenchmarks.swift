import AppAttest
import Benchmark
import ConformanceKit
import Crypto
import Foundation
import StrictCBOR

/// Inputs from the committed vectors (Fixtures/app-attest), found from this file's path.
enum Inputs {
    static let fixtures = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Fixtures/app-attest")

    static func vector(_ file: String, _ id: String) -> Vector? {
        (try? VectorLoader.loadFile(fixtures.appendingPathComponent(file).path))?.vectors.first { $0.id == id }
    }

    static func bytes(_ v: Vector?, _ key: String) -> [UInt8] {
        v?.input[key]?.stringValue.flatMap(BinaryText.base64) ?? []
    }

    static let assertion = vector("assertion.json", "assertion-baseline::first")
    static let attestation = vector("attestation.json", "attestation-baseline::production")
    static let receipt = vector("receipt.json", "receipt-baseline::attest-ber")
}

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(metrics: [.wallClock, .throughput, .mallocCountTotal, .peakMemoryResident],
                                           maxDuration: .seconds(3), maxIterations: 100_000)

    let assertionBytes = Inputs.bytes(Inputs.assertion, "assertion")
    let clientData = Inputs.bytes(Inputs.assertion, "clientData")
    let appId = Inputs.assertion?.input["appId"]?.stringValue ?? ""
    let key = ES256.publicKey(Inputs.bytes(Inputs.assertion, "publicKey"))
    let parsed = try? Assertion(bytes: assertionBytes)
    let nonce = parsed.map { Array(SHA256.hash(data: $0.authenticatorData.bytes + Array(SHA256.hash(data: clientData)))) } ?? []

    // The floor: one ECDSA P-256 verification of the same signature and nonce.
    Benchmark("ES256 verify (raw ECDSA P-256)") { benchmark in
        guard let key, let parsed else { return }
        for _ in benchmark.scaledIterations {
            blackHole(ES256.verify(derSignature: parsed.signature, message: nonce, publicKey: key))
        }
    }

    Benchmark("Assertion verify (full)") { benchmark in
        guard let key else { return }
        let verifier = AssertionVerifier(appId: appId)
        for _ in benchmark.scaledIterations {
            blackHole(try? verifier.verify(assertion: assertionBytes, clientData: clientData, publicKey: key, previousCounter: 0))
        }
    }

    let object = Inputs.bytes(Inputs.attestation, "attestationObject")
    Benchmark("CBOR decode attestation object (ctap2)") { benchmark in
        for _ in benchmark.scaledIterations { blackHole(try? CBORDecoder(mode: .ctap2).decode(object)) }
    }

    Benchmark("Attestation object parse") { benchmark in
        for _ in benchmark.scaledIterations { blackHole(try? AttestationObject(bytes: object)) }
    }

    let receipt = Inputs.bytes(Inputs.receipt, "receipt")
    Benchmark("Receipt parse (BER CMS)") { benchmark in
        for _ in benchmark.scaledIterations { blackHole(try? Receipt(bytes: receipt)) }
    }
}
