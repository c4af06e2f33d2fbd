import TrustSuiteSupport

/// `missingLaunchData`: what a verifier does with a key attested without
/// launch data when a policy is set.
public enum MissingLaunchData: String, StrictVocabulary { case reject, allow }

/// The launch-policy inputs of the attestation and assertion vectors
/// (spec/app-attest.md, Amendments (round 3); spec/vectors.md):
/// `allowedValidationCategories` (unsigned 32-bit integers),
/// `minimumBundleVersion` (dot-separated decimals; the reference judges the
/// syntax), `missingLaunchData`. Declared in each family's input, since a
/// strict input has its fields in one place.
public protocol LaunchPolicyInput {
    var allowedValidationCategories: [UInt32]? { get }
    var minimumBundleVersion: String? { get }
    var missingLaunchData: MissingLaunchData? { get }
}

extension LaunchPolicyInput {
    /// Whether the input sets any launch-policy field.
    public var setsLaunchPolicy: Bool {
        allowedValidationCategories != nil || minimumBundleVersion != nil || missingLaunchData != nil
    }
}

/// The names and the flag of the launch-policy inputs. A vector that sets a
/// policy carries the flag and one that sets none does not, so
/// `--skip-flag LaunchPolicy` leaves out exactly the vectors an
/// implementation without a policy cannot run.
public enum LaunchPolicyFields {
    public static let allowedValidationCategories = "allowedValidationCategories"
    public static let minimumBundleVersion = "minimumBundleVersion"
    public static let missingLaunchData = "missingLaunchData"
    /// The flag of every vector whose input sets a launch policy.
    public static let flag = "LaunchPolicy"

    /// The flag and the fields disagreeing, or nil (the types are the decoder's to check).
    static func problem(_ input: some LaunchPolicyInput, flags: [String]) -> String? {
        guard input.setsLaunchPolicy != flags.contains(flag) else { return nil }
        return input.setsLaunchPolicy ? "launch-policy input without the flag \(flag)" : "flag \(flag) without a launch-policy input"
    }
}
