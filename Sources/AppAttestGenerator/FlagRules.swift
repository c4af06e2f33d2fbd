import AppAttest
import TrustSuiteSupport
import VectorContract

/// The generator's rules over the flags (their notes are the contract's
/// ``FlagNotes``): which flags make a vector acceptable, and which flags a
/// case gets because it reproduces a bug seen in a real verifier.
extension FlagNotes {
    /// Flags that make a vector `acceptable` (either verdict conforms).
    static let acceptableFlags: Set<String> = ["ValidityBoundary", categoryAsInteger]
    /// Acceptable flags under which the reference refuses the vector before
    /// its chain is read: no anchors-removed copy (the reference would
    /// refuse the copy with its parse code, not the chain's).
    static let refusedBeforeTheChain: Set<String> = [categoryAsInteger]

    /// The flags a case gets because it reproduces a bug seen in a real verifier.
    static func knownBugFlags(id: String, error: AppAttestError.Code?) -> [String] {
        var flags: [String] = []
        if error == .rpIdMismatch { flags.append("AppIdNotChecked") }
        if id.hasSuffix("signature::prehashed-nonce") { flags.append("PrehashedNonce") }
        if id.contains("-x5c::length-") || id.hasSuffix("-x5c::absent") || id.contains("-parse::truncated") {
            flags.append("TrapOnMalformed")
        }
        if id.contains("-baseline::trailing-map") { flags.append("Extensions") }
        return flags
    }

    /// The notes of `flags`: every flag the generator uses has one here.
    static func notes(for flags: Set<String>) -> [String: JSONValue] {
        var notes: [String: JSONValue] = [:]
        for flag in flags { notes[flag] = all[flag] ?? .string(flag) }
        return notes
    }
}
