import TrustSuiteSupport

/// `missingLaunchData`: what a verifier does with a key attested without
/// launch data when a policy is set.
public enum MissingLaunchData: String, StrictVocabulary { case reject, allow }

/// The launch-policy inputs of the attestation and assertion vectors
/// (docs/models/app-attest.md, Launch policy and macOS 27; docs/vectors.md):
/// `allowedValidationCategories` (unsigned 32-bit integers),
/// `minimumBundleVersion` (dot-separated decimals; the reference judges the
/// syntax), `missingLaunchData`, `allowedCodeDirectoryHashes` (hex, 32 or
/// 20 bytes each). Declared in each family's input, since a strict input
/// has its fields in one place.
public protocol LaunchPolicyInput {
    var allowedValidationCategories: [UInt32]? { get }
    var minimumBundleVersion: String? { get }
    var missingLaunchData: MissingLaunchData? { get }
    var allowedCodeDirectoryHashes: [HexBytes]? { get }
}

extension LaunchPolicyInput {
    /// Whether the input sets any launch-policy field.
    public var setsLaunchPolicy: Bool {
        allowedValidationCategories != nil || minimumBundleVersion != nil || missingLaunchData != nil
            || allowedCodeDirectoryHashes != nil
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
    public static let allowedCodeDirectoryHashes = "allowedCodeDirectoryHashes"
    /// The flag of every vector whose input sets a launch policy.
    public static let flag = "LaunchPolicy"
    /// The flag of every vector whose input sets `allowedCodeDirectoryHashes`
    /// (besides ``flag``): `--skip-flag CodeDirectoryHashPolicy` leaves out
    /// the allowlist vectors for a policy without one.
    public static let codeDirectoryHashFlag = "CodeDirectoryHashPolicy"
    /// The sizes of an allowlist entry: a SHA-256 code-directory hash, or the 20-byte truncated CDHash.
    public static let codeDirectoryHashLengths: Set<Int> = [32, 20]

    /// The flags and the fields disagreeing, or an allowlist entry of
    /// another size, or nil (the types are the decoder's to check).
    static func problem(_ input: some LaunchPolicyInput, flags: [String]) -> String? {
        if input.setsLaunchPolicy != flags.contains(flag) {
            return input.setsLaunchPolicy ? "launch-policy input without the flag \(flag)" : "flag \(flag) without a launch-policy input"
        }
        let setsHashes = input.allowedCodeDirectoryHashes != nil
        if setsHashes != flags.contains(codeDirectoryHashFlag) {
            return setsHashes
                ? "\(allowedCodeDirectoryHashes) without the flag \(codeDirectoryHashFlag)"
                : "flag \(codeDirectoryHashFlag) without \(allowedCodeDirectoryHashes)"
        }
        for (index, entry) in (input.allowedCodeDirectoryHashes ?? []).enumerated()
        where !codeDirectoryHashLengths.contains(entry.bytes.count) {
            return "\(allowedCodeDirectoryHashes)[\(index)] has \(entry.bytes.count) bytes, not 32 or 20"
        }
        return nil
    }
}
