import Crypto
import StrictCBOR

/// The result of a successful assertion verification. Only
/// ``AssertionVerifier`` can make one.
public struct VerifiedAssertion: Sendable {
    /// The new counter: store it as the key's previous counter.
    public let counter: UInt32
    public let authenticatorData: AuthenticatorData
    /// The CBOR map after the 37-byte header, if any (iOS 27 devices append
    /// `apple_*` entries).
    public var extensions: CBORItem? { authenticatorData.extensions }
    /// The map's `apple_*` launch data (validation category, bundle version), if any.
    public var launchData: LaunchData? { authenticatorData.launchData }

    fileprivate init(authenticatorData: AuthenticatorData) {
        self.counter = authenticatorData.signCount
        self.authenticatorData = authenticatorData
    }
}

/// An App Attest assertion: `{"signature": DER ECDSA, "authenticatorData": bytes}`.
public struct Assertion: Sendable, Hashable {
    /// Largest assertion accepted (real ones are about 120 bytes).
    public static let maxLength = 16 * 1024

    public let signature: [UInt8]
    public let authenticatorData: AuthenticatorData

    public init(bytes: [UInt8]) throws(AppAttestError) {
        guard bytes.count <= Self.maxLength else {
            throw AppAttestError(.malformedAssertion, "assertion of \(bytes.count) bytes exceeds \(Self.maxLength)")
        }
        let root: CBORItem
        do {
            root = try CBORDecoder(mode: .ctap2).decode(bytes)
        } catch {
            throw AppAttestError(.malformedAssertion, "CBOR: \(error)")
        }
        guard let entries = root.mapValue, entries.count == 2,
            let signature = root["signature"]?.byteSlice,
            let authData = root["authenticatorData"]?.byteSlice
        else {
            throw AppAttestError(
                .malformedAssertion,
                "assertion must be {\"signature\": bytes, \"authenticatorData\": bytes}")
        }
        self.signature = Array(signature)
        self.authenticatorData = try AuthenticatorData(bytes: Array(authData), layout: .assertion)
    }
}

/// ES256 as App Attest uses it: ECDSA P-256 with SHA-256 over a message (the
/// nonce), DER signature. Shared by the assertion path and the Wycheproof tests.
public enum ES256 {
    /// Whether `derSignature` is a valid ES256 signature of `message` by `publicKey`.
    public static func verify(derSignature: [UInt8], message: [UInt8], publicKey: P256.Signing.PublicKey) -> Bool {
        guard let signature = try? P256.Signing.ECDSASignature(derRepresentation: derSignature) else { return false }
        return publicKey.isValidSignature(signature, for: message)
    }

    /// The same with a raw `r ‖ s` (IEEE P1363) signature.
    public static func verify(rawSignature: [UInt8], message: [UInt8], publicKey: P256.Signing.PublicKey) -> Bool {
        guard rawSignature.count == 64,
            let signature = try? P256.Signing.ECDSASignature(rawRepresentation: rawSignature)
        else { return false }
        return publicKey.isValidSignature(signature, for: message)
    }

    /// A P-256 public key from X9.63 (65 bytes, uncompressed) or SubjectPublicKeyInfo DER.
    public static func publicKey(_ bytes: [UInt8]) -> P256.Signing.PublicKey? {
        if bytes.count == 65, bytes.first == 0x04 {
            return try? P256.Signing.PublicKey(x963Representation: bytes)
        }
        return try? P256.Signing.PublicKey(derRepresentation: bytes)
    }
}

/// Verifies an App Attest assertion (steps 1–5 of Apple's guide) against the
/// stored public key and counter; step 6, the challenge inside clientData, is
/// the application's and runs through `challengeCheck`.
public struct AssertionVerifier: Sendable {
    public let appId: String
    /// Called with the client data before anything else is trusted; return
    /// false to reject with `challengeMismatch`.
    public let challengeCheck: @Sendable ([UInt8]) -> Bool
    /// The launch policy applied after the assertion steps (nil: none).
    public let launchPolicy: LaunchPolicy?

    public init(
        appId: String, launchPolicy: LaunchPolicy? = nil,
        challengeCheck: @escaping @Sendable ([UInt8]) -> Bool = { _ in true }
    ) {
        self.appId = appId
        self.launchPolicy = launchPolicy
        self.challengeCheck = challengeCheck
    }

    public func verify(
        assertion bytes: [UInt8], clientData: [UInt8], publicKey: P256.Signing.PublicKey, previousCounter: UInt32
    ) throws(AppAttestError) -> VerifiedAssertion {
        let assertion = try Assertion(bytes: bytes)
        let authData = assertion.authenticatorData
        // Steps 1–2: nonce = SHA-256(authenticatorData ‖ SHA-256(clientData)).
        var hasher = SHA256()
        hasher.update(data: authData.bytes)
        hasher.update(data: Array(SHA256.hash(data: clientData)))
        let nonce = Array(hasher.finalize())
        // Step 3: ES256 over the nonce (hashed again by ECDSA, not used as a digest).
        guard ES256.verify(derSignature: assertion.signature, message: nonce, publicKey: publicKey) else {
            throw AppAttestError(.signatureInvalid, "signature does not verify over the nonce with the stored key")
        }
        // Step 4: rpIdHash equals SHA-256(appId).
        guard authData.rpIdHash == Array(SHA256.hash(data: Array(appId.utf8))) else {
            throw AppAttestError(.rpIdMismatch, "rpIdHash is not SHA-256 of \"\(appId)\"")
        }
        // Step 5: the counter increases strictly.
        guard authData.signCount > previousCounter else {
            throw AppAttestError(
                .counterNotIncreasing,
                "counter \(authData.signCount) is not greater than the stored \(previousCounter)")
        }
        // Step 6: the application's challenge check.
        guard challengeCheck(clientData) else {
            throw AppAttestError(.challengeMismatch, "the application's challenge check refused the client data")
        }
        // After the steps: the caller's launch policy (docs/models/app-attest.md, Launch policy).
        try launchPolicy?.check(authData.launchData)
        return VerifiedAssertion(authenticatorData: authData)
    }
}
