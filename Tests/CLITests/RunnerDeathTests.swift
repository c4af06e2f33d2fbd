import Foundation
import Testing
import TestSupport

/// A runner killed with SIGKILL cannot stop its adapter; the adapter's
/// parent-death signal does (the audit found a hung adapter alive after its
/// runner was SIGKILLed).
@Suite(.timeLimit(.minutes(10))) struct RunnerDeathTests {
    @Test func aSIGKILLedRunnerTakesItsHungAdapterWithIt() async throws {
        let marker = "hung-adapter-\(UUID().uuidString)"
        let script = FileManager.default.temporaryDirectory.appendingPathComponent("\(marker).py")
        // Says hello, then hangs on the first request, ignoring SIGTERM and stdin closing.
        try Data(
            """
            import json, signal, sys, time
            signal.signal(signal.SIGTERM, signal.SIG_IGN)
            print(json.dumps({"adapter": "hung", "version": "1", "families": ["cbor"]}), flush=True)
            sys.stdin.readline()
            open(sys.argv[1], "w").close()
            while True: time.sleep(600)
            """.utf8
        ).write(to: script)
        defer { try? FileManager.default.removeItem(at: script) }
        let runner = Process()
        runner.executableURL = CLI.binary
        let ready = script.path + ".ready"
        defer { try? FileManager.default.removeItem(atPath: ready) }
        runner.arguments = ["run", "--family", "cbor", "--timeout", "600", "--quiet", "--adapter", "python3 \(script.path) \(ready)"]
        runner.standardOutput = FileHandle.nullDevice
        runner.standardError = FileHandle.nullDevice
        try TiedProcess.run(runner)
        // Killed once the adapter has read its first request and hangs.
        await Waiting.until({ FileManager.default.fileExists(atPath: ready) }, unless: { !runner.isRunning })
        #expect(FileManager.default.fileExists(atPath: ready), "the adapter got its first request")
        #expect(!Processes.mentioning(marker).isEmpty, "the adapter runs")
        kill(runner.processIdentifier, SIGKILL)
        // Never waitUntilExit: a cancelled wait (the time limit) still kills what stays.
        let left = await Waiting.survivors(of: marker, after: runner)
        #expect(left == [], "the adapter outlived its SIGKILLed runner")
    }
}
