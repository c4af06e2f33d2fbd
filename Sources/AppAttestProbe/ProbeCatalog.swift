import AppAttest
import AppAttestDevice
import VectorContract
import Foundation
import TrustSuiteSupport

/// The checks of docs/probe.md, Checks, in the order they run. Each makes
/// its own keys (state never leaks between checks); a setup step the
/// server refuses makes the check an `error`, never a pass, so a server
/// that refuses everything cannot pass the must-refuse checks.
public enum ProbeCatalog {
    /// The checks that apply to `config` (the launch-policy ones only when it declares a policy).
    public static func checks(for config: ProbeConfig) -> [ProbeCheck] {
        baseline + replay + challenge + binding + trust + signatures + ios27 + macos27
            + launchPolicy(ProbeLaunchData(policy: config.launchPolicy))
    }

    /// The baseline's ids: every other check depends on them (``ProbeCheck/dependsOn``).
    public static let baselineAttestation = "baseline.attestation"
    public static let baselineAssertions = "baseline.assertions"

    /// Every check id a config with every launch rule would run (for `--only` and the docs).
    public static var allIds: [String] {
        checks(for: ProbeConfig.everyRule).map(\.id)
    }

    // MARK: baseline

    static let baseline: [ProbeCheck] = [
        ProbeCheck(
            "baseline.attestation", .accepted, sends: "a genuine attestation over a fresh challenge",
            note: ProbeNotes.hashRule
        ) { session throws(ProbeStepFailure) in
            let (_, request) = try await session.preparedAttestation(session.launch.conformingAttest)
            return [await session.send(request)]
        },
        ProbeCheck(
            "baseline.assertions", .accepted, sends: "two genuine assertions (counters 1 and 2) for an accepted key",
            note: ProbeNotes.genuineAssertion, assertions: true
        ) { session throws(ProbeStepFailure) in
            let key = try await session.registeredKey()
            let first = await session.send(try await session.preparedAssertion(keyId: key.keyId))
            let second = await session.send(try await session.preparedAssertion(keyId: key.keyId))
            return [first, second]
        },
    ]

    // MARK: replay

    static let replay: [ProbeCheck] = [
        ProbeCheck(
            "replay.attestation", .refused, sends: "an accepted attestation request sent again (same challenge)",
            note: ProbeNotes.challengeReplay
        ) { session throws(ProbeStepFailure) in
            let (_, request) = try await session.preparedAttestation(session.launch.conformingAttest)
            try await session.setup(request, "a valid attestation")
            return [await session.send(request)]
        },
        ProbeCheck(
            "replay.assertion", .refused, sends: "an accepted assertion request sent again (same challenge, same counter)",
            note: ProbeNotes.flag("Replay"), assertions: true
        ) { session throws(ProbeStepFailure) in
            let key = try await session.registeredKey()
            let request = try await session.preparedAssertion(keyId: key.keyId)
            try await session.setup(request, "a valid assertion")
            return [await session.send(request)]
        },
        ProbeCheck(
            "replay.equal-counter", .refused, sends: "a new assertion on a fresh challenge with the counter of the accepted one",
            note: ProbeNotes.flag("Replay"), assertions: true
        ) { session throws(ProbeStepFailure) in
            let key = try await session.registeredKey()
            try await session.setup(try await session.preparedAssertion(keyId: key.keyId), "a valid assertion")
            let replayed = session.assertOptions { $0.replayCounter = true }
            return [await session.send(try await session.preparedAssertion(keyId: key.keyId, replayed))]
        },
        ProbeCheck(
            "replay.lower-counter", .refused, sends: "an assertion with counter 1 after one with counter 2 was accepted",
            note: ProbeNotes.flag("Replay"), assertions: true
        ) { session throws(ProbeStepFailure) in
            let key = try await session.registeredKey()
            let earlier = try await session.preparedAssertion(keyId: key.keyId)
            try await session.setup(try await session.preparedAssertion(keyId: key.keyId), "a valid assertion")
            return [await session.send(earlier)]
        },
    ]

    // MARK: challenge

    static let challenge: [ProbeCheck] = [
        ProbeCheck(
            "challenge.never-issued", .refused, sends: "an attestation for a challenge the server never issued",
            note: ProbeNotes.challengeNotIssued
        ) { session throws(ProbeStepFailure) in
            let issued = try await session.challenge()
            let forged = ProbeChallenge.unissued(like: issued, encoding: session.config.challenge.encoding)
            let (_, request) = try session.attestation(session.launch.conformingAttest, challenge: forged)
            return [await session.send(request)]
        },
        ProbeCheck(
            "challenge.reused", .refused, sends: "a second key attested over a challenge already used by an accepted attestation",
            note: ProbeNotes.challengeReplay
        ) { session throws(ProbeStepFailure) in
            let challenge = try await session.challenge()
            let (_, first) = try session.attestation(session.launch.conformingAttest, challenge: challenge)
            try await session.setup(first, "a valid attestation")
            let (_, second) = try session.attestation(session.launch.conformingAttest, challenge: challenge)
            return [await session.send(second)]
        },
    ]

    // MARK: binding

    static let binding: [ProbeCheck] = [
        attestationShape(
            "binding.app-id", sends: "an attestation made for another App ID (rpIdHash, receipt)",
            note: ProbeNotes.flag("AppIdNotChecked")
        ) { options, config in options.otherAppId = config.appId + "x" },
        assertionShape(
            "binding.assertion-app-id", .refused, sends: "an assertion whose rpIdHash is another App ID's",
            note: ProbeNotes.flag("AppIdNotChecked")
        ) { options, config in options.otherAppId = config.appId + "x" },
        attestationShape(
            "binding.environment", sends: "an attestation with the other environment's aaguid",
            note: ProbeNotes.environment
        ) { options, _ in options.otherEnvironment = true },
        attestationShape(
            "binding.key-id-swapped", sends: "a consistent attestation object sent with another key's key id in the request",
            note: ProbeNotes.keyBinding
        ) { options, _ in options.swapKeyId = true },
        attestationShape(
            "binding.certificate-key", sends: "an object whose credential certificate's key does not hash to the key id it carries",
            note: ProbeNotes.keyBinding
        ) { options, _ in options.certificateKeyMismatch = true },
        attestationShape(
            "binding.credential-id", sends: "an object whose credentialId is not the key id",
            note: ProbeNotes.keyBinding
        ) { options, _ in options.credentialIdMismatch = true },
        ProbeCheck(
            "binding.nonce-other-challenge", .refused,
            sends: "an attestation whose nonce is over another issued challenge than the one in the request",
            note: ProbeNotes.nonceBinding
        ) { session throws(ProbeStepFailure) in
            let sent = try await session.challenge()
            let signed = try await session.challenge()
            let (_, request) = try session.attestation(session.launch.conformingAttest, challenge: sent, signedChallenge: signed)
            return [await session.send(request)]
        },
        attestationShape(
            "binding.nonce-der-shape",
            sends: "the right nonce octets in another DER shape of the nonce extension ([2] instead of [1])",
            note: ProbeNotes.nonceShape
        ) { options, _ in options.nonceShape = .otherTag },
        attestationShape(
            "binding.attestation-counter", sends: "an attestation with signCount 1",
            note: ProbeNotes.attestationCounter
        ) { options, _ in options.counter = 1 },
    ]

    // MARK: trust

    static let trust: [ProbeCheck] = [
        attestationShape(
            "trust.attacker-root", sends: "a chain to an attacker's root and intermediate carrying the test CA's names",
            note: ProbeNotes.attackerRoot
        ) { options, _ in options.attackerRoot = true },
        attestationShape(
            "trust.expired-certificate", sends: "an attestation whose credential certificate expired a day ago",
            note: ProbeNotes.flag("Expired")
        ) { options, _ in options.expiredCertificate = true },
    ]

    // MARK: signatures

    static let signatures: [ProbeCheck] = [
        assertionShape(
            "signatures.foreign-key", .refused, sends: "an assertion for an accepted key signed by another key",
            note: ProbeNotes.signature
        ) { options, _ in options.foreignKey = true },
        assertionShape(
            "signatures.prehashed-nonce", .refused, sends: "an assertion signing the nonce as a pre-hashed digest",
            note: ProbeNotes.flag("PrehashedNonce")
        ) { options, _ in options.prehashedNonce = true },
        ProbeCheck(
            "signatures.unknown-key", .refused, sends: "a well-signed assertion for a key the server never accepted",
            note: ProbeNotes.unknownKey, assertions: true
        ) { session throws(ProbeStepFailure) in
            // Attested on the device only: the server never sees this key's attestation.
            let (made, _) = try session.attestation(
                session.launch.conformingAttest,
                challenge: ProbeChallenge.unissued(like: nil, encoding: session.config.challenge.encoding))
            return [await session.send(try await session.preparedAssertion(keyId: made.attestedKeyId))]
        },
        ProbeCheck(
            "signatures.unattested-key", .refused,
            sends: "a well-signed assertion for a key whose attestation (a chain to an attacker's root) the server refused",
            note: ProbeNotes.unattestedKey, assertions: true
        ) { session throws(ProbeStepFailure) in
            var options = session.launch.conformingAttest
            options.attackerRoot = true
            let (made, request) = try await session.preparedAttestation(options)
            try session.expectRefused(await session.send(request), setup: "an attestation chained to an attacker's root")
            return [await session.send(try await session.preparedAssertion(keyId: made.attestedKeyId))]
        },
    ]

    // MARK: iOS 27 shapes

    static let ios27: [ProbeCheck] = [
        ProbeCheck(
            "ios27.attestation-map", .accepted,
            sends: "an attestation with the trailing apple_* map after the COSE key and the ED flag clear",
            note: ProbeNotes.flag("Extensions")
        ) { session throws(ProbeStepFailure) in
            let (_, request) = try await session.preparedAttestation(ProbeLaunchData.attest(session.launch.satisfyingMap))
            return [await session.send(request)]
        },
        assertionShape(
            "ios27.assertion-0x40", .accepted, sends: "an assertion with flags 0x40 (launch data only where the policy needs it)",
            note: ProbeNotes.plainFlags
        ) { _, _ in },
        assertionShape(
            "ios27.assertion-0x40-map", .accepted, sends: "an assertion with flags 0x40 followed by the apple_* map",
            note: ProbeNotes.flag("Extensions"), map: true
        ) { _, _ in },
        assertionShape(
            "ios27.assertion-0xC0-map", .accepted, sends: "an assertion with flags 0xC0 (ED set) followed by the apple_* map",
            note: ProbeNotes.flag("Extensions"), map: true
        ) { options, _ in options.flags = 0xC0 },
    ]

    // MARK: macOS 27 shapes

    static let macos27: [ProbeCheck] = [
        ProbeCheck(
            "macos27.attestation", .accepted,
            sends:
                "a Mac's attestation (macOS 27): the apple_* map with category 6 (Developer ID) and the code-directory hash keys (type 2, 32 bytes), ED clear",
            note: ProbeNotes.macShape
        ) { session throws(ProbeStepFailure) in
            let (_, request) = try await session.preparedAttestation(ProbeLaunchData.attest(session.launch.macShape))
            return [await session.send(request)]
        },
        ProbeCheck(
            "macos27.assertion", .accepted,
            sends: "a Mac's assertion with the same map (flags 0x40), for a key accepted with a Mac's attestation",
            note: ProbeNotes.macShape, assertions: true
        ) { session throws(ProbeStepFailure) in
            let mac = session.launch.macShape
            let key = try await session.registeredKey(ProbeLaunchData.attest(mac), "a Mac's attestation")
            return [await session.send(try await session.preparedAssertion(keyId: key.keyId, ProbeLaunchData.assert(mac)))]
        },
    ]

    /// A check sending one attestation in a shape (a change to the conforming options), expected refused.
    static func attestationShape(
        _ id: String, sends: String, note: VectorNote,
        _ shape: @escaping @Sendable (inout SoftwareDevice.AttestOptions, ProbeConfig) -> Void
    ) -> ProbeCheck {
        ProbeCheck(id, .refused, sends: sends, note: note) { session throws(ProbeStepFailure) in
            var options = session.launch.conformingAttest
            shape(&options, session.config)
            let (_, request) = try await session.preparedAttestation(options)
            return [await session.send(request)]
        }
    }

    /// A check sending one assertion in a shape for a key the server accepted
    /// (with the policy-satisfying map when `map`).
    static func assertionShape(
        _ id: String, _ expected: ProbeExpectation, sends: String, note: VectorNote, map: Bool = false,
        _ shape: @escaping @Sendable (inout SoftwareDevice.AssertOptions, ProbeConfig) -> Void
    ) -> ProbeCheck {
        ProbeCheck(id, expected, sends: sends, note: note, assertions: true) { session throws(ProbeStepFailure) in
            let key = try await session.registeredKey()
            var options = map ? ProbeLaunchData.assert(session.launch.satisfyingMap) : session.launch.conformingAssert
            shape(&options, session.config)
            return [await session.send(try await session.preparedAssertion(keyId: key.keyId, options))]
        }
    }

    // MARK: launch policy

    /// The launch-policy checks the policy has rules for, each on an attestation and on an assertion.
    static func launchPolicy(_ launch: ProbeLaunchData) -> [ProbeCheck] {
        let rules: [(String, String, ProbeLaunchData.Choice?)] = [
            ("category", "a validation category outside allowedValidationCategories", launch.disallowedCategory),
            ("bundle-version", "a bundle version below minimumBundleVersion", launch.olderVersion),
            ("missing-data", "no launch data while missingLaunchData is reject", launch.missingRejected),
            (
                "code-directory-hash", "a Mac's launch data whose code-directory hash is outside allowedCodeDirectoryHashes",
                launch.disallowedCodeDirectoryHash
            ),
        ]
        let note = ProbeNotes.launchPolicy
        var checks: [ProbeCheck] = []
        for (name, what, choice) in rules {
            guard let choice else { continue }
            checks.append(
                ProbeCheck("launch.\(name)-attestation", .refused, sends: "an attestation with \(what)", note: note) {
                    session throws(ProbeStepFailure) in
                    let (_, request) = try await session.preparedAttestation(ProbeLaunchData.attest(choice))
                    return [await session.send(request)]
                })
            checks.append(
                ProbeCheck(
                    "launch.\(name)-assertion", .refused,
                    sends: "an assertion with \(what), for a key accepted with conforming data", note: note, assertions: true
                ) {
                    session throws(ProbeStepFailure) in
                    // The key of a Mac assertion is attested with a Mac's conforming data.
                    let key =
                        choice.platform == .macos
                        ? try await session.registeredKey(ProbeLaunchData.attest(session.launch.macShape), "a Mac's attestation")
                        : try await session.registeredKey()
                    return [await session.send(try await session.preparedAssertion(keyId: key.keyId, ProbeLaunchData.assert(choice)))]
                })
        }
        return checks
    }
}

extension ProbeChallenge {
    /// Random bytes the server never issued, written as `issued` is (its length, in `encoding`).
    static func unissued(like issued: ProbeChallenge?, encoding: ProbeConfig.Encoding) -> ProbeChallenge {
        let count = max(16, issued?.bytes.count ?? 32)
        let bytes = (0..<count).map { _ in UInt8.random(in: 0...255) }
        // For a text challenge: printable text (hex) of that many characters.
        let written = encoding == .text ? String(BinaryText.hex(bytes).prefix(count)) : ProbeEncoding.encode(bytes, encoding)
        return ProbeChallenge(written: written, bytes: encoding == .text ? Array(written.utf8) : bytes)
    }
}

extension ProbeConfig {
    /// A config with every launch rule, so `allIds` lists every check there is.
    static var everyRule: ProbeConfig {
        let endpoint = Endpoint(method: "POST", path: ProbeTemplate("/"), body: .object([:]), accepted: [200], refused: [400])
        return ProbeConfig(
            appId: "", environment: .development, baseURL: URL(fileURLWithPath: "/"), headers: [],
            challenge: ChallengeEndpoint(
                method: "POST", path: ProbeTemplate("/"), pointer: JSONPointer(tokens: []), encoding: .base64, body: nil),
            attest: endpoint, assert: endpoint, clientData: ProbeTemplate(""), clientDataHash: .sha256, timeoutSeconds: 1,
            launchPolicy: LaunchPolicy(
                allowedValidationCategories: [4], minimumBundleVersion: BundleVersion("2"), missingLaunchData: .reject,
                allowedCodeDirectoryHashes: [Array(repeating: 0x11, count: 32)]))
    }
}
