import AppAttest
import AppAttestExampleServer
import AppAttestProbe
import Testing

/// The probe's own mutation test (issue 27 item 4): for every check, a
/// deliberately broken example server that the check catches, and the
/// same check passing against the correct server. A check added without a
/// broken variant fails `everyCheckHasABrokenVariant`.
@Suite struct ProbeMutationTests {
    struct Mutant: Sendable, CustomTestStringConvertible {
        let check: String
        let flaws: Set<ExampleServerFlaw>
        var testDescription: String { check }
    }

    static let mutants: [Mutant] = [
        Mutant(check: "baseline.attestation", flaws: [.hashAttestationChallengeTwice]),
        Mutant(check: "baseline.assertions", flaws: [.hashAssertionClientDataTwice]),
        Mutant(check: "replay.attestation", flaws: [.reusableChallenges, .overwriteKeys]),
        Mutant(check: "replay.assertion", flaws: [.reusableChallenges, .skipAssertionStep(.counterNotIncreasing)]),
        Mutant(check: "replay.equal-counter", flaws: [.skipAssertionStep(.counterNotIncreasing)]),
        Mutant(check: "replay.lower-counter", flaws: [.skipAssertionStep(.counterNotIncreasing)]),
        Mutant(check: "challenge.never-issued", flaws: [.unissuedChallenges]),
        Mutant(check: "challenge.reused", flaws: [.reusableChallenges]),
        Mutant(check: "binding.app-id", flaws: [.skipAttestationStep(.rpIdMismatch)]),
        Mutant(check: "binding.assertion-app-id", flaws: [.skipAssertionStep(.rpIdMismatch)]),
        Mutant(check: "binding.environment", flaws: [.skipAttestationStep(.aaguidMismatch)]),
        Mutant(check: "binding.key-id-swapped", flaws: [.skipAttestationStep(.keyIdMismatch)]),
        Mutant(check: "binding.certificate-key", flaws: [.skipAttestationStep(.keyIdMismatch)]),
        Mutant(check: "binding.credential-id", flaws: [.skipAttestationStep(.credentialIdMismatch)]),
        Mutant(check: "binding.nonce-other-challenge", flaws: [.skipAttestationStep(.nonceMismatch)]),
        Mutant(check: "binding.nonce-der-shape", flaws: [.skipAttestationStep(.nonceExtensionMissing)]),
        Mutant(check: "binding.attestation-counter", flaws: [.skipAttestationStep(.counterNotZero)]),
        Mutant(check: "trust.attacker-root", flaws: [.skipAttestationStep(.certificateChainInvalid)]),
        Mutant(check: "trust.expired-certificate", flaws: [.skipAttestationStep(.certificateChainInvalid)]),
        Mutant(check: "signatures.foreign-key", flaws: [.skipAssertionStep(.signatureInvalid)]),
        Mutant(check: "signatures.prehashed-nonce", flaws: [.skipAssertionStep(.signatureInvalid)]),
        Mutant(check: "signatures.unknown-key", flaws: [.failOpenUnknownKey]),
        Mutant(check: "signatures.unattested-key", flaws: [.storeUnattestedKeys]),
        Mutant(check: "ios27.attestation-map", flaws: [.refuseTrailingAttestationData]),
        Mutant(check: "ios27.assertion-0x40", flaws: [.requireUserPresence]),
        Mutant(check: "ios27.assertion-0x40-map", flaws: [.refuseTrailingAssertionData]),
        Mutant(check: "ios27.assertion-0xC0-map", flaws: [.refuseUnknownFlags]),
        Mutant(check: "macos27.attestation", flaws: [.refuseMacAttestationData]),
        Mutant(check: "macos27.assertion", flaws: [.refuseMacAssertionData]),
        Mutant(check: "launch.category-attestation", flaws: [.ignoreLaunchPolicy]),
        Mutant(check: "launch.category-assertion", flaws: [.ignoreLaunchPolicy]),
        Mutant(check: "launch.bundle-version-attestation", flaws: [.ignoreLaunchPolicy]),
        Mutant(check: "launch.bundle-version-assertion", flaws: [.ignoreLaunchPolicy]),
        Mutant(check: "launch.missing-data-attestation", flaws: [.ignoreLaunchPolicy]),
        Mutant(check: "launch.missing-data-assertion", flaws: [.ignoreLaunchPolicy]),
        Mutant(check: "launch.code-directory-hash-attestation", flaws: [.ignoreCodeDirectoryHashAllowlist]),
        Mutant(check: "launch.code-directory-hash-assertion", flaws: [.ignoreCodeDirectoryHashAllowlist]),
    ]

    @Test func everyCheckHasABrokenVariant() {
        #expect(Set(Self.mutants.map(\.check)) == Set(ProbeCatalog.allIds))
        #expect(Self.mutants.count == ProbeCatalog.allIds.count)
    }

    /// The check passes against the correct server and not against the broken one.
    @Test(arguments: mutants) func checkCatchesItsBrokenVariant(_ mutant: Mutant) async throws {
        let fixture = try ProbeFixture()
        defer { fixture.remove() }
        for flaws in [Set<ExampleServerFlaw>(), mutant.flaws] {
            let report = try await RunningExampleServer.with(device: fixture.device, policy: ProbeFixture.fullPolicy, flaws: flaws) {
                server in
                var runner = ProbeRunner(
                    config: try ProbeFixture.config(port: server.port, policy: ProbeFixture.fullPolicyJSON),
                    device: fixture.device)
                runner.only = [mutant.check]
                return try await runner.run()
            }
            let result = try #require(report.results.first)
            #expect(report.results.count == 1 && result.check.id == mutant.check)
            if flaws.isEmpty {
                #expect(result.grade == .pass, "correct server: \(result.message)")
            } else {
                let expected: ProbeGrade = result.check.expected == .refused ? .acceptedInvalid : .refusedValid
                #expect(result.grade == expected, "broken server \(flaws): \(result.grade) \(result.message)")
            }
        }
    }
}
