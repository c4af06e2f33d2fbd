#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing
import TestSupport

/// The runner's tree after the round-5 audit (issue 52): the lifeline
/// cannot be held open and a killed watchdog leaves no orphan (item 4), and
/// in a PID namespace whose /proc is the host's no unrelated process is
/// signalled and SIGTERM still stops a runner that is PID 1 (item 1).
@Suite(.serialized, .timeLimit(.minutes(10))) struct RunnerTreeTests {
    static let script = Locations.packageRoot.appendingPathComponent("Tests/Adapters/lifeline_adapter.py").path

    enum End: String, CaseIterable, CustomTestStringConvertible {
        /// The run ends by itself: the adapter hangs (or dies) on its first
        /// case and is given up (`--max-crashes 1`).
        case normal
        /// The runner is SIGKILLed once the daemon has done its deed.
        case sigkill
        var testDescription: String { rawValue }
    }

    /// A daemon that holds the watchdog's lifeline open (`/proc/W/fd/3`
    /// opened for writing), or that SIGKILLs its own watchdog, both with an
    /// empty environment (no token), is gone once the run ends, normally or
    /// by SIGKILL. Before: after a runner SIGKILL the held lifeline kept the
    /// watchdog, the adapter and the daemon alive; the daemon that killed its
    /// watchdog survived both ends.
    @Test(arguments: ["hold-lifeline", "kill-watchdog"], End.allCases)
    func noDaemonOutlivesTheRun(_ mode: String, _ end: End) async throws {
        let marker = "lifeline-adapter-\(UUID().uuidString)"
        let ready = FileManager.default.temporaryDirectory.appendingPathComponent("\(marker).ready").path
        defer {
            try? FileManager.default.removeItem(atPath: ready)
            try? FileManager.default.removeItem(atPath: ready + ".deed")
        }
        let runner = Process()
        runner.executableURL = CLI.binary
        runner.arguments = [
            "run", "--family", "cbor", "--quiet", "--timeout", end == .normal ? "2" : "600", "--max-crashes", end == .normal ? "1" : "0",
            "--adapter", "python3 \(Self.script) \(mode) \(marker) \(ready)",
        ]
        runner.standardOutput = FileHandle.nullDevice
        runner.standardError = FileHandle.nullDevice
        try TiedProcess.run(runner)
        switch end {
        case .normal:
            await Waiting.exit(of: runner)
            #expect(!runner.isRunning, "the run never ended")
            #expect(FileManager.default.fileExists(atPath: ready + ".deed"), "the daemon did its deed")
            if !runner.isRunning { #expect(runner.terminationReason == .exit && runner.terminationStatus == 1) }
        case .sigkill:
            await Waiting.until({ FileManager.default.fileExists(atPath: ready) }, unless: { !runner.isRunning })
            #expect(FileManager.default.fileExists(atPath: ready), "the adapter got its first request after the deed")
            // The orphans of a killed watchdog are killed the moment it dies;
            // a SIGKILL at that very moment is not covered (docs/reliability.md).
            try await Task.sleep(for: .seconds(1))
            kill(runner.processIdentifier, SIGKILL)
        }
        let left = await Waiting.survivors(of: marker, after: runner)
        #expect(left == [], "\(mode), \(end): what the adapter started outlived the run")
    }

    /// The hostile trust store's temporary folder is removed when a signal
    /// stops the runner (issue 52, item 7), as at a normal end; before, it
    /// was left in the temporary folder.
    @Test(arguments: [SIGTERM, SIGINT])
    func theTrustStoreFolderGoesWithASignalledRunner(_ number: Int32) async throws {
        let temporary = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: temporary) }
        let marker = "escaping-adapter-\(UUID().uuidString)"
        let ready = temporary.appendingPathComponent("ready").path
        let runner = Process()
        runner.executableURL = CLI.binary
        runner.arguments = [
            "run", "--family", "cbor", "--timeout", "600", "--quiet", "--hostile-trust-store",
            "--adapter", "python3 \(RunnerSignalTests.script) \(marker) \(ready)",
        ]
        var environment = ProcessInfo.processInfo.environment
        environment["TMPDIR"] = temporary.path
        runner.environment = environment
        runner.standardOutput = FileHandle.nullDevice
        runner.standardError = FileHandle.nullDevice
        try TiedProcess.run(runner)
        await Waiting.until({ FileManager.default.fileExists(atPath: ready) }, unless: { !runner.isRunning })
        let stores = {
            (try? FileManager.default.contentsOfDirectory(atPath: temporary.path))?.filter { $0.hasPrefix("trustsuite-trust-store-") } ?? []
        }
        #expect(stores().count == 1, "the run made its trust store")
        kill(runner.processIdentifier, number)
        let left = await Waiting.survivors(of: marker, after: runner)
        #expect(left == [])
        #expect(!runner.isRunning && runner.terminationStatus == 128 + number)
        #expect(stores() == [], "the trust store outlived the run")
    }

    /// `unshare --pid --fork` works here (root, Linux).
    static let namespacesAvailable: Bool = {
        guard getuid() == 0, FileManager.default.isExecutableFile(atPath: "/usr/bin/unshare") else { return false }
        return (try? Processes.output(["unshare", "--pid", "--fork", "true"]).status) == 0
    }()

    static let notice = "/proc shows another PID namespace than this process's"

    /// The sleepers of `marker` (their argv[0]), not the shell whose script names them.
    static func bystanders(_ marker: String) -> Int {
        Processes.mentioning(marker).filter { $0.contains(": \(marker)-bystander 600") }.count
    }

    /// The host pid of the runner whose command line holds `marker`, if it runs.
    static func runnerPid(_ marker: String) -> pid_t? {
        let found = Processes.mentioning(marker).filter { $0.contains(": \(CLI.binary.path) run ") }
        return found.first.flatMap { line in pid_t(line.prefix { $0 != ":" }) }
    }

    /// In a PID namespace without its own /proc, the runner (pid 2 there,
    /// beside 30 unrelated sleepers) is sent SIGTERM: it says once that /proc
    /// cannot be trusted, stops its adapter by group and watchdog, exits 143,
    /// and every sleeper is alive. Before: pid 2's "descendants" in the
    /// host's /proc are the kernel's threads (3, 4, 5, …), and those pids,
    /// signalled in the namespace, killed the sleepers.
    @Test(.enabled(if: namespacesAvailable, "needs root and unshare"))
    func noUnrelatedProcessIsSignalledWhenProcIsTheHosts() async throws {
        let marker = "escaping-adapter-\(UUID().uuidString)"
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let ready = folder.appendingPathComponent("ready").path
        let status = folder.appendingPathComponent("status").path
        let errors = folder.appendingPathComponent("stderr").path
        let run = [
            CLI.binary.path, "run", "--family", "cbor", "--timeout", "600", "--quiet", "--adapter",
            "python3 \(RunnerSignalTests.script) \(marker) \(ready)",
        ].map { "'\($0)'" }.joined(separator: " ")
        let script = """
            \(run) 2>'\(errors)' & runner=$!
            for i in $(seq 30); do (exec -a '\(marker)-bystander' sleep 600) & done
            wait $runner; echo $? >'\(status)'
            sleep 600
            """
        let namespace = Process()
        namespace.executableURL = URL(fileURLWithPath: "/usr/bin/unshare")
        namespace.arguments = ["--pid", "--fork", "--kill-child", "/bin/bash", "-c", script]
        namespace.standardOutput = FileHandle.nullDevice
        namespace.standardError = FileHandle.nullDevice
        try TiedProcess.run(namespace)
        defer {
            // SIGKILL: unshare ignores SIGTERM while it waits; --kill-child
            // then takes the namespace's init, and the namespace, with it.
            kill(namespace.processIdentifier, SIGKILL)
            namespace.waitUntilExit()
        }
        // The runner's status file is written when it ends: an early end
        // (its error in the stderr file) stops the wait instead of a hang.
        let ended = { FileManager.default.fileExists(atPath: status) }
        await Waiting.until({ FileManager.default.fileExists(atPath: ready) && Self.bystanders(marker) == 30 }, unless: ended)
        let early = (try? String(contentsOfFile: errors, encoding: .utf8)) ?? ""
        #expect(FileManager.default.fileExists(atPath: ready), "the adapter got its first request; the runner said: \(early)")
        let pid = try #require(Self.runnerPid(marker), "the runner runs; it said: \(early)")
        kill(pid, SIGTERM)
        await Waiting.until(ended)
        let code = (try? String(contentsOfFile: status, encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(code == "143", "the runner's status: \(code ?? "none")")
        #expect(Self.bystanders(marker) == 30, "unrelated processes were killed")
        let text = (try? String(contentsOfFile: errors, encoding: .utf8)) ?? ""
        #expect(text.components(separatedBy: Self.notice).count == 2, "said once: \(text)")
    }

    /// As PID 1 of such a namespace the runner gets SIGTERM (a signal with
    /// the default action or ignored is dropped for a namespace's init) and
    /// exits 143; its namespace, and everything of the run, ends with it.
    @Test(.enabled(if: namespacesAvailable, "needs root and unshare"))
    func aRunnerThatIsPID1StopsOnSIGTERM() async throws {
        let marker = "escaping-adapter-\(UUID().uuidString)"
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let ready = folder.appendingPathComponent("ready").path
        let namespace = Process()
        namespace.executableURL = URL(fileURLWithPath: "/usr/bin/unshare")
        namespace.arguments = [
            "--pid", "--fork", "--kill-child", CLI.binary.path, "run", "--family", "cbor", "--timeout", "600", "--quiet",
            "--adapter", "python3 \(RunnerSignalTests.script) \(marker) \(ready)",
        ]
        let errors = Pipe()
        namespace.standardOutput = FileHandle.nullDevice
        namespace.standardError = errors
        try TiedProcess.run(namespace)
        await Waiting.until({ FileManager.default.fileExists(atPath: ready) }, unless: { !namespace.isRunning })
        #expect(FileManager.default.fileExists(atPath: ready), "the adapter got its first request")
        let pid = try #require(Self.runnerPid(marker), "the runner runs")
        kill(pid, SIGTERM)
        let left = await Waiting.survivors(of: marker, after: namespace)
        #expect(!namespace.isRunning, "SIGTERM did not stop the runner")
        if namespace.isRunning {
            kill(namespace.processIdentifier, SIGKILL)
        } else {
            #expect(namespace.terminationReason == .exit && namespace.terminationStatus == 143)
            let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            #expect(text.components(separatedBy: Self.notice).count == 2, "said once: \(text)")
        }
        namespace.waitUntilExit()
        #expect(left == [], "what the adapter started outlived the runner")
    }
}
