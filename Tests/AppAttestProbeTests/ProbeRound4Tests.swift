import AppAttest
import AppAttestDevice
import AppAttestExampleServer
import AppAttestProbe
import Foundation
import TestSupport
import Testing
import TrustSuiteSupport

/// The probe reads the server's real answer (spec/probe.md, Amendments
/// (round 4); issue 43 item 3): `acceptedWhen`, one baseline finding with
/// `notRun` for what depends on it, `--wait-ready`, a stable SARIF, and the
/// example server's flaws by name.
@Suite struct ProbeRound4Tests {
    /// Runs `only` (all when empty) against the example server with `flaws`.
    static func probe(
        _ fixture: ProbeFixture, flaws: Set<ExampleServerFlaw>, only: [String] = [], acceptedWhen: Bool = true,
        policy: Bool = false
    ) async throws -> ProbeReport {
        try await RunningExampleServer.with(
            device: fixture.device, policy: policy ? ProbeFixture.fullPolicy : nil, flaws: flaws
        ) { server in
            var runner = ProbeRunner(
                config: try ProbeFixture.config(
                    port: server.port, policy: policy ? ProbeFixture.fullPolicyJSON : nil, acceptedWhen: acceptedWhen),
                device: fixture.device)
            runner.only = only
            return try await runner.run()
        }
    }

    // MARK: acceptedWhen

    /// A genuine attestation answered 201 `{"status": "unattested"}` is a
    /// refusal under `acceptedWhen`, and the report says the server
    /// signalled it in the body; by the status alone it read as a pass.
    @Test func anUnattested201ToAGenuineAttestationIsRefusedValid() async throws {
        let fixture = try ProbeFixture()
        defer { fixture.remove() }
        // The server hashes the challenge twice, so it refuses genuine attestations, and answers each refusal 201 "unattested".
        let flaws: Set<ExampleServerFlaw> = [.storeUnattestedKeys, .hashAttestationChallengeTwice]
        let report = try await Self.probe(fixture, flaws: flaws, only: ["baseline.attestation"])
        let result = try #require(report.results.first)
        #expect(result.grade == .refusedValid, "\(result.message)")
        #expect(result.message.contains("answered 201"), "\(result.message)")
        #expect(result.message.contains("signalled the refusal in the answer: the body at /status is \"unattested\", not \"attested\""))
        // Without acceptedWhen the 201 reads as acceptance: what the probe did before round 4.
        let blind = try await Self.probe(fixture, flaws: flaws, only: ["baseline.attestation"], acceptedWhen: false)
        #expect(blind.results.first?.grade == .pass)
    }

    /// A forged attestation answered 201 "unattested" is a refusal (pass),
    /// and a server that keeps that key and takes its assertions fails
    /// `signatures.unattested-key`.
    @Test func anUnattested201ToAForgedAttestationIsARefusal() async throws {
        let fixture = try ProbeFixture()
        defer { fixture.remove() }
        let report = try await Self.probe(
            fixture, flaws: [.storeUnattestedKeys], only: ["trust.attacker-root", "signatures.unattested-key"])
        let grades = Dictionary(uniqueKeysWithValues: report.results.map { ($0.check.id, $0) })
        #expect(grades["trust.attacker-root"]?.grade == .pass)
        #expect(grades["trust.attacker-root"]?.message.contains("signalled the refusal in the answer") == true)
        #expect(grades["signatures.unattested-key"]?.grade == .acceptedInvalid, "\(grades["signatures.unattested-key"]?.message ?? "")")
        // Without acceptedWhen the probe cannot tell: the forged attestation reads as accepted.
        let blind = try await Self.probe(fixture, flaws: [.storeUnattestedKeys], only: ["trust.attacker-root"], acceptedWhen: false)
        #expect(blind.results.first?.grade == .acceptedInvalid)
    }

    /// The header form and the pointer form, read from answers directly.
    @Test func acceptedWhenReadsAPointerOrAHeader() throws {
        var endpoint = try ProbeFixture.config(port: 1).attest
        let created = ProbeResponse.answered(status: 201, body: Array(#"{"status": "attested"}"#.utf8), headers: [:])
        #expect(endpoint.read(created) == .accepted(status: 201))
        let unattested = ProbeResponse.answered(status: 201, body: Array(#"{"status": "unattested"}"#.utf8), headers: [:])
        guard case .refused(201, let signal?) = endpoint.read(unattested) else {
            Issue.record("a 201 \"unattested\" was not read as a refusal")
            return
        }
        #expect(signal.contains("/status"))
        #expect(endpoint.read(.answered(status: 201, body: Array("not json".utf8), headers: [:])) != .accepted(status: 201))
        #expect(endpoint.read(.answered(status: 401, body: [], headers: [:])) == .refused(status: 401, signal: nil))
        endpoint.acceptedWhen = ProbeConfig.AcceptedWhen(source: .header("X-Attested"), equals: .string("1"))
        #expect(endpoint.read(.answered(status: 200, body: [], headers: ["x-attested": "1"])) == .accepted(status: 200))
        #expect(endpoint.read(.answered(status: 200, body: [], headers: ["x-attested": "0"])) != .accepted(status: 200))
        #expect(endpoint.read(.answered(status: 200, body: [], headers: [:])) != .accepted(status: 200))
        // Numbers compare by value.
        endpoint.acceptedWhen = ProbeConfig.AcceptedWhen(source: .pointer(try #require(JSONPointer("/ok"))), equals: .int(1))
        #expect(endpoint.read(.answered(status: 200, body: Array(#"{"ok": 1.0}"#.utf8), headers: [:])) == .accepted(status: 200))
    }

    @Test func acceptedWhenFieldsAreChecked() throws {
        let good =
            #""accepted": [200, 201, 204], "refused": [400, 401, 403, 409, 422], "acceptedWhen": { "pointer": "/status", "equals": "attested" }"#
        let cases: [(String, String)] = [
            (#""acceptedWhen": { "pointer": "status", "equals": "attested" }"#, "attest.acceptedWhen.pointer: must be a JSON pointer"),
            (#""acceptedWhen": { "header": "X-Attested", "equals": 1 }"#, "attest.acceptedWhen.equals: must be a string"),
            (#""acceptedWhen": { "pointer": "/status" }"#, "attest.acceptedWhen.equals: missing"),
            (#""acceptedWhen": { "pointer": "/a", "header": "X-A", "equals": "1" }"#, "has both"),
            (#""acceptedWhen": { "equals": "1" }"#, "needs \"pointer\" or \"header\""),
            (#""acceptedWhen": { "pointer": "/a", "equals": "1", "value": 2 }"#, "attest.acceptedWhen.value: unknown field"),
            (#""acceptedWhen": "attested""#, "attest.acceptedWhen: must be an object"),
        ]
        for (field, message) in cases {
            let text = ProbeFixture.configText(port: 8080).replacingOccurrences(
                of: good, with: #""accepted": [200, 201, 204], "refused": [400, 401, 403, 409, 422], "# + field)
            let lines = ProbeConfigTests.errors(text)
            #expect(lines.contains { $0.contains(message) }, "\(field): \(lines)")
        }
        let header = ProbeFixture.configText(port: 8080).replacingOccurrences(
            of: #"{ "pointer": "/status", "equals": "attested" }"#, with: #"{ "header": "X-Attested", "equals": "1" }"#)
        #expect(try ProbeConfigTests.parse(header).attest.acceptedWhen?.source == .header("X-Attested"))
    }

    // MARK: One failure, one finding

    /// `--flaw refuse-everything`: the baseline is the one finding, every
    /// other check `notRun`, none passed; the scorecard leads with it.
    @Test func refuseEverythingGivesOneBaselineFindingAndNotRun() async throws {
        let fixture = try ProbeFixture()
        defer { fixture.remove() }
        let report = try await Self.probe(fixture, flaws: [.refuseEverything], policy: true)
        #expect(report.results.count == ProbeCatalog.allIds.count)
        #expect(report.findings.map(\.check.id) == ["baseline.attestation"])
        #expect(report.count(.pass) == 0 && report.count(.error) == 0)
        #expect(report.count(.notRun) == report.results.count - 1)
        #expect(report.results.filter { $0.grade == .notRun }.allSatisfy { $0.exchanges.isEmpty && $0.message.contains("baseline failed") })
        let lines = report.scorecard().split(separator: "\n")
        #expect(lines.dropFirst().first?.hasPrefix("BASELINE FAILED: baseline.attestation: refused with 401") == true, "\(lines)")
        #expect(report.summary.contains("0 passed") && report.summary.contains("\(report.results.count - 1) not run (baseline failed)"))
        let json = try JSONDecoder().decode(JSONValue.self, from: Data(report.json().utf8))
        #expect(json["failedBaseline"]?["id"]?.stringValue == "baseline.attestation")
        #expect(json["checks"]?.arrayValue?.first?["id"]?.stringValue == "baseline.attestation")
        #expect(json["summary"]?["notRun"]?.int64Value == Int64(report.results.count - 1))
        let sarif = try JSONDecoder().decode(JSONValue.self, from: Data(report.sarif().utf8))
        #expect(sarif["runs"]?.arrayValue?.first?["results"]?.arrayValue?.count == 1)
        #expect(report.junit().contains("<skipped message=\"notRun (baseline failed)"))
        #expect(report.markdown().contains("**Baseline failed**: `baseline.attestation`"))
        #expect(report.exitCode == 1)
    }

    /// Assertions refused, attestations fine: the checks that send
    /// assertions are `notRun`, the others run (and pass).
    @Test func aFailedAssertionBaselineStopsOnlyTheAssertionChecks() async throws {
        let fixture = try ProbeFixture()
        defer { fixture.remove() }
        let report = try await Self.probe(fixture, flaws: [.hashAssertionClientDataTwice])
        #expect(report.findings.map(\.check.id) == ["baseline.assertions"])
        for result in report.results where result.check.group != "baseline" {
            #expect(result.grade == (result.check.sendsAssertions ? .notRun : .pass), "\(result.check.id): \(result.message)")
        }
        #expect(report.count(.notRun) > 0 && report.count(.pass) > 1)
    }

    // MARK: --wait-ready

    /// The probe starts before the server listens and waits for it.
    @Test func waitReadyWaitsForAServerThatStartsLater() async throws {
        let fixture = try ProbeFixture()
        defer { fixture.remove() }
        // The port is reserved (bound, not listening: connections are refused) and freed just
        // before the server takes it; another process may take it in between, so up to three ports are tried.
        for attempt in 1...3 {
            let reserved = try SilentListener(listening: false)
            let port = reserved.port
            var runner = ProbeRunner(config: try ProbeFixture.config(port: port), device: fixture.device)
            runner.only = ["baseline.attestation"]
            runner.waitReadySeconds = 60
            let probing = Task { [runner] in try await runner.run() }
            try await Task.sleep(for: .seconds(1.5))
            reserved.close()
            let server: RunningExampleServer
            do {
                server = try await RunningExampleServer.start(device: fixture.device, stateFile: nil, port: port)
            } catch {
                probing.cancel()
                _ = await probing.result
                if attempt == 3 { throw error }
                continue
            }
            let report: ProbeReport
            do {
                report = try await probing.value
                await server.stop()
            } catch {
                await server.stop()
                throw error
            }
            #expect(report.results.map(\.grade) == [.pass])
            return
        }
    }

    /// Nothing ever listens: a clear error after the bound, with the tries
    /// counted. The bound and the back-off are the probe's, on its own
    /// clock (a stepping clock here, so they are exact on any machine); a
    /// wait that never gives up fails the test's time limit.
    @Test(.timeLimit(.minutes(10))) func waitReadyGivesUpAtItsBound() async throws {
        let fixture = try ProbeFixture()
        defer { fixture.remove() }
        let down = try SilentListener(listening: false)
        defer { down.close() }
        var runner = ProbeRunner(config: try ProbeFixture.config(port: down.port, timeout: 2), device: fixture.device)
        let clock = SteppingClock()
        runner.clock = ProbeClock(clock)
        runner.waitReadySeconds = 1.5
        do {
            _ = try await runner.run()
            Issue.record("a server that never listens was probed")
        } catch {
            #expect(error.code == .serverUnreachable)
            #expect(error.description.contains("within --wait-ready 1.5 s (5 tries)"), "\(error.description)")
            #expect(error.description.contains("connection refused"), "\(error.description)")
        }
        // Back-off 0.1 s doubling: the next pause (1 s) would pass the bound, so the probe gave up at it.
        #expect(clock.sleeps == [.milliseconds(100), .milliseconds(200), .milliseconds(400), .milliseconds(800)])
        #expect(clock.now.offset == .milliseconds(1500))
    }

    // MARK: SARIF

    /// The same category on any port, and the config as a relative location.
    @Test func sarifIsStableAcrossPorts() async throws {
        let fixture = try ProbeFixture()
        defer { fixture.remove() }
        var categories: Set<String> = []
        for _ in 0..<2 {
            var report = try await Self.probe(fixture, flaws: [.refuseTrailingAttestationData], only: ["ios27.attestation-map"])
            report.configFile = fixture.folder.appendingPathComponent("probe.json").path
            let sarif = try JSONDecoder().decode(JSONValue.self, from: Data(report.sarif().utf8))
            let run = try #require(sarif["runs"]?.arrayValue?.first)
            let category = try #require(run["automationDetails"]?["id"]?.stringValue)
            #expect(category == "trustsuite-probe/appattest/\(ProbeFixture.appId)/")
            categories.insert(category)
            let result = try #require(run["results"]?.arrayValue?.first)
            let uri = try #require(result["locations"]?.arrayValue?.first?["physicalLocation"]?["artifactLocation"]?["uri"]?.stringValue)
            #expect(!uri.hasPrefix("/") && uri.hasSuffix("probe.json") && !uri.contains("127.0.0.1"), "\(uri)")
            #expect(result["properties"]?["target"]?.stringValue?.hasPrefix("http://127.0.0.1:") == true)
        }
        #expect(categories.count == 1)
    }

    // MARK: Flaws by name

    @Test func everyFlawHasANameThatReadsBack() {
        let flaws = ExampleServerFlaw.named.map(\.flaw) + [.skipAttestationStep(.rpIdMismatch), .skipAssertionStep(.counterNotIncreasing)]
        for flaw in flaws { #expect(ExampleServerFlaw(name: flaw.name) == flaw, "\(flaw.name)") }
        #expect(Set(ExampleServerFlaw.named.map(\.name)).count == ExampleServerFlaw.named.count)
        #expect(ExampleServerFlaw(name: "skip-attestation-step:noSuchCode") == nil)
        #expect(ExampleServerFlaw(name: "refuse-everthing") == nil)
        // Every flaw the mutation test uses can be switched on from the CLI.
        for mutant in ProbeMutationTests.mutants {
            for flaw in mutant.flaws { #expect(ExampleServerFlaw(name: flaw.name) == flaw, "\(mutant.check): \(flaw)") }
        }
    }
}
