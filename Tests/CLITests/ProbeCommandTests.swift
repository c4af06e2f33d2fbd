import Foundation
import Testing
import TestSupport
import TrustSuiteSupport

/// `trustsuite probe appattest` run as a user runs it, against `trustsuite
/// serve appattest` (both child processes, the server always stopped):
/// a passing run with every report, and the error paths of spec/probe.md,
/// each one clear line with the documented exit status.
@Suite struct ProbeCommandTests {
    static let appId = "ABCDE12345.org.trustsuite.probe"

    /// A device, its root, and a config for `port` (docs/probe.md's, with `extra` fields).
    struct Setup {
        let folder: URL
        var device: String { folder.appendingPathComponent("device").path }
        var root: String { folder.appendingPathComponent("root.pem").path }

        init() throws {
            folder = try CLI.temporaryFolder()
            let made = try CLI.run([
                "device", "init", "--state", device, "--app-id", ProbeCommandTests.appId, "--environment", "development",
            ])
            guard made.status == 0 else { throw DeviceError("device init: \(made)") }
            let ca = try CLI.run(["device", "ca", "--state", device, "--attestation"])
            try Data(ca.stdout.utf8).write(to: URL(fileURLWithPath: root))
        }

        func config(baseURL: String, extra: String = "") throws -> String {
            let text = ProbeConfigText.exampleServer(baseURL: baseURL, appId: ProbeCommandTests.appId, extra: extra)
            let url = folder.appendingPathComponent("probe-\(UUID().uuidString).json")
            try Data(text.utf8).write(to: url)
            return url.path
        }

        func server(port: Int = 0, flaws: [String] = []) throws -> ListeningProcess {
            try ListeningProcess(
                executable: CLI.binary,
                arguments: [
                    "serve", "appattest", "--port", String(port), "--app-id", ProbeCommandTests.appId, "--environment", "development",
                    "--anchor", root, "--state", folder.appendingPathComponent("server-state-\(UUID().uuidString).json").path,
                ] + flaws.flatMap { ["--flaw", $0] })
        }
    }

    @Test func passesAgainstTheExampleServerAndWritesEveryReport() throws {
        let setup = try Setup()
        let server = try setup.server()
        defer { server.stop() }
        let config = try setup.config(baseURL: "http://127.0.0.1:\(server.port)")
        let reports = ["json", "junit", "markdown", "sarif"].map { ($0, setup.folder.appendingPathComponent("report.\($0)").path) }
        let outcome = try CLI.run(
            ["probe", "appattest", "--config", config, "--state", setup.device]
                + reports.flatMap { ["--\($0.0)", $0.1] })
        #expect(outcome.status == 0, "\(outcome)")
        #expect(outcome.stdout.contains("PASS: 29 passed, 0 accepted what must be refused"), "\(outcome.stdout)")
        for (_, path) in reports { #expect(FileManager.default.fileExists(atPath: path), "\(path)") }
        let json = try JSONDecoder().decode(JSONValue.self, from: Data(contentsOf: URL(fileURLWithPath: reports[0].1)))
        #expect(json["summary"]?["pass"]?.int64Value == 29)
        // --only runs the named checks alone.
        let only = try CLI.run(["probe", "appattest", "--config", config, "--state", setup.device, "--only", "replay.lower-counter"])
        #expect(only.status == 0 && only.stdout.contains("1 checks in"), "\(only)")
    }

    @Test func aConfigWithBadFieldsGivesOneLineEachAndExit2() throws {
        let setup = try Setup()
        let config = try setup.config(baseURL: "http://127.0.0.1:1", extra: #", "timeoutSeconds": -1, "clientDataHash2": "raw""#)
        let outcome = try CLI.run(["probe", "appattest", "--config", config, "--state", setup.device])
        #expect(outcome.status == 2)
        #expect(outcome.stderrLines.count == 2, "\(outcome)")
        #expect(outcome.stderrLines.allSatisfy { $0.hasPrefix("trustsuite: \(config): ") })
        #expect(outcome.stderr.contains("timeoutSeconds: must be a number of seconds"))
        #expect(outcome.stderr.contains("clientDataHash2: unknown field"))
        #expect(outcome.stdout.isEmpty)
    }

    @Test func aServerThatIsDownIsExit2() throws {
        let setup = try Setup()
        let down = try SilentListener(listening: false)
        defer { down.close() }
        let outcome = try CLI.run(
            [
                "probe", "appattest", "--config", try setup.config(baseURL: "http://127.0.0.1:\(down.port)"),
                "--state", setup.device,
            ], timeout: 30)
        #expect(outcome.status == 2 && !outcome.signaled)
        #expect(
            outcome.stderrLines.count == 1 && outcome.stderr.contains("did not give a challenge")
                && outcome.stderr.contains("cannot connect"),
            "\(outcome)")
    }

    @Test func aRemoteURLWithoutAllowRemoteIsExit2() throws {
        let setup = try Setup()
        let outcome = try CLI.run([
            "probe", "appattest", "--config", try setup.config(baseURL: "http://192.0.2.1:8080"),
            "--state", setup.device,
        ])
        #expect(outcome.status == 2)
        #expect(
            outcome.stderrLines.count == 1 && outcome.stderr.contains("not a loopback address")
                && outcome.stderr.contains("--allow-remote"),
            "\(outcome)")
    }

    @Test func aServerThatHangsTimesOutWithExit2() throws {
        let setup = try Setup()
        let hanging = try SilentListener()
        defer { hanging.close() }
        let config = try setup.config(baseURL: "http://127.0.0.1:\(hanging.port)", extra: #", "timeoutSeconds": 1"#)
        // The probe's own deadline says it ended the wait; one that never did is killed at CLI.run's 30 s (signaled).
        let outcome = try CLI.run(["probe", "appattest", "--config", config, "--state", setup.device], timeout: 30)
        #expect(outcome.status == 2 && !outcome.signaled)
        #expect(outcome.stderrLines.count == 1 && outcome.stderr.contains("no answer within 1 s (timeoutSeconds)"), "\(outcome)")
    }

    // MARK: Round 4 (spec/probe.md, Amendments (round 4))

    /// `serve appattest --flaw NAME`: a failing report on demand, each flaw
    /// failing its check; refuse-everything gives one baseline finding.
    @Test func aFlawedServerShowsAFailingReport() throws {
        let setup = try Setup()
        let cases: [(flaw: String, expected: String)] = [
            ("refuse-everything", "BASELINE FAILED: baseline.attestation: refused with 401"),
            ("store-unattested-keys", "!! [acceptedInvalid] signatures.unattested-key"),
            ("refuse-mac-attestation-data", "[refusedValid] macos27.attestation"),
        ]
        for (flaw, expected) in cases {
            let server = try setup.server(flaws: [flaw])
            defer { server.stop() }
            let config = try setup.config(baseURL: "http://127.0.0.1:\(server.port)")
            let outcome = try CLI.run(["probe", "appattest", "--config", config, "--state", setup.device])
            #expect(outcome.status == 1, "\(flaw): \(outcome)")
            #expect(outcome.stdout.contains(expected), "\(flaw): \(outcome.stdout)")
            if flaw == "refuse-everything" {
                #expect(
                    outcome.stdout.contains(
                        "FAIL: 0 passed, 0 accepted what must be refused, 1 refused what must be accepted, 0 errors, 28 not run"))
            }
        }
    }

    @Test func anUnknownFlawIsExit2WithTheNames() throws {
        let setup = try Setup()
        let outcome = try CLI.run([
            "serve", "appattest", "--port", "0", "--app-id", Self.appId, "--environment", "development", "--anchor", setup.root,
            "--flaw", "refuse-everthing",
        ])
        #expect(outcome.status == 2 && outcome.stderrLines.count == 1, "\(outcome)")
        #expect(outcome.stderr.contains("did you mean refuse-everything?"), "\(outcome)")
        #expect(outcome.stderr.contains("store-unattested-keys") && outcome.stderr.contains("skip-attestation-step:CODE"))
        let help = try CLI.run(["serve", "appattest", "--help"])
        #expect(help.status == 0 && help.stdout.contains("--flaw") && help.stdout.contains("refuse-mac-assertion-data"), "\(help)")
    }

    /// The quick start that cannot race: the probe starts first and waits for the server.
    @Test func waitReadyLetsTheProbeStartFirst() throws {
        let setup = try Setup()
        // The port is reserved (refusing connections) and freed just before the server takes it;
        // another process may take it in between, so up to three ports are tried.
        var config = ""
        for attempt in 1...3 {
            let reserved = try SilentListener(listening: false)
            let port = reserved.port
            config = try setup.config(baseURL: "http://127.0.0.1:\(port)")
            let started = ServerBox()
            DispatchQueue.global().asyncAfter(deadline: .now() + 1.5) {
                reserved.close()
                started.set(try? setup.server(port: port))
            }
            let outcome = try CLI.run(
                ["probe", "appattest", "--config", config, "--state", setup.device, "--wait-ready", "20", "--only", "baseline.assertions"],
                timeout: 90)
            guard let server = started.get() else {
                if attempt == 3 { Issue.record("the server never started: \(outcome)") }
                continue
            }
            server.stop()
            #expect(outcome.status == 0, "\(outcome)")
            break
        }
        // Without --wait-ready the same start order is exit 2 (the race of issue 43).
        let down = try SilentListener(listening: false)
        defer { down.close() }
        let raced = try CLI.run([
            "probe", "appattest", "--config", try setup.config(baseURL: "http://127.0.0.1:\(down.port)"), "--state", setup.device,
        ])
        #expect(raced.status == 2)
        let bounded = try CLI.run(
            [
                "probe", "appattest", "--config", try setup.config(baseURL: "http://127.0.0.1:\(down.port)"), "--state", setup.device,
                "--wait-ready", "1",
            ])
        #expect(bounded.status == 2 && bounded.stderr.contains("within --wait-ready 1 s"), "\(bounded)")
        for bad in ["0", "-1", "601", "nan"] {
            let refused = try CLI.run(["probe", "appattest", "--config", config, "--wait-ready", bad])
            #expect(refused.status == 2 && refused.stderr.contains("--wait-ready"), "\(bad): \(refused)")
        }
    }
}

final class ServerBox: @unchecked Sendable {
    private let lock = NSLock()
    private var server: ListeningProcess?
    func set(_ value: ListeningProcess?) { lock.withLock { server = value } }
    func get() -> ListeningProcess? { lock.withLock { server } }
}
