import Crypto
import Foundation
import TestPKI

extension SoftwareDevice {
    /// Shapes of assertion a server's checks need (docs/probe.md, The checks:
    /// baseline, replay, signatures, iOS 27 shapes, launch policy). The
    /// default is the next valid assertion: counter one above the stored one,
    /// flags 0x40, no trailing map (a device before iOS 27). Options combine.
    public struct AssertOptions: LaunchDataOptions {
        /// Sign with the counter of the previous assertion again (a replay):
        /// step 5, `counterNotIncreasing`. Excludes `counter`.
        public var replayCounter = false
        /// Sign with a key this device never attested: step 3, `signatureInvalid`.
        public var foreignKey = false
        /// Append the `apple_*` map of Apple's 2026 sample (category 1, version
        /// "1") after the 37-byte header, as iOS 27 devices do: accepted
        /// (docs/models/app-attest.md, Authenticator data in assertions).
        public var extensions = false
        /// Write `apple_validation_category_01` with this number (4 bytes,
        /// little-endian); judged by a launch policy's allowed categories.
        public var validationCategory: UInt32? = nil
        /// Write `apple_bundle_version_01` with this text; judged by a launch
        /// policy's minimum. No category, version or `extensions`: no map at
        /// all, as devices before iOS 27.
        public var bundleVersion: String? = nil
        /// Sign with this counter instead of the next one: equal to or below
        /// the stored counter is a replay (`counterNotIncreasing`), above it
        /// a jump (accepted). The stored counter becomes the larger of the
        /// two. Excludes `replayCounter`.
        public var counter: UInt32? = nil
        /// Sign the nonce as if it were already a SHA-256 digest (ECDSA over
        /// the nonce itself, not over SHA-256 of it): the classic ES256
        /// mistake, step 3, `signatureInvalid`.
        public var prehashedNonce = false
        /// rpIdHash of this App ID instead of the device's (the signature
        /// covers it): another app's assertion, step 4, `rpIdMismatch`. Any text.
        public var otherAppId: String? = nil
        /// The flags byte. Real assertions carry 0x40 (AT); iOS 27 devices
        /// are reported to send 0xC0 with the `apple_*` map. The reference
        /// verifier decides nothing on flags: 0x40 and 0xC0, with or without
        /// the map, are accepted (docs/models/app-attest.md, Assertion).
        public var flags: UInt8 = 0x40
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
            replayCounter: Bool = false, foreignKey: Bool = false, extensions: Bool = false,
            validationCategory: UInt32? = nil, bundleVersion: String? = nil, counter: UInt32? = nil,
            prehashedNonce: Bool = false, otherAppId: String? = nil, flags: UInt8 = 0x40, platform: LaunchPlatform = .ios,
            codeDirectoryHash: [UInt8]? = nil, omitCodeDirectoryHash: Bool = false
        ) {
            self.replayCounter = replayCounter
            self.foreignKey = foreignKey
            self.extensions = extensions
            self.validationCategory = validationCategory
            self.bundleVersion = bundleVersion
            self.counter = counter
            self.prehashedNonce = prehashedNonce
            self.otherAppId = otherAppId
            self.flags = flags
            self.platform = platform
            self.codeDirectoryHash = codeDirectoryHash
            self.omitCodeDirectoryHash = omitCodeDirectoryHash
        }
    }

    public struct GeneratedAssertion: Sendable {
        public let assertion: [UInt8]
        /// The counter the assertion carries.
        public let counter: UInt32
    }

    /// Signs `clientData` with the key `keyId` and the next counter (or the
    /// one `options` chooses), as `generateAssertion` does:
    /// ES256 over SHA-256(authenticatorData ‖ SHA-256(clientData)).
    public func assert(keyId: [UInt8], clientData: [UInt8], options: AssertOptions = AssertOptions()) throws -> GeneratedAssertion {
        if options.replayCounter && options.counter != nil {
            throw DeviceError("replayCounter and counter exclude each other: give one")
        }
        let (key, counter) = try withKey(keyId) { stored in
            if options.replayCounter { return stored }
            if let chosen = options.counter { return chosen }
            guard stored < UInt32.max else { throw DeviceError("the counter of this key is exhausted") }
            return stored + 1
        }
        let object = try assertionObject(
            key: key, counter: counter, clientDataHash: Array(SHA256.hash(data: clientData)), options: options)
        return GeneratedAssertion(assertion: object, counter: counter)
    }

    /// The assertion object signed by `key` with `counter` over `clientDataHash`
    /// (what `generateAssertion` is given: the app's SHA-256 of its client data).
    func assertionObject(
        key: P256.Signing.PrivateKey, counter: UInt32, clientDataHash: [UInt8], options: AssertOptions
    ) throws -> [UInt8] {
        var authData = Array(SHA256.hash(data: Array((options.otherAppId ?? appId).utf8)))
        authData.append(options.flags)
        authData += withUnsafeBytes(of: counter.bigEndian, Array.init)
        authData += options.launchMap(appId: options.otherAppId ?? appId)
        var hasher = SHA256()
        hasher.update(data: authData)
        hasher.update(data: clientDataHash)
        let nonce = Array(hasher.finalize())
        let signer = options.foreignKey ? P256.Signing.PrivateKey() : key
        let signature =
            options.prehashedNonce
            ? try signer.signature(for: RawDigest(bytes: nonce)) : try signer.signature(for: nonce)
        return SoftwareCA.assertionObject(signature: Array(signature.derRepresentation), authenticatorData: authData)
    }
}
