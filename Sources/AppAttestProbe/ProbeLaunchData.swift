import AppAttest
import AppAttestDevice

/// The launch data each check sends, from the config's launch policy
/// (docs/probe.md: with a policy, every check but the launch-policy ones
/// sends data that satisfies it, or none where the policy allows none;
/// docs/models/app-attest.md, Amendments (round 3), Launch policy).
struct ProbeLaunchData: Sendable {
    let policy: LaunchPolicy?

    /// What to write: nothing (a device before iOS 27), or a map with a category and a version.
    struct Choice: Sendable {
        var map: Bool
        var category: UInt32?
        var version: String?

        static let none = Choice(map: false, category: nil, version: nil)
    }

    /// A map the policy accepts: an allowed category and the minimum version
    /// (the sample's category 1 and version "1" where the policy sets none).
    var satisfyingMap: Choice {
        Choice(map: true, category: policy?.allowedValidationCategories?.min(), version: policy?.minimumBundleVersion?.description)
    }

    /// No map where the policy allows missing data, else a satisfying one.
    var conforming: Choice {
        guard let policy, policy.missingLaunchDataRule == .reject else { return .none }
        return satisfyingMap
    }

    var conformingAttest: SoftwareDevice.AttestOptions { Self.attest(conforming) }
    var conformingAssert: SoftwareDevice.AssertOptions { Self.assert(conforming) }

    /// Attestation options writing `choice`'s launch data; a check sets its shape on top.
    static func attest(_ choice: Choice) -> SoftwareDevice.AttestOptions {
        SoftwareDevice.AttestOptions(extensions: choice.map, validationCategory: choice.category, bundleVersion: choice.version)
    }

    /// Assertion options writing `choice`'s launch data; a check sets its shape on top.
    static func assert(_ choice: Choice) -> SoftwareDevice.AssertOptions {
        SoftwareDevice.AssertOptions(extensions: choice.map, validationCategory: choice.category, bundleVersion: choice.version)
    }

    // MARK: Data the policy refuses

    /// A category outside the allowed set (nil when the policy sets none).
    var disallowedCategory: Choice? {
        guard let allowed = policy?.allowedValidationCategories else { return nil }
        // The named categories first (docs/models/app-attest.md), then any number.
        let candidates: [UInt32] = [1, 2, 3, 4, 5, 6, 10, 7, 8, 9, 0, UInt32.max]
        guard let category = candidates.first(where: { !allowed.contains($0) }) else { return nil }
        var choice = satisfyingMap
        choice.category = category
        return choice
    }

    /// A bundle version below the minimum (nil when there is none, or it is all zeros).
    var olderVersion: Choice? {
        guard let minimum = policy?.minimumBundleVersion, let older = Self.older(than: minimum.description) else { return nil }
        var choice = satisfyingMap
        choice.version = older
        return choice
    }

    /// No launch data, when the policy rejects it (nil when it allows it).
    var missingRejected: Choice? {
        guard let policy, policy.missingLaunchDataRule == .reject else { return nil }
        return Choice.none
    }

    /// The version just below `version`: its last non-zero part less one,
    /// the parts after it dropped (`1.10` → `1.9`, `2.0` → `1`, `1.0.1` → `1.0.0`).
    static func older(than version: String) -> String? {
        var parts = version.split(separator: ".", omittingEmptySubsequences: false).compactMap { UInt64($0) }
        guard let last = parts.lastIndex(where: { $0 > 0 }) else { return nil }
        parts = Array(parts[...last])
        parts[last] -= 1
        return parts.map(String.init).joined(separator: ".")
    }
}
