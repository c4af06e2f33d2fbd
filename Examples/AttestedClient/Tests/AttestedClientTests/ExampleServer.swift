import Dispatch
import Foundation

/// `trustsuite serve appattest` for one test: started on a free loopback
/// port trusting `anchor` (the simulated device's test root), stopped (and
/// waited for) by ``stop()``; under `setpriv --pdeathsig KILL` where it
/// exists, so it dies with the test process whatever happens. It is started
/// from ``Spawner``'s thread: the parent-death signal fires when the
/// *thread* that started the child ends, and the concurrency pool's threads
/// end when idle (a server started from one was killed under load, so the
/// client's first request was refused).
final class ExampleServer: @unchecked Sendable {
    let process = Process()
    let url: URL

    /// The `trustsuite` binary: `$TRUSTSUITE_BIN`, else the checkout's `.build/debug/trustsuite`.
    static var binary: URL {
        if let path = ProcessInfo.processInfo.environment["TRUSTSUITE_BIN"], !path.isEmpty { return URL(fileURLWithPath: path) }
        // Examples/AttestedClient/Tests/AttestedClientTests/ExampleServer.swift → the checkout.
        var root = URL(fileURLWithPath: #filePath)
        for _ in 0..<5 { root.deleteLastPathComponent() }
        return root.appendingPathComponent(".build/debug/trustsuite")
    }

    struct StartError: Error, CustomStringConvertible {
        let description: String
    }

    init(appId: String, anchor: URL, flaws: [String] = []) throws {
        let binary = Self.binary
        guard FileManager.default.isExecutableFile(atPath: binary.path) else {
            throw StartError(
                description:
                    "no trustsuite binary at \(binary.path): run `swift build --product trustsuite` in the checkout, or set TRUSTSUITE_BIN")
        }
        var arguments = [
            "serve", "appattest", "--port", "0", "--app-id", appId, "--environment", "development", "--anchor", anchor.path,
        ]
        for flaw in flaws { arguments += ["--flaw", flaw] }
        let setpriv = "/usr/bin/setpriv"
        if FileManager.default.isExecutableFile(atPath: setpriv) {
            process.executableURL = URL(fileURLWithPath: setpriv)
            process.arguments = ["--pdeathsig", "KILL", binary.path] + arguments
        } else {
            process.executableURL = binary
            process.arguments = arguments
        }
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try Spawner.shared.run { [process] in try process.run() }
        // "listening on http://127.0.0.1:PORT", read on a thread of its own, within a deadline that only catches a hang.
        final class Line: @unchecked Sendable { var text = "" }
        let line = Line()
        let ready = DispatchSemaphore(value: 0)
        let reader = output.fileHandleForReading
        Thread.detachNewThread {
            var bytes = Data()
            while !bytes.contains(UInt8(ascii: "\n")) {
                let chunk = reader.availableData
                if chunk.isEmpty { break }
                bytes.append(chunk)
            }
            line.text = String(decoding: bytes, as: UTF8.self)
            ready.signal()
        }
        guard ready.wait(timeout: .now() + 120) == .success,
            let range = line.text.range(of: "listening on "),
            let url = URL(string: line.text[range.upperBound...].trimmingCharacters(in: .whitespacesAndNewlines))
        else {
            process.terminate()
            process.waitUntilExit()
            throw StartError(description: "trustsuite serve appattest did not start: \(line.text)")
        }
        self.url = url
    }

    /// Stops the server and waits for it.
    func stop() {
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
    }
}

/// One thread that lives as long as the test process, from which every
/// server is started (see ``ExampleServer``).
final class Spawner: @unchecked Sendable {  // @unchecked: `jobs` is read and written under `condition` only.
    static let shared = Spawner()
    private let condition = NSCondition()
    private var jobs: [() -> Void] = []

    private init() {
        let thread = Thread { [self] in
            while true {
                condition.lock()
                while jobs.isEmpty { condition.wait() }
                let job = jobs.removeFirst()
                condition.unlock()
                job()
            }
        }
        thread.name = "ExampleServer spawner"
        thread.start()
    }

    /// Runs `body` on the spawner's thread and waits for it.
    func run(_ body: @escaping () throws -> Void) throws {
        final class Outcome: @unchecked Sendable {  // @unchecked: written before `done` is signalled, read after.
            var failure: Error?
        }
        let outcome = Outcome()
        let done = DispatchSemaphore(value: 0)
        condition.lock()
        jobs.append {
            do { try body() } catch { outcome.failure = error }
            done.signal()
        }
        condition.signal()
        condition.unlock()
        done.wait()
        if let failure = outcome.failure { throw failure }
    }
}
