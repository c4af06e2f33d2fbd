import StrictCBOR

/// What an iOS 27 device says about the launched app at the end of the
/// authenticator data (spec/app-attest.md, Amendments (round 3), Launch
/// policy): the trailing CBOR map's `apple_validation_category_01` (a
/// 4-byte little-endian unsigned integer in a byte string) and
/// `apple_bundle_version_01` (text, the app's build version).
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
    /// The size of the category's byte string.
    static let validationCategoryLength = 4

    /// The validation category, when the map has the key.
    public let validationCategory: UInt32?
    /// The bundle version text as sent (not necessarily dotted decimals), when the map has the key.
    public let bundleVersion: String?
    /// Keys of the map other than the two above, in map order.
    public let otherKeys: [CBORItem]

    /// Reads the launch data of the trailing map `map`.
    public init(map: CBORItem) throws(AppAttestError) {
        guard let entries = map.mapValue else { throw AuthenticatorData.malformed("trailing data is not a CBOR map") }
        var category: UInt32? = nil, version: String? = nil
        var others: [CBORItem] = []
        // ctap2 decoding has already refused duplicate keys, so each known key is seen at most once.
        for entry in entries {
            if entry.key.textValue == Self.validationCategoryKey {
                guard let bytes = entry.value.byteSlice, bytes.count == Self.validationCategoryLength else {
                    throw AuthenticatorData.malformed("\(Self.validationCategoryKey) must be a byte string of 4 bytes, found \(entry.value.diagnostic)")
                }
                category = bytes.reversed().reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
            } else if entry.key.textValue == Self.bundleVersionKey {
                guard let text = entry.value.textValue else {
                    throw AuthenticatorData.malformed("\(Self.bundleVersionKey) must be a text string, found \(entry.value.diagnostic)")
                }
                version = text
            } else {
                others.append(entry.key)
            }
        }
        validationCategory = category
        bundleVersion = version
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
}
