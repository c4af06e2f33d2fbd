import SwiftASN1
import AppAttest
import ConformanceKit
import VectorContract
import Crypto
import Foundation
import PropertyBased
import Testing
import TestSupport
import X509
import TrustSuiteSupport

/// Any single-byte change to a valid assertion or attestation is rejected;
/// verification never traps on mutated input.
@Suite struct AppAttestPropertyTests {
    static func vector(_ family: Family, _ id: String) -> Vector? {
        FixtureVectors.cases(family).map(\.vector).first { $0.id == id }
    }

    static func bytes(_ v: Vector, _ key: String) -> [UInt8] {
        v.input[key]?.stringValue.flatMap(BinaryText.base64) ?? []
    }

    struct AttestationInput: Sendable {
        let object: [UInt8]
        let keyId: [UInt8]
        let clientDataHash: [UInt8]
        let appId: String
        let time: Date
        let anchors: [Certificate]
        /// Where the receipt sits in the object: opaque to attestation
        /// verification (no step covers it), so changes there are not mutations
        /// of what is verified.
        let receiptRange: Range<Int>
    }

    static let attestation: AttestationInput? = {
        guard let v = vector(.appAttestAttestation, "attestation-baseline::production") else { return nil }
        let object = bytes(v, "attestationObject")
        let anchors = (v.input["trustAnchorsPem"]?.arrayValue ?? []).compactMap { $0.stringValue.flatMap(PEM.certificates(in:)) }
            .flatMap { $0 }.compactMap { try? Certificate(derEncoded: $0) }
        guard let parsed = try? AttestationObject(bytes: object),
            let start = object.firstRange(of: parsed.receipt)?.lowerBound
        else { return nil }
        return AttestationInput(
            object: object, keyId: bytes(v, "keyId"), clientDataHash: bytes(v, "clientDataHash"),
            appId: v.input["appId"]?.stringValue ?? "",
            time: RFC3339.parse(v.input["validationTime"]?.stringValue ?? "") ?? Date(),
            anchors: anchors, receiptRange: start..<(start + parsed.receipt.count))
    }()

    /// Verifies; a thrown error of any type is kept (a foreign one is a bug the tests must see).
    static func verify(_ a: AttestationInput, _ object: [UInt8]) async -> Result<VerifiedAttestation, any Error> {
        do {
            let verifier = try AttestationVerifier(appId: a.appId, environment: .production, trustAnchors: a.anchors)
            return .success(
                try await verifier.verify(
                    attestationObject: object, keyId: a.keyId,
                    clientDataHash: a.clientDataHash, at: a.time))
        } catch {
            return .failure(error)
        }
    }

    /// The code of a rejection, or nil when the error is not the module's.
    static func code(_ error: any Error) -> AppAttestError.Code? { (error as? AppAttestError)?.code }

    /// spec/vectors.md's attestation and assertion vocabularies.
    static let attestationCodes: Set<AppAttestError.Code> = [
        .malformedAttestationObject, .unsupportedFormat, .missingCertificates, .certificateChainInvalid, .nonceExtensionMissing,
        .nonceMismatch, .keyIdMismatch, .rpIdMismatch, .counterNotZero, .aaguidMismatch, .credentialIdMismatch,
        .malformedAuthenticatorData, .malformedCredentialPublicKey,
    ]
    static let assertionCodes: Set<AppAttestError.Code> = [
        .malformedAssertion, .signatureInvalid, .rpIdMismatch, .counterNotIncreasing, .malformedAuthenticatorData,
    ]

    @Test func attestationBaselineVerifies() async throws {
        let a = try #require(Self.attestation)
        if case .failure(let error) = await Self.verify(a, a.object) { Issue.record("baseline rejected: \(error)") }
    }

    @Test func anySingleByteChangeToAnAttestationIsRejected() async throws {
        let a = try #require(Self.attestation)
        let positions = Gen.int(in: 0...(a.object.count - 1)).filter { !a.receiptRange.contains($0) }
        let pace = Pace()
        await propertyCheck(count: 1000, input: positions, Gen.uint8(in: 1...255)) { position, xor in
            await pace.step()
            var mutated = a.object
            mutated[position] ^= xor
            if case .success = await Self.verify(a, mutated) {
                Issue.record("byte \(position) ^ \(xor) accepted")
            }
        }
    }

    struct AssertionInput: Sendable {
        let assertion: [UInt8]
        let clientData: [UInt8]
        let publicKey: P256.Signing.PublicKey
        let appId: String
        let previous: UInt32
    }

    static let assertion: AssertionInput? = {
        guard let v = vector(.appAttestAssertion, "assertion-baseline::first"),
            let key = ES256.publicKey(bytes(v, "publicKey"))
        else { return nil }
        return AssertionInput(
            assertion: bytes(v, "assertion"), clientData: bytes(v, "clientData"), publicKey: key,
            appId: v.input["appId"]?.stringValue ?? "", previous: UInt32(v.input["previousCounter"]?.int64Value ?? 0))
    }()

    static func verify(_ a: AssertionInput, _ bytes: [UInt8], clientData: [UInt8]? = nil) -> Bool {
        (try? AssertionVerifier(appId: a.appId).verify(
            assertion: bytes, clientData: clientData ?? a.clientData,
            publicKey: a.publicKey, previousCounter: a.previous)) != nil
    }

    @Test func anySingleByteChangeToAnAssertionIsRejected() async throws {
        let a = try #require(Self.assertion)
        #expect(Self.verify(a, a.assertion))
        // Every position, every bit: small enough to enumerate, then random xors.
        for position in a.assertion.indices {
            for bit in 0..<8 {
                var mutated = a.assertion
                mutated[position] ^= 1 << bit
                #expect(!Self.verify(a, mutated), "byte \(position) bit \(bit) accepted")
            }
        }
        let pace = Pace()
        await propertyCheck(count: 1000, input: Gen.int(in: 0...(a.assertion.count - 1)), Gen.uint8(in: 1...255)) { position, xor in
            await pace.step()
            var mutated = a.assertion
            mutated[position] ^= xor
            #expect(!Self.verify(a, mutated))
        }
        await propertyCheck(count: 200, input: Gen.int(in: 0...(a.clientData.count - 1)), Gen.uint8(in: 1...255)) { position, xor in
            await pace.step()
            var clientData = a.clientData
            clientData[position] ^= xor
            #expect(!Self.verify(a, a.assertion, clientData: clientData))
        }
    }

    /// Truncations, insertions and random bytes never trap any parser or
    /// verifier; every rejection carries one of the module's codes.
    @Test func mutatedInputNeverTraps() async throws {
        let a = try #require(Self.attestation)
        let s = try #require(Self.assertion)
        let receipt = try AttestationObject(bytes: a.object).receipt
        let inputs = Gen.uint8().array(of: 0...64)
        let pace = Pace()
        await propertyCheck(count: 1000, input: inputs, Gen.int(in: 0...10_000)) { noise, cut in
            await pace.step()
            // Anything but the untouched object is a truncation or has trailing bytes: rejected.
            let objectKeep = cut % (a.object.count + 1)
            switch await Self.verify(a, Array(a.object.prefix(objectKeep)) + noise) {
            case .success: #expect(objectKeep == a.object.count && noise.isEmpty)
            case .failure(let error):
                // Noise can refill a cut authData, so any attestation step may be the one that refuses.
                #expect(Self.code(error).map(Self.attestationCodes.contains) == true, "\(error)")
            }
            let assertionKeep = cut % (s.assertion.count + 1)
            do {
                _ = try AssertionVerifier(appId: s.appId).verify(
                    assertion: Array(s.assertion.prefix(assertionKeep)) + noise,
                    clientData: s.clientData, publicKey: s.publicKey,
                    previousCounter: s.previous)
                #expect(assertionKeep == s.assertion.count && noise.isEmpty)
            } catch {
                #expect(Self.code(error).map(Self.assertionCodes.contains) == true, "\(error)")
            }
            for bytes in [Array(receipt.prefix(cut % (receipt.count + 1))) + noise, noise] {
                do {
                    _ = try Receipt(bytes: bytes)
                } catch {
                    #expect(Self.code(error) == .malformedReceipt, "\(error)")
                }
            }
            do {
                _ = try AuthenticatorData(bytes: noise)
            } catch {
                #expect(Self.code(error) == .malformedAuthenticatorData, "\(error)")
            }
        }
    }
}
