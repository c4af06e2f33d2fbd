import AppAttest
import AppAttestExampleServer
import AppAttestProbe
import Foundation
import TestSupport
import Testing

/// What the probe does when it cannot run or a request goes wrong
/// (spec/probe.md): a server that is down or hangs at the start is a
/// ProbeError (exit 2); a non-loopback target is refused before any request.
@Suite struct ProbeErrorPathTests {
    @Test func aServerThatIsDownCannotBeProbed() async throws {
        let fixture = try ProbeFixture()
        defer { fixture.remove() }
        let down = try SilentListener(listening: false)
        defer { down.close() }
        // A deadline far above the bound below: the refusal must not wait for it (no retries).
        let runner = ProbeRunner(config: try ProbeFixture.config(port: down.port, timeout: 60), device: fixture.device)
        do {
            _ = try await runner.run()
            Issue.record("a server that is down was probed")
        } catch {
            #expect(error.code == .serverUnreachable)
            // Refused at once, not retried until the 60 s deadline ("cannot connect within 60 s").
            #expect(error.description.lowercased().contains("connection refused"), "\(error.description)")
        }
    }

    @Test func aServerThatHangsTimesOut() async throws {
        let fixture = try ProbeFixture()
        defer { fixture.remove() }
        let listener = try SilentListener()
        defer { listener.close() }
        let runner = ProbeRunner(config: try ProbeFixture.config(port: listener.port, timeout: 0.5), device: fixture.device)
        do {
            _ = try await runner.run()
            Issue.record("a hanging server was probed")
        } catch {
            #expect(error.code == .serverUnreachable)
            #expect(error.description.contains("no answer within 0.5 s (timeoutSeconds)"), "\(error.description)")
        }
    }

    /// A timeout on one endpoint is that check's error, never a pass (spec/probe.md),
    /// even for a check whose correct answer is a refusal.
    @Test func aTimeoutIsAnErrorNeverAPass() async throws {
        let fixture = try ProbeFixture()
        defer { fixture.remove() }
        let report = try await RunningExampleServer.with(device: fixture.device, flaws: [.slowAssertions]) { server in
            var runner = ProbeRunner(config: try ProbeFixture.config(port: server.port, timeout: 4), device: fixture.device)
            runner.only = ["baseline.attestation", "signatures.unknown-key"]
            return try await runner.run()
        }
        #expect(report.results.map(\.grade) == [.pass, .error])
        #expect(report.results.last?.message.contains("no answer within 4 s (timeoutSeconds)") == true, "\(report.scorecard())")
        #expect(report.exitCode == 1)
    }

    @Test func aRemoteTargetIsRefusedWithoutAllowRemote() async throws {
        let fixture = try ProbeFixture()
        defer { fixture.remove() }
        let config = try ProbeConfigTests.parse(
            ProbeFixture.configText(port: 1).replacingOccurrences(of: "127.0.0.1:1", with: "192.0.2.1:8080"))
        var runner = ProbeRunner(config: config, device: fixture.device)
        #expect(throws: ProbeError(.remoteRefused, "")) { try runner.checkTarget() }
        runner.allowRemote = true
        #expect(throws: Never.self) { try runner.checkTarget() }
    }

    @Test func anUnknownOnlyIdIsRefused() throws {
        let fixture = try ProbeFixture()
        defer { fixture.remove() }
        var runner = ProbeRunner(config: try ProbeFixture.config(port: 1), device: fixture.device)
        runner.only = ["launch.category-attestation"]
        #expect(throws: ProbeError(.unknownCheck, "")) { try runner.selectedChecks() }
    }
}
