import AdapterHost
import Foundation
import Synchronization
import Testing
import TestSupport

/// Nothing an adapter starts outlives a test process that uses the library
/// (issue 61, item 4): a daemon that leaves its session and SIGKILLs its
/// watchdog is reparented to the test process; before, it outlived the run
/// (4 of 4 runs), since only the `trustsuite` command had an orphan watch
/// and an exit sweep. The test process is this test binary run again, told
/// by the environment to start such an adapter and end.
@Suite struct LibraryOrphanTests {
    static let childVariable = "TRUSTSUITE_LIBRARY_ORPHAN_CHILD"
    static let kept = Mutex<[AdapterSubject]>([])

    @Test func aDaemonThatKillsItsWatchdogDiesWithTheTestProcess() async throws {
        if let marker = ProcessInfo.processInfo.environment[Self.childVariable] {
            try await Self.startTheDaemon(marker: marker)
            return
        }
        // A sleep whose command line no other process has.
        let marker = "3599.\(UInt32.random(in: 100_000...999_999))"
        let binary = try #require(try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
        let child = Process()
        child.executableURL = URL(fileURLWithPath: binary)
        child.arguments = ["--testing-library", "swift-testing", "--filter", "LibraryOrphanTests"]
        child.environment = ProcessInfo.processInfo.environment.merging([Self.childVariable: marker]) { $1 }
        let output = Pipe()
        child.standardOutput = output
        child.standardError = output
        child.standardInput = FileHandle.nullDevice
        try TiedProcess.run(child)
        let said = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        await Waiting.exit(of: child)
        #expect(child.terminationStatus == 0, "the child test process failed: \(said)")
        // The sweep ends before the test process does: a daemon left now outlived it.
        let left = Processes.mentioning("sleep \(marker)")
        for line in left { if let pid = Int32(line.prefix { $0 != ":" }) { kill(pid, SIGKILL) } }
        #expect(left.isEmpty, "outlived the test process: \(left)")
    }

    /// The child's side: an adapter whose daemon leaves its session, kills
    /// the watchdog above the adapter's shell, and sleeps; the test ends as
    /// soon as the watchdog is dead.
    static func startTheDaemon(marker: String) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("orphan-\(marker)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("pids").path
        let hello = #"{"adapter":"daemonic","version":"1","families":["cbor"]}"#
        let command =
            "W=$PPID; setsid sh -c 'echo \"$$ '\"$W\"'\" > \(file).part && mv \(file).part \(file); kill -KILL '\"$W\"'; "
            + "exec sleep \(marker)' </dev/null >/dev/null 2>&1 & echo '\(hello)'; exec sleep \(marker)"
        let adapter = try await AdapterSubject.launch(command: command, timeout: .seconds(60))
        #expect(adapter.adapterName == "daemonic")
        // Kept to the end of the process, as TrustSuiteTesting keeps its isolated children: never stopped.
        Self.kept.withLock { $0.append(adapter) }
        var watchdog: pid_t?
        await Waiting.until {
            let fields = (try? String(contentsOfFile: file, encoding: .utf8))?.split(separator: " ") ?? []
            watchdog = fields.count == 2 ? pid_t(fields[1].trimmingCharacters(in: .whitespacesAndNewlines)) : nil
            return watchdog.map(Self.isGone) ?? false
        }
        #expect(watchdog != nil, "the daemon never said it killed the watchdog")
    }

    /// Dead or a zombie.
    static func isGone(_ pid: pid_t) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8) else { return true }
        let state = stat.split(separator: ")").last?.split(separator: " ").first
        return state == "Z" || state == "X"
    }
}
