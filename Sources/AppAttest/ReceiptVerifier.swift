import Crypto
import Foundation
import SwiftASN1
@_spi(FixedExpiryValidationTime) import X509

extension Receipt {
    /// The first field of `type`, if present.
    public func field(_ type: FieldType) -> Field? { fields.first { $0.type == type.rawValue } }

    /// The first field of `type` as UTF-8 text, if present and valid.
    public func text(_ type: FieldType) -> String? { field(type).flatMap { String(validating: $0.value, as: UTF8.self) } }

    /// `TEAMID.bundle.id`.
    public var appId: String? { text(.appId) }
    /// The attested credential certificate (DER).
    public var attestedCertificate: [UInt8]? { field(.attestedCertificate)?.value }
    /// The client data hash of the attestation.
    public var clientHash: [UInt8]? { field(.clientHash)?.value }
    /// The token to send to Apple's fraud server.
    public var token: [UInt8]? { field(.token)?.value }
    /// ATTEST or RECEIPT.
    public var kind: Kind? { text(.kind).flatMap(Kind.init(rawValue:)) }
    /// Environment (`sandbox` or `production`), undocumented.
    public var environment: String? { text(.environment) }
    /// Creation time, as written and parsed.
    public var creationTimeText: String? { text(.creationTime) }
    public var creationTime: Date? { creationTimeText.flatMap(RFC3339.parse) }
    /// Risk metric (RECEIPT only).
    public var riskMetric: Int? { text(.riskMetric).flatMap { Int($0) } }
    /// Field 19 (RECEIPT only): the earliest time a new receipt may be
    /// requested (creation + 1 day in real data). Exposed; never a validity
    /// start (docs/models/app-attest.md, round 3).
    public var earliestRefreshTime: Date? { text(.earliestRefresh).flatMap(RFC3339.parse) }
    /// Expiration time.
    public var expirationTime: Date? { text(.expirationTime).flatMap(RFC3339.parse) }
}

/// The result of a successful receipt verification. Only ``ReceiptVerifier``
/// can make one.
public struct VerifiedReceipt: Sendable {
    public let receipt: Receipt
    fileprivate init(_ receipt: Receipt) { self.receipt = receipt }
}

/// Verifies a receipt: signature, chain to Apple Root CA - G3 at the
/// validation time, the pinned signer, then the caller's expectations (type,
/// App ID, public key or attested certificate, time window, freshness).
/// Only the configured anchors are trusted: the receipt carries its own copy
/// of the root, which is ignored as an anchor.
public struct ReceiptVerifier: Sendable {
    /// The receipt-signing marker extension Apple's signer carries
    /// (1.2.840.113635.100.12.15): what tells it from a developer certificate.
    public static let signerMarkerOID: ASN1ObjectIdentifier = [1, 2, 840, 113635, 100, 12, 15]

    /// How far a receipt's creation time (field 12) may lie after the
    /// validation time: real ATTEST receipts are created a few seconds after
    /// the server's own time (2.4–2.9 s in the veehaitch data).
    public static let defaultClockSkew: TimeInterval = 60
    /// Most candidate signer paths (signer → intermediate → anchor, by
    /// issuer name) considered before any signature is checked: the
    /// pinned shape has one; certificate authorities that sign each other
    /// multiply them, and path building over them is exponential.
    static let maxCandidatePaths = 4

    public let trustAnchors: [Certificate]
    /// Seconds a creation time may lie after the validation time.
    public let clockSkew: TimeInterval

    public init(trustAnchors: [Certificate]? = nil, clockSkew: TimeInterval = ReceiptVerifier.defaultClockSkew) throws {
        self.trustAnchors = try trustAnchors ?? [AppleRoots.rootCAG3]
        self.clockSkew = clockSkew
    }

    init(anchors: [Certificate], clockSkew: TimeInterval) {
        self.trustAnchors = anchors
        self.clockSkew = clockSkew
    }

    /// - Parameters:
    ///   - appId: when given, field 2 must equal it.
    ///   - publicKey: when given (X9.63 or SPKI), field 3's certificate must hold it.
    ///   - maxAge: when given, the creation time may be at most this many seconds before `time`.
    ///   - type: when given, field 6 must be it (`receiptTypeMismatch`).
    ///   - attestedCertificate: when given, field 3 must be exactly these DER bytes (`receiptKeyMismatch`).
    public func verify(
        receipt bytes: [UInt8], at time: Date, appId: String? = nil, publicKey: [UInt8]? = nil, maxAge: TimeInterval? = nil,
        type: Receipt.Kind? = nil, attestedCertificate: [UInt8]? = nil
    ) async throws(AppAttestError) -> VerifiedReceipt {
        let (receipt, path) = try await signatureAndChain(of: bytes, at: time)
        try checkSigner(path)

        guard let kind = receipt.kind, let created = receipt.creationTime, let receiptAppId = receipt.appId else {
            throw AppAttestError(.malformedReceipt, "receipt lacks a type (6), creation time (12) or App ID (2)")
        }
        if let type, kind != type {
            throw AppAttestError(.receiptTypeMismatch, "receipt type is \(kind.rawValue), expected \(type.rawValue)")
        }
        if let appId, receiptAppId != appId {
            throw AppAttestError(.receiptAppIdMismatch, "receipt App ID is \"\(receiptAppId)\", expected \"\(appId)\"")
        }
        if let publicKey {
            guard let der = receipt.attestedCertificate, let certificate = try? Certificate(derEncoded: der),
                let certificateKey = P256.Signing.PublicKey(certificate.publicKey),
                let expected = ES256.publicKey(publicKey),
                certificateKey.x963Representation == expected.x963Representation
            else {
                throw AppAttestError(.receiptKeyMismatch, "field 3's certificate does not hold the stored public key")
            }
        }
        if let attestedCertificate, receipt.attestedCertificate != attestedCertificate {
            throw AppAttestError(.receiptKeyMismatch, "field 3 is not the attestation's credential certificate")
        }
        try checkTimes(receipt, created: created, at: time)
        if let maxAge, created < time.addingTimeInterval(-maxAge) {
            throw AppAttestError(
                .receiptTooOld, "receipt created \(RFC3339.format(created, fractional: true)), more than \(maxAge) s before")
        }
        return VerifiedReceipt(receipt)
    }

    /// The first stages of `verify`: the receipt parses, its signer's
    /// signature holds and the signer chains to a trust anchor at `time`
    /// (what OpenSSL's CMS_verify decides too; the differential harness
    /// compares the two). Returns the receipt and the validated path.
    package func signatureAndChain(of bytes: [UInt8], at time: Date) async throws(AppAttestError) -> (Receipt, [Certificate]) {
        let receipt = try Receipt(bytes: bytes)
        let certificates: [Certificate]
        do {
            certificates = try receipt.certificates.map { try CertificatePath.certificate(derEncoded: $0) }
        } catch {
            throw AppAttestError(.malformedReceipt, "receipt certificate does not parse: \(error)")
        }
        guard
            let signer = certificates.first(where: {
                $0.serialNumber == receipt.signerSerial && $0.issuer == receipt.signerIssuer
            })
        else {
            throw AppAttestError(.receiptSignatureInvalid, "no certificate in the receipt matches the signer")
        }
        try Self.checkSignature(receipt, signer: signer)

        let intermediates = certificates.filter { $0 != signer }
        let candidates = CertificatePath.candidatePaths(
            from: signer, intermediates: intermediates, anchors: trustAnchors,
            maxLength: 3, limit: Self.maxCandidatePaths + 1)
        guard candidates <= Self.maxCandidatePaths else {
            throw AppAttestError(.malformedReceipt, "receipt certificates offer more than \(Self.maxCandidatePaths) candidate signer paths")
        }
        let path: [Certificate]
        switch await CertificatePath.validate(leaf: signer, intermediates: intermediates, anchors: trustAnchors, at: time) {
        case .success(let validated): path = validated
        case .failure(let failure):
            throw AppAttestError(.receiptChainInvalid, "receipt signer \(CertificatePath.describe(failure, at: time))")
        }
        return (receipt, path)
    }

    /// The signer is pinned, not just chained (Apple Root CA - G3 also
    /// certifies the CAs of developer certificates): an end-entity
    /// certificate with the marker extension, allowing digitalSignature when
    /// it has a key usage, issued by the chain's one intermediate — and that
    /// intermediate is the expected one (``expectedIntermediate(_:)``): a
    /// marked signer under a sibling CA, or under a second CA of the same
    /// name, is refused.
    func checkSigner(_ path: [Certificate]) throws(AppAttestError) {
        guard let signer = path.first else { throw AppAttestError(.receiptSignerInvalid, "empty signer path") }
        func refuse(_ reason: String) -> AppAttestError {
            AppAttestError(.receiptSignerInvalid, "receipt signer \(signer.subject) \(reason)")
        }
        guard !CertificatePath.isCertificateAuthority(signer) else { throw refuse("is a CA certificate") }
        guard signer.extensions[oid: Self.signerMarkerOID] != nil else {
            throw refuse("lacks the receipt-signing marker extension \(Self.signerMarkerOID)")
        }
        guard CertificatePath.allowsDigitalSignature(signer) else { throw refuse("has a key usage without digitalSignature") }
        // [signer, intermediate, root], or [signer, intermediate] when the store holds the intermediate itself.
        guard path.count >= 2, path.count <= 3, !CertificatePath.isSelfIssued(path[1]) else {
            throw refuse("is not issued by exactly one intermediate below the anchor")
        }
        guard expectedIntermediate(path) else {
            throw refuse("is issued by \(path[1].subject), not the receipt-signing intermediate the trust store expects")
        }
    }

    /// SHA-256 of the subjectPublicKeyInfo of Apple Application Integration
    /// CA 5 - G1, the intermediate under Apple Root CA - G3 that issues the
    /// receipt signer (read from the 39 real receipts; a test checks it).
    package static let appleReceiptIntermediateKeyPin: [UInt8] = [
        0x15, 0xE3, 0x25, 0xF1, 0x9B, 0x2F, 0xB5, 0x8B, 0xBD, 0xEA, 0xEB, 0xAF, 0xB0, 0x29, 0x2E, 0x5D,
        0x45, 0xE8, 0xA2, 0x7F, 0xB3, 0x70, 0x9E, 0xBE, 0xFF, 0x91, 0x51, 0xD5, 0xB1, 0x72, 0x51, 0x6A,
    ]

    /// Whether the path's intermediate is the one the trust store expects:
    /// - a path ending at Apple Root CA - G3: Apple Application Integration
    ///   CA 5 - G1, by its key (``appleReceiptIntermediateKeyPin``);
    /// - a store that holds intermediates (certificates not self-issued):
    ///   one of them, exactly;
    /// - otherwise (a store of roots only, such as a test PKI's) any
    ///   intermediate the anchor issued.
    func expectedIntermediate(_ path: [Certificate]) -> Bool {
        let intermediate = path[1]
        if let anchor = path.last, AppleRoots.isRootCAG3(anchor) {
            return CertificatePath.keyPin(intermediate) == Self.appleReceiptIntermediateKeyPin
        }
        let pinned = trustAnchors.filter { !CertificatePath.isSelfIssued($0) }
        return pinned.isEmpty || pinned.contains(intermediate)
    }

    /// Both sides of the time window: not created more than ``clockSkew``
    /// after `time` (compared at whole seconds, the precision of certificate
    /// times and of the vectors' validation times), not after field 21.
    /// Field 19 never decides (docs/models/app-attest.md, round 3).
    func checkTimes(_ receipt: Receipt, created: Date, at time: Date) throws(AppAttestError) {
        if created.timeIntervalSince1970.rounded(.down) - time.timeIntervalSince1970 > clockSkew {
            throw AppAttestError(
                .receiptNotYetValid,
                "receipt created \(RFC3339.format(created, fractional: true)), "
                    + "more than \(Int(clockSkew)) s after \(RFC3339.format(time))")
        }
        if let expiry = receipt.expirationTime, time > expiry {
            throw AppAttestError(.receiptExpired, "receipt expired at \(RFC3339.format(expiry))")
        }
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
            let signature = try? P256.Signing.ECDSASignature(derRepresentation: receipt.signature)
        {
            valid = key.isValidSignature(signature, for: digest)
        } else if let key = P384.Signing.PublicKey(signer.publicKey),
            let signature = try? P384.Signing.ECDSASignature(derRepresentation: receipt.signature)
        {
            valid = key.isValidSignature(signature, for: digest)
        } else {
            valid = false
        }
        guard valid else { throw AppAttestError(.receiptSignatureInvalid, "receipt signature does not verify") }
    }
}
