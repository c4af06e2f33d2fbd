import Foundation
import TestSupport

/// Runs the built `trustsuite` binary the way a user does and captures what
/// it prints. The binary sits beside the test bundle in the build folder.
enum CLI {
    struct Outcome: Sendable, CustomStringConvertible {
        let status: Int32
        /// True when the process ended by a signal (a trap), not by exit.
        let signaled: Bool
        let stdout: String
        let stderr: String
        var description: String { "status \(status)\(signaled ? " (signal)" : "")\nstdout: \(stdout)\nstderr: \(stderr)" }
        var stderrLines: [Substring] { stderr.split(separator: "\n") }
    }

    static var binary: URL {
        var folder = URL(fileURLWithPath: CommandLine.arguments.first ?? ".").deletingLastPathComponent()
        // swift test runs `<build>/debug/<Package>PackageTests.xctest` (a file on Linux).
        if folder.lastPathComponent.hasSuffix(".xctest") { folder.deleteLastPathComponent() }
        let candidate = folder.appendingPathComponent("trustsuite")
        if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        return Locations.packageRoot.appendingPathComponent(".build/debug/trustsuite")
    }

    /// Runs `trustsuite arguments…` (or `executable arguments…`) with `stdin`
    /// as standard input, in `directory` when given; kills it after `timeout` seconds.
    static func run(
        _ arguments: [String], executable: URL? = nil, stdin: Data = Data(), timeout: TimeInterval = 60,
        directory: URL? = nil
    ) throws -> Outcome {
        let process = Process()
        process.executableURL = executable ?? binary
        if let directory { process.currentDirectoryURL = directory }
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment["SWIFT_BACKTRACE"] = "enable=no"
        process.environment = environment
        let input = Pipe(), output = Pipe(), errors = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
        // Tied to the test process: a crashed test leaves no runner behind.
        try TiedProcess.run(process)
        let outBox = DataBox(), errBox = DataBox()
        let group = DispatchGroup()
        for (pipe, box) in [(output, outBox), (errors, errBox)] {
            group.enter()
            DispatchQueue.global().async {
                box.set(pipe.fileHandleForReading.readDataToEndOfFile())
                group.leave()
            }
        }
        try? input.fileHandleForWriting.write(contentsOf: stdin)
        try? input.fileHandleForWriting.close()
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning && Date() < deadline { usleep(5_000) }
        if process.isRunning {
            process.terminate()
            usleep(200_000)
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        }
        process.waitUntilExit()
        group.wait()
        return Outcome(
            status: process.terminationStatus, signaled: process.terminationReason == .uncaughtSignal,
            stdout: String(decoding: outBox.get(), as: UTF8.self), stderr: String(decoding: errBox.get(), as: UTF8.self))
    }

    /// Writes `bytes` to `folder/name` and returns its URL.
    static func file(_ name: String, _ bytes: [UInt8], in folder: URL) throws -> URL {
        let url = folder.appendingPathComponent(name)
        try Data(bytes).write(to: url)
        return url
    }

    /// A fresh folder for a test's files.
    static func temporaryFolder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("trustsuite-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}

final class DataBox: @unchecked Sendable {
    private let lock = NSLock()
    private var data = Data()
    func set(_ value: Data) { lock.withLock { data = value } }
    func get() -> Data { lock.withLock { data } }
}
