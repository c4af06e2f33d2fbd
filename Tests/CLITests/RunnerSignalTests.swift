import Foundation
import Testing
import TestSupport

/// No process an adapter started outlives its runner, whatever signal ends
/// the runner (issue 44, item 8). The adapter
/// (`Tests/Adapters/escaping_adapter.py`) starts a setsid double-forked
/// daemon, one that also clears its environment, a setpgid child and a
/// plain background child, all ignoring SIGTERM, SIGINT and SIGHUP, then
/// hangs on its first request; the runner is signalled then.
@Suite(.serialized, .timeLimit(.minutes(10))) struct RunnerSignalTests {
    static let script = Locations.packageRoot.appendingPathComponent("Tests/Adapters/escaping_adapter.py").path

    /// A runner of `trustsuite run` against the escaping adapter, tied to the
    /// test process, once its adapter hangs and all four daemons run; with
    /// the run's marker.
    static func startRun(arguments: [String] = [], parent: String? = nil) async throws -> (Process, String, String) {
        let marker = "escaping-adapter-\(UUID().uuidString)"
        let ready = FileManager.default.temporaryDirectory.appendingPathComponent("\(marker).ready").path
        let runner = Process()
        var command = [CLI.binary.path, "run", "--family", "cbor", "--timeout", "600", "--quiet"]
        command += ["--adapter", "python3 \(script) \(marker) \(ready)"]
        if let parent {
            // A stand-in for a test process: it starts the runner the way
            // TiedProcess does, then dies by SIGKILL once the adapter hangs.
            runner.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
            runner.arguments = ["-c", parent, ready, "/usr/bin/setpriv", "--pdeathsig", "KILL", "--"] + command
        } else {
            runner.executableURL = CLI.binary
            runner.arguments = Array(command.dropFirst()) + arguments
        }
        runner.standardOutput = FileHandle.nullDevice
        runner.standardError = FileHandle.nullDevice
        try TiedProcess.run(runner)
        // The runner, the adapter and its four daemons (and whatever else
        // carries the marker in between); or the runner ended early.
        await Waiting.until(
            { FileManager.default.fileExists(atPath: ready) && Processes.mentioning(marker).count >= 6 },
            unless: { !runner.isRunning })
        #expect(FileManager.default.fileExists(atPath: ready), "the adapter got its first request")
        #expect(Processes.mentioning(marker).count >= 6, "\(Processes.mentioning(marker))")
        return (runner, marker, ready)
    }

    @Test(arguments: [SIGTERM, SIGINT, SIGHUP, SIGKILL])
    func noProcessOfTheRunOutlivesASignalledRunner(_ number: Int32) async throws {
        let (runner, marker, ready) = try await Self.startRun()
        defer { try? FileManager.default.removeItem(atPath: ready) }
        kill(runner.processIdentifier, number)
        let left = await Waiting.survivors(of: marker, after: runner)
        #expect(!runner.isRunning)
        #expect(left == [], "signal \(number): what the adapter started outlived the runner")
        if number != SIGKILL && !runner.isRunning {
            // As a shell reports a death by that signal.
            #expect(runner.terminationStatus == 128 + number)
        }
    }

    /// A test process that dies (here a stand-in, SIGKILLed) takes the
    /// runner it started with it, and so every process of the run (an
    /// orphaned `trustsuite run … hung-adapter` was seen after a crash).
    @Test func aRunnerDiesWithTheTestProcessThatStartedIt() async throws {
        let parent = """
            import os, subprocess, sys, time
            ready, command = sys.argv[1], sys.argv[2:]
            subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            while not os.path.exists(ready): time.sleep(0.02)
            time.sleep(1)
            os.kill(os.getpid(), 9)
            """
        let (standIn, marker, ready) = try await Self.startRun(parent: parent)
        defer { try? FileManager.default.removeItem(atPath: ready) }
        let left = await Waiting.survivors(of: marker, after: standIn)
        #expect(!standIn.isRunning && standIn.terminationReason == .uncaughtSignal)
        #expect(left == [], "the run outlived the process that started it")
    }
}
