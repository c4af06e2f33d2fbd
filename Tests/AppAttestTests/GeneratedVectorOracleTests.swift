import AppAttest
import ConformanceKit
import VectorContract
import Crypto
import Foundation
import OpenSSLOracle
import Testing
import TestSupport
import X509
import TrustSuiteSupport

/// The generated app-attest vectors, judged by OpenSSL where it can judge:
/// a second opinion on the generator and the reference at once.
@Suite struct GeneratedVectorOracleTests {
    static func bytes(_ v: Vector, _ key: String) -> [UInt8] {
        v.input[key]?.stringValue.flatMap(BinaryText.base64) ?? []
    }

    static func anchors(_ v: Vector) -> [[UInt8]] {
        (v.input["trustAnchorsPem"]?.arrayValue ?? []).compactMap { $0.stringValue.flatMap(PEM.certificates(in:)) }.flatMap { $0 }
    }

    static func seconds(_ v: Vector) -> Int64 {
        Int64(RFC3339.parse(v.input["validationTime"]?.stringValue ?? "")?.timeIntervalSince1970 ?? 0)
    }

    /// Receipts: OpenSSL's CMS_verify accepts every valid receipt and rejects
    /// every receipt whose signature or chain is wrong.
    @Test(
        arguments: FixtureVectors.cases(.appAttestReceipt).filter {
            $0.vector.result == .valid || ["receiptSignatureInvalid", "receiptChainInvalid"].contains($0.vector.error ?? "")
        })
    func receiptAgreesWithOpenSSL(_ c: VectorCase) {
        let v = c.vector
        let anchors = Self.anchors(v).isEmpty ? [AppleRoots.rootCAG3DER] : Self.anchors(v)
        let content = OpenSSLOracle.verifyCMS(Self.bytes(v, "receipt"), anchors: anchors, at: Self.seconds(v))
        #expect((content != nil) == (v.result == .valid))
    }

    /// The x5c of an attestation vector when it parses and holds exactly
    /// two certificates; other lengths are decided by the reference alone
    /// (the vector tests cover them).
    static func twoCertificates(_ v: Vector) -> AttestationObject? {
        guard let object = try? AttestationObject(bytes: bytes(v, "attestationObject")), object.certificates.count == 2 else { return nil }
        return object
    }

    /// Attestations with two well-formed certificates: OpenSSL validates the
    /// chain exactly when the vector is not a chain failure.
    @Test(
        arguments: FixtureVectors.cases(.appAttestAttestation).filter {
            ($0.vector.result == .valid || $0.vector.error == "certificateChainInvalid") && !$0.vector.id.contains("reordered")
                && twoCertificates($0.vector) != nil
            // acceptable vectors sit on the validity boundary, where OpenSSL and RFC 5280 differ
        })
    func attestationChainAgreesWithOpenSSL(_ c: VectorCase) throws {
        let v = c.vector
        let object = try #require(Self.twoCertificates(v))
        let anchors = Self.anchors(v).isEmpty ? [AppleRoots.appAttestationRootDER] : Self.anchors(v)
        let ok = OpenSSLOracle.verifyChain(
            leaf: object.certificates[0], intermediates: [object.certificates[1]],
            anchors: anchors, at: Self.seconds(v))
        #expect(ok == (v.result == .valid))
    }

    /// Assertions: OpenSSL verifies the signature over the nonce exactly when
    /// the vector does not expect a signature failure.
    @Test(
        arguments: FixtureVectors.cases(.appAttestAssertion).filter {
            $0.vector.result == .valid || $0.vector.error == "signatureInvalid"
        })
    func assertionSignatureAgreesWithOpenSSL(_ c: VectorCase) throws {
        let v = c.vector
        let assertion = try Assertion(bytes: Self.bytes(v, "assertion"))
        let nonce = Array(SHA256.hash(data: assertion.authenticatorData.bytes + Array(SHA256.hash(data: Self.bytes(v, "clientData")))))
        let ok = OpenSSLOracle.verifyECDSAP256(publicKey: Self.bytes(v, "publicKey"), message: nonce, derSignature: assertion.signature)
        #expect(ok == (v.result == .valid))
    }
}
