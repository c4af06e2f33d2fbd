import AppAttest
import ArgumentParser
import ConformanceKit
import VectorContract
import TrustSuiteSupport

/// `verify attestation|assertion --allow-category N … --minimum-bundle-version V
/// --missing-launch-data reject|allow --allow-code-directory-hash HEX …`: the
/// launch policy of docs/models/app-attest.md, Launch policy and macOS 27.
/// Without any of them no policy is applied.
struct LaunchPolicyOptions: ParsableArguments {
    @Option(
        name: .customLong("allow-category"),
        help: ArgumentHelp(
            "Accept this validation category (a number: 1 platform, 2 TestFlight, 3 development, 4 App Store, 5 enterprise, 6 Developer ID, 10 none; names informational; repeatable).",
            valueName: "n"))
    var allowCategory: [UInt32] = []

    @Option(
        name: .customLong("minimum-bundle-version"),
        help: ArgumentHelp(
            "Refuse bundle versions below this one (dot-separated decimals, compared numerically; missing parts are 0).",
            valueName: "version"),
        transform: LaunchPolicyOptions.bundleVersion)
    var minimumBundleVersion: BundleVersion?

    @Option(
        name: .customLong("missing-launch-data"),
        help: ArgumentHelp(
            "reject or allow objects without launch data (devices before iOS 27). Default: reject when a category or minimum is given.",
            valueName: "rule"))
    var missingLaunchData: LaunchPolicy.MissingLaunchData?

    @Option(
        name: .customLong("allow-code-directory-hash"),
        help: ArgumentHelp(
            "Accept this code-directory hash of a Mac app (hex, 32 bytes or the 20-byte truncated CDHash; a 32-byte one also accepts its first 20 bytes; repeatable).",
            valueName: "hex"), transform: LaunchPolicyOptions.codeDirectoryHash)
    var allowCodeDirectoryHash: [[UInt8]] = []

    static func codeDirectoryHash(_ text: String) throws -> [UInt8] {
        guard let bytes = BinaryText.hex(text), LaunchPolicy.isCodeDirectoryHashEntry(bytes) else {
            throw ValidationError("--allow-code-directory-hash must be hex of 32 or 20 bytes (64 or 40 hex digits)")
        }
        return bytes
    }

    static func bundleVersion(_ text: String) throws -> BundleVersion {
        guard let version = BundleVersion(text) else {
            throw ValidationError("--minimum-bundle-version must be dot-separated decimal numbers, e.g. 1.2.3")
        }
        return version
    }

    /// The policy the options set, or nil when they set none.
    var policy: LaunchPolicy? {
        guard !allowCategory.isEmpty || minimumBundleVersion != nil || missingLaunchData != nil || !allowCodeDirectoryHash.isEmpty else {
            return nil
        }
        return LaunchPolicy(
            allowedValidationCategories: allowCategory.isEmpty ? nil : Set(allowCategory),
            minimumBundleVersion: minimumBundleVersion, missingLaunchData: missingLaunchData,
            allowedCodeDirectoryHashes: allowCodeDirectoryHash.isEmpty ? nil : allowCodeDirectoryHash)
    }

    /// The launch data of a verified object for the verdict: the category,
    /// its informational name, the bundle version, and the macOS 27 keys —
    /// the shape, the code-directory hash's type (with its informational
    /// name) and the hash in hex (null when absent).
    static func fields(_ data: LaunchData?) -> [(String, JSONValue)] {
        let category = data?.validationCategory
        let hashType = data?.codeDirectoryHashType
        return [
            ("validationCategory", category.map { .int(Int64($0)) } ?? .null),
            ("validationCategoryName", category.map { .string(LaunchData.validationCategoryName($0)) } ?? .null),
            ("bundleVersion", data?.bundleVersion.map(JSONValue.string) ?? .null),
            ("launchDataShape", data.map { .string($0.shape.rawValue) } ?? .null),
            ("codeDirectoryHashType", hashType.map { .int(Int64($0)) } ?? .null),
            ("codeDirectoryHashTypeName", hashType.map { .string(LaunchData.codeDirectoryHashTypeName($0)) } ?? .null),
            ("codeDirectoryHash", data?.codeDirectoryHash.map { .string(BinaryText.hex($0)) } ?? .null),
        ]
    }
}

extension LaunchPolicy.MissingLaunchData: ExpressibleByArgument {}
