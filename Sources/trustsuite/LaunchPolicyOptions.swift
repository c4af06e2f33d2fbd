import AppAttest
import ArgumentParser
import ConformanceKit
import TrustSuiteSupport

/// `verify attestation|assertion --allow-category N … --minimum-bundle-version V
/// --missing-launch-data reject|allow`: the launch policy of spec/app-attest.md,
/// Amendments (round 3). Without any of them no policy is applied.
struct LaunchPolicyOptions: ParsableArguments {
    @Option(name: .customLong("allow-category"), help: ArgumentHelp(
        "Accept this validation category (a number: 1 platform, 2 TestFlight, 3 development, 4 App Store, 5 enterprise, 6 Developer ID, 10 none; names informational; repeatable).",
        valueName: "n"))
    var allowCategory: [UInt32] = []

    @Option(name: .customLong("minimum-bundle-version"), help: ArgumentHelp(
        "Refuse bundle versions below this one (dot-separated decimals, compared numerically; missing parts are 0).", valueName: "version"),
        transform: LaunchPolicyOptions.bundleVersion)
    var minimumBundleVersion: BundleVersion?

    @Option(name: .customLong("missing-launch-data"), help: ArgumentHelp(
        "reject or allow objects without launch data (devices before iOS 27). Default: reject when a category or minimum is given.",
        valueName: "rule"))
    var missingLaunchData: LaunchPolicy.MissingLaunchData?

    static func bundleVersion(_ text: String) throws -> BundleVersion {
        guard let version = BundleVersion(text) else {
            throw ValidationError("--minimum-bundle-version must be dot-separated decimal numbers, e.g. 1.2.3")
        }
        return version
    }

    /// The policy the options set, or nil when they set none.
    var policy: LaunchPolicy? {
        guard !allowCategory.isEmpty || minimumBundleVersion != nil || missingLaunchData != nil else { return nil }
        return LaunchPolicy(allowedValidationCategories: allowCategory.isEmpty ? nil : Set(allowCategory),
                            minimumBundleVersion: minimumBundleVersion, missingLaunchData: missingLaunchData)
    }

    /// The launch data of a verified object for the verdict: the category,
    /// its informational name and the bundle version (null when absent).
    static func fields(_ data: LaunchData?) -> [(String, JSONValue)] {
        let category = data?.validationCategory
        return [
            ("validationCategory", category.map { .int(Int64($0)) } ?? .null),
            ("validationCategoryName", category.map { .string(LaunchData.validationCategoryName($0)) } ?? .null),
            ("bundleVersion", data?.bundleVersion.map(JSONValue.string) ?? .null),
        ]
    }
}

extension LaunchPolicy.MissingLaunchData: ExpressibleByArgument {}
