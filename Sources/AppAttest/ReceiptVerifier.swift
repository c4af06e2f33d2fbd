import Crypto
import Foundation
@_spi(FixedExpiryValidationTime) import X509

extension Receipt {
    /// The first field of `type`, if present.
    public func field(_ type: Int) -> Field? { fields.first { $0.type == type } }

    func text(_ type: Int) -> String? { field(type).flatMap { String(validating: $0.value, as: UTF8.self) } }

    /// Field 2: `TEAMID.bundle.id`.
    public var appId: String? { text(2) }
    /// Field 3: the attested credential certificate (DER).
    public var attestedCertificate: [UInt8]? { field(3)?.value }
    /// Field 4: the client data hash of the attestation.
    public var clientHash: [UInt8]? { field(4)?.value }
    /// Field 5: the token to send to Apple's fraud server.
    public var token: [UInt8]? { field(5)?.value }
    /// Field 6: ATTEST or RECEIPT.
    public var kind: Kind? { text(6).flatMap(Kind.init(rawValue:)) }
    /// Field 7: environment (`sandbox` or `production`), undocumented.
    public var environment: String? { text(7) }
    /// Field 12: creation time, as written and parsed.
    public var creationTimeText: String? { text(12) }
    public var creationTime: Date? { creationTimeText.flatMap(RFC3339.parse) }
    /// Field 17: risk metric (RECEIPT only).
    public var riskMetric: Int? { text(17).flatMap { Int($0) } }
    /// Field 19: not before (RECEIPT only).
    public var notBefore: Date? { text(19).flatMap(RFC3339.parse) }
    /// Field 21: expiration time.
    public var expirationTime: Date? { text(21).flatMap(RFC3339.parse) }
}

/// The result of a successful receipt verification. Only ``ReceiptVerifier``
/// can make one.
public struct VerifiedReceipt: Sendable {
    public let receipt: Receipt
    fileprivate init(_ receipt: Receipt) { self.receipt = receipt }
}

/// Verifies a receipt: signature, chain to Apple Root CA - G3 at the
/// validation time, then the caller's expectations (App ID, public key,
/// expiry, freshness). Only the configured anchors are trusted: the receipt
/// carries its own copy of the root, which is ignored as an anchor.
public struct ReceiptVerifier: Sendable {
    public let trustAnchors: [Certificate]

    public init(trustAnchors: [Certificate]? = nil) throws {
        self.trustAnchors = try trustAnchors ?? [AppleRoots.rootCAG3]
    }

    /// - Parameters:
    ///   - appId: when given, field 2 must equal it.
    ///   - publicKey: when given (X9.63 or SPKI), field 3's certificate must hold it.
    ///   - maxAge: when given, the creation time may be at most this many seconds before `time`.
    public func verify(
        receipt bytes: [UInt8], at time: Date, appId: String? = nil, publicKey: [UInt8]? = nil, maxAge: TimeInterval? = nil
    ) async throws(AppAttestError) -> VerifiedReceipt {
        let receipt = try Receipt(bytes: bytes)
        let certificates: [Certificate]
        do {
            certificates = try receipt.certificates.map { try Certificate(derEncoded: $0) }
        } catch {
            throw AppAttestError(.malformedReceipt, "receipt certificate does not parse: \(error)")
        }
        guard let signer = certificates.first(where: {
            $0.serialNumber == receipt.signerSerial && $0.issuer == receipt.signerIssuer
        }) else {
            throw AppAttestError(.receiptSignatureInvalid, "no certificate in the receipt matches the signer")
        }
        try Self.checkSignature(receipt, signer: signer)

        var verifier = Verifier(rootCertificates: CertificateStore(trustAnchors)) {
            RFC5280Policy(fixedExpiryValidationTime: time)
        }
        let intermediates = CertificateStore(certificates.filter { $0 != signer })
        guard case .validCertificate = await verifier.validate(leaf: signer, intermediates: intermediates) else {
            throw AppAttestError(.receiptChainInvalid, "receipt signer does not chain to a trust anchor at \(time)")
        }
        guard receipt.kind != nil, let created = receipt.creationTime, let receiptAppId = receipt.appId else {
            throw AppAttestError(.malformedReceipt, "receipt lacks a type (6), creation time (12) or App ID (2)")
        }
        if let appId, receiptAppId != appId {
            throw AppAttestError(.receiptAppIdMismatch, "receipt App ID is \"\(receiptAppId)\", expected \"\(appId)\"")
        }
        if let publicKey {
            guard let der = receipt.attestedCertificate, let certificate = try? Certificate(derEncoded: der),
                  let certificateKey = P256.Signing.PublicKey(certificate.publicKey),
                  let expected = ES256.publicKey(publicKey),
                  certificateKey.x963Representation == expected.x963Representation else {
                throw AppAttestError(.receiptKeyMismatch, "field 3's certificate does not hold the stored public key")
            }
        }
        if let expiry = receipt.expirationTime, time > expiry {
            throw AppAttestError(.receiptExpired, "receipt expired at \(RFC3339.format(expiry))")
        }
        if let maxAge, created < time.addingTimeInterval(-maxAge) {
            throw AppAttestError(.receiptTooOld, "receipt created \(RFC3339.format(created, fractional: true)), more than \(Int(maxAge)) s before")
        }
        return VerifiedReceipt(receipt)
    }

    /// ECDSA with SHA-256 by the signer's key over the payload, or over the
    /// signed attributes (with their message digest checked) when present.
    static func checkSignature(_ receipt: Receipt, signer: Certificate) throws(AppAttestError) {
        var signed = receipt.payload
        if let attributes = receipt.signedAttributes {
            guard receipt.messageDigest == Array(SHA256.hash(data: receipt.payload)) else {
                throw AppAttestError(.receiptSignatureInvalid, "messageDigest attribute does not match the payload")
            }
            signed = attributes
        }
        let digest = SHA256.hash(data: signed)
        let valid: Bool
        if let key = P256.Signing.PublicKey(signer.publicKey),
           let signature = try? P256.Signing.ECDSASignature(derRepresentation: receipt.signature) {
            valid = key.isValidSignature(signature, for: digest)
        } else if let key = P384.Signing.PublicKey(signer.publicKey),
                  let signature = try? P384.Signing.ECDSASignature(derRepresentation: receipt.signature) {
            valid = key.isValidSignature(signature, for: digest)
        } else {
            valid = false
        }
        guard valid else { throw AppAttestError(.receiptSignatureInvalid, "receipt signature does not verify") }
    }
}
