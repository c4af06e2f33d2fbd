import StrictCBOR

/// What an iOS 27 or macOS 27 device says about the launched app at the end
/// of the authenticator data (docs/models/app-attest.md, Launch policy and
/// macOS 27): the trailing CBOR map's `apple_validation_category_01` (a
/// 4-byte little-endian unsigned integer in a byte string),
/// `apple_bundle_version_01` (text, the app's build version), and on a Mac
/// that uses the code-directory hash option `apple_cd_hash_type_01` (a
/// 1-byte byte string) and `apple_cd_hash_hash_01` (a byte string of 32
/// bytes, or the 20-byte truncated CDHash).
///
/// Read when the authenticator data is parsed, for attestations and
/// assertions alike, whether or not the caller has a ``LaunchPolicy``: a
/// known key with the wrong type or size is `malformedAuthenticatorData`.
/// Every other key is kept and exposed (forward compatibility), never judged.
public struct LaunchData: Sendable, Hashable {
    /// The map key of the validation category.
    public static let validationCategoryKey = "apple_validation_category_01"
    /// The map key of the bundle version.
    public static let bundleVersionKey = "apple_bundle_version_01"
    /// The map key of the code-directory hash's type (macOS 27).
    public static let codeDirectoryHashTypeKey = "apple_cd_hash_type_01"
    /// The map key of the code-directory hash (macOS 27).
    public static let codeDirectoryHashKey = "apple_cd_hash_hash_01"
    /// The size of the category's byte string.
    static let validationCategoryLength = 4
    /// The size of the hash type's byte string.
    static let codeDirectoryHashTypeLength = 1
    /// The sizes a code-directory hash may have: a full SHA-256 hash, or the
    /// 20-byte truncated CDHash. Any other size is malformed.
    public static let codeDirectoryHashLengths: Set<Int> = [32, 20]

    /// The shape of the launch data: which platform writes these keys.
    public enum Shape: String, Sendable, Hashable, CaseIterable {
        /// The two keys of iOS 27 (and of a Mac without the hash option): category and bundle version.
        case iOS
        /// The macOS 27 shape: a code-directory hash key or its type besides them.
        case macOS
    }

    /// The validation category, when the map has the key.
    public let validationCategory: UInt32?
    /// The bundle version text as sent (not necessarily dotted decimals), when the map has the key.
    public let bundleVersion: String?
    /// The code-directory hash's type byte (2 = SHA-256), when the map has the key.
    public let codeDirectoryHashType: UInt8?
    /// The code-directory hash (32 or 20 bytes), when the map has the key.
    public let codeDirectoryHash: [UInt8]?
    /// Keys of the map other than the four above, in map order.
    public let otherKeys: [CBORItem]

    /// `macOS` when the map carries a code-directory hash key, else `iOS`.
    /// Informational: a Mac without the hash option writes the iOS shape
    /// (with category 6, Developer ID, outside the App Store).
    public var shape: Shape { codeDirectoryHash != nil || codeDirectoryHashType != nil ? .macOS : .iOS }

    /// Reads the launch data of the trailing map `map`.
    public init(map: CBORItem) throws(AppAttestError) {
        guard let entries = map.mapValue else { throw AuthenticatorData.malformed("trailing data is not a CBOR map") }
        var category: UInt32? = nil, version: String? = nil, hashType: UInt8? = nil, hash: [UInt8]? = nil
        var others: [CBORItem] = []
        // ctap2 decoding has already refused duplicate keys, so each known key is seen at most once.
        for entry in entries {
            switch entry.key.textValue {
            case Self.validationCategoryKey?:
                guard let bytes = entry.value.byteSlice, bytes.count == Self.validationCategoryLength else {
                    throw AuthenticatorData.malformed(
                        "\(Self.validationCategoryKey) must be a byte string of 4 bytes, found \(entry.value.diagnostic)")
                }
                category = bytes.reversed().reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
            case Self.bundleVersionKey?:
                guard let text = entry.value.textValue else {
                    throw AuthenticatorData.malformed("\(Self.bundleVersionKey) must be a text string, found \(entry.value.diagnostic)")
                }
                version = text
            case Self.codeDirectoryHashTypeKey?:
                guard let bytes = entry.value.byteSlice, bytes.count == Self.codeDirectoryHashTypeLength, let byte = bytes.first else {
                    throw AuthenticatorData.malformed(
                        "\(Self.codeDirectoryHashTypeKey) must be a byte string of 1 byte, found \(entry.value.diagnostic)")
                }
                hashType = byte
            case Self.codeDirectoryHashKey?:
                guard let bytes = entry.value.byteSlice, Self.codeDirectoryHashLengths.contains(bytes.count) else {
                    throw AuthenticatorData.malformed(
                        "\(Self.codeDirectoryHashKey) must be a byte string of 32 or 20 bytes, found \(entry.value.diagnostic)")
                }
                hash = Array(bytes)
            default:
                others.append(entry.key)
            }
        }
        validationCategory = category
        bundleVersion = version
        codeDirectoryHashType = hashType
        codeDirectoryHash = hash
        otherKeys = others
    }

    /// The informational name public verifiers give a validation category:
    /// 1 platform, 2 TestFlight, 3 development, 4 App Store, 5 enterprise,
    /// 6 Developer ID, 10 none; every other number (7–9 among them) is
    /// unassigned. Apple's documents we hold give only the sample's value
    /// (1), so the names decide nothing: policies compare numbers.
    public static func validationCategoryName(_ category: UInt32) -> String {
        switch category {
        case 1: "platform"
        case 2: "TestFlight"
        case 3: "development"
        case 4: "App Store"
        case 5: "enterprise"
        case 6: "Developer ID"
        case 10: "none"
        default: "unassigned"
        }
    }

    /// The informational name of a code-directory hash type: the code
    /// signing hash types of Apple's open-source `cs_blobs.h` (1 SHA-1,
    /// 2 SHA-256, 3 SHA-256 truncated, 4 SHA-384); the devices seen write 2.
    /// Like the category's names, these decide nothing.
    public static func codeDirectoryHashTypeName(_ type: UInt8) -> String {
        switch type {
        case 1: "SHA-1"
        case 2: "SHA-256"
        case 3: "SHA-256 truncated"
        case 4: "SHA-384"
        default: "unknown"
        }
    }
}
