import Foundation
import FuzzTargets
import Testing
import TestSupport

/// A harness built without its oracle refuses to start (issue 61, item 10):
/// one line on stderr and its own exit status, by `_exit`, so libFuzzer
/// saves no crash file. Before, FuzzCBORDifferential without libcbor
/// aborted on its first input (libFuzzer's crash status, and a "crash" kept).
/// The refusal ends its process, so the test runs it in a child: this test
/// binary again, told by the environment to take the child's branch.
@Suite struct HarnessRefusalTests {
    static let childVariable = "TRUSTSUITE_HARNESS_REFUSAL_CHILD"

    @Test func aHarnessWithoutItsOracleRefusesToStart() throws {
        if ProcessInfo.processInfo.environment[Self.childVariable] != nil {
            // The child: the real entry when this build lacks libcbor (a plain
            // `swift test`), else the refusal it would make (CI builds libcbor in).
            if Harness.cborDifferential.unavailableReason != nil { _ = Harness.cborDifferential.entry(nil, 0) }
            Harness.refuseToStart(Harness.cborDifferential.rawValue, "no oracle in this build (the test's child)")
        }
        let binary = try #require(try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
        let child = Process()
        child.executableURL = URL(fileURLWithPath: binary)
        child.arguments = ["--testing-library", "swift-testing", "--filter", "HarnessRefusalTests"]
        child.environment = ProcessInfo.processInfo.environment.merging([Self.childVariable: "1"]) { $1 }
        let errors = Pipe()
        child.standardError = errors
        child.standardOutput = FileHandle.nullDevice
        child.standardInput = FileHandle.nullDevice
        try TiedProcess.run(child)
        let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        child.waitUntilExit()
        #expect(child.terminationReason == .exit && child.terminationStatus == Harness.unavailableStatus, "\(stderr)")
        let lines = stderr.split(separator: "\n").filter { $0.hasPrefix("FuzzCBORDifferential:") }
        #expect(lines.count == 1, "\(stderr)")
        #expect(lines.first?.contains(": cannot run in this build: ") == true, "\(stderr)")
        #expect(!stderr.contains("oracle:"), "the refusal ran the oracle: \(stderr)")
    }
}
