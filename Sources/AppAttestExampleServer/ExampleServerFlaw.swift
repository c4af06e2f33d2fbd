import AppAttest

/// A deliberate bug, for the probe's own mutation test (issue 27 item 4):
/// each is a mistake real App Attest servers made, and for every probe
/// check one of them (or a pair) is what that check must catch. Package
/// access only: a server built from this module cannot switch them on.
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
}
