import AppAttest
import Crypto
import StrictCBOR

/// The App ID and challenge the generated vectors and the software device's
/// baselines are made for.
package enum TestIdentity {
    package static let appId = "ABCDE12345.org.trustsuite.example"
    package static let challenge = Array("trustsuite attestation challenge".utf8)
    package static let clientDataHash = Array(SHA256.hash(data: challenge))
}

/// The launch-data map iOS 27 and macOS 27 devices append
/// (docs/models/app-attest.md, Launch policy and macOS 27).
package enum AppleExtensions {
    /// The map of Apple's 2026 sample: bundle version "1", category 1.
    package static let map = launchMap(category: category(1), bundleVersion: .text("1"))

    /// The category of Mac apps outside the App Store (Developer ID).
    package static let macCategory: UInt32 = 6
    /// The code-directory hash type the devices seen write (SHA-256).
    package static let sha256HashType: UInt8 = 2

    /// The category as devices write it: 4 bytes, little-endian.
    package static func category(_ value: UInt32) -> CBORValue { .bytes(withUnsafeBytes(of: value.littleEndian, Array.init)) }

    /// The stand-in code-directory hash of an app: SHA-256 of its App ID
    /// (a real one hashes the app's code directory; a test needs one that
    /// is stable per app and that a server can allowlist).
    package static func codeDirectoryHash(appId: String) -> [UInt8] { Array(SHA256.hash(data: Array(appId.utf8))) }

    /// A launch map holding the given values (any CBOR, to make malformed
    /// ones) under the `apple_*` keys, plus `others`; keys left nil are absent.
    package static func launchMap(
        category: CBORValue?, bundleVersion: CBORValue?, others: [(CBORValue, CBORValue)] = [],
        hashType: CBORValue? = nil, hash: CBORValue? = nil
    ) -> CBORValue {
        var entries = others
        if let bundleVersion { entries.append((.text(LaunchData.bundleVersionKey), bundleVersion)) }
        if let category { entries.append((.text(LaunchData.validationCategoryKey), category)) }
        if let hashType { entries.append((.text(LaunchData.codeDirectoryHashTypeKey), hashType)) }
        if let hash { entries.append((.text(LaunchData.codeDirectoryHashKey), hash)) }
        return .map(entries)
    }

    /// The map of a Mac app (macOS 27): category (default 6), bundle
    /// version, and, when `hash` is given, hash type `hashType` (a 1-byte
    /// string) and the hash.
    package static func macMap(
        category: UInt32 = macCategory, bundleVersion: String = "1", hashType: UInt8 = sha256HashType,
        hash: [UInt8]?
    ) -> CBORValue {
        launchMap(
            category: self.category(category), bundleVersion: .text(bundleVersion),
            hashType: hash == nil ? nil : .bytes([hashType]), hash: hash.map(CBORValue.bytes))
    }
}

/// The assembled pieces, for structure mutations.
package struct AttestationParts {
    package var fmt: CBORValue
    package var x5c: [[UInt8]]
    package var receipt: [UInt8]
    package var authData: [UInt8]

    package init(fmt: CBORValue, x5c: [[UInt8]], receipt: [UInt8], authData: [UInt8]) {
        self.fmt = fmt
        self.x5c = x5c
        self.receipt = receipt
        self.authData = authData
    }

    package var standard: CBORValue {
        .map([
            (.text("fmt"), fmt),
            (.text("attStmt"), .map([(.text("x5c"), .array(x5c.map(CBORValue.bytes))), (.text("receipt"), .bytes(receipt))])),
            (.text("authData"), .bytes(authData)),
        ])
    }
}

/// Shapes of the nonce extension value (step 4).
package enum NonceShapes {
    package static func standard(_ nonce: [UInt8]) -> [UInt8] { TLV.sequence(TLV.explicit(1, TLV.octets(nonce))) }
    package static func bare(_ nonce: [UInt8]) -> [UInt8] { TLV.sequence(TLV.octets(nonce)) }
    package static func wrongTag(_ nonce: [UInt8]) -> [UInt8] { TLV.sequence(TLV.explicit(2, TLV.octets(nonce))) }
    package static func implicit(_ nonce: [UInt8]) -> [UInt8] { TLV.sequence(TLV.node(0x81, nonce)) }
    package static func short(_ nonce: [UInt8]) -> [UInt8] { standard(Array(nonce.dropLast())) }
    package static func long(_ nonce: [UInt8]) -> [UInt8] { standard(nonce + [0]) }
    package static func extra(_ nonce: [UInt8]) -> [UInt8] { TLV.sequence(TLV.explicit(1, TLV.octets(nonce)), TLV.integer(1)) }
    package static func octetOnly(_ nonce: [UInt8]) -> [UInt8] { TLV.octets(nonce) }
    package static func trailing(_ nonce: [UInt8]) -> [UInt8] { standard(nonce) + [0] }
    package static func setWrapped(_ nonce: [UInt8]) -> [UInt8] { TLV.set([TLV.explicit(1, TLV.octets(nonce))]) }
}

/// A digest made of given bytes, to sign a nonce as if it were already
/// hashed (the classic ES256 mistake: docs/models/app-attest.md, Assertion step 3).
package struct RawDigest: Digest {
    package static var byteCount: Int { 32 }
    package let bytes: [UInt8]
    package init(bytes: [UInt8]) { self.bytes = bytes }
    package func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R { try bytes.withUnsafeBytes(body) }
    package func makeIterator() -> IndexingIterator<[UInt8]> { bytes.makeIterator() }
    package var description: String { "RawDigest" }
}
