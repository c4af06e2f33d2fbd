import VectorContract
import TrustSuiteSupport

/// The bug class behind each check: the vectors' notes where a flag names
/// the same bug (`FlagNotes`, with its public reports), and notes of the
/// same form for the classes only a server shows (challenges, key lookup).
enum ProbeNotes {
    static let challengeReplay = note(
        FlagNotes.note(
            "MISSING_CHECK", "a challenge accepted a second time: the server does not consume its challenges",
            effect: "a captured attestation or assertion can be replayed for as long as the server keeps the challenge"))
    static let challengeNotIssued = note(
        FlagNotes.note(
            "MISSING_CHECK", "a challenge the server never issued",
            effect: "a server that checks only the nonce, not that it issued the challenge, accepts objects made offline in advance"))
    static let environment = note(
        FlagNotes.note(
            "MISSING_CHECK", "the aaguid of the other environment (appattestdevelop against production, or the reverse)",
            effect: "development keys, which any developer's build can make, are let into production"))
    static let keyBinding = note(
        FlagNotes.note(
            "MISSING_CHECK", "the key id of the request does not name the attested key",
            effect: "a server that stores the object's key under the request's key id lets one attestation vouch for another key"))
    static let nonceBinding = note(
        FlagNotes.note(
            "MISSING_CHECK", "the nonce in the credential certificate is over another challenge than the request's",
            effect: "a server that does not recompute the nonce accepts an attestation made for any challenge"))
    static let nonceShape = note(
        FlagNotes.note(
            "MISSING_CHECK", "the nonce extension holds the right 32 octets in another DER shape (context tag [2] instead of [1])",
            effect: "a verifier that slices the extension at a fixed offset instead of parsing its DER accepts any shape"))
    static let attestationCounter = note(
        FlagNotes.note(
            "MISSING_CHECK", "an attestation whose signCount is not 0 (step 7)",
            effect: "a server that stores the attestation's counter as given lets a device start above 0 and skip counters"))
    static let attackerRoot = note(
        FlagNotes.note(
            "MISSING_CHECK", "a chain whose root and intermediate carry the trusted CA's names with other keys (the chain is in x5c)",
            effect: "a server that trusts a root sent in x5c, or matches anchors by name, accepts any attacker's attestation"))
    static let signature = note(
        FlagNotes.note(
            "MISSING_CHECK", "an assertion signed by a key that is not the stored one",
            effect: "a server that does not verify the signature with the stored key accepts assertions from anyone"))
    static let unknownKey = note(
        FlagNotes.note(
            "MISSING_CHECK", "an assertion for a key id the server never accepted an attestation for",
            effect: "a key lookup that fails open lets unattested keys through"))
    static let unattestedKey = note(
        FlagNotes.note(
            "MISSING_CHECK", "an assertion for a key whose attestation the server refused but kept (stored as \"unattested\")",
            effect:
                "a server that answers a refused attestation 201 and stores the key as unattested, then never checks that mark, accepts assertions from any key"
        ))
    static let macShape = note(
        FlagNotes.note(
            "EDGE_CASE",
            "macOS 27 launch data: category 6 (Developer ID) and the keys apple_cd_hash_type_01 and apple_cd_hash_hash_01 in the apple_* map",
            effect: "a parser that refuses unknown launch-data keys, or knows only the iOS map, refuses every Mac app"))
    static let plainFlags = note(
        FlagNotes.note(
            "EDGE_CASE", "real assertions have flags 0x40 (AT set, UP clear) and no credential data",
            effect:
                "a verifier written for WebAuthn that requires user presence, or credential data when AT is set, refuses every real device")
    )
    static let hashRule = flag(
        "RawChallenge",
        description:
            "a genuine attestation, its clientDataHash made as the config says; a verifier that hashes the challenge once too often or too few times refuses it"
    )

    static let genuineAssertion = flag(
        "PrehashedNonce",
        description:
            "genuine assertions (ES256 over SHA-256(authenticatorData ‖ SHA-256(clientData))); a verifier that hashes the nonce once too often, or takes it as a digest, refuses every real device"
    )
    static let launchPolicy = flag(
        LaunchPolicyFields.flag,
        description:
            "launch data outside the server's declared launch policy (allowedValidationCategories, minimumBundleVersion, missingLaunchData; docs/models/app-attest.md, Amendments (round 3))"
    )

    static func flag(_ name: String, description: String? = nil) -> VectorNote {
        let base = note(FlagNotes.all[name] ?? .string(name))
        guard let description else { return base }
        return VectorNote(bugType: base.bugType, description: description, effect: base.effect, links: base.links, cves: base.cves)
    }

    /// A note object of FlagNotes' form as a ``VectorNote``.
    static func note(_ value: JSONValue) -> VectorNote { VectorNote(value) }
}
