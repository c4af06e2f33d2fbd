import AppAttest
import AppAttestDevice
import Crypto

/// The launch data each check sends, from the config's launch policy
/// (docs/probe.md: with a policy, every check but the launch-policy ones
/// sends data that satisfies it, or none where the policy allows none;
/// docs/models/app-attest.md, Amendments (round 3), Launch policy).
struct ProbeLaunchData: Sendable {
    let policy: LaunchPolicy?

    /// What to write: nothing (a device before iOS 27), or a map with a
    /// category and a version, and on a Mac (macOS 27) the code-directory
    /// hash keys.
    struct Choice: Sendable {
        var map: Bool
        var category: UInt32?
        var version: String?
        var platform: LaunchPlatform = .ios
        /// nil: none on iOS, the device's stand-in hash of the App ID on a Mac.
        var codeDirectoryHash: [UInt8]? = nil

        static let none = Choice(map: false, category: nil, version: nil)
    }

    /// A map the policy accepts: an allowed category, the minimum version
    /// and an allowed code-directory hash (the sample's category 1 and
    /// version "1", and no hash, where the policy sets none).
    var satisfyingMap: Choice {
        Choice(
            map: true, category: policy?.allowedValidationCategories?.min(), version: policy?.minimumBundleVersion?.description,
            codeDirectoryHash: policy?.allowedCodeDirectoryHashes?.first)
    }

    /// A Mac's launch data (macOS 27) that the policy accepts: category 6
    /// (Developer ID) where the policy allows it or sets no categories,
    /// else its smallest allowed one; its minimum version; an allowed hash,
    /// else the device's own (type 2, SHA-256).
    var macShape: Choice {
        var choice = satisfyingMap
        choice.platform = .macos
        if let allowed = policy?.allowedValidationCategories {
            choice.category = allowed.contains(Self.macCategory) ? Self.macCategory : allowed.min()
        } else {
            choice.category = Self.macCategory
        }
        return choice
    }

    /// Developer ID: the category of Mac apps outside the App Store.
    static let macCategory: UInt32 = 6

    /// A Mac's launch data with a code-directory hash outside the policy's
    /// allowlist (nil when the policy has none).
    var disallowedCodeDirectoryHash: Choice? {
        guard let allowed = policy?.allowedCodeDirectoryHashes, !allowed.isEmpty else { return nil }
        // Another app's hash: SHA-256 of a label, the first that no entry allows.
        for counter in 0..<64 {
            let hash = Array(SHA256.hash(data: Array("trustsuite-probe: another app's code directory \(counter)".utf8)))
            guard !allowed.contains(where: { LaunchPolicy.codeDirectoryHash(hash, matches: $0) }) else { continue }
            var choice = macShape
            choice.codeDirectoryHash = hash
            return choice
        }
        return nil
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
        var options = SoftwareDevice.AttestOptions(
            extensions: choice.map, validationCategory: choice.category, bundleVersion: choice.version)
        options.platform = choice.platform
        options.codeDirectoryHash = choice.codeDirectoryHash
        return options
    }

    /// Assertion options writing `choice`'s launch data; a check sets its shape on top.
    static func assert(_ choice: Choice) -> SoftwareDevice.AssertOptions {
        var options = SoftwareDevice.AssertOptions(
            extensions: choice.map, validationCategory: choice.category, bundleVersion: choice.version)
        options.platform = choice.platform
        options.codeDirectoryHash = choice.codeDirectoryHash
        return options
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
