import SwiftASN1
import Crypto
import Foundation
import StrictCBOR
import X509

/// The App Attest environment, which fixes the expected aaguid (step 8).
public enum AppAttestEnvironment: String, Sendable, Hashable, CaseIterable, Codable {
    case development, production

    /// `appattestdevelop`, or `appattest` followed by seven zero bytes.
    public var aaguid: [UInt8] {
        switch self {
        case .development: return Array("appattestdevelop".utf8)
        case .production: return Array("appattest".utf8) + [UInt8](repeating: 0, count: 7)
        }
    }
}

/// What verifying an attestation's embedded receipt gave: `verified`, or the
/// receipt's error. It decides the attestation verdict only when the caller
/// asks for it (``AttestationVerifier/requireReceipt``).
public enum ReceiptStatus: Sendable, Hashable, CustomStringConvertible {
    case verified
    case failed(AppAttestError)

    /// `verified`, or the receipt's error code: the text of the vector
    /// output and the CLI.
    public var description: String {
        switch self {
        case .verified: return "verified"
        case .failed(let error): return error.code.rawValue
        }
    }
}

/// The result of a successful attestation verification. Only
/// ``AttestationVerifier`` can make one.
public struct VerifiedAttestation: Sendable {
    /// The attested public key, X9.63 uncompressed (65 bytes): store it with the key id.
    public let publicKey: [UInt8]
    /// The receipt to keep for fraud assessment.
    public let receipt: [UInt8]
    /// What verifying the receipt gave (signature, pinned signer, chain,
    /// type ATTEST, App ID, field 3 = the credential certificate).
    public let receiptStatus: ReceiptStatus
    /// signCount of the attestation (always 0).
    public let counter: UInt32
    public let credentialCertificate: Certificate
    public let authenticatorData: AuthenticatorData
    /// The trailing authenticator-data map, if any (iOS 27 sends one).
    public var extensions: CBORItem? { authenticatorData.extensions }
    /// The map's `apple_*` launch data (validation category, bundle version), if any.
    public var launchData: LaunchData? { authenticatorData.launchData }

    fileprivate init(
        publicKey: [UInt8], receipt: [UInt8], receiptStatus: ReceiptStatus, authenticatorData: AuthenticatorData,
        certificate: Certificate
    ) {
        self.publicKey = publicKey
        self.receipt = receipt
        self.receiptStatus = receiptStatus
        self.counter = authenticatorData.signCount
        self.credentialCertificate = certificate
        self.authenticatorData = authenticatorData
    }
}

/// Verifies an App Attest attestation object: the nine steps of Apple's
/// "Validating apps that connect to your server", each with its own error
/// code. Trust anchors, environment and validation time are injected.
public struct AttestationVerifier: Sendable {
    public let appId: String
    public let environment: AppAttestEnvironment
    public let trustAnchors: [Certificate]
    /// Anchors of the embedded receipt's chain (default: Apple Root CA - G3).
    public let receiptAnchors: [Certificate]
    /// When true, a receipt that does not verify fails the attestation with
    /// the receipt's code; by default it is only reported.
    public let requireReceipt: Bool
    /// Seconds the embedded receipt's creation time may lie after the
    /// validation time (real ATTEST receipts are made a few seconds after
    /// the server's recorded time).
    public let receiptClockSkew: TimeInterval
    /// The launch policy applied after step 9 (nil: none, verdicts as without launch data).
    public let launchPolicy: LaunchPolicy?

    /// - Parameters:
    ///   - appId: `TEAMID.bundle.id`.
    ///   - trustAnchors: default: the Apple App Attestation Root CA only.
    ///   - receiptAnchors: default: Apple Root CA - G3 only.
    ///   - requireReceipt: make the receipt's error the attestation's.
    ///   - receiptClockSkew: default ``ReceiptVerifier/defaultClockSkew``.
    ///   - launchPolicy: categories, minimum bundle version and missing-data rule to enforce.
    public init(
        appId: String, environment: AppAttestEnvironment, trustAnchors: [Certificate]? = nil,
        receiptAnchors: [Certificate]? = nil, requireReceipt: Bool = false,
        receiptClockSkew: TimeInterval = ReceiptVerifier.defaultClockSkew, launchPolicy: LaunchPolicy? = nil
    ) throws {
        self.appId = appId
        self.environment = environment
        self.trustAnchors = try trustAnchors ?? [AppleRoots.appAttestationRoot]
        self.receiptAnchors = try receiptAnchors ?? [AppleRoots.rootCAG3]
        self.requireReceipt = requireReceipt
        self.receiptClockSkew = receiptClockSkew
        self.launchPolicy = launchPolicy
    }

    /// Runs steps 1–9 on `attestationObject` for the key `keyId` and the
    /// `clientDataHash` the app passed to `attestKey`, at `time`.
    public func verify(
        attestationObject bytes: [UInt8], keyId: [UInt8], clientDataHash: [UInt8], at time: Date
    ) async throws(AppAttestError) -> VerifiedAttestation {
        let object = try AttestationObject(bytes: bytes)
        let authData = object.authenticatorData
        guard let credential = authData.credential else {
            throw AppAttestError(.malformedAuthenticatorData, "attestation authenticator data has no attested credential data")
        }

        // Step 1: fmt (checked by the parser), x5c, chain to the anchor at `time`.
        let leaf = try await Self.validateChain(object.certificates, anchors: trustAnchors, at: time)

        // Steps 2–3: nonce = SHA-256(authData ‖ clientDataHash), over the exact bytes.
        var hasher = SHA256()
        hasher.update(data: authData.bytes)
        hasher.update(data: clientDataHash)
        let nonce = Array(hasher.finalize())

        // Step 4: the credential certificate's nonce extension equals nonce.
        guard try NonceExtension.nonce(in: leaf) == nonce else {
            throw AppAttestError(.nonceMismatch, "nonce extension differs from SHA-256(authData ‖ clientDataHash)")
        }

        // Step 5: SHA-256 of the certificate's public key equals keyId.
        guard let certificateKey = P256.Signing.PublicKey(leaf.publicKey) else {
            throw AppAttestError(.keyIdMismatch, "credential certificate key is not P-256")
        }
        let publicKey = Array(certificateKey.x963Representation)
        guard Array(SHA256.hash(data: publicKey)) == keyId else {
            throw AppAttestError(.keyIdMismatch, "SHA-256 of the certificate's public key is not the key id")
        }

        // Step 6: rpIdHash equals SHA-256(appId).
        guard authData.rpIdHash == Array(SHA256.hash(data: Array(appId.utf8))) else {
            throw AppAttestError(.rpIdMismatch, "rpIdHash is not SHA-256 of \"\(appId)\"")
        }

        // Step 7: the counter is 0.
        guard authData.signCount == 0 else {
            throw AppAttestError(.counterNotZero, "signCount is \(authData.signCount), expected 0")
        }

        // Step 8: aaguid of the configured environment, exactly.
        guard credential.aaguid == environment.aaguid else {
            throw AppAttestError(.aaguidMismatch, "aaguid is not that of the \(environment.rawValue) environment")
        }

        // Step 9: credentialId equals keyId.
        guard credential.credentialId == keyId else {
            throw AppAttestError(.credentialIdMismatch, "credential id is not the key id")
        }

        // After the nine steps: the caller's launch policy (docs/models/app-attest.md,
        // Launch policy), before the costlier receipt.
        try launchPolicy?.check(authData.launchData)

        // Not one of the nine steps: the receipt is verified and reported, and
        // decides the verdict only when required.
        let receiptStatus = await receiptStatus(object, at: time)
        if requireReceipt, case .failed(let error) = receiptStatus { throw error }
        return VerifiedAttestation(
            publicKey: publicKey, receipt: object.receipt, receiptStatus: receiptStatus,
            authenticatorData: authData, certificate: leaf)
    }

    /// The embedded receipt against the receipt anchors: type ATTEST, the
    /// attested App ID, field 3 equal to the credential certificate.
    func receiptStatus(_ object: AttestationObject, at time: Date) async -> ReceiptStatus {
        let verifier = ReceiptVerifier(anchors: receiptAnchors, clockSkew: receiptClockSkew)
        do {
            _ = try await verifier.verify(
                receipt: object.receipt, at: time, appId: appId, type: .attest, attestedCertificate: object.certificates.first)
            return .verified
        } catch {
            return .failed(error)
        }
    }

    /// Step 1's chain: exactly [credential certificate, intermediate], both
    /// parsed, validated to one of `anchors` at `time` (RFC 5280). Only the
    /// configured anchors are trusted: a root inside x5c is ignored.
    static func validateChain(_ ders: [[UInt8]], anchors: [Certificate], at time: Date) async throws(AppAttestError) -> Certificate {
        guard ders.count >= 2 else {
            throw AppAttestError(
                .missingCertificates, "x5c holds \(ders.count) certificate(s); the credential certificate and the intermediate are required"
            )
        }
        guard ders.count == 2 else {
            throw AppAttestError(.certificateChainInvalid, "x5c holds \(ders.count) certificates; App Attest sends exactly two")
        }
        let certificates: [Certificate]
        do {
            certificates = try ders.map { try CertificatePath.certificate(derEncoded: $0) }
        } catch {
            throw AppAttestError(.certificateChainInvalid, "x5c certificate does not parse: \(error)")
        }
        guard let leaf = certificates.first else {
            throw AppAttestError(.missingCertificates, "x5c is empty")
        }
        let path: [Certificate]
        switch await CertificatePath.validate(leaf: leaf, intermediates: Array(certificates.dropFirst()), anchors: anchors, at: time) {
        case .success(let validated): path = validated
        case .failure(let failure):
            throw AppAttestError(.certificateChainInvalid, "credential certificate \(CertificatePath.describe(failure, at: time))")
        }
        // The path must run credential certificate → x5c[1] (→ anchor): a CA
        // sent first (a reordered x5c) validates on its own but is no
        // credential. Any certificate of the store is an anchor, so the path
        // may end at x5c[1] itself, or at the credential certificate.
        guard path.count == 1 || path[1] == certificates[1] else {
            throw AppAttestError(.certificateChainInvalid, "x5c[1] is not the issuer of the credential certificate")
        }
        return leaf
    }
}
