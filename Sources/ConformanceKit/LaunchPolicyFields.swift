/// The launch-policy inputs of the App Attest vectors (spec/app-attest.md,
/// Amendments (round 3); spec/vectors.md): the field names, the flag that
/// marks a vector needing the capability, and the loader's shape checks.
/// A vector that sets a policy carries the flag and one that sets none does
/// not, so `--skip-flag LaunchPolicy` leaves out exactly the vectors an
/// implementation without a policy cannot run.
public enum LaunchPolicyFields {
    public static let allowedValidationCategories = "allowedValidationCategories"
    public static let minimumBundleVersion = "minimumBundleVersion"
    public static let missingLaunchData = "missingLaunchData"
    public static let names = [allowedValidationCategories, minimumBundleVersion, missingLaunchData]
    /// The flag of every vector whose input sets a launch policy.
    public static let flag = "LaunchPolicy"
    /// The values of `missingLaunchData`.
    public static let rules: Set<String> = ["reject", "allow"]

    /// The first problem of a vector's launch-policy fields, or nil: a field
    /// in a family without launch data, a field of the wrong JSON type (the
    /// version's syntax is the reference's to judge), a rule other than the
    /// two, or the flag and the fields disagreeing.
    public static func problem(family: Family, input: JSONValue, flags: [String]) -> String? {
        let given = names.filter { input[$0] != nil }
        switch family {
        case .appAttestAttestation, .appAttestAssertion:
            break
        case .cbor, .appAttestReceipt, .devicecheck, .keychainACL, .keychainFlow, .laRight:
            return given.first.map { "\($0) is a launch-policy input, which \(family.rawValue) does not define" }
        }
        if let value = input[allowedValidationCategories] {
            guard let list = value.arrayValue, list.allSatisfy(isUnsigned32) else {
                return "\(allowedValidationCategories) must be a list of integers in 0...4294967295"
            }
        }
        if let value = input[minimumBundleVersion], value.stringValue == nil {
            return "\(minimumBundleVersion) must be a string"
        }
        if let value = input[missingLaunchData], !(value.stringValue.map(rules.contains) ?? false) {
            return "\(missingLaunchData) must be \"reject\" or \"allow\""
        }
        if given.isEmpty == flags.contains(flag) {
            return given.isEmpty ? "flag \(flag) without a launch-policy input" : "launch-policy input without the flag \(flag)"
        }
        return nil
    }

    /// A JSON integer (not a float) that fits in 32 unsigned bits.
    public static func unsigned32(_ value: JSONValue) -> UInt32? {
        switch value {
        case .int(let number): UInt32(exactly: number)
        case .uint(let number): UInt32(exactly: number)
        default: nil
        }
    }

    static func isUnsigned32(_ value: JSONValue) -> Bool { unsigned32(value) != nil }
}
