import AppAttest
import AppAttestDevice
import AppAttestExampleServer
import AppAttestProbe
import Foundation
import Testing
import TrustSuiteSupport

/// The probe against the example server (issue 27: it passes every check),
/// with the config of docs/probe.md, without and with a launch policy.
@Suite struct ProbeExampleServerTests {
    @Test func passesEveryCheckWithoutLaunchPolicy() async throws {
        let fixture = try ProbeFixture()
        defer { fixture.remove() }
        let state = fixture.folder.appendingPathComponent("server-state.json")
        let report = try await RunningExampleServer.with(device: fixture.device, stateFile: state) { server in
            try await ProbeRunner(config: ProbeFixture.config(port: server.port), device: fixture.device).run()
        }
        for result in report.results { #expect(result.grade == .pass, "\(result.check.id): \(result.message)") }
        #expect(report.results.count == ProbeCatalog.checks(for: try ProbeFixture.config(port: 1)).count)
        #expect(!report.results.contains { $0.check.group == "launch" })
        #expect(report.exitCode == 0)
        // The keys and counters it accepted are in its state file: baseline.assertions left one key at counter 2.
        let saved = try JSONDecoder().decode(JSONValue.self, from: Data(contentsOf: state))
        let counters = saved["keys"]?.objectValue?.values.compactMap { $0["counter"]?.int64Value } ?? []
        #expect(counters.contains(2))
    }

    @Test func passesEveryCheckWithEveryLaunchRule() async throws {
        let fixture = try ProbeFixture()
        defer { fixture.remove() }
        let report = try await RunningExampleServer.with(device: fixture.device, policy: ProbeFixture.fullPolicy) { server in
            try await ProbeRunner(
                config: ProbeFixture.config(port: server.port, policy: ProbeFixture.fullPolicyJSON),
                device: fixture.device
            ).run()
        }
        for result in report.results { #expect(result.grade == .pass, "\(result.check.id): \(result.message)") }
        #expect(report.results.map(\.check.id) == ProbeCatalog.allIds)
        #expect(report.results.filter { $0.check.group == "launch" }.count == 8)
    }

    /// A server that refuses everything passes no check (spec/probe.md,
    /// Amendments (round 4): one failure, one finding): the baseline is
    /// its one finding and every other check is `notRun`, never passed.
    @Test func aServerThatRefusesEverythingGetsOneBaselineFinding() async throws {
        let fixture = try ProbeFixture()
        defer { fixture.remove() }
        let other = try SoftwareDevice.create(
            at: fixture.folder.appendingPathComponent("other"), appId: ProbeFixture.appId,
            environment: .development)
        // The server trusts another device's root: every attestation of this device is refused.
        let report = try await RunningExampleServer.with(device: other) { server in
            try await ProbeRunner(config: ProbeFixture.config(port: server.port), device: fixture.device).run()
        }
        #expect(report.findings.map(\.check.id) == ["baseline.attestation"])
        #expect(report.findings.first?.grade == .refusedValid)
        #expect(report.count(.pass) == 0)
        #expect(report.count(.notRun) == report.results.count - 1)
        #expect(report.exitCode == 1)
    }

    @Test func reportsListDangerousFindingsFirst() async throws {
        let fixture = try ProbeFixture()
        defer { fixture.remove() }
        let report = try await RunningExampleServer.with(
            device: fixture.device,
            flaws: [
                .skipAssertionStep(.counterNotIncreasing),
                .refuseTrailingAssertionData,
            ]
        ) { server in
            var runner = ProbeRunner(config: try ProbeFixture.config(port: server.port), device: fixture.device)
            runner.only = ["ios27.assertion-0x40-map", "replay.equal-counter", "baseline.attestation"]
            return try await runner.run()
        }
        #expect(report.findings.map(\.check.id).first == "replay.equal-counter")
        let text = report.scorecard()
        let dangerous = try #require(text.range(of: "!! [acceptedInvalid] replay.equal-counter"))
        let locked = try #require(text.range(of: "   [refusedValid] ios27.assertion-0x40-map"))
        #expect(dangerous.lowerBound < locked.lowerBound)
        #expect(text.contains("FAIL: 1 passed, 1 accepted what must be refused, 1 refused what must be accepted, 0 errors"))
        let json = try JSONDecoder().decode(JSONValue.self, from: Data(report.json().utf8))
        #expect(json["checks"]?.arrayValue?.first?["id"]?.stringValue == "replay.equal-counter")
        #expect(json["checks"]?.arrayValue?.first?["bugClass"]?["bugType"]?.stringValue == "MISSING_CHECK")
        let sarif = try JSONDecoder().decode(JSONValue.self, from: Data(report.sarif().utf8))
        #expect(sarif["runs"]?.arrayValue?.first?["results"]?.arrayValue?.count == 2)
        #expect(report.junit().contains("<failure type=\"acceptedInvalid\""))
        #expect(report.markdown().contains("| replay.equal-counter | refused | **ACCEPTED what must be refused**"))
    }
}
