import AppAttest
import AppAttestDevice
import Foundation
import Security
@testable import SecuritySimulation
import Synchronization
import Testing

/// The `DeviceCheck` module's state folder (issue 61, item 8): a reinstall
/// takes the lock assertions hold, concurrent first calls on one empty
/// folder share the device one of them made, and a folder that holds
/// anything else is never written into.
@Suite struct DeviceStateFolderTests {
    static let appId = "TEAMID1234.com.example.folder"

    static func emptyFolder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("trustsuite-device-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    /// Whether /proc/locks shows a process waiting for a lock on the inode `inode`.
    static func someoneWaits(onInode inode: UInt64) -> Bool {
        guard let text = try? String(contentsOfFile: "/proc/locks", encoding: .utf8) else { return false }
        return text.split(separator: "\n").contains { line in
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            // "N: -> FLOCK ADVISORY WRITE PID MAJ:MIN:INODE START END": a blocked waiter.
            guard fields.count > 6, fields[1] == "->" else { return false }
            return fields[6].split(separator: ":").last.flatMap { UInt64($0) } == inode
        }
    }

    /// An assertion in another process holds the key lock and writes the
    /// key's counter back; the reinstall asked meanwhile waits for it, then
    /// removes the key. Before, it removed the file at once and the other
    /// process's write brought the key back (10 of 20 rounds in the audit).
    @Test(.timeLimit(.minutes(10))) func aReinstallWaitsForAnAssertionInAnotherProcess() async throws {
        let folder = try Self.emptyFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let simulation = Simulation(environment: [
            Simulation.Environment.deviceState: folder.path, Simulation.Environment.appAttestAppID: Self.appId,
        ])
        let device = try simulation.services.appAttestDevice()
        let keyId = device.generateKey()
        _ = try device.attestKey(keyId, clientDataHash: Array(repeating: 7, count: 32))
        let keys = folder.appendingPathComponent("keys")
        let keyFile = try #require(
            try FileManager.default.contentsOfDirectory(atPath: keys.path).first { $0.hasSuffix(".json") })
        let lock = keys.appendingPathComponent(".lock")
        // The other process: takes the lock, says so, waits for a line, then
        // rewrites the key file as an assertion's counter update does.
        let saved = folder.appendingPathComponent("saved-key")
        try FileManager.default.copyItem(at: keys.appendingPathComponent(keyFile), to: saved)
        let other = Process()
        other.executableURL = URL(fileURLWithPath: "/usr/bin/flock")
        other.arguments = [
            lock.path, "sh", "-c", "echo locked; read go; cp \"$1\" \"$2\"", "sh", saved.path, keys.appendingPathComponent(keyFile).path,
        ]
        let toOther = Pipe()
        let fromOther = Pipe()
        other.standardInput = toOther
        other.standardOutput = fromOther
        try other.run()
        defer { if other.isRunning { other.terminate() } }
        let said = fromOther.fileHandleForReading.availableData
        try #require(String(decoding: said, as: UTF8.self).hasPrefix("locked"), "the other process holds the lock")
        let inode = try #require(try FileManager.default.attributesOfItem(atPath: lock.path)[.systemFileNumber] as? UInt64)
        let reinstalled = Mutex(false)
        let reinstall = Thread {
            Simulation.$current.withValue(simulation) { simulation.services.reinstallApp() }
            reinstalled.withLock { $0 = true }
        }
        reinstall.start()
        // Until the reinstall either waits for the lock or is done (the old code).
        while !reinstalled.withLock({ $0 }) && !Self.someoneWaits(onInode: inode) {
            try await Task.sleep(for: .milliseconds(5))
        }
        toOther.fileHandleForWriting.write(Data("go\n".utf8))
        other.waitUntilExit()
        #expect(other.terminationStatus == 0)
        while !reinstalled.withLock({ $0 }) { try await Task.sleep(for: .milliseconds(5)) }
        #expect(
            !FileManager.default.fileExists(atPath: keys.appendingPathComponent(keyFile).path),
            "the key written back by the other process survived the reinstall")
        #expect(device.keyCount == 0)
        #expect(throws: ClientDevice.Refusal.self) { try device.generateAssertion(keyId, clientDataHash: [1]) }
        #expect(simulation.services.appAttestCalls.last?.call == "app.reinstall")
        #expect(simulation.services.appAttestCalls.last?.code == nil)
    }

    /// Eight first calls at once on one empty folder: one creates the
    /// device, the seven others open it. Before, seven failed ("already holds a device").
    @Test func concurrentFirstCallsShareTheDeviceOneOfThemMade() throws {
        for _ in 0..<3 {
            let folder = try Self.emptyFolder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let results = Mutex<[Result<String, any Error>]>([])
            let start = DispatchSemaphore(value: 0)
            let threads = (0..<8).map { _ in
                Thread {
                    start.wait()
                    let result = Result { () throws -> String in
                        let device = try ClientDevice(folder: folder, appId: Self.appId, environment: .development)
                        return device.testRootsPEM.attestation
                    }
                    results.withLock { $0.append(result) }
                }
            }
            for thread in threads { thread.start() }
            for _ in threads { start.signal() }
            while results.withLock({ $0.count }) < 8 { Thread.sleep(forTimeInterval: 0.005) }
            let all = results.withLock { $0 }
            let roots = all.compactMap { try? $0.get() }
            for case .failure(let error) in all { Issue.record("a first call failed: \(error)") }
            #expect(roots.count == 8 && Set(roots).count == 1, "every caller has the one device")
        }
    }

    /// A folder that holds something else is not made a device, and is left as it was.
    @Test(arguments: ["notes.txt", "keys/other.bin", ".hidden"])
    func aFolderThatHoldsOtherFilesIsNeverWritten(_ planted: String) throws {
        let folder = try Self.emptyFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent(planted)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data("mine".utf8).write(to: file)
        let before = try FileManager.default.subpathsOfDirectory(atPath: folder.path).sorted()
        #expect {
            _ = try ClientDevice(folder: folder, appId: Self.appId, environment: .development)
        } throws: { error in
            "\(error)".contains("is not empty and holds no device")
        }
        #expect(try FileManager.default.subpathsOfDirectory(atPath: folder.path).sorted() == before)
        // Through the simulation, the first App Attest call fails the same way.
        let simulation = Simulation(environment: [Simulation.Environment.deviceState: folder.path])
        #expect(throws: (any Error).self) { try simulation.services.appAttestDevice() }
        #expect(try FileManager.default.subpathsOfDirectory(atPath: folder.path).sorted() == before)
    }

    /// A folder made for another App ID or environment is refused, not used.
    @Test func aFolderOfAnotherAppIsRefused() throws {
        let folder = try Self.emptyFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        _ = try ClientDevice(folder: folder, appId: Self.appId, environment: .development)
        let other = Simulation(environment: [
            Simulation.Environment.deviceState: folder.path, Simulation.Environment.appAttestAppID: "TEAMID1234.com.example.other",
        ])
        #expect {
            try other.services.appAttestDevice()
        } throws: { error in
            "\(error)".contains("holds a device for \(Self.appId)")
        }
        let production = Simulation(environment: [
            Simulation.Environment.deviceState: folder.path, Simulation.Environment.appAttestAppID: Self.appId,
            Simulation.Environment.appAttestEnvironment: "production",
        ])
        #expect(throws: (any Error).self) { try production.services.appAttestDevice() }
    }
}
