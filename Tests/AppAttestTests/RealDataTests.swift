import SwiftASN1
import StrictCBOR
import AppAttest
import Crypto
import Foundation
import OpenSSLOracle
import Testing
import TestSupport
import X509

/// Real attestations, assertions and receipts verify as the external data's
/// README says; each real attestation is rejected with the right code when
/// one input changes; OpenSSL agrees on every chain and receipt.
@Suite(.enabled(if: Locations.externalAvailable, Comment(rawValue: Locations.externalMissingReason)))
struct RealDataTests {
    @Test func counts() {
        #expect(RealData.attestations.count == 9)
        #expect(RealData.assertions.count == 7)
        #expect(RealData.receipts.count == 20)
    }

    func verify(
        _ a: RealData.Attestation, appId: String? = nil, environment: AppAttestEnvironment? = nil,
        keyId: [UInt8]? = nil, clientDataHash: [UInt8]? = nil, time: Date? = nil
    ) async throws -> VerifiedAttestation {
        let verifier = try AttestationVerifier(appId: appId ?? a.appId, environment: environment ?? a.environment)
        return try await verifier.verify(
            attestationObject: a.object, keyId: keyId ?? a.keyId,
            clientDataHash: clientDataHash ?? a.clientDataHash, at: time ?? a.time)
    }

    func code(_ body: () async throws -> Void) async -> AppAttestError.Code? {
        await appAttestErrorCode(body)
    }

    @Test(arguments: RealData.attestations)
    func attestationVerifies(_ a: RealData.Attestation) async throws {
        let verified = try await verify(a)
        #expect(verified.counter == 0)
        if let spki = a.publicKeySPKI, !spki.isEmpty {
            let key = try P256.Signing.PublicKey(derRepresentation: spki)
            #expect(verified.publicKey == Array(key.x963Representation))
        }
        #expect(Array(SHA256.hash(data: verified.publicKey)) == a.keyId)
        #expect(verified.receiptStatus == .verified, "receipt: \(verified.receiptStatus)")
        if a.name.contains("2026") {
            #expect(verified.authenticatorData.extensions?["apple_bundle_version_01"]?.textValue == "1")
        }
    }

    @Test(arguments: RealData.attestations)
    func attestationMutationsAreRejected(_ a: RealData.Attestation) async throws {
        let other: AppAttestEnvironment = a.environment == .production ? .development : .production
        #expect(await code { _ = try await verify(a, environment: other) } == .aaguidMismatch)
        #expect(await code { _ = try await verify(a, appId: a.appId + "x") } == .rpIdMismatch)
        var keyId = a.keyId
        keyId[0] ^= 1
        #expect(await code { _ = try await verify(a, keyId: keyId) } == .keyIdMismatch)
        #expect(await code { _ = try await verify(a, clientDataHash: Array(SHA256.hash(data: a.clientDataHash))) } == .nonceMismatch)
        let leaf = try Certificate(derEncoded: try AttestationObject(bytes: a.object).certificates[0])
        let afterExpiry = leaf.notValidAfter.addingTimeInterval(1)
        #expect(await code { _ = try await verify(a, time: afterExpiry) } == .certificateChainInvalid)
        let beforeStart = leaf.notValidBefore.addingTimeInterval(-1)
        #expect(await code { _ = try await verify(a, time: beforeStart) } == .certificateChainInvalid)
    }

    /// Any certificate of the store is an anchor: Apple's intermediate beside
    /// the root, or alone, validates the same attestations.
    @Test(arguments: RealData.attestations)
    func intermediateInTheStoreIsAnAnchor(_ a: RealData.Attestation) async throws {
        let object = try AttestationObject(bytes: a.object)
        let intermediate = try Certificate(derEncoded: object.certificates[1])
        for anchors in [[try AppleRoots.appAttestationRoot, intermediate], [intermediate]] {
            let verifier = try AttestationVerifier(appId: a.appId, environment: a.environment, trustAnchors: anchors)
            let verified = try await verifier.verify(
                attestationObject: a.object, keyId: a.keyId, clientDataHash: a.clientDataHash, at: a.time)
            #expect(verified.counter == 0)
        }
    }

    /// `requireReceipt` turns the reported receipt status into the verdict.
    @Test(arguments: RealData.attestations)
    func requiredReceipt(_ a: RealData.Attestation) async throws {
        let required = try AttestationVerifier(appId: a.appId, environment: a.environment, requireReceipt: true)
        let verified = try await required.verify(attestationObject: a.object, keyId: a.keyId, clientDataHash: a.clientDataHash, at: a.time)
        #expect(verified.receiptStatus == .verified)
        // A receipt made more than the clock skew after the validation time is refused:
        // with no skew, every real one (created after the server's recorded time).
        let object = try AttestationObject(bytes: a.object)
        let created = try #require(try AppAttest.Receipt(bytes: object.receipt).creationTime)
        let noSkew = try AttestationVerifier(appId: a.appId, environment: a.environment, requireReceipt: true, receiptClockSkew: 0)
        let justBefore = Date(timeIntervalSince1970: created.timeIntervalSince1970.rounded(.down) - 1)
        #expect(
            await code {
                _ = try await noSkew.verify(attestationObject: a.object, keyId: a.keyId, clientDataHash: a.clientDataHash, at: justBefore)
            }
                == .receiptNotYetValid)
        // An hour before the receipt was made the chain is valid (notBefore is 24 h earlier) but the receipt is not yet.
        let early = created.addingTimeInterval(-3600)
        #expect(
            await code {
                _ = try await required.verify(attestationObject: a.object, keyId: a.keyId, clientDataHash: a.clientDataHash, at: early)
            }
                == .receiptNotYetValid)
        let reported = try await verify(a, time: early)
        #expect(reported.receiptStatus == .failed(AppAttestError(.receiptNotYetValid, "")))
        // The receipt anchored elsewhere: reported, and fatal only when required.
        let otherAnchor = try AttestationVerifier(
            appId: a.appId, environment: a.environment,
            receiptAnchors: [try AppleRoots.appAttestationRoot])
        let other = try await otherAnchor.verify(attestationObject: a.object, keyId: a.keyId, clientDataHash: a.clientDataHash, at: a.time)
        #expect(other.receiptStatus.description == "receiptChainInvalid")
    }

    @Test(arguments: RealData.attestations)
    func openSSLAgreesOnTheChain(_ a: RealData.Attestation) throws {
        let object = try AttestationObject(bytes: a.object)
        let anchors = [AppleRoots.appAttestationRootDER]
        let time = Int64(a.time.timeIntervalSince1970)
        #expect(
            OpenSSLOracle.verifyChain(leaf: object.certificates[0], intermediates: [object.certificates[1]], anchors: anchors, at: time))
        let leaf = try Certificate(derEncoded: object.certificates[0])
        let late = Int64(leaf.notValidAfter.timeIntervalSince1970) + 1
        #expect(
            !OpenSSLOracle.verifyChain(leaf: object.certificates[0], intermediates: [object.certificates[1]], anchors: anchors, at: late))
    }

    @Test(arguments: RealData.assertions)
    func assertionVerifies(_ a: RealData.Assertion) throws {
        let key = try P256.Signing.PublicKey(derRepresentation: a.publicKeySPKI)
        let verifier = AssertionVerifier(appId: a.appId)
        let verified = try verifier.verify(
            assertion: a.assertion, clientData: a.clientData, publicKey: key,
            previousCounter: a.counter - 1)
        #expect(verified.counter == a.counter)
        #expect(verified.authenticatorData.bytes.count == 37)
        #expect(throws: AppAttestError(.counterNotIncreasing, "")) {
            try verifier.verify(assertion: a.assertion, clientData: a.clientData, publicKey: key, previousCounter: a.counter)
        }
        #expect(throws: AppAttestError(.signatureInvalid, "")) {
            try verifier.verify(assertion: a.assertion, clientData: a.clientData + [0], publicKey: key, previousCounter: 0)
        }
        #expect(throws: AppAttestError(.rpIdMismatch, "")) {
            try AssertionVerifier(appId: a.appId + "x").verify(
                assertion: a.assertion, clientData: a.clientData,
                publicKey: key, previousCounter: 0)
        }
        #expect(throws: AppAttestError(.challengeMismatch, "")) {
            try AssertionVerifier(appId: a.appId) { _ in false }.verify(
                assertion: a.assertion, clientData: a.clientData, publicKey: key, previousCounter: 0)
        }
    }

    /// Every real receipt verifies at the time its document recorded, fresh
    /// (`maxAge` 300 s), though each was created after that time and each
    /// RECEIPT's field 19 lies a day ahead (spec/app-attest.md, round 3).
    @Test(arguments: RealData.receipts)
    func receiptVerifies(_ r: RealData.Receipt) async throws {
        let verified = try await ReceiptVerifier().verify(
            receipt: r.receipt, at: r.time, appId: r.appId, publicKey: r.publicKeySPKI,
            maxAge: 300)
        let receipt = verified.receipt
        #expect(receipt.kind?.rawValue == r.kind)
        let created = try #require(receipt.creationTime)
        let expected = try #require(r.creationTime)
        #expect(abs(created.timeIntervalSince(expected)) < 0.001)
        #expect(receipt.riskMetric == r.riskMetric)
        #expect(receipt.environment == r.environment)
        #expect(receipt.appId == r.appId)
    }

    @Test(arguments: RealData.receipts)
    func receiptRejections(_ r: RealData.Receipt) async throws {
        let verifier = try ReceiptVerifier()
        #expect(await code { _ = try await verifier.verify(receipt: r.receipt, at: r.time, appId: r.appId + "x") } == .receiptAppIdMismatch)
        let otherKey = P256.Signing.PrivateKey().publicKey.x963Representation
        #expect(
            await code { _ = try await verifier.verify(receipt: r.receipt, at: r.time, publicKey: Array(otherKey)) } == .receiptKeyMismatch)
        let parsed = try AppAttest.Receipt(bytes: r.receipt)
        let created = try #require(parsed.creationTime)
        // The clock skew (60 s by default) on the creation time, at whole seconds.
        let createdSecond = created.timeIntervalSince1970.rounded(.down)
        let skewEdge = Date(timeIntervalSince1970: createdSecond - ReceiptVerifier.defaultClockSkew)
        #expect(await code { _ = try await verifier.verify(receipt: r.receipt, at: skewEdge) } == nil)
        #expect(
            await code { _ = try await verifier.verify(receipt: r.receipt, at: skewEdge.addingTimeInterval(-1)) } == .receiptNotYetValid)
        let strict = try ReceiptVerifier(clockSkew: 0)
        #expect(
            await code { _ = try await strict.verify(receipt: r.receipt, at: Date(timeIntervalSince1970: createdSecond - 1)) }
                == .receiptNotYetValid)
        // Field 19 never decides: a refreshed receipt verifies before its earliest refresh time.
        if let refresh = parsed.earliestRefreshTime {
            #expect(refresh > created)
            #expect(await code { _ = try await verifier.verify(receipt: r.receipt, at: r.time) } == nil)
        }
        if let expiry = parsed.expirationTime {
            #expect(await code { _ = try await verifier.verify(receipt: r.receipt, at: expiry.addingTimeInterval(1)) } == .receiptExpired)
        }
        #expect(
            await code { _ = try await verifier.verify(receipt: r.receipt, at: r.time, type: .attest) }
                == (parsed.kind == .attest ? nil : .receiptTypeMismatch))
        let later = r.time.addingTimeInterval(600)
        let age = later.timeIntervalSince(created)
        #expect(await code { _ = try await verifier.verify(receipt: r.receipt, at: later, maxAge: age - 1) } == .receiptTooOld)
        #expect(await code { _ = try await verifier.verify(receipt: r.receipt, at: later, maxAge: age + 1) } == nil)
    }

    /// The pin of Apple's receipt-signing intermediate is the key every real
    /// receipt's intermediate holds.
    @Test(arguments: RealData.receipts)
    func receiptIntermediateMatchesThePin(_ r: RealData.Receipt) throws {
        let certificates = try Receipt(bytes: r.receipt).certificates.map { try Certificate(derEncoded: $0) }
        let intermediates = certificates.filter { CertificatePath.isCertificateAuthority($0) && $0.subject != $0.issuer }
        #expect(intermediates.count == 1)
        for intermediate in intermediates {
            #expect(CertificatePath.keyPin(intermediate) == ReceiptVerifier.appleReceiptIntermediateKeyPin)
        }
    }

    @Test(arguments: RealData.receipts)
    func openSSLAgreesOnTheReceipt(_ r: RealData.Receipt) throws {
        let content = OpenSSLOracle.verifyCMS(r.receipt, anchors: [AppleRoots.rootCAG3DER], at: Int64(r.time.timeIntervalSince1970))
        let parsed = try Receipt(bytes: r.receipt)
        #expect(content == parsed.payload)
        var tampered = r.receipt
        tampered[tampered.count / 2] ^= 0x01
        #expect(OpenSSLOracle.verifyCMS(tampered, anchors: [AppleRoots.rootCAG3DER], at: Int64(r.time.timeIntervalSince1970)) == nil)
    }
}
