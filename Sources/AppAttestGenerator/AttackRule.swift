import AppAttest
import VectorContract

/// The `attack` of an App Attest vector (docs/vectors.md, "App Attest
/// vectors any verifier can run (round 3)", Severity), decided from where
/// its defect sits:
///
/// - `signed` when making the bytes for real needs Apple's CA or a device
///   key to sign content no honest signer produces: a credential
///   certificate without a well-formed nonce or with a critical extension
///   nobody processes, a CA certificate without keyCertSign, an attestation
///   counter above zero, a credential ID or aaguid Apple never writes,
///   malformed authenticator data or credential key behind a valid nonce
///   or device signature, a signature computed the wrong way by the key
///   holder, a receipt whose signed payload or signer certificate is wrong.
/// - `network` otherwise: anyone can send the bytes without a new
///   signature — malformed or truncated objects, another `fmt`, an empty or
///   short `x5c`, tampered bytes whose signature no longer verifies, a
///   chain of the attacker's own CA, and genuine objects replayed where they
///   do not belong (another App ID or environment, another keyId,
///   clientDataHash or challenge, outside their validity, a counter not
///   increasing, another key, a receipt of another object). A valid vector
///   is `network` too: a crash on it is a crash on what every client sends.
enum AttackRule {
    static let network = "network", signed = "signed"

    /// Codes whose defect always sits inside signed content.
    static let signedCodes: Set<AppAttestError.Code> = [
        .nonceExtensionMissing, .counterNotZero, .credentialIdMismatch, .malformedCredentialPublicKey, .malformedAuthenticatorData,
        .receiptSignerInvalid,
    ]

    /// Cases whose code is a network one but whose defect a signer made.
    static let signedCases: [String] = [
        "certificate-extension::unknown-critical", "certificate-extension::apple-8-6-critical",
        "chain::ca-without-key-cert-sign", "aaguid::padding-ones", "aaguid::zeros",
        "signature::prehashed-nonce", "signature::sha512", "signature::raw-form", "signature::client-data-hash-as-data",
        "receipt-parse::payload-not-set", "receipt-parse::field-two-parts", "receipt-parse::creation-missing",
        "receipt-parse::type-missing", "receipt-parse::app-id-missing", "receipt-parse::type-unknown",
        "receipt-parse::creation-not-rfc3339", "receipt-cms::content-type-attribute-missing",
        "receipt-cms::content-type-attribute-not-data", "receipt-key::no-certificate",
    ]

    /// The attack of vector `id` of an App Attest family, nil for other families.
    static func attack(family: Family, id: String, error: AppAttestError.Code?) -> String? {
        guard [.appAttestAttestation, .appAttestAssertion, .appAttestReceipt].contains(family) else { return nil }
        guard let error else { return network }
        if signedCodes.contains(error) { return signed }
        return signedCases.contains { id.hasSuffix($0) } ? signed : network
    }
}
