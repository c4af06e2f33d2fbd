import AppAttest
import ConformanceKit
import VectorContract
import Crypto
import Foundation
import ReferenceSubjects
import SwiftASN1
import TrustSuiteSupport
import X509

/// One ECDSA verification as the verifiers must do it: a public key, a DER
/// signature and the signed bytes, hashed with the algorithm's digest.
public struct SignatureCheck: Sendable {
    enum Key: Sendable {
        case p256(P256.Signing.PublicKey)
        case p384(P384.Signing.PublicKey)
    }

    let key: Key
    let signature: [UInt8]
    let message: [UInt8]
    let sha384: Bool
    public let label: String

    /// Runs the verification; true when the signature is valid.
    public func verify() -> Bool {
        switch key {
        case .p256(let key):
            guard let signature = try? P256.Signing.ECDSASignature(derRepresentation: signature) else { return false }
            return sha384
                ? key.isValidSignature(signature, for: SHA384.hash(data: message))
                : key.isValidSignature(signature, for: SHA256.hash(data: message))
        case .p384(let key):
            guard let signature = try? P384.Signing.ECDSASignature(derRepresentation: signature) else { return false }
            return sha384
                ? key.isValidSignature(signature, for: SHA384.hash(data: message))
                : key.isValidSignature(signature, for: SHA256.hash(data: message))
        }
    }

    static func key(_ certificate: Certificate) -> Key? {
        if let key = P256.Signing.PublicKey(certificate.publicKey) { return .p256(key) }
        if let key = P384.Signing.PublicKey(certificate.publicKey) { return .p384(key) }
        return nil
    }

    /// The check of `der`'s own signature by `issuer`'s key over its tbsCertificate.
    static func certificate(_ der: [UInt8], issuer: Certificate, label: String) -> SignatureCheck? {
        guard let certificate = try? Certificate(derEncoded: der), let key = key(issuer),
            let node = try? DER.parse(der), case .constructed(let children) = node.content
        else { return nil }
        var parts = children.makeIterator()
        guard let tbs = parts.next(), parts.next() != nil, let bits = parts.next(),
            let signature = try? ASN1BitString(derEncoded: bits)
        else { return nil }
        let sha384 = certificate.signatureAlgorithm == .ecdsaWithSHA384
        return SignatureCheck(
            key: key, signature: Array(signature.bytes), message: Array(tbs.encodedBytes),
            sha384: sha384, label: label)
    }
}

/// The assertion of `assertion-baseline::first` and the one ECDSA P-256
/// verification inside it.
public struct AssertionWorkload: Sendable {
    public let assertion: [UInt8]
    public let clientData: [UInt8]
    public let verifier: AssertionVerifier
    public let publicKey: P256.Signing.PublicKey
    /// The raw floor: the same signature over the same nonce.
    public let raw: SignatureCheck

    public init?() {
        guard let vector = Locations.vector("assertion.json", "assertion-baseline::first"),
            let key = ES256.publicKey(vector.bytes("publicKey")),
            let parsed = try? Assertion(bytes: vector.bytes("assertion"))
        else { return nil }
        assertion = vector.bytes("assertion")
        clientData = vector.bytes("clientData")
        verifier = AssertionVerifier(appId: vector.input["appId"]?.stringValue ?? "")
        publicKey = key
        let nonce = Array(SHA256.hash(data: parsed.authenticatorData.bytes + Array(SHA256.hash(data: clientData))))
        raw = SignatureCheck(
            key: .p256(key), signature: parsed.signature, message: nonce, sha384: false,
            label: "ES256 over the nonce")
    }

    /// Full verification (parse, hashes, ECDSA, checks); true when it verifies.
    public func verify() -> Bool {
        (try? verifier.verify(assertion: assertion, clientData: clientData, publicKey: publicKey, previousCounter: 0)) != nil
    }
}

/// The attestation of `attestation-baseline::production` with its synthetic
/// anchors, and the signature verifications its validation must do: the
/// credential certificate and the intermediate (step 1), the receipt's CMS
/// signature and its signer's chain.
public struct AttestationWorkload: Sendable {
    public let object: [UInt8]
    public let keyId: [UInt8]
    public let clientDataHash: [UInt8]
    public let time: Date
    public let verifier: AttestationVerifier
    public let rawChecks: [SignatureCheck]

    public init?() {
        guard let vector = Locations.vector("attestation.json", "attestation-baseline::production"),
            let anchors = Self.anchors(vector.input["trustAnchorsPem"]),
            let receiptAnchors = Self.anchors(vector.input["receiptTrustAnchorsPem"]),
            let environment = AppAttestEnvironment(rawValue: vector.input["environment"]?.stringValue ?? ""),
            let time = vector.input["validationTime"]?.stringValue.flatMap(RFC3339.parse),
            let verifier = try? AttestationVerifier(
                appId: vector.input["appId"]?.stringValue ?? "", environment: environment,
                trustAnchors: anchors, receiptAnchors: receiptAnchors),
            let parsed = try? AttestationObject(bytes: vector.bytes("attestationObject")),
            let receipt = try? Receipt(bytes: parsed.receipt)
        else { return nil }
        object = vector.bytes("attestationObject")
        keyId = vector.bytes("keyId")
        clientDataHash = vector.bytes("clientDataHash")
        self.time = time
        self.verifier = verifier
        var checks = Self.chain(parsed.certificates, anchors: anchors, label: "x5c")
        let receiptChain = Self.chain(Self.signerFirst(receipt.certificates), anchors: receiptAnchors, label: "receipt")
        if let signerDER = Self.signerFirst(receipt.certificates).first, let signer = try? Certificate(derEncoded: signerDER),
            let key = SignatureCheck.key(signer)
        {
            checks.append(
                SignatureCheck(
                    key: key, signature: receipt.signature,
                    message: receipt.signedAttributes ?? receipt.payload, sha384: false,
                    label: "receipt CMS signature"))
        }
        rawChecks = checks + receiptChain
    }

    /// Full verification, receipt included; true when it verifies with the receipt verified.
    public func verify() async -> Bool {
        guard
            let verified = try? await verifier.verify(
                attestationObject: object, keyId: keyId,
                clientDataHash: clientDataHash, at: time)
        else { return false }
        if case .verified = verified.receiptStatus { return true }
        return false
    }

    static func anchors(_ value: JSONValue?) -> [Certificate]? {
        guard let list = value?.arrayValue else { return nil }
        let ders = list.compactMap { $0.stringValue }.compactMap(PEM.certificates(in:)).flatMap { $0 }
        let certificates = ders.compactMap { try? Certificate(derEncoded: $0) }
        return certificates.isEmpty ? nil : certificates
    }

    /// Certificates ordered from the one that issues none of the others upwards.
    static func signerFirst(_ ders: [[UInt8]]) -> [[UInt8]] {
        let parsed = ders.compactMap { der in (try? Certificate(derEncoded: der)).map { (der, $0) } }
        guard
            var current = parsed.first(where: { candidate in
                !parsed.contains { $0.1 != candidate.1 && $0.1.issuer == candidate.1.subject }
            })
        else { return ders }
        var ordered = [current.0]
        while let issuer = parsed.first(where: { $0.1.subject == current.1.issuer && $0.1 != current.1 }),
            !ordered.contains(issuer.0)
        {
            ordered.append(issuer.0)
            current = issuer
        }
        return ordered
    }

    /// The certificate signatures from the first certificate up to an anchor.
    static func chain(_ ders: [[UInt8]], anchors: [Certificate], label: String) -> [SignatureCheck] {
        var checks: [SignatureCheck] = []
        for (index, der) in ders.enumerated() {
            guard let certificate = try? Certificate(derEncoded: der) else { break }
            if let anchor = anchors.first(where: { $0.subject == certificate.issuer }) {
                if let check = SignatureCheck.certificate(der, issuer: anchor, label: "\(label)[\(index)] by anchor") {
                    checks.append(check)
                }
                break
            }
            guard index + 1 < ders.count, let issuer = try? Certificate(derEncoded: ders[index + 1]),
                let check = SignatureCheck.certificate(der, issuer: issuer, label: "\(label)[\(index)]")
            else { break }
            checks.append(check)
        }
        return checks
    }
}

/// The receipt of `receipt-baseline::attest-ber` with its anchors.
public struct ReceiptWorkload: Sendable {
    public let receipt: [UInt8]
    public let time: Date
    public let verifier: ReceiptVerifier

    public init?() {
        guard let vector = Locations.vector("receipt.json", "receipt-baseline::attest-ber"),
            let anchors = AttestationWorkload.anchors(vector.input["trustAnchorsPem"]),
            let time = vector.input["validationTime"]?.stringValue.flatMap(RFC3339.parse),
            let verifier = try? ReceiptVerifier(trustAnchors: anchors)
        else { return nil }
        receipt = vector.bytes("receipt")
        self.time = time
        self.verifier = verifier
    }

    public func verify() async -> Bool {
        (try? await verifier.verify(receipt: receipt, at: time)) != nil
    }
}

/// Every committed vector through the runner, in process or through an adapter.
public enum RunnerWorkload {
    public static let vectors = Locations.allVectors()

    /// Seconds for one run of every vector against the in-process reference,
    /// and the number of vectors passed.
    public static func inProcess() async -> (seconds: Double, passed: Int) {
        let report = await Runner(subject: ReferenceSubject()).run(vectors)
        return (report.seconds, report.count(.pass))
    }

    /// The same through `command` (e.g. `.build/release/trustsuite adapter`);
    /// nil when the adapter does not start.
    public static func throughAdapter(_ command: String) async -> (seconds: Double, passed: Int)? {
        guard let adapter = try? await AdapterSubject.launch(command: command) else { return nil }
        let report = await Runner(subject: adapter).run(vectors)
        await adapter.stop()
        return (report.seconds, report.count(.pass))
    }
}
