import AdapterHost
import AppAttest
import AppAttestGenerator
import ConformanceKit
import VectorContract
import TrustSuiteSupport
import Crypto
import Foundation
@testable import FuzzTargets
import OpenSSLOracle
import Testing
import TestSupport
import TestPKI

/// The differential harnesses, the known-disagreements file they read, the
/// structure-aware mutator and the protocol harnesses.
@Suite struct DifferentialHarnessTests {
    @Test func knownDisagreementsFileMatchesTheCode() throws {
        let url = Locations.fuzz.appendingPathComponent(KnownDisagreements.fileName)
        let entries = try JSONDecoder().decode([KnownDisagreements.Entry].self, from: Data(contentsOf: url))
        #expect(KnownDisagreements.entries == entries, "the oracle reads another file than Fuzz/\(KnownDisagreements.fileName)")
        #expect(Set(entries.map(\.id)) == Set(Disagreement.allCases.map(\.rawValue)), "every class in code is listed, and only those")
        let harnesses = Set(Harness.allCases.map(\.rawValue))
        for entry in entries {
            #expect(entry.reason.count > 40, "\(entry.id) needs its reason")
            #expect(!entry.harnesses.isEmpty && entry.harnesses.allSatisfy(harnesses.contains), "\(entry.id): \(entry.harnesses)")
        }
    }

    /// A certificate of the fixed world issued to expire exactly at the validation time.
    static func leaf(notAfter: Date) throws -> [UInt8] {
        let ca = try #require(FuzzWorld.ca)
        let key = try #require(FuzzWorld.credentialKey)
        return try ca.credentialCertificate(
            authData: [1, 2, 3], clientDataHash: FuzzWorld.clientDataHash, key: key.publicKey,
            notBefore: FuzzWorld.now.addingTimeInterval(-86_400), notAfter: notAfter)
    }

    /// The notAfter instant is a real disagreement (RFC 5280 and the
    /// reference accept it, OpenSSL does not), excused only because it is
    /// listed; a second later both accept.
    @Test func notAfterInstantIsRealAndOnlyExcusedWhenListed() async throws {
        let instantLeaf = try Self.leaf(notAfter: FuzzWorld.now)
        let atTheInstant = try #require(await FuzzTargets.x509Verdicts(instantLeaf))
        #expect(atTheInstant.reference && !atTheInstant.openssl)
        #expect(atTheInstant.classes == [.notAfterInstant])
        #expect(await FuzzTargets.x509Differential(instantLeaf).isEmpty)
        #expect(!KnownDisagreements.excuses(atTheInstant.classes, harness: Harness.x509Differential.rawValue, entries: []))
        let laterLeaf = try Self.leaf(notAfter: FuzzWorld.now.addingTimeInterval(1))
        let later = try #require(await FuzzTargets.x509Verdicts(laterLeaf))
        #expect(later.reference && later.openssl && later.classes.isEmpty)
        let expiredLeaf = try Self.leaf(notAfter: FuzzWorld.now.addingTimeInterval(-1))
        let expired = try #require(await FuzzTargets.x509Verdicts(expiredLeaf))
        #expect(!expired.reference && !expired.openssl)
    }

    /// Re-signing keeps the TBS bytes: a leaf re-signed from a seed
    /// verifies on both sides, and one changed byte of its name, re-signed,
    /// is refused by both (no issuer) rather than by the signature check.
    @Test func resigningReachesTheFields() async throws {
        let seed = try Self.leaf(notAfter: FuzzWorld.now.addingTimeInterval(86_400))
        let both = try #require(await FuzzTargets.x509Verdicts(seed))
        #expect(both.reference && both.openssl)
        let parts = try #require(DERSlices.elements(ofSequence: seed))
        #expect(parts.count == 3)
        let ca = try #require(FuzzWorld.ca)
        let again = try #require(DERSlices.resign(seed) { tbs, sha384 in try? ca.signAsAttestationIntermediate(tbs, sha384: sha384) })
        #expect(Array(try #require(DERSlices.elements(ofSequence: again)).prefix(2).joined()) == Array(parts.prefix(2).joined()))
    }

    @Test func receiptsOfTheFixedWorldVerifyOnBothSides() async throws {
        let ca = try #require(FuzzWorld.ca)
        let key = try #require(FuzzWorld.credentialKey)
        let made = try ca.attest(
            SoftwareCA.AttestationRequest(
                credentialKey: key, appId: FuzzWorld.appId, environment: FuzzWorld.environment, clientDataHash: FuzzWorld.clientDataHash,
                notBefore: FuzzWorld.now.addingTimeInterval(-2 * 86_400), notAfter: FuzzWorld.now.addingTimeInterval(86_400),
                token: [UInt8](repeating: 1, count: 16)))
        let verdicts = try #require(await FuzzTargets.receiptVerdicts(made.receipt))
        #expect(verdicts.reference && verdicts.openssl)
        #expect(await FuzzTargets.receiptVerify(made.receipt).isEmpty)
        var flipped = made.receipt
        flipped[flipped.count / 2] ^= 0x40
        let refused = try #require(await FuzzTargets.receiptVerdicts(flipped))
        #expect(!refused.openssl)
    }

    /// Seeds from receipt.json tcId 30 and 32 (a signer whose key usage
    /// only allows certificate signing): OpenSSL refuses at CMS_verify, the
    /// reference's stage accepts and its full verification refuses.
    @Test func signerKeyUsageIsARealDisagreement() async throws {
        var witnesses = 0
        for url in Locations.files(in: Locations.fuzz.appendingPathComponent("Corpus/FuzzReceiptVerify")) {
            let bytes = try [UInt8](Data(contentsOf: url))
            guard let verdicts = await FuzzTargets.receiptVerdicts(bytes), verdicts.classes.contains(.signerKeyUsage) else { continue }
            #expect(verdicts.reference && !verdicts.openssl, "\(url.lastPathComponent)")
            witnesses += 1
        }
        #expect(witnesses >= 2)
    }

    @Test func p256DifferentialAgreesOnValidAndChangedSignatures() throws {
        let key = P256.Signing.PrivateKey()
        let message = Array("trustsuite".utf8)
        let signature = Array(try key.signature(for: message).derRepresentation)
        let input = Array(key.publicKey.x963Representation) + [UInt8(signature.count)] + signature + message
        #expect(OpenSSLOracleCheck.bothVerify(input))
        #expect(FuzzTargets.p256Differential(input).isEmpty)
        var changed = input
        changed[changed.count - 1] ^= 1
        #expect(!OpenSSLOracleCheck.bothVerify(changed))
        #expect(FuzzTargets.p256Differential(changed).isEmpty)
    }

    @Test func nonceExtensionAcceptsExactlyTheDEROfANonce() {
        let nonce = (0..<32).map { UInt8($0) }
        let exact = FuzzTargets.nonceExtensionPrefix + nonce
        #expect((try? NonceExtension.nonce(fromExtensionValue: exact)) == nonce)
        #expect(FuzzTargets.nonceExtension(exact).isEmpty)
        for index in exact.indices.prefix(8) {
            var changed = exact
            changed[index] ^= 0x01
            #expect(FuzzTargets.nonceExtension(changed).isEmpty, "byte \(index)")
        }
        #expect(FuzzTargets.nonceExtension(Array(exact.dropLast())).isEmpty)
    }

    @Test func adapterRepliesAreReadAsTheProtocolSays() {
        func read(_ line: String) -> AdapterReply { AdapterReply.read(line, id: 3, firstIdOfProcess: 2) }
        #expect(read(#"{"id":"3","result":"invalid","error":"x"}"#) == .answer(SubjectAnswer(.invalid, error: "x")))
        #expect(read(#"{"id":"2","result":"valid"}"#) == .late(2))
        #expect(read(#"{"id":"3","result":"maybe"}"#) == .badVerdict)
        guard case .untrusted = read(#"{"id":"4","result":"valid"}"#) else { Issue.record("a reply for 4 was trusted"); return }
        guard case .untrusted = read("[1]") else { Issue.record("a JSON array was trusted"); return }
        // Chunking: the same events however the output arrives.
        #expect(
            FuzzTargets.adapterReply([3] + Array("{\"id\":\"3\",\"result\":\"valid\"}\n".utf8) + [UInt8](repeating: 0x41, count: 100))
                .isEmpty)
    }
}

/// Both verifiers' verdicts on a P-256 differential input.
enum OpenSSLOracleCheck {
    static func bothVerify(_ input: [UInt8]) -> Bool {
        let key = Array(input[0..<65])
        let end = 66 + Int(input[65])
        let signature = Array(input[66..<end])
        let message = Array(input[end...])
        let swift = ES256.publicKey(key).map { ES256.verify(derSignature: signature, message: message, publicKey: $0) } ?? false
        return swift && OpenSSLOracle.verifyECDSAP256(publicKey: key, message: message, derSignature: signature)
    }
}
