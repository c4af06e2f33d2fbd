import TrustSuiteSupport

/// What an implementation may declare it can do, in its hello's
/// `"capabilities"` (docs/vectors.md, Amendments (round 3)): a vector that
/// needs a capability the adapter did not declare is graded `unsupported`
/// without being sent. An adapter that declares no capabilities (a
/// version-1 adapter) is sent every vector of its families.
public enum Capabilities {
    /// The names this suite knows, in the order the matrix shows them: the
    /// three cbor modes; checking tag content (`tagValidity` inputs); checking
    /// the receipt inside an attestation (`requireReceipt`); a stored counter
    /// to compare an assertion with (the `Replay` vectors); a launch policy.
    public static let known = ["wellFormed", "deterministic", "ctap2", "tagValidity", "receipts", "counter", "launchPolicy"]

    /// The flag of the assertion vectors whose verdict needs the previous counter.
    public static let replayFlag = "Replay"
    /// The flag of the attestation vectors that ask for the receipt's check.
    public static let receiptRequiredFlag = "ReceiptRequired"

    /// The capabilities a vector needs.
    public static func required(by vector: Vector) -> Set<String> {
        var needed = vector.family.contract.capabilities(of: vector)
        if vector.flags.contains(LaunchPolicyFields.flag) { needed.insert("launchPolicy") }
        return needed
    }

    /// The capabilities `vector` needs that `declared` lacks, sorted; empty
    /// when the subject declared none (every vector is sent).
    public static func missing(for vector: Vector, declared: Set<String>?) -> [String] {
        guard let declared else { return [] }
        return required(by: vector).subtracting(declared).sorted()
    }
}
