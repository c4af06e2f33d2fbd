import TrustSuiteSupport

/// The notes of every flag the generated files use (docs/vectors.md,
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
        "Tampered": note(
            "MISSING_CHECK", "bytes or fields changed after the object was made or signed",
            effect: "a verifier that skips the check this vector targets accepts a forged or altered object"),
        "RawChallenge": note(
            "EDGE_CASE",
            "clientDataHash is the raw challenge, as in Apple's published sample; the verifier takes it as given",
            effect: "a verifier that hashes the challenge itself refuses Apple's own sample",
            links: ["https://github.com/veehaitch/devicecheck-appattest/issues/40"]),
        "Expired": note("MISSING_CHECK", "validation time after a certificate's notAfter (or the receipt's expiry)"),
        "NotYetValid": note("MISSING_CHECK", "validation time before a certificate's notBefore"),
        "ValidityBoundary": note(
            "SPEC_CHOICE",
            "validation time exactly at notBefore or notAfter: valid under RFC 5280 (inclusive), which the reference follows; OpenSSL treats notAfter itself as expired"
        ),
        "ClockTolerance": note(
            "SPEC_CHOICE",
            "one second outside a validity period: strict RFC 5280 rejects it; some libraries allow a skew"),
        "ReceiptRequired": note(
            "FUNCTIONALITY",
            "input requireReceipt is true: the embedded receipt's error is the attestation's (docs/models/app-attest.md, Receipt); an implementation that does not check receipts accepts it",
            effect: "needs the receipts capability"),
        "Replay": note(
            "MISSING_CHECK", "assertion counter not above the stored one",
            effect: "a verifier that does not compare counters accepts a replayed assertion"),
        "Extensions": note(
            "KNOWN_BUG",
            "authenticator data followed by a CBOR map, as iOS 27 devices send, with the ED flag clear or set; the flags byte decides nothing",
            effect: "verifiers that parse authenticator data by the WebAuthn flags refuse every iOS 27 device",
            links: [
                "https://github.com/webauthn4j/webauthn4j/issues/1497",
                "https://github.com/seichris/open-bike-computer/pull/346",
                "https://github.com/seichris/open-bike-computer/pull/348",
            ]),
        LaunchPolicyFields.flag: note(
            "FUNCTIONALITY",
            "input sets a launch policy (allowedValidationCategories, minimumBundleVersion, missingLaunchData, allowedCodeDirectoryHashes; docs/models/app-attest.md, Launch policy and macOS 27). A policy that sets categories, a minimum or code-directory hashes and no rule rejects missing launch data",
            effect: "needs the launchPolicy capability; an implementation without one leaves these out"),
        LaunchPolicyFields.codeDirectoryHashFlag: note(
            "FUNCTIONALITY",
            "input sets allowedCodeDirectoryHashes (hex, 32 or 20 bytes each; a 32-byte entry also matches a 20-byte hash equal to its first 20 bytes, a 20-byte entry only a 20-byte hash): a hash outside the list is codeDirectoryHashNotAllowed, no hash is launchDataMissing unless missingLaunchData is allow (docs/models/app-attest.md, macOS 27)",
            effect:
                "needs a launch policy with code-directory hashes; an implementation whose policy has none leaves these out with --skip-flag CodeDirectoryHashPolicy"
        ),
        categoryAsInteger: note(
            "SPEC_CHOICE",
            "apple_validation_category_01 as a CBOR unsigned integer instead of 4 little-endian bytes in a byte string. Every device seen (Apple's 2026 sample, iOS 27 and macOS 27 attestations) writes the byte string, and the reference reads only that form (it refuses this one as malformedAuthenticatorData); but Apple's prose calls the value a UInt32, and a production verifier accepts the integer form for that reason",
            effect:
                "either verdict conforms: a verifier that accepts the integer form is not wrong by anything Apple wrote, and one that refuses it reads the data as devices write it"
        ),
        macLaunchData: note(
            "EDGE_CASE",
            "launch data of macOS 27 (WWDC26 session 201): category 6 (Developer ID) for apps outside the App Store, and with the code-directory hash option apple_cd_hash_type_01 (a 1-byte string; 2 = SHA-256) and apple_cd_hash_hash_01 (32 bytes, or the 20-byte truncated CDHash). Both are known keys: another CBOR type or size is malformedAuthenticatorData; without a policy they decide nothing",
            effect:
                "a verifier that knows only iOS's two keys reads the hash keys as unknown: it accepts a hash of the wrong size or type; one that refuses unknown keys refuses every Mac"
        ),
        extendedKeyUsage: note(
            "KNOWN_BUG",
            "the credential certificate carries Apple's Extended Key Usage 1.2.840.113635.100.4.24 (as Apple's App Attest leaves do since January 2026) and no TLS usage. Bug class: a path validator that demands a TLS-server usage of any leaf with an EKU — Go's crypto/x509 Certificate.Verify with an empty VerifyOptions.KeyUsages means ExtKeyUsageServerAuth and answers 'certificate specifies an incompatible key usage'; pass x509.ExtKeyUsageAny. Its twin certificate-extension::without-eku differs only by the EKU",
            effect:
                "such a verifier refuses this vector, every generated valid attestation and Apple's own 2026 sample, and passes without-eku",
            links: [
                "https://github.com/bas-d/appattest/pull/6", "https://github.com/gravitational/teleport/pull/51201",
                "https://pkg.go.dev/crypto/x509#VerifyOptions",
            ]),
        hostTrustStore: note(
            "MISSING_CHECK",
            "a chain issued by a CA of its own (TrustSuite Test Host Store Root CA) that no vector names except this group's anchored twin, so a hostile trust store built from the vectors run holds it: offered without anchors (Apple's roots apply) or with the suite's other test root as the only anchor, it must be refused",
            effect:
                "only a verifier that consults the host's trust store (SSL_CERT_FILE, SSL_CERT_DIR, Go's system pool when VerifyOptions.Roots is nil, extra roots added to the system store) accepts it, under --hostile-trust-store"
        ),
        "LimitPolicy": note(
            "LIMIT_POLICY", "the verdict follows from this suite's resource limits (certificate count, sizes), not from a specification"),
        "AppIdNotChecked": note(
            "KNOWN_BUG", "the App ID (rpIdHash) is another app's",
            effect: "a verifier that does not compare rpIdHash with SHA-256 of its own App ID accepts another app's keys",
            links: [
                "https://github.com/Oliver-Binns/app-attest/pull/15",
                "https://github.com/passwordless-lib/fido2-net-lib/pull/669",
            ]),
        "PrehashedNonce": note(
            "KNOWN_BUG",
            "the assertion signs the nonce as a pre-hashed digest instead of hashing it again as ES256 does",
            effect: "a verifier that takes the nonce as the digest accepts this and refuses real devices' assertions",
            links: ["https://github.com/seichris/open-bike-computer/pull/359"]),
        anchorsRemoved: note(
            "MISSING_CHECK",
            "a valid test-CA object offered without its test anchors, so Apple's real roots apply: the chain does not reach them",
            effect:
                "a verifier that ignores its configured anchors, or consults the host's trust store, accepts it (run with --hostile-trust-store)"
        ),
        "TrapOnMalformed": note(
            "KNOWN_BUG", "truncated objects and x5c arrays of the wrong length",
            effect: "verifiers that index before checking lengths crash on bytes any network attacker can send",
            links: ["https://github.com/zunda-pixel/appattest-swift/pull/57"]),
    ]

    /// The flag of the vectors carrying the category as a CBOR integer (`acceptable`).
    package static let categoryAsInteger = "CategoryAsInteger"
    /// The flag of every vector of the macOS 27 files.
    package static let macLaunchData = "MacLaunchData"
    /// The flag of the vectors that isolate the Extended Key Usage.
    package static let extendedKeyUsage = "LeafExtendedKeyUsage"
    /// The flag of the host-trust-store group.
    package static let hostTrustStore = "HostTrustStore"
    /// The flag of the copies offered without their test anchors.
    package static let anchorsRemoved = "AnchorsRemoved"

    /// A flag's note as a ``VectorNote`` (its name alone when it has none).
    package static func vectorNote(_ flag: String) -> VectorNote { VectorNote(all[flag] ?? .string(flag)) }
}
