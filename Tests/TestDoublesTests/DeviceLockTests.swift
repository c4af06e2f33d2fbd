#if canImport(Glibc)
import Glibc
#endif
import AppAttestDevice
import Foundation
import Testing

/// The software device's state lock (`keys/.lock`, issue 44 item 9): a
/// symbolic link planted there is refused, not followed, so the device never
/// creates or locks a file outside its folder.
@Suite struct DeviceLockTests {
    @Test func aSymbolicLinkAsTheKeysLockIsNotFollowed() throws {
        let device = try SoftwareDeviceTests.makeDevice()
        defer { try? FileManager.default.removeItem(at: device.stateDirectory) }
        let made = try device.attest(clientDataHash: [1])
        let lock = device.stateDirectory.appendingPathComponent("keys/.lock")
        try? FileManager.default.removeItem(at: lock)
        // Dangling: following it would create this file.
        let outside = FileManager.default.temporaryDirectory.appendingPathComponent("trustsuite-planted-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: outside) }
        #expect(symlink(outside.path, lock.path) == 0)
        #expect { _ = try device.assert(keyId: made.keyId, clientData: [2]) } throws: { "\($0)".contains("symbolic link") }
        #expect(!FileManager.default.fileExists(atPath: outside.path))
        // A regular lock file works as before.
        try FileManager.default.removeItem(at: lock)
        #expect(try device.assert(keyId: made.keyId, clientData: [3]).counter == 1)
    }
}
