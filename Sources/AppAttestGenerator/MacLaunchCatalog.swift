import AppAttest
import VectorContract
import Crypto
import StrictCBOR
import TrustSuiteSupport
import TestPKI

/// The macOS 27 cases (docs/models/app-attest.md, macOS 27), built in both
/// families like ``LaunchPolicyCatalog``'s: Mac launch data with and
/// without the code-directory hash, both hash sizes, the keys of the wrong
/// type or size, the allowlist in and out, and category 6 under every
/// policy. Every case carries `MacLaunchData`.
enum MacLaunchCatalog {
    /// The app's code-directory hash (32 bytes) and its truncated CDHash (the first 20).
    static let hash = AppleExtensions.codeDirectoryHash(appId: TestIdentity.appId)
    static var truncated: [UInt8] { Array(hash.prefix(20)) }
    /// Another app's hash, for the allowlist's refusals.
    static let otherHash = AppleExtensions.codeDirectoryHash(appId: "ABCDE12345.org.trustsuite.other")
    /// `hash` with its last bit changed.
    static var flipped: [UInt8] {
        var bytes = hash
        bytes[bytes.count - 1] ^= 0x01
        return bytes
    }

    typealias Policy = LaunchPolicyCatalog

    /// A Mac map: category 6, version "1", hash type 2 and `hash` (nil: no hash keys).
    static func mac(_ hash: [UInt8]?, category: UInt32 = AppleExtensions.macCategory, version: String = "1") -> LaunchCase.Trailing {
        .map(AppleExtensions.macMap(category: category, bundleVersion: version, hash: hash))
    }

    /// A map with the given raw values under the hash keys (to make malformed ones), beside category 6 and version "1".
    static func raw(type: CBORValue?, hash: CBORValue?) -> LaunchCase.Trailing {
        .map(
            AppleExtensions.launchMap(
                category: AppleExtensions.category(AppleExtensions.macCategory), bundleVersion: .text("1"),
                hashType: type, hash: hash))
    }

    static func item(
        _ id: String, _ comment: String, _ trailing: LaunchCase.Trailing, _ policy: [String: JSONValue],
        _ error: AppAttestError.Code?
    ) -> LaunchCase {
        LaunchCase(
            id: id, comment: comment, trailing: trailing, policy: policy, error: error, extraFlags: [FlagNotes.macLaunchData],
            area: "macos")
    }

    static var cases: [LaunchCase] {
        var list: [LaunchCase] = []
        // The shapes, no policy: the keys are exposed and decide nothing.
        list += [
            item(
                "shape::with-hash-32", "a Mac app with the hash option: category 6, version \"1\", hash type 2, a 32-byte hash", mac(hash),
                [:], nil),
            item("shape::with-hash-20", "the same with the 20-byte truncated CDHash", mac(truncated), [:], nil),
            item(
                "shape::without-hash", "a Mac app without the hash option: category 6 and version \"1\" only (the iOS keys)", mac(nil), [:],
                nil),
            item(
                "shape::hash-without-type", "the hash without its type key: each key is judged alone",
                raw(type: nil, hash: .bytes(hash)), [:], nil),
            item("shape::type-without-hash", "the type without a hash", raw(type: .bytes([2]), hash: nil), [:], nil),
            item(
                "shape::hash-type-1", "hash type 1 (SHA-1 in cs_blobs.h) with a 20-byte hash: the type's value decides nothing",
                raw(type: .bytes([1]), hash: .bytes(truncated)), [:], nil),
            item("shape::hash-type-0", "hash type 0 (no name) with a 32-byte hash", raw(type: .bytes([0]), hash: .bytes(hash)), [:], nil),
            item("shape::hash-type-255", "hash type 255 with a 32-byte hash", raw(type: .bytes([255]), hash: .bytes(hash)), [:], nil),
            item("shape::app-store-category", "a Mac App Store app with the hash option: category 4", mac(hash, category: 4), [:], nil),
            item(
                "shape::hash-keys-only", "a map of the two hash keys alone",
                .map(AppleExtensions.launchMap(category: nil, bundleVersion: nil, hashType: .bytes([2]), hash: .bytes(hash))), [:], nil),
            item(
                "shape::unknown-key-beside", "the Mac keys and an unknown apple_* key",
                .map(
                    AppleExtensions.launchMap(
                        category: AppleExtensions.category(6), bundleVersion: .text("1"),
                        others: [(.text("apple_future_key_02"), .bytes([9]))], hashType: .bytes([2]), hash: .bytes(hash))),
                [:], nil),
        ]
        // The hash keys of the wrong type or size: malformed with or without a policy.
        let malformed: [(String, String, LaunchCase.Trailing)] = [
            ("type-empty", "hash type of 0 bytes", raw(type: .bytes([]), hash: .bytes(hash))),
            ("type-2-bytes", "hash type of 2 bytes (00 02)", raw(type: .bytes([0, 2]), hash: .bytes(hash))),
            ("type-integer", "hash type as the integer 2", raw(type: .int(2), hash: .bytes(hash))),
            ("type-text", "hash type as the text \"2\"", raw(type: .text("2"), hash: .bytes(hash))),
            ("type-null", "hash type null", raw(type: .null, hash: .bytes(hash))),
            ("hash-empty", "a hash of 0 bytes", raw(type: .bytes([2]), hash: .bytes([]))),
            ("hash-19-bytes", "a hash of 19 bytes", raw(type: .bytes([2]), hash: .bytes(Array(hash.prefix(19))))),
            ("hash-21-bytes", "a hash of 21 bytes", raw(type: .bytes([2]), hash: .bytes(Array(hash.prefix(21))))),
            ("hash-31-bytes", "a hash of 31 bytes", raw(type: .bytes([2]), hash: .bytes(Array(hash.prefix(31))))),
            ("hash-33-bytes", "a hash of 33 bytes", raw(type: .bytes([2]), hash: .bytes(hash + [0]))),
            ("hash-48-bytes", "a hash of 48 bytes (a SHA-384 length)", raw(type: .bytes([4]), hash: .bytes(hash + Array(hash.prefix(16))))),
            ("hash-hex-text", "the hash as its hex text", raw(type: .bytes([2]), hash: .text(BinaryText.hex(hash)))),
            ("hash-integer", "the hash as the integer 2", raw(type: .bytes([2]), hash: .int(2))),
            ("hash-array", "the hash as an array of one byte string", raw(type: .bytes([2]), hash: .array([.bytes(hash)]))),
            (
                "duplicate-hash", "the hash key twice (the same hash)",
                .raw(LaunchPolicyCatalog.duplicateKeyMap(LaunchData.codeDirectoryHashKey, .bytes(hash), .bytes(hash)))
            ),
            (
                "duplicate-type", "the type key twice (2, then 1)",
                .raw(LaunchPolicyCatalog.duplicateKeyMap(LaunchData.codeDirectoryHashTypeKey, .bytes([2]), .bytes([1])))
            ),
        ]
        let anyPolicy = Policy.policy(categories: [6], minimum: "1", rule: .allow, hashes: [hash])
        for (name, comment, trailing) in malformed {
            list.append(item("malformed::\(name)", "\(comment), no policy", trailing, [:], .malformedAuthenticatorData))
            list.append(
                item(
                    "malformed::\(name)-with-policy", "\(comment), under a policy that allows the app's hash", trailing, anyPolicy,
                    .malformedAuthenticatorData))
        }
        // The allowlist in and out.
        let other = otherHash
        list += [
            item("allowlist::in-32", "32-byte hash, allowlist {that hash}", mac(hash), Policy.policy(hashes: [hash]), nil),
            item(
                "allowlist::in-20", "20-byte hash, allowlist {that 20-byte hash}", mac(truncated), Policy.policy(hashes: [truncated]), nil),
            item(
                "allowlist::in-20-by-32-entry",
                "20-byte hash, allowlist {the 32-byte hash it truncates}: a 32-byte entry matches its first 20 bytes",
                mac(truncated), Policy.policy(hashes: [hash]), nil),
            item(
                "allowlist::in-among-several", "32-byte hash, allowlist {another app's, its own flipped, its own}", mac(hash),
                Policy.policy(hashes: [other, flipped, hash]), nil),
            item(
                "allowlist::in-hash-type-1", "hash type 1 and a hash in the allowlist: the type decides nothing",
                raw(type: .bytes([1]), hash: .bytes(hash)), Policy.policy(hashes: [hash]), nil),
            item(
                "allowlist::out-32", "32-byte hash, allowlist {another app's}", mac(hash), Policy.policy(hashes: [other]),
                .codeDirectoryHashNotAllowed),
            item(
                "allowlist::out-20", "20-byte hash, allowlist {another app's 32-byte hash}", mac(truncated), Policy.policy(hashes: [other]),
                .codeDirectoryHashNotAllowed),
            item(
                "allowlist::out-32-by-20-entry",
                "32-byte hash, allowlist {its own first 20 bytes}: a 20-byte entry matches only a 20-byte hash",
                mac(hash), Policy.policy(hashes: [truncated]), .codeDirectoryHashNotAllowed),
            item(
                "allowlist::out-20-suffix", "20-byte hash made of the last 20 bytes of an allowed 32-byte hash: only the prefix matches",
                mac(Array(hash.suffix(20))), Policy.policy(hashes: [hash]), .codeDirectoryHashNotAllowed),
            item(
                "allowlist::out-one-bit", "32-byte hash, allowlist {the hash with its last bit flipped}", mac(hash),
                Policy.policy(hashes: [flipped]),
                .codeDirectoryHashNotAllowed),
            item(
                "allowlist::out-empty", "32-byte hash, an empty allowlist", mac(hash), Policy.policy(hashes: []),
                .codeDirectoryHashNotAllowed),
            item(
                "allowlist::missing-hash-reject", "no hash keys (a Mac app without the option), allowlist {the app's}, reject", mac(nil),
                Policy.policy(rule: .reject, hashes: [hash]), .launchDataMissing),
            item(
                "allowlist::missing-hash-allow", "no hash keys, allowlist {the app's}, allow", mac(nil),
                Policy.policy(rule: .allow, hashes: [hash]), nil),
            item(
                "allowlist::missing-hash-default-rule", "no hash keys, allowlist {the app's} and no rule: an allowlist asks for a hash",
                mac(nil), Policy.policy(hashes: [hash]), .launchDataMissing),
            item(
                "allowlist::type-without-hash-reject", "a type and no hash, allowlist {the app's}, reject",
                raw(type: .bytes([2]), hash: nil),
                Policy.policy(rule: .reject, hashes: [hash]), .launchDataMissing),
            item(
                "allowlist::no-map-reject", "no map (a device before 27), allowlist {the app's}, reject", .none,
                Policy.policy(rule: .reject, hashes: [hash]), .launchDataMissing),
            item(
                "allowlist::no-map-allow", "no map, allowlist {the app's}, allow", .none, Policy.policy(rule: .allow, hashes: [hash]), nil),
            item(
                "allowlist::ios-map-reject", "an iPhone's map (Apple's 2026 sample) under a Mac allowlist, reject",
                .map(AppleExtensions.map),
                Policy.policy(rule: .reject, hashes: [hash]), .launchDataMissing),
            item(
                "allowlist::ios-map-allow", "an iPhone's map under a Mac allowlist, allow: a server of both platforms",
                .map(AppleExtensions.map),
                Policy.policy(rule: .allow, hashes: [hash]), nil),
            item(
                "allowlist::category-checked-first",
                "category 6 not allowed {4} and the hash outside the allowlist: the category is checked first",
                mac(hash), Policy.policy(categories: [4], hashes: [other]), .validationCategoryNotAllowed),
            item(
                "allowlist::version-before-hash",
                "version 1 under minimum 2 and the hash outside the allowlist: the version is checked before the hash",
                mac(hash), Policy.policy(minimum: "2", hashes: [other]), .bundleVersionNotAllowed),
        ]
        // Category 6 (Developer ID) under every policy.
        let six: [(String, String, LaunchCase.Trailing, [String: JSONValue], AppAttestError.Code?)] = [
            ("no-policy", "no policy", mac(hash), [:], nil),
            ("allowed", "allowed {6}", mac(hash), Policy.policy(categories: [6]), nil),
            (
                "allowed-among-all", "allowed every named category", mac(hash),
                Policy.policy(categories: LaunchPolicyCatalog.namedCategories), nil
            ),
            ("app-store-only", "allowed {4} (App Store only)", mac(hash), Policy.policy(categories: [4]), .validationCategoryNotAllowed),
            (
                "every-other-category", "allowed every named category but 6", mac(hash),
                Policy.policy(categories: LaunchPolicyCatalog.namedCategories.filter { $0 != 6 }), .validationCategoryNotAllowed
            ),
            ("empty-set", "an empty set of categories", mac(hash), Policy.policy(categories: []), .validationCategoryNotAllowed),
            ("minimum-met", "minimum bundle version 1", mac(hash), Policy.policy(minimum: "1"), nil),
            ("minimum-missed", "minimum bundle version 1.0.1", mac(hash), Policy.policy(minimum: "1.0.1"), .bundleVersionNotAllowed),
            ("rule-only-reject", "a policy of the rule reject alone", mac(hash), Policy.policy(rule: .reject), nil),
            ("rule-only-allow", "a policy of the rule allow alone", mac(hash), Policy.policy(rule: .allow), nil),
            ("allowlist-in", "the app's hash allowlisted", mac(hash), Policy.policy(hashes: [hash]), nil),
            ("allowlist-out", "another app's hash allowlisted", mac(hash), Policy.policy(hashes: [other]), .codeDirectoryHashNotAllowed),
            (
                "everything-met", "allowed {6}, minimum 1, the app's hash, reject", mac(hash),
                Policy.policy(categories: [6], minimum: "1", rule: .reject, hashes: [hash]), nil
            ),
            (
                "without-hash-allowed", "no hash keys, allowed {6}, reject: nothing the policy needs is missing", mac(nil),
                Policy.policy(categories: [6], rule: .reject), nil
            ),
            (
                "without-hash-allowlist-reject", "no hash keys, allowed {6} and the app's hash, reject", mac(nil),
                Policy.policy(categories: [6], rule: .reject, hashes: [hash]), .launchDataMissing
            ),
            (
                "without-hash-allowlist-allow", "no hash keys, allowed {6} and the app's hash, allow", mac(nil),
                Policy.policy(categories: [6], rule: .allow, hashes: [hash]), nil
            ),
            (
                "truncated-allowed", "the 20-byte hash, allowed {6} and the app's 32-byte hash", mac(truncated),
                Policy.policy(categories: [6], hashes: [hash]), nil
            ),
        ]
        for (name, comment, trailing, input, error) in six {
            list.append(item("category-6::\(name)", "category 6 (Developer ID), \(comment)", trailing, input, error))
        }
        return list
    }
}
