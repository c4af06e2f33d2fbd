import AppAttest

/// A deliberate bug, for the probe's own mutation test (issue 27 item 4)
/// and for `trustsuite serve appattest --flaw NAME` (a failing report on
/// demand, docs/probe.md): each is a mistake real App Attest servers made,
/// and for every probe check one of them (or a pair) is what that check
/// must catch. Package access only: a server built from this module as a
/// library cannot switch them on.
package enum ExampleServerFlaw: Hashable, Sendable {
    /// The attestation step with this error code is skipped: the object's key is stored anyway.
    case skipAttestationStep(AppAttestError.Code)
    /// The assertion step with this error code is skipped: the assertion is accepted anyway.
    case skipAssertionStep(AppAttestError.Code)
    /// Challenges are not consumed: each can be used again.
    case reusableChallenges
    /// Any challenge is taken, issued or not.
    case unissuedChallenges
    /// A key id attested again replaces the stored key (and resets its counter).
    case overwriteKeys
    /// An assertion for an unknown key id is accepted (a lookup that fails open).
    case failOpenUnknownKey
    /// clientDataHash = SHA-256(SHA-256(challenge)): the nonce hashed once too often.
    case hashAttestationChallengeTwice
    /// The assertion's clientData hashed once too often before verifying.
    case hashAssertionClientDataTwice
    /// An attestation with anything after the credential key is refused (a pre-iOS 27 parser).
    case refuseTrailingAttestationData
    /// An assertion with anything after the 37-byte header is refused (a pre-iOS 27 parser).
    case refuseTrailingAssertionData
    /// Assertions without the UP flag are refused (a WebAuthn rule; real assertions have flags 0x40).
    case requireUserPresence
    /// Assertions whose flags are not exactly 0x40 are refused (iOS 27 devices are reported to send 0xC0).
    case refuseUnknownFlags
    /// Assertion requests are answered only after twelve seconds (a server stuck on one endpoint).
    case slowAssertions
    /// The launch policy is not applied.
    case ignoreLaunchPolicy
    /// An attestation that fails verification is answered 201 with
    /// `"status": "unattested"` and its key stored all the same; the assert
    /// endpoint never looks at the mark (a real server's case).
    case storeUnattestedKeys
    /// Every attestation and assertion is refused (401): the baseline fails.
    case refuseEverything
    /// Attestations whose launch data carries the macOS 27 code-directory
    /// hash keys are refused (a parser that knows only the iOS map).
    case refuseMacAttestationData
    /// Assertions whose launch data carries the macOS 27 code-directory hash keys are refused.
    case refuseMacAssertionData
    /// The launch policy is applied without its code-directory hash allowlist.
    case ignoreCodeDirectoryHashAllowlist
}

extension ExampleServerFlaw {
    /// The flaws that take no argument, by the name `--flaw` takes, with what each does.
    package static let named: [(name: String, flaw: ExampleServerFlaw, what: String)] = [
        ("reusable-challenges", .reusableChallenges, "challenges are not consumed"),
        ("unissued-challenges", .unissuedChallenges, "any challenge is taken, issued or not"),
        ("overwrite-keys", .overwriteKeys, "a key id attested again replaces the stored key"),
        ("fail-open-unknown-key", .failOpenUnknownKey, "an assertion for an unknown key is accepted"),
        ("hash-attestation-challenge-twice", .hashAttestationChallengeTwice, "clientDataHash = SHA-256(SHA-256(challenge))"),
        ("hash-assertion-client-data-twice", .hashAssertionClientDataTwice, "clientData hashed once too often"),
        ("refuse-trailing-attestation-data", .refuseTrailingAttestationData, "the iOS 27 map in attestations refused"),
        ("refuse-trailing-assertion-data", .refuseTrailingAssertionData, "the iOS 27 map in assertions refused"),
        ("require-user-presence", .requireUserPresence, "assertions without UP refused"),
        ("refuse-unknown-flags", .refuseUnknownFlags, "assertion flags other than 0x40 refused"),
        ("slow-assertions", .slowAssertions, "assertions answered after 12 s"),
        ("ignore-launch-policy", .ignoreLaunchPolicy, "the launch policy not applied"),
        (
            "store-unattested-keys", .storeUnattestedKeys,
            "a refused attestation answered 201 {\"status\": \"unattested\"}, its key kept and usable"
        ),
        ("refuse-everything", .refuseEverything, "every attestation and assertion refused (the baseline fails)"),
        ("refuse-mac-attestation-data", .refuseMacAttestationData, "attestations with the macOS 27 code-directory hash keys refused"),
        ("refuse-mac-assertion-data", .refuseMacAssertionData, "assertions with the macOS 27 code-directory hash keys refused"),
        ("ignore-code-directory-hash-allowlist", .ignoreCodeDirectoryHashAllowlist, "allowedCodeDirectoryHashes not applied"),
    ]

    static let skipAttestationPrefix = "skip-attestation-step:"
    static let skipAssertionPrefix = "skip-assertion-step:"

    /// The flaw `--flaw NAME` names: one of ``named``, or
    /// `skip-attestation-step:CODE` / `skip-assertion-step:CODE` with an
    /// `AppAttest` error code (`skip-attestation-step:rpIdMismatch`).
    package init?(name: String) {
        if let entry = Self.named.first(where: { $0.name == name }) {
            self = entry.flaw
        } else if name.hasPrefix(Self.skipAttestationPrefix),
            let code = AppAttestError.Code(rawValue: String(name.dropFirst(Self.skipAttestationPrefix.count)))
        {
            self = .skipAttestationStep(code)
        } else if name.hasPrefix(Self.skipAssertionPrefix),
            let code = AppAttestError.Code(rawValue: String(name.dropFirst(Self.skipAssertionPrefix.count)))
        {
            self = .skipAssertionStep(code)
        } else {
            return nil
        }
    }

    /// Its `--flaw` name.
    package var name: String {
        switch self {
        case .skipAttestationStep(let code): Self.skipAttestationPrefix + code.rawValue
        case .skipAssertionStep(let code): Self.skipAssertionPrefix + code.rawValue
        default: Self.named.first { $0.flaw == self }?.name ?? "\(self)"
        }
    }

    /// Every name `--flaw` takes, for its help and its error (the skip forms with `CODE`).
    package static var helpNames: [String] {
        named.map(\.name) + [skipAttestationPrefix + "CODE", skipAssertionPrefix + "CODE"]
    }
}
