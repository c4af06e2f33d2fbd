import AppAttest
import Crypto
import Foundation
import TestPKI

extension SoftwareDevice {
    /// Shapes of attestation a server's checks need (docs/probe.md, The checks:
    /// binding, trust, iOS 27 shapes, launch policy). Each option changes one
    /// thing and keeps the rest consistent (the nonce covers the authenticator
    /// data as written, the receipt is made for the certificate sent), so a
    /// verifier refuses it for that one reason; options combine, and the
    /// first of Apple's nine steps they break decides the reference
    /// verifier's code. The default is a valid attestation.
    public struct AttestOptions: LaunchDataOptions {
        /// The aaguid of the other environment (a development object sent to a
        /// production server, or the reverse): step 8, `aaguidMismatch`.
        public var otherEnvironment = false
        /// A credential certificate that expired a day ago: step 1, `certificateChainInvalid`.
        public var expiredCertificate = false
        /// Append the `apple_*` map of Apple's 2026 sample (category 1, version
        /// "1") after the COSE key, flags 0x40 (ED clear), as iOS 27 devices do: accepted
        /// (docs/models/app-attest.md, Authenticator data in attestations).
        public var extensions = false
        /// Write `apple_validation_category_01` with this number (4 bytes,
        /// little-endian); judged by a launch policy's allowed categories.
        public var validationCategory: UInt32? = nil
        /// Write `apple_bundle_version_01` with this text; judged by a launch
        /// policy's minimum. No category, version or `extensions`: no map at
        /// all, as devices before iOS 27.
        public var bundleVersion: String? = nil
        /// The object is made for this App ID instead of the device's
        /// (rpIdHash and the receipt's App ID; the nonce covers it): another
        /// app's attestation, step 6, `rpIdMismatch`. Any text.
        public var otherAppId: String? = nil
        /// The credential certificate is issued by the attacker CA, whose root
        /// and intermediate carry the test CA's names with other keys
        /// (``SoftwareDevice/attackerRoot()``), and x5c carries the attacker's
        /// intermediate: step 1, `certificateChainInvalid`.
        public var attackerRoot = false
        /// The key id to send (``Attestation/keyId``) is another key's; the
        /// object itself is consistent for the key it attests
        /// (``Attestation/attestedKeyId``): step 5, `keyIdMismatch`.
        public var swapKeyId = false
        /// The credential certificate certifies another key than the one
        /// whose id the object carries (credentialId, COSE key) and is sent:
        /// step 5, `keyIdMismatch`.
        public var certificateKeyMismatch = false
        /// The credential id in the authenticator data is another key's id;
        /// the certificate's key hashes to the key id sent: step 9,
        /// `credentialIdMismatch`.
        public var credentialIdMismatch = false
        /// The certificate's nonce covers another challenge's clientDataHash
        /// (SHA-256 of the given one and a label) instead of the one given:
        /// steps 2–4, `nonceMismatch`.
        public var nonceOverOtherChallenge = false
        /// The DER shape of the nonce extension (``NonceExtensionShape``);
        /// every shape but `standard` is `nonceExtensionMissing` (step 4).
        public var nonceShape: NonceExtensionShape = .standard
        /// signCount of the attestation; real ones are 0, anything else is
        /// step 7, `counterNotZero`. The key's stored counter starts here.
        public var counter: UInt32 = 0
        /// The platform whose launch data to write: `macos` writes the Mac
        /// shape (category 6, the code-directory hash keys) unless the
        /// options above or below replace a value (``LaunchPlatform``).
        public var platform: LaunchPlatform = .ios
        /// The code-directory hash to write (type 2); nil: a stand-in hash
        /// of the App ID on macOS, none on iOS. Judged by a launch policy's
        /// allowlist (`codeDirectoryHashNotAllowed`).
        public var codeDirectoryHash: [UInt8]? = nil
        /// On macOS, leave the code-directory hash keys out (a Mac app
        /// without the hash option; `launchDataMissing` under an allowlist
        /// that rejects missing data).
        public var omitCodeDirectoryHash = false

        public init(
            otherEnvironment: Bool = false, expiredCertificate: Bool = false, extensions: Bool = false,
            validationCategory: UInt32? = nil, bundleVersion: String? = nil, otherAppId: String? = nil,
            attackerRoot: Bool = false, swapKeyId: Bool = false, certificateKeyMismatch: Bool = false,
            credentialIdMismatch: Bool = false, nonceOverOtherChallenge: Bool = false,
            nonceShape: NonceExtensionShape = .standard, counter: UInt32 = 0, platform: LaunchPlatform = .ios,
            codeDirectoryHash: [UInt8]? = nil, omitCodeDirectoryHash: Bool = false
        ) {
            self.otherEnvironment = otherEnvironment
            self.expiredCertificate = expiredCertificate
            self.extensions = extensions
            self.validationCategory = validationCategory
            self.bundleVersion = bundleVersion
            self.otherAppId = otherAppId
            self.attackerRoot = attackerRoot
            self.swapKeyId = swapKeyId
            self.certificateKeyMismatch = certificateKeyMismatch
            self.credentialIdMismatch = credentialIdMismatch
            self.nonceOverOtherChallenge = nonceOverOtherChallenge
            self.nonceShape = nonceShape
            self.counter = counter
            self.platform = platform
            self.codeDirectoryHash = codeDirectoryHash
            self.omitCodeDirectoryHash = omitCodeDirectoryHash
        }
    }

    /// A new attested key, as `generateKey` then `attestKey` give it.
    public struct Attestation: Sendable {
        /// The key id to send with the object (another key's with ``AttestOptions/swapKeyId``).
        public let keyId: [UInt8]
        /// The id of the key this device attested and stored: pass it to
        /// ``SoftwareDevice/assert(keyId:clientData:options:)``. Equal to
        /// `keyId` unless ``AttestOptions/swapKeyId``.
        public let attestedKeyId: [UInt8]
        public let attestationObject: [UInt8]
        /// What was passed to `attestKey`: the challenge, or its SHA-256.
        public let clientDataHash: [UInt8]
        /// X9.63 uncompressed P-256 point of the attested key.
        public let publicKey: [UInt8]
        public let receipt: [UInt8]
    }

    /// Generates a key and attests it with `clientDataHash` (pass the
    /// challenge itself, as Apple's samples do, or its SHA-256), in the shape
    /// `options` asks for.
    public func attest(clientDataHash: [UInt8], options: AttestOptions = AttestOptions(), now: Date = Date()) throws -> Attestation {
        let key = P256.Signing.PrivateKey()
        let made = try attestation(of: key, clientDataHash: clientDataHash, options: options, now: now)
        try saveKey(key, keyId: made.attestedKeyId, counter: options.counter)
        return made
    }

    /// The attestation of `key` (generated earlier, as `DCAppAttestService.generateKey`
    /// does), without storing it.
    func attestation(of key: P256.Signing.PrivateKey, clientDataHash: [UInt8], options: AttestOptions, now: Date) throws -> Attestation {
        let publicKey = Array(key.publicKey.x963Representation)
        let keyId = Array(SHA256.hash(data: publicKey))
        let environment: AppAttestEnvironment =
            options.otherEnvironment
            ? (self.environment == .production ? .development : .production) : self.environment
        // Real credential certificates are valid from a day before the
        // attestation to two days after it.
        let notBefore = options.expiredCertificate ? now.addingTimeInterval(-4 * 86_400) : now.addingTimeInterval(-86_400)
        var request = SoftwareCA.AttestationRequest(
            credentialKey: key, appId: options.otherAppId ?? appId, environment: environment, clientDataHash: clientDataHash,
            notBefore: notBefore, notAfter: notBefore.addingTimeInterval(3 * 86_400), token: randomBytes(32))
        request.trailing = options.launchMap(appId: options.otherAppId ?? appId)
        request.signCount = options.counter
        if options.credentialIdMismatch { request.credentialId = Self.otherKeyId() }
        if options.certificateKeyMismatch { request.certificateKey = P256.Signing.PrivateKey().publicKey }
        if options.nonceOverOtherChallenge {
            request.nonceClientDataHash = Array(SHA256.hash(data: clientDataHash + Array("another challenge".utf8)))
        }
        request.nonceExtension = options.nonceShape.encode
        if options.attackerRoot { request.issuer = try attackerCA() }
        let made = try ca.attest(request)
        return Attestation(
            keyId: options.swapKeyId ? Self.otherKeyId() : keyId, attestedKeyId: keyId,
            attestationObject: made.object, clientDataHash: clientDataHash, publicKey: publicKey,
            receipt: made.receipt)
    }

    /// The id of a fresh key this device never attests.
    static func otherKeyId() -> [UInt8] { Array(SHA256.hash(data: P256.Signing.PrivateKey().publicKey.x963Representation)) }
}

/// Shapes of the credential certificate's nonce extension. Step 4 of
/// docs/models/app-attest.md requires DER `SEQUENCE { [1] EXPLICIT OCTET STRING (32) }`,
/// parsed, never sliced at a fixed offset: the reference verifier refuses
/// every other shape with `nonceExtensionMissing`. The other shapes keep the
/// value's length (38 bytes) and put the right nonce at offset 6 and in the
/// last 32 bytes, so a verifier that slices (pyattest 1.0.5 takes the value
/// from byte 6 on) accepts them: they catch exactly that bug.
public enum NonceExtensionShape: String, Sendable, Hashable, CaseIterable, Codable {
    /// `30 24 A1 22 04 20` ‖ nonce: the shape of step 4.
    case standard
    /// `30 24 A2 22 04 20` ‖ nonce: context tag [2] instead of [1].
    case otherTag = "other-tag"
    /// `31 24 A1 22 04 20` ‖ nonce: a SET instead of the SEQUENCE.
    case set

    /// The extension value holding `nonce` in this shape.
    func encode(_ nonce: [UInt8]) -> [UInt8] {
        switch self {
        case .standard: return NonceShapes.standard(nonce)
        case .otherTag: return NonceShapes.wrongTag(nonce)
        case .set: return NonceShapes.setWrapped(nonce)
        }
    }
}
