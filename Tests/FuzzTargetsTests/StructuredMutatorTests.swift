import AppAttest
import Foundation
@testable import FuzzTargets
import StrictCBOR
import Testing

/// The structure-aware mutator keeps attestation objects readable, changes
/// the field it picks, reaches the checks after the nonce when it re-signs,
/// and never traps on any input.
@Suite struct StructuredMutatorTests {
    @Test func mutationsOfTheBaselineStayAttestationObjects() throws {
        let baseline = StructuredAttestation.baseline
        try #require(!baseline.isEmpty, "the test CA could not attest the baseline")
        var parsed = 0
        var canonical = 0
        var changed = 0
        for seed in UInt32(0)..<300 {
            let output = StructuredAttestation.mutate(baseline, maxSize: 16_384, seed: seed)
            #expect(output.count <= 16_384)
            if (try? AttestationObject(bytes: output)) != nil { parsed += 1 }
            if (try? CBORDecoder(mode: .ctap2).decode(output)) != nil { canonical += 1 }
            if output != baseline { changed += 1 }
        }
        // Every output is canonical CBOR; about half still parse as an
        // attestation object (the format, key and length mutations are
        // meant to break the shape; the verifier refuses those early).
        #expect(canonical >= 290, "\(canonical) of 300 mutations are canonical CBOR")
        #expect(parsed >= 120, "\(parsed) of 300 mutations still parse")
        #expect(changed >= 270, "\(changed) of 300 mutations changed the input")
    }

    @Test(arguments: StructuredAttestation.Field.allCases)
    func eachFieldChangesTheObject(_ field: StructuredAttestation.Field) throws {
        let decoded = try CBORDecoder(mode: .wellFormed).decode(StructuredAttestation.baseline)
        let top = try #require(try CBORValue(decoded).mapEntries)
        var differs = 0
        for seed in UInt64(0)..<40 {
            var random = StructuredAttestation.Random(state: seed)
            var copy = top
            StructuredAttestation.mutate(field, in: &copy, random: &random)
            if CBOREncoder.canonical(.map(copy, indefinite: false)) != StructuredAttestation.baseline { differs += 1 }
        }
        #expect(differs >= 20, "\(field): \(differs) of 40 changed the object")
    }

    /// A counter change is re-signed now and then: the verifier then gets
    /// past the nonce to step 7 and answers counterNotZero.
    @Test func resignedMutationsReachTheChecksAfterTheNonce() async throws {
        let decoded = try CBORDecoder(mode: .wellFormed).decode(StructuredAttestation.baseline)
        let top = try #require(try CBORValue(decoded).mapEntries)
        let verifier = try AttestationVerifier(
            appId: FuzzWorld.appId, environment: FuzzWorld.environment,
            trustAnchors: [try #require(FuzzWorld.root)])
        var codes: Set<AppAttestError.Code> = []
        for seed in UInt64(0)..<24 {
            var random = StructuredAttestation.Random(state: seed)
            var copy = top
            StructuredAttestation.mutate(.counter, in: &copy, random: &random)
            let object = CBOREncoder.canonical(.map(copy, indefinite: false))
            let keyId = (try? AttestationObject(bytes: object))?.authenticatorData.credential?.credentialId ?? []
            do {
                _ = try await verifier.verify(
                    attestationObject: object, keyId: keyId, clientDataHash: FuzzWorld.clientDataHash,
                    at: FuzzWorld.now)
            } catch {
                codes.insert(error.code)
            }
        }
        #expect(codes.contains(.counterNotZero), "codes seen: \(codes)")
        #expect(codes.contains(.nonceMismatch), "codes seen: \(codes)")
    }

    @Test func arbitraryInputsNeverTrap() {
        var random = StructuredAttestation.Random(state: 42)
        for seed in UInt32(0)..<300 {
            let input = (0..<random.below(200)).map { _ in random.byte() }
            let maxSize = 1 + random.below(400)
            #expect(StructuredAttestation.mutate(input, maxSize: maxSize, seed: seed).count <= maxSize)
        }
    }
}
