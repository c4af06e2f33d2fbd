import AppAttest
import VectorContract
import StrictCBOR
import TrustSuiteSupport
import TestPKI

/// One launch-policy case (docs/models/app-attest.md, Launch
/// policy), built in both families: the same launch data after the COSE key
/// of an attestation and after the header of an assertion, under the same
/// policy inputs, with the same expected verdict.
struct LaunchCase {
    /// What follows the credential data (attestation) or the header (assertion).
    enum Trailing {
        /// No map: a device before iOS 27.
        case none
        /// A map, expected back as `extensions` when the vector is valid.
        case map(CBORValue)
        /// Bytes that are not one well-formed ctap2 map (duplicate keys).
        case raw([UInt8])
    }

    let id: String
    let comment: String
    let trailing: Trailing
    /// The policy inputs (docs/vectors.md names); empty: no policy.
    let policy: [String: JSONValue]
    let error: AppAttestError.Code?
    /// Flags besides the policy's (``FlagNotes``).
    var extraFlags: [String] = []
    /// The area of the vector ids: `launch-policy` (iOS 27), `macos` (macOS 27).
    var area = "launch-policy"

    /// `LaunchPolicy` when the input sets a policy, `CodeDirectoryHashPolicy`
    /// when it sets an allowlist, then the extra flags.
    var flags: [String] {
        var flags: [String] = policy.isEmpty ? [] : [LaunchPolicyFields.flag]
        if policy[LaunchPolicyFields.allowedCodeDirectoryHashes] != nil { flags.append(LaunchPolicyFields.codeDirectoryHashFlag) }
        return flags + extraFlags
    }

    /// Puts the trailing data and the policy into a spec of either family.
    func apply<Spec: TrailingMapSpec>(_ spec: inout Spec) {
        switch trailing {
        case .none: break
        case .map(let map): spec.appendMap(map)
        case .raw(let bytes): spec.trailing = bytes
        }
        spec.launchPolicy = policy
    }

    var attestationCase: AttestationCase { MutationCase("\(area)::\(id)", comment, error, flags: flags, apply) }
    var assertionCase: AssertionCase { MutationCase("\(area)::\(id)", comment, error, flags: flags, apply) }
}

/// The launch-policy cases, shared by attestation and assertion.
enum LaunchPolicyCatalog {
    /// Policy inputs as the vectors write them.
    static func policy(
        categories: [UInt32]? = nil, minimum: String? = nil, rule: LaunchPolicy.MissingLaunchData? = nil,
        hashes: [[UInt8]]? = nil
    ) -> [String: JSONValue] {
        var input: [String: JSONValue] = [:]
        if let categories { input[LaunchPolicyFields.allowedValidationCategories] = .array(categories.map { .int(Int64($0)) }) }
        if let minimum { input[LaunchPolicyFields.minimumBundleVersion] = .string(minimum) }
        if let rule { input[LaunchPolicyFields.missingLaunchData] = .string(rule.rawValue) }
        if let hashes { input[LaunchPolicyFields.allowedCodeDirectoryHashes] = .array(hashes.map { .string(BinaryText.hex($0)) }) }
        return input
    }

    /// A map with category `category` and bundle version `version` (nil: key absent).
    static func map(category: UInt32? = 1, version: String? = "1", others: [(CBORValue, CBORValue)] = []) -> LaunchCase.Trailing {
        .map(
            AppleExtensions.launchMap(
                category: category.map(AppleExtensions.category), bundleVersion: version.map(CBORValue.text),
                others: others))
    }

    /// Every category the spec names, and one it leaves unassigned.
    static let namedCategories: [UInt32] = [1, 2, 3, 4, 5, 6, 10]
    static let categories: [UInt32] = namedCategories + [7]

    static var cases: [LaunchCase] {
        var list: [LaunchCase] = []
        // Categories: each allowed alone, and refused by a set of every other named one.
        for category in categories {
            let name =
                "\(category)-\(LaunchData.validationCategoryName(category).lowercased().split(separator: " ").joined(separator: "-"))"
            let others = categories.filter { $0 != category }
            list.append(
                LaunchCase(
                    id: "category::\(name)-allowed",
                    comment: "category \(category) (\(LaunchData.validationCategoryName(category))), allowed {\(category)}",
                    trailing: map(category: category), policy: policy(categories: [category]), error: nil))
            list.append(
                LaunchCase(
                    id: "category::\(name)-refused", comment: "category \(category), allowed every other category of the catalog",
                    trailing: map(category: category), policy: policy(categories: others), error: .validationCategoryNotAllowed))
        }
        list += [
            LaunchCase(
                id: "category::big-endian-reading",
                comment: "category bytes 00 00 00 01 (16777216 little-endian), allowed {1}: read as big-endian it would pass",
                trailing: .map(AppleExtensions.launchMap(category: .bytes([0, 0, 0, 1]), bundleVersion: .text("1"))),
                policy: policy(categories: [1]), error: .validationCategoryNotAllowed),
            LaunchCase(
                id: "category::max-value", comment: "category ff ff ff ff (2^32-1), allowed {4294967295}",
                trailing: map(category: UInt32.max), policy: policy(categories: [UInt32.max]), error: nil),
            LaunchCase(
                id: "category::empty-set", comment: "category 1, the allowed set is empty",
                trailing: map(category: 1), policy: policy(categories: []), error: .validationCategoryNotAllowed),
            LaunchCase(
                id: "category::apple-sample-shape", comment: "Apple's 2026 sample map (category 1, version \"1\"), allowed {1, 4}",
                trailing: .map(AppleExtensions.map), policy: policy(categories: [1, 4]), error: nil),
        ]
        // Bundle versions against a minimum: dot-separated decimals compared numerically, missing parts 0.
        let versions: [(String, String, String, AppAttestError.Code?)] = [
            ("equal", "1.2.3", "1.2.3", nil),
            ("lower", "1.2.2", "1.2.3", .bundleVersionNotAllowed),
            ("higher", "1.2.4", "1.2.3", nil),
            ("higher-major", "2", "1.9.9", nil),
            ("numeric-1.10-over-1.9", "1.10", "1.9", nil),
            ("numeric-1.9-under-1.10", "1.9", "1.10", .bundleVersionNotAllowed),
            ("more-parts-equal", "2.0.0", "2", nil),
            ("more-parts-higher", "2.0.1", "2", nil),
            ("more-parts-lower", "1.9.9", "2", .bundleVersionNotAllowed),
            ("fewer-parts-equal", "2", "2.0.0", nil),
            ("fewer-parts-lower", "2", "2.0.1", .bundleVersionNotAllowed),
            ("sample-at-minimum", "1", "1", nil),
            ("sample-under-1.0.1", "1", "1.0.1", .bundleVersionNotAllowed),
            ("part-beyond-64-bits", "1.99999999999999999999999", "1.18446744073709551616", nil),
            ("part-beyond-64-bits-lower", "1.18446744073709551615", "1.18446744073709551616", .bundleVersionNotAllowed),
            ("non-numeric-letters", "1.0b3", "1.0", .bundleVersionNotAllowed),
            ("non-numeric-empty", "", "1", .bundleVersionNotAllowed),
            ("non-numeric-double-dot", "1..2", "1", .bundleVersionNotAllowed),
            ("non-numeric-trailing-dot", "2.", "1", .bundleVersionNotAllowed),
            ("non-numeric-leading-v", "v2.0", "1", .bundleVersionNotAllowed),
            ("non-numeric-space", "2.0 ", "1", .bundleVersionNotAllowed),
            ("non-numeric-sign", "+2", "1", .bundleVersionNotAllowed),
        ]
        for (name, version, minimum, error) in versions {
            list.append(
                LaunchCase(
                    id: "bundle-version::\(name)", comment: "bundle version \"\(version)\", minimum \(minimum)",
                    trailing: map(version: version), policy: policy(minimum: minimum), error: error))
        }
        list += [
            LaunchCase(
                id: "bundle-version::non-numeric-without-minimum",
                comment: "bundle version \"1.0b3\" under a category-only policy: its form is not judged",
                trailing: map(version: "1.0b3"), policy: policy(categories: [1]), error: nil),
            LaunchCase(
                id: "bundle-version::category-and-version", comment: "category 4 allowed {4}, version 3.1 over minimum 3.0.2",
                trailing: map(category: 4, version: "3.1"), policy: policy(categories: [4], minimum: "3.0.2"), error: nil),
            LaunchCase(
                id: "bundle-version::category-checked-first",
                comment: "category 3 not allowed {4} and version 1 under minimum 2: the category is checked first",
                trailing: map(category: 3, version: "1"), policy: policy(categories: [4], minimum: "2"),
                error: .validationCategoryNotAllowed),
        ]
        // Missing launch data (devices before iOS 27), under reject and allow.
        let missing: [(String, String, LaunchCase.Trailing, [String: JSONValue], AppAttestError.Code?)] = [
            ("no-map-category-reject", "no map, allowed {1}, reject", .none, policy(categories: [1], rule: .reject), .launchDataMissing),
            ("no-map-category-allow", "no map, allowed {1}, allow", .none, policy(categories: [1], rule: .allow), nil),
            ("no-map-version-reject", "no map, minimum 1, reject", .none, policy(minimum: "1", rule: .reject), .launchDataMissing),
            ("no-map-version-allow", "no map, minimum 1, allow", .none, policy(minimum: "1", rule: .allow), nil),
            (
                "no-map-both-reject", "no map, allowed {4} and minimum 2, reject", .none,
                policy(categories: [4], minimum: "2", rule: .reject), .launchDataMissing
            ),
            (
                "no-map-both-allow", "no map, allowed {4} and minimum 2, allow", .none, policy(categories: [4], minimum: "2", rule: .allow),
                nil
            ),
            ("no-map-rule-only-reject", "no map, a policy with only the rule reject", .none, policy(rule: .reject), .launchDataMissing),
            ("no-map-rule-only-allow", "no map, a policy with only the rule allow", .none, policy(rule: .allow), nil),
            (
                "no-map-default-rule", "no map, allowed {1} and no rule: a policy that asks for data rejects its absence", .none,
                policy(categories: [1]), .launchDataMissing
            ),
            (
                "category-only-map-both-reject", "a map with only the category, allowed {1} and minimum 1, reject", map(version: nil),
                policy(categories: [1], minimum: "1", rule: .reject), .launchDataMissing
            ),
            (
                "category-only-map-both-allow",
                "a map with only the category, allowed {1} and minimum 1, allow: the category is still checked", map(version: nil),
                policy(categories: [1], minimum: "1", rule: .allow), nil
            ),
            (
                "category-only-map-refused-allow", "a map with only category 3, allowed {1}, allow: present data is checked",
                map(category: 3, version: nil),
                policy(categories: [1], rule: .allow), .validationCategoryNotAllowed
            ),
            (
                "category-only-map-category-policy",
                "a map with only the category, allowed {1}, reject: nothing the policy needs is missing", map(version: nil),
                policy(categories: [1], rule: .reject), nil
            ),
            (
                "version-only-map-both-reject", "a map with only the version, allowed {1} and minimum 1, reject", map(category: nil),
                policy(categories: [1], minimum: "1", rule: .reject), .launchDataMissing
            ),
            (
                "version-only-map-both-allow", "a map with only the version, allowed {1} and minimum 1, allow", map(category: nil),
                policy(categories: [1], minimum: "1", rule: .allow), nil
            ),
            (
                "version-only-map-lower-allow", "a map with only version 1, minimum 2, allow: present data is checked",
                map(category: nil, version: "1"),
                policy(minimum: "2", rule: .allow), .bundleVersionNotAllowed
            ),
            (
                "version-only-map-version-policy", "a map with only the version, minimum 1, reject", map(category: nil),
                policy(minimum: "1", rule: .reject), nil
            ),
            (
                "unknown-keys-only-reject", "a map without the apple_* keys, allowed {1}, reject",
                map(category: nil, version: nil, others: [(.text("k"), .int(1))]),
                policy(categories: [1], rule: .reject), .launchDataMissing
            ),
            (
                "unknown-keys-only-allow", "a map without the apple_* keys, allowed {1}, allow",
                map(category: nil, version: nil, others: [(.text("k"), .int(1))]),
                policy(categories: [1], rule: .allow), nil
            ),
            (
                "map-present-rule-only-reject", "Apple's map under a policy with only the rule reject", .map(AppleExtensions.map),
                policy(rule: .reject), nil
            ),
        ]
        for (name, comment, trailing, input, error) in missing {
            list.append(LaunchCase(id: "missing::\(name)", comment: comment, trailing: trailing, policy: input, error: error))
        }
        // Unknown keys are accepted and exposed (forward compatibility).
        let unknown: [(CBORValue, CBORValue)] = [
            (.text("apple_future_key_02"), .bytes([9, 9])), (.text("k"), .int(1)), (.int(7), .text("x")),
        ]
        list += [
            LaunchCase(
                id: "unknown-keys::with-policy", comment: "unknown keys beside the apple_* keys, under a policy: accepted and exposed",
                trailing: map(others: unknown), policy: policy(categories: [1], minimum: "1", rule: .reject), error: nil),
            LaunchCase(
                id: "unknown-keys::without-policy", comment: "unknown keys beside the apple_* keys, no policy: accepted and exposed",
                trailing: map(others: unknown), policy: [:], error: nil),
            LaunchCase(
                id: "unknown-keys::nested-map", comment: "an unknown key holding a map of its own, under a policy",
                trailing: map(others: [(.text("apple_future_map_01"), .map([(.text(LaunchData.validationCategoryKey), .int(1))]))]),
                policy: policy(categories: [1]), error: nil),
        ]
        // A known key of the wrong type or size is malformed, with or without a policy.
        let malformed: [(String, String, LaunchCase.Trailing)] = [
            (
                "category-3-bytes", "category of 3 bytes",
                .map(AppleExtensions.launchMap(category: .bytes([1, 0, 0]), bundleVersion: .text("1")))
            ),
            (
                "category-5-bytes", "category of 5 bytes",
                .map(AppleExtensions.launchMap(category: .bytes([1, 0, 0, 0, 0]), bundleVersion: .text("1")))
            ),
            ("category-empty", "category of 0 bytes", .map(AppleExtensions.launchMap(category: .bytes([]), bundleVersion: .text("1")))),
            (
                "category-integer", "category as the integer 1",
                .map(AppleExtensions.launchMap(category: .int(1), bundleVersion: .text("1")))
            ),
            (
                "category-text", "category as the text \"1\"",
                .map(AppleExtensions.launchMap(category: .text("1"), bundleVersion: .text("1")))
            ),
            (
                "version-bytes", "bundle version as the bytes of \"1\"",
                .map(AppleExtensions.launchMap(category: AppleExtensions.category(1), bundleVersion: .bytes(Array("1".utf8))))
            ),
            (
                "version-integer", "bundle version as the integer 1",
                .map(AppleExtensions.launchMap(category: AppleExtensions.category(1), bundleVersion: .int(1)))
            ),
            (
                "version-null", "bundle version null",
                .map(AppleExtensions.launchMap(category: AppleExtensions.category(1), bundleVersion: .null))
            ),
            (
                "duplicate-category", "the category key twice (same value)",
                .raw(duplicateKeyMap(LaunchData.validationCategoryKey, AppleExtensions.category(1), AppleExtensions.category(1)))
            ),
            (
                "duplicate-version", "the bundle version key twice (\"1\", then \"9\")",
                .raw(duplicateKeyMap(LaunchData.bundleVersionKey, .text("1"), .text("9")))
            ),
        ]
        for (name, comment, trailing) in malformed {
            // The integer category is acceptable (docs/models/app-attest.md,
            // The category's encoding): the reference still refuses it.
            let integer = name == "category-integer"
            let reading =
                integer
                ? ": the reference reads only the 4-byte string and refuses it (malformedAuthenticatorData); either verdict conforms" : ""
            let extra = integer ? [FlagNotes.categoryAsInteger] : []
            list.append(
                LaunchCase(
                    id: "malformed::\(name)", comment: "\(comment), no policy\(reading)", trailing: trailing, policy: [:],
                    error: .malformedAuthenticatorData, extraFlags: extra))
            list.append(
                LaunchCase(
                    id: "malformed::\(name)-with-policy", comment: "\(comment), under a policy\(reading)", trailing: trailing,
                    policy: policy(categories: [1], minimum: "1", rule: .allow), error: .malformedAuthenticatorData, extraFlags: extra))
        }
        return list
    }

    /// `{key: first, key: second}`: a map that repeats `key` (ctap2 refuses
    /// it, so the launch data cannot be read).
    static func duplicateKeyMap(_ key: String, _ first: CBORValue, _ second: CBORValue) -> [UInt8] {
        let encodedKey = CBOREncoder.canonical(.text(key))
        return [0xA2] + encodedKey + CBOREncoder.canonical(first) + encodedKey + CBOREncoder.canonical(second)
    }
}
