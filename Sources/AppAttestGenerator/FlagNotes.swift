import TrustSuiteSupport
import AppAttest
import ConformanceKit

/// The notes of every flag the generated files use (spec/vectors.md,
/// Amendments (round 3): notes carry meaning), in Wycheproof's object form,
/// and the flags added to the cases that reproduce a bug seen in a real
/// verifier, each linking the public report. A file's `notes` are the notes
/// of the flags its vectors carry, so a flag cannot go without one.
package enum FlagNotes {
    package static func note(_ bugType: String, _ description: String, effect: String? = nil, links: [String] = []) -> JSONValue {
        var object: [String: JSONValue] = ["bugType": .string(bugType), "description": .string(description)]
        if let effect { object["effect"] = .string(effect) }
        if !links.isEmpty { object["links"] = .array(links.map(JSONValue.string)) }
        return .object(object)
    }

    package static let all: [String: JSONValue] = [
        "Tampered": note("MISSING_CHECK", "bytes or fields changed after the object was made or signed",
                         effect: "a verifier that skips the check this vector targets accepts a forged or altered object"),
        "RawChallenge": note("EDGE_CASE",
                             "clientDataHash is the raw challenge, as in Apple's published sample; the verifier takes it as given",
                             effect: "a verifier that hashes the challenge itself refuses Apple's own sample",
                             links: ["https://github.com/veehaitch/devicecheck-appattest/issues/40"]),
        "Expired": note("MISSING_CHECK", "validation time after a certificate's notAfter (or the receipt's expiry)"),
        "NotYetValid": note("MISSING_CHECK", "validation time before a certificate's notBefore"),
        "ValidityBoundary": note("SPEC_CHOICE",
                                 "validation time exactly at notBefore or notAfter: valid under RFC 5280 (inclusive), which the reference follows; OpenSSL treats notAfter itself as expired"),
        "ClockTolerance": note("SPEC_CHOICE",
                               "one second outside a validity period: strict RFC 5280 rejects it; some libraries allow a skew"),
        "ReceiptRequired": note("FUNCTIONALITY",
                                "input requireReceipt is true: the embedded receipt's error is the attestation's (spec/app-attest.md, Receipt); an implementation that does not check receipts accepts it",
                                effect: "needs the receipts capability"),
        "Replay": note("MISSING_CHECK", "assertion counter not above the stored one",
                       effect: "a verifier that does not compare counters accepts a replayed assertion"),
        "Extensions": note("KNOWN_BUG",
                           "authenticator data followed by a CBOR map, as iOS 27 devices send, with the ED flag clear or set; the flags byte decides nothing",
                           effect: "verifiers that parse authenticator data by the WebAuthn flags refuse every iOS 27 device",
                           links: ["https://github.com/webauthn4j/webauthn4j/issues/1497",
                                   "https://github.com/seichris/open-bike-computer/pull/346",
                                   "https://github.com/seichris/open-bike-computer/pull/348"]),
        LaunchPolicyFields.flag: note("FUNCTIONALITY",
                                      "input sets a launch policy (allowedValidationCategories, minimumBundleVersion, missingLaunchData; spec/app-attest.md, Amendments (round 3)). A policy that sets categories or a minimum and no rule rejects missing launch data",
                                      effect: "needs the launchPolicy capability; an implementation without one leaves these out"),
        "LimitPolicy": note("LIMIT_POLICY", "the verdict follows from this suite's resource limits (certificate count, sizes), not from a specification"),
        "AppIdNotChecked": note("KNOWN_BUG", "the App ID (rpIdHash) is another app's",
                                effect: "a verifier that does not compare rpIdHash with SHA-256 of its own App ID accepts another app's keys",
                                links: ["https://github.com/Oliver-Binns/app-attest/pull/15",
                                        "https://github.com/passwordless-lib/fido2-net-lib/pull/669"]),
        "PrehashedNonce": note("KNOWN_BUG",
                               "the assertion signs the nonce as a pre-hashed digest instead of hashing it again as ES256 does",
                               effect: "a verifier that takes the nonce as the digest accepts this and refuses real devices' assertions",
                               links: ["https://github.com/seichris/open-bike-computer/pull/359"]),
        VectorFileBuilder.anchorsRemoved: note(
            "MISSING_CHECK",
            "a valid test-CA object offered without its test anchors, so Apple's real roots apply: the chain does not reach them",
            effect: "a verifier that ignores its configured anchors, or consults the host's trust store, accepts it (run with --hostile-trust-store)"),
        "TrapOnMalformed": note("KNOWN_BUG", "truncated objects and x5c arrays of the wrong length",
                                effect: "verifiers that index before checking lengths crash on bytes any network attacker can send",
                                links: ["https://github.com/zunda-pixel/appattest-swift/pull/57"]),
    ]

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
