import Foundation
import Testing
import TestSupport

/// A runner killed with SIGKILL cannot stop its adapter; the adapter's
/// parent-death signal does (the audit found a hung adapter alive after its
/// runner was SIGKILLed).
@Suite struct RunnerDeathTests {
    @Test func aSIGKILLedRunnerTakesItsHungAdapterWithIt() throws {
        let marker = "hung-adapter-\(UUID().uuidString)"
        let script = FileManager.default.temporaryDirectory.appendingPathComponent("\(marker).py")
        // Says hello, then hangs on the first request, ignoring SIGTERM and stdin closing.
        try Data("""
            import json, signal, sys, time
            signal.signal(signal.SIGTERM, signal.SIG_IGN)
            print(json.dumps({"adapter": "hung", "version": "1", "families": ["cbor"]}), flush=True)
            sys.stdin.readline()
            while True: time.sleep(600)
            """.utf8).write(to: script)
        defer { try? FileManager.default.removeItem(at: script) }
        let runner = Process()
        runner.executableURL = CLI.binary
        runner.arguments = ["run", "--family", "cbor", "--timeout", "600", "--quiet", "--adapter", "python3 \(script.path)"]
        runner.standardOutput = FileHandle.nullDevice
        runner.standardError = FileHandle.nullDevice
        try runner.run()
        let started = ContinuousClock.now
        while Processes.mentioning(marker).isEmpty && ContinuousClock.now - started < .seconds(20) { usleep(20_000) }
        #expect(!Processes.mentioning(marker).isEmpty, "the adapter started")
        usleep(300_000)  // the first request is on its way
        kill(runner.processIdentifier, SIGKILL)
        runner.waitUntilExit()
        let killed = ContinuousClock.now
        while !Processes.mentioning(marker).isEmpty && ContinuousClock.now - killed < .seconds(5) { usleep(20_000) }
        let left = Processes.mentioning(marker)
        for line in left { if let pid = Int32(line.prefix { $0 != ":" }) { kill(pid, SIGKILL) } }
        #expect(left == [], "the adapter outlived its SIGKILLed runner")
    }
}
