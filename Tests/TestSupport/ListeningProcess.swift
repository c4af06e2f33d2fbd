import Foundation

/// A server started as a child process that prints `listening on
/// http://HOST:PORT` once ready (`trustsuite serve …`, the pyattest
/// server): started on a free port, stopped by ``stop()`` (SIGTERM, then
/// SIGKILL), and stopped by `deinit` too, so no process outlives its test.
public final class ListeningProcess: @unchecked Sendable {
    public let process = Process()
    public let port: Int
    private let output = Pipe()

    public struct StartFailure: Error, CustomStringConvertible {
        public let description: String
    }

    /// Starts `executable arguments…` and waits (at most `timeout` seconds) for its line.
    public init(executable: URL, arguments: [String], timeout: TimeInterval = 60) throws {
        process.executableURL = executable
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment["SWIFT_BACKTRACE"] = "enable=no"
        process.environment = environment
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        // Tied to the test process: a crashed test leaves no server behind.
        try TiedProcess.run(process)
        var line = Data()
        let deadline = Date().addingTimeInterval(timeout)
        while !line.contains(0x0A) && Date() < deadline && process.isRunning {
            line += output.fileHandleForReading.availableData
        }
        let text = String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard text.hasPrefix("listening on http://127.0.0.1:"), let port = Int(text.split(separator: ":").last ?? "") else {
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
            throw StartFailure(description: "\(executable.lastPathComponent) did not start: \(text)")
        }
        self.port = port
    }

    /// SIGTERM, then SIGKILL if it has not ended within five seconds.
    public func stop() {
        guard process.isRunning else { return }
        process.terminate()
        let deadline = Date().addingTimeInterval(5)
        while process.isRunning && Date() < deadline { usleep(10_000) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }

    /// SIGKILL at once (a crash, or a machine going down).
    public func crash() {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }

    deinit { stop() }
}
