import Crypto
import Foundation
@_spi(FixedExpiryValidationTime) import X509

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

/// The result of a successful attestation verification. Only
/// ``AttestationVerifier`` can make one.
public struct VerifiedAttestation: Sendable {
    /// The attested public key, X9.63 uncompressed (65 bytes): store it with the key id.
    public let publicKey: [UInt8]
    /// The receipt to keep for fraud assessment.
    public let receipt: [UInt8]
    /// signCount of the attestation (always 0).
    public let counter: UInt32
    /// The trailing authenticator-data map, if any (iOS 27 sends one).
    public let extensions: AuthenticatorData?
    public let credentialCertificate: Certificate
    public let authenticatorData: AuthenticatorData

    fileprivate init(publicKey: [UInt8], receipt: [UInt8], authenticatorData: AuthenticatorData, certificate: Certificate) {
        self.publicKey = publicKey
        self.receipt = receipt
        self.counter = authenticatorData.signCount
        self.extensions = authenticatorData.extensions == nil ? nil : authenticatorData
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

    /// - Parameters:
    ///   - appId: `TEAMID.bundle.id`.
    ///   - trustAnchors: default: the Apple App Attestation Root CA only.
    public init(appId: String, environment: AppAttestEnvironment, trustAnchors: [Certificate]? = nil) throws {
        self.appId = appId
        self.environment = environment
        self.trustAnchors = try trustAnchors ?? [AppleRoots.appAttestationRoot]
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
        return VerifiedAttestation(publicKey: publicKey, receipt: object.receipt, authenticatorData: authData,
                                   certificate: leaf)
    }

    /// Step 1's chain: exactly [credential certificate, intermediate], both
    /// parsed, validated to one of `anchors` at `time` (RFC 5280). Only the
    /// configured anchors are trusted: a root inside x5c is ignored.
    static func validateChain(_ ders: [[UInt8]], anchors: [Certificate], at time: Date) async throws(AppAttestError) -> Certificate {
        guard ders.count >= 2 else {
            throw AppAttestError(.missingCertificates, "x5c holds \(ders.count) certificate(s); the credential certificate and the intermediate are required")
        }
        guard ders.count == 2 else {
            throw AppAttestError(.certificateChainInvalid, "x5c holds \(ders.count) certificates; App Attest sends exactly two")
        }
        let certificates: [Certificate]
        do {
            certificates = try ders.map { try Certificate(derEncoded: $0) }
        } catch {
            throw AppAttestError(.certificateChainInvalid, "x5c certificate does not parse: \(error)")
        }
        guard let leaf = certificates.first else {
            throw AppAttestError(.missingCertificates, "x5c is empty")
        }
        var verifier = Verifier(rootCertificates: CertificateStore(anchors)) {
            RFC5280Policy(fixedExpiryValidationTime: time)
        }
        let result = await verifier.validate(leaf: leaf, intermediates: CertificateStore(certificates.dropFirst()))
        guard case .validCertificate(let path) = result else {
            throw AppAttestError(.certificateChainInvalid, "credential certificate does not chain to a trust anchor at \(time)")
        }
        // The path must be credential certificate → x5c[1] → anchor: a CA sent
        // first (a reordered x5c) validates on its own but is no credential.
        guard path.count == 3, path[1] == certificates[1] else {
            throw AppAttestError(.certificateChainInvalid, "x5c[1] is not the issuer of the credential certificate")
        }
        return leaf
    }
}
