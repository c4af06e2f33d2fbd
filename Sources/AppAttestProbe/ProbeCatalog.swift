import AppAttest
import AppAttestDevice
import ConformanceKit
import Foundation
import TrustSuiteSupport

/// The checks of spec/probe.md, Checks, in the order they run. Each makes
/// its own keys (state never leaks between checks); a setup step the
/// server refuses makes the check an `error`, never a pass, so a server
/// that refuses everything cannot pass the must-refuse checks.
public enum ProbeCatalog {
    /// The checks that apply to `config` (the launch-policy ones only when it declares a policy).
    public static func checks(for config: ProbeConfig) -> [ProbeCheck] {
        baseline + replay + challenge + binding + trust + signatures + ios27 + launchPolicy(ProbeLaunchData(policy: config.launchPolicy))
    }

    /// Every check id a config with every launch rule would run (for `--only` and the docs).
    public static var allIds: [String] {
        checks(for: ProbeConfig.everyRule).map(\.id)
    }

    // MARK: baseline

    static let baseline: [ProbeCheck] = [
        ProbeCheck("baseline.attestation", .accepted, sends: "a genuine attestation over a fresh challenge",
                   note: ProbeNotes.hashRule) { session throws(ProbeStepFailure) in
            let (_, request) = try await session.preparedAttestation(session.launch.conformingAttest)
            return [await session.send(request)]
        },
        ProbeCheck("baseline.assertions", .accepted, sends: "two genuine assertions (counters 1 and 2) for an accepted key",
                   note: ProbeNotes.flag("PrehashedNonce")) { session throws(ProbeStepFailure) in
            let key = try await session.registeredKey()
            let first = await session.send(try await session.preparedAssertion(keyId: key.keyId))
            let second = await session.send(try await session.preparedAssertion(keyId: key.keyId))
            return [first, second]
        },
    ]

    // MARK: replay

    static let replay: [ProbeCheck] = [
        ProbeCheck("replay.attestation", .refused, sends: "an accepted attestation request sent again (same challenge)",
                   note: ProbeNotes.challengeReplay) { session throws(ProbeStepFailure) in
            let (_, request) = try await session.preparedAttestation(session.launch.conformingAttest)
            try await session.setup(request, "a valid attestation")
            return [await session.send(request)]
        },
        ProbeCheck("replay.assertion", .refused, sends: "an accepted assertion request sent again (same challenge, same counter)",
                   note: ProbeNotes.flag("Replay")) { session throws(ProbeStepFailure) in
            let key = try await session.registeredKey()
            let request = try await session.preparedAssertion(keyId: key.keyId)
            try await session.setup(request, "a valid assertion")
            return [await session.send(request)]
        },
        ProbeCheck("replay.equal-counter", .refused, sends: "a new assertion on a fresh challenge with the counter of the accepted one",
                   note: ProbeNotes.flag("Replay")) { session throws(ProbeStepFailure) in
            let key = try await session.registeredKey()
            try await session.setup(try await session.preparedAssertion(keyId: key.keyId), "a valid assertion")
            let replayed = ProbeLaunchData.assert(session.launch.conforming, replayCounter: true)
            return [await session.send(try await session.preparedAssertion(keyId: key.keyId, replayed))]
        },
        ProbeCheck("replay.lower-counter", .refused, sends: "an assertion with counter 1 after one with counter 2 was accepted",
                   note: ProbeNotes.flag("Replay")) { session throws(ProbeStepFailure) in
            let key = try await session.registeredKey()
            let earlier = try await session.preparedAssertion(keyId: key.keyId)
            try await session.setup(try await session.preparedAssertion(keyId: key.keyId), "a valid assertion")
            return [await session.send(earlier)]
        },
    ]

    // MARK: challenge

    static let challenge: [ProbeCheck] = [
        ProbeCheck("challenge.never-issued", .refused, sends: "an attestation for a challenge the server never issued",
                   note: ProbeNotes.challengeNotIssued) { session throws(ProbeStepFailure) in
            let issued = try await session.challenge()
            let forged = ProbeChallenge.unissued(like: issued, encoding: session.config.challenge.encoding)
            let (_, request) = try session.attestation(session.launch.conformingAttest, challenge: forged)
            return [await session.send(request)]
        },
        ProbeCheck("challenge.reused", .refused, sends: "a second key attested over a challenge already used by an accepted attestation",
                   note: ProbeNotes.challengeReplay) { session throws(ProbeStepFailure) in
            let challenge = try await session.challenge()
            let (_, first) = try session.attestation(session.launch.conformingAttest, challenge: challenge)
            try await session.setup(first, "a valid attestation")
            let (_, second) = try session.attestation(session.launch.conformingAttest, challenge: challenge)
            return [await session.send(second)]
        },
    ]

    // MARK: binding

    static let binding: [ProbeCheck] = [
        ProbeCheck("binding.environment", .refused, sends: "an attestation with the other environment's aaguid",
                   note: ProbeNotes.environment) { session throws(ProbeStepFailure) in
            let options = ProbeLaunchData.attest(session.launch.conforming, otherEnvironment: true)
            let (_, request) = try await session.preparedAttestation(options)
            return [await session.send(request)]
        },
        ProbeCheck("binding.key-id-swapped", .refused,
                   sends: "a consistent attestation object sent with another key's key id in the request",
                   note: ProbeNotes.keyBinding) { session throws(ProbeStepFailure) in
            let challenge = try await session.challenge()
            let (made, _) = try session.attestation(session.launch.conformingAttest, challenge: challenge)
            let (other, _) = try session.attestation(session.launch.conformingAttest, challenge: challenge)
            let request = session.attestationRequest(keyId: other.keyId, object: made.attestationObject, challenge: challenge)
            return [await session.send(request)]
        },
        ProbeCheck("binding.nonce-other-challenge", .refused,
                   sends: "an attestation whose nonce is over another issued challenge than the one in the request",
                   note: ProbeNotes.nonceBinding) { session throws(ProbeStepFailure) in
            let sent = try await session.challenge()
            let signed = try await session.challenge()
            let (_, request) = try session.attestation(session.launch.conformingAttest, challenge: sent, signedChallenge: signed)
            return [await session.send(request)]
        },
    ]

    // MARK: trust

    static let trust: [ProbeCheck] = [
        ProbeCheck("trust.expired-certificate", .refused, sends: "an attestation whose credential certificate expired a day ago",
                   note: ProbeNotes.flag("Expired")) { session throws(ProbeStepFailure) in
            let options = ProbeLaunchData.attest(session.launch.conforming, expiredCertificate: true)
            let (_, request) = try await session.preparedAttestation(options)
            return [await session.send(request)]
        },
    ]

    // MARK: signatures

    static let signatures: [ProbeCheck] = [
        ProbeCheck("signatures.foreign-key", .refused, sends: "an assertion for an accepted key signed by another key",
                   note: ProbeNotes.signature) { session throws(ProbeStepFailure) in
            let key = try await session.registeredKey()
            let options = ProbeLaunchData.assert(session.launch.conforming, foreignKey: true)
            return [await session.send(try await session.preparedAssertion(keyId: key.keyId, options))]
        },
        ProbeCheck("signatures.unknown-key", .refused, sends: "a well-signed assertion for a key the server never accepted",
                   note: ProbeNotes.unknownKey) { session throws(ProbeStepFailure) in
            // Attested on the device only: the server never sees this key's attestation.
            let (made, _) = try session.attestation(session.launch.conformingAttest,
                                                   challenge: ProbeChallenge.unissued(like: nil, encoding: session.config.challenge.encoding))
            return [await session.send(try await session.preparedAssertion(keyId: made.keyId))]
        },
    ]

    // MARK: iOS 27 shapes

    static let ios27: [ProbeCheck] = [
        ProbeCheck("ios27.attestation-map", .accepted,
                   sends: "an attestation with the trailing apple_* map after the COSE key and the ED flag clear",
                   note: ProbeNotes.flag("Extensions")) { session throws(ProbeStepFailure) in
            let (_, request) = try await session.preparedAttestation(ProbeLaunchData.attest(session.launch.satisfyingMap))
            return [await session.send(request)]
        },
        ProbeCheck("ios27.assertion-0x40", .accepted, sends: "an assertion with flags 0x40 and no data after the 37-byte header",
                   note: ProbeNotes.plainFlags) { session throws(ProbeStepFailure) in
            let key = try await session.registeredKey()
            return [await session.send(try await session.preparedAssertion(keyId: key.keyId, ProbeLaunchData.assert(session.launch.conforming)))]
        },
        ProbeCheck("ios27.assertion-0x40-map", .accepted, sends: "an assertion with flags 0x40 followed by the apple_* map",
                   note: ProbeNotes.flag("Extensions")) { session throws(ProbeStepFailure) in
            let key = try await session.registeredKey()
            let options = ProbeLaunchData.assert(session.launch.satisfyingMap)
            return [await session.send(try await session.preparedAssertion(keyId: key.keyId, options))]
        },
    ]

    // MARK: launch policy

    /// The launch-policy checks the policy has rules for, each on an attestation and on an assertion.
    static func launchPolicy(_ launch: ProbeLaunchData) -> [ProbeCheck] {
        let rules: [(String, String, ProbeLaunchData.Choice?)] = [
            ("category", "a validation category outside allowedValidationCategories", launch.disallowedCategory),
            ("bundle-version", "a bundle version below minimumBundleVersion", launch.olderVersion),
            ("missing-data", "no launch data while missingLaunchData is reject", launch.missingRejected),
        ]
        let note = ProbeNotes.flag(LaunchPolicyFields.flag)
        var checks: [ProbeCheck] = []
        for (name, what, choice) in rules {
            guard let choice else { continue }
            checks.append(ProbeCheck("launch.\(name)-attestation", .refused, sends: "an attestation with \(what)", note: note) {
                session throws(ProbeStepFailure) in
                let (_, request) = try await session.preparedAttestation(ProbeLaunchData.attest(choice))
                return [await session.send(request)]
            })
            checks.append(ProbeCheck("launch.\(name)-assertion", .refused,
                                     sends: "an assertion with \(what), for a key accepted with conforming data", note: note) {
                session throws(ProbeStepFailure) in
                let key = try await session.registeredKey()
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
            challenge: ChallengeEndpoint(method: "POST", path: ProbeTemplate("/"), pointer: JSONPointer(tokens: []), encoding: .base64, body: nil),
            attest: endpoint, assert: endpoint, clientData: ProbeTemplate(""), clientDataHash: .sha256, timeoutSeconds: 1,
            launchPolicy: LaunchPolicy(allowedValidationCategories: [4], minimumBundleVersion: BundleVersion("2"), missingLaunchData: .reject))
    }
}
