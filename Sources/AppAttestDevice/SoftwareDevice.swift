import DeviceCheckModel
import AppAttest
import Crypto
import Foundation
import SwiftASN1
import X509
import TrustSuiteSupport
import TestPKI

/// What went wrong with a device's state or a request to it.
public struct DeviceError: Error, CustomStringConvertible, Sendable, Equatable {
    public let description: String
    public init(_ description: String) { self.description = description }
}

/// An App Attest device in software, for server tests: it attests keys and
/// signs assertions as `DCAppAttestService` does, under a test CA shaped like
/// Apple's (P-384 root and intermediate; a receipt chain whose signer
/// carries the marker extension) whose names say "TrustSuite Test". What it
/// makes verifies against ``testRoots`` and never against Apple's roots.
///
/// State lives in a folder: `device.json` (App ID, environment, the CA, the
/// device id) and one file per key under `keys/` holding the private key
/// and its counter. Every file is written atomically; counters are advanced
/// under an exclusive lock, so concurrent processes never reuse one.
///
/// `attest` and `assert` take options that make the shapes a server's
/// negative paths (and the iOS 27 positive ones) need: the checks of
/// docs/probe.md, each refused or accepted by the reference verifier as
/// that spec says (``AttestOptions``, ``AssertOptions``).
public struct SoftwareDevice: Sendable {
    public let stateDirectory: URL
    public let appId: String
    public let environment: AppAttestEnvironment
    /// Identifies the device to the local DeviceCheck service.
    public let deviceId: [UInt8]
    let ca: SoftwareCA

    struct StateFile: Codable {
        var format: String
        var appId: String
        var environment: AppAttestEnvironment
        var deviceId: String
        var ca: SoftwareCA
    }

    struct KeyFile: Codable {
        var privateKey: String
        var counter: UInt32
    }

    static let format = "trustsuite-device/1"

    /// Creates the state of a new device in `directory` (created if missing,
    /// refused if it already holds a device). With a seed, the CA's keys are
    /// the same on every run.
    public static func create(
        at directory: URL, appId: String, environment: AppAttestEnvironment, seed: UInt64? = nil, now: Date = Date()
    ) throws -> SoftwareDevice {
        guard AppID.isValid(appId) else {
            throw DeviceError("app id must be \(AppID.rule): \(appId)")
        }
        guard !directory.path.isEmpty else { throw DeviceError("the state folder's path is empty") }
        let manager = FileManager.default
        // A folder that already holds other files is not made a device
        // (issue 61, item 8): only an empty one, or one another creator
        // has begun (its keys/ folder, the lock, a temporary being written).
        if let stray = try strayEntry(in: directory) {
            throw DeviceError(
                "\(directory.path) is not empty and holds no device (it has \(stray)): give `--state` an empty or new folder")
        }
        do {
            try manager.createDirectory(at: directory.appendingPathComponent("keys"), withIntermediateDirectories: true)
        } catch {
            throw DeviceError("cannot create the state folder: \(FileErrorText.describe(error))")
        }
        let stateURL = directory.appendingPathComponent("device.json")
        guard !manager.fileExists(atPath: stateURL.path) else {
            throw DeviceError("\(directory.path) already holds a device (device.json); choose another folder")
        }
        let ca = try SoftwareCA.make(seed: seed ?? UInt64.random(in: 0...UInt64.max), now: now)
        let deviceId = randomBytes(16)
        let state = StateFile(
            format: format, appId: appId, environment: environment,
            deviceId: Data(deviceId).base64EncodedString(), ca: ca)
        // Exclusive: of concurrent `device init`s on one folder exactly one
        // creates the device; the others are refused (the check above only
        // answers early).
        do {
            try AtomicFile.write(try encoder.encode(state), to: stateURL, exclusive: true)
        } catch let error as StateFileError where error.description.hasSuffix("already exists") {
            throw DeviceError("\(directory.path) already holds a device (device.json); choose another folder")
        }
        return SoftwareDevice(stateDirectory: directory, appId: appId, environment: environment, deviceId: deviceId, ca: ca)
    }

    /// The first entry of `directory` that a device being created there
    /// cannot explain; nil for a missing or empty folder, or one holding
    /// only `keys/` (itself empty but for the lock and key files), the state
    /// file and write temporaries. A path that exists and is not a folder is refused.
    static func strayEntry(in directory: URL) throws -> String? {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory.path, isDirectory: &isFolder) else { return nil }
        guard isFolder.boolValue else { throw DeviceError("\(directory.path) exists and is not a folder") }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        let temporary = { (name: String) in name.hasPrefix(".") && name.hasSuffix(".tmp") }
        for name in names.sorted() where name != "keys" && name != "device.json" && !temporary(name) {
            return "\"\(name)\""
        }
        guard names.contains("keys") else { return nil }
        let keys = directory.appendingPathComponent("keys")
        var keysIsFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: keys.path, isDirectory: &keysIsFolder), keysIsFolder.boolValue else {
            return "\"keys\", not a folder"
        }
        let inside = (try? FileManager.default.contentsOfDirectory(atPath: keys.path)) ?? []
        for name in inside.sorted() where name != ".lock" && !name.hasSuffix(".json") && !temporary(name) {
            return "\"keys/\(name)\""
        }
        return nil
    }

    /// Largest state or key file read (the state holds a few certificates):
    /// read through the bounded reader, so a FIFO or device planted in the
    /// state folder is refused, not waited on.
    static let maxStateFileBytes = 1024 * 1024

    /// Opens the device whose state is in `directory`. States written
    /// before a field existed still load (new fields are optional).
    public init(stateDirectory directory: URL) throws {
        AtomicFile.removeStaleTemporaries(in: directory)
        AtomicFile.removeStaleTemporaries(in: directory.appendingPathComponent("keys"))
        let (state, deviceId) = try Self.readState(directory)
        self.init(stateDirectory: directory, appId: state.appId, environment: state.environment, deviceId: deviceId, ca: state.ca)
    }

    /// The state file of `directory`, checked, and its device id.
    static func readState(_ directory: URL) throws -> (StateFile, [UInt8]) {
        let url = directory.appendingPathComponent("device.json")
        guard let data = try? Data(RegularFile.read(url.path, limit: Self.maxStateFileBytes)) else {
            throw DeviceError("no device in \(directory.path) (run `trustsuite device init --state \(directory.path)` first)")
        }
        let state: StateFile
        do {
            state = try Self.decoder.decode(StateFile.self, from: data)
        } catch {
            throw DeviceError("\(url.path) is not a device state file: \(error)")
        }
        guard state.format == Self.format else { throw DeviceError("\(url.path): unknown format \(state.format)") }
        guard let deviceId = Data(base64Encoded: state.deviceId), deviceId.count == 16 else {
            throw DeviceError("\(url.path): bad device id")
        }
        return (state, Array(deviceId))
    }

    init(stateDirectory: URL, appId: String, environment: AppAttestEnvironment, deviceId: [UInt8], ca: SoftwareCA) {
        self.stateDirectory = stateDirectory
        self.appId = appId
        self.environment = environment
        self.deviceId = deviceId
        self.ca = ca
    }

    static var encoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        encoder.dateEncodingStrategy = .iso8601
        return encoder
    }

    static var decoder: JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }

    // MARK: Test roots

    /// The test roots a server under test trusts: attestation and receipt.
    public var testRoots: (attestation: Certificate, receipt: Certificate) {
        get throws {
            (try Certificate(derEncoded: ca.attestationRoot), try Certificate(derEncoded: ca.receiptRoot))
        }
    }

    /// The two test roots as PEM.
    public var testRootsPEM: (attestation: String, receipt: String) {
        (SoftwareCA.pem(ca.attestationRoot), SoftwareCA.pem(ca.receiptRoot))
    }

    // MARK: Attacker CA

    /// The attacker's root: the same subject names as the test attestation
    /// root, another key (docs/probe.md, trust). What
    /// ``AttestOptions/attackerRoot`` makes chains to it and to nothing a
    /// server should trust.
    public func attackerRoot() throws -> Certificate { try Certificate(derEncoded: attackerCA().root) }

    /// The attacker's root as PEM.
    public func attackerRootPEM() throws -> String { SoftwareCA.pem(try attackerCA().root) }

    /// The attacker CA kept in `device.json`; a state from before it existed
    /// gets one, saved under the state lock so concurrent processes agree
    /// on a single attacker root.
    func attackerCA() throws -> AttackerCA {
        if let attacker = ca.attacker { return attacker }
        return try FileLock.withLock(lockURL) { () throws -> AttackerCA in
            var (state, _) = try Self.readState(stateDirectory)
            if let attacker = state.ca.attacker { return attacker }
            let attacker = try AttackerCA(state.ca.pki)
            state.ca.attacker = attacker
            try AtomicFile.write(try Self.encoder.encode(state), to: stateDirectory.appendingPathComponent("device.json"))
            return attacker
        }
    }

    // MARK: Keys

    /// The lock that serialises read-modify-write of the state and key files.
    var lockURL: URL { stateDirectory.appendingPathComponent("keys/.lock") }

    func keyURL(_ keyId: [UInt8]) -> URL {
        stateDirectory.appendingPathComponent("keys").appendingPathComponent(BinaryText.hex(keyId) + ".json")
    }

    /// Saves a new key with its counter, under the lock.
    func saveKey(_ key: P256.Signing.PrivateKey, keyId: [UInt8], counter: UInt32) throws {
        let bytes = try Self.encoder.encode(KeyFile(privateKey: key.rawRepresentation.base64EncodedString(), counter: counter))
        try FileLock.withLock(lockURL) { try AtomicFile.write(bytes, to: keyURL(keyId)) }
    }

    /// Removes every key file, under the lock the assertions hold (issue 61,
    /// item 8): an assertion in another process either signed before the
    /// removal or finds no key; it never writes a removed key back.
    func removeAllKeys() throws {
        let folder = stateDirectory.appendingPathComponent("keys")
        try FileLock.withLock(lockURL) {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
            for name in names where name.hasSuffix(".json") {
                try? FileManager.default.removeItem(at: folder.appendingPathComponent(name))
            }
        }
    }

    /// Under the lock: reads the key `keyId`, lets `next` choose the counter
    /// to sign with from the stored one, and stores the larger of the two
    /// (a device's counter never goes back).
    func withKey(_ keyId: [UInt8], next: (UInt32) throws -> UInt32) throws -> (P256.Signing.PrivateKey, UInt32) {
        let url = keyURL(keyId)
        return try FileLock.withLock(lockURL) { () throws -> (P256.Signing.PrivateKey, UInt32) in
            guard let data = try? Data(RegularFile.read(url.path, limit: Self.maxStateFileBytes)) else {
                throw DeviceError("no key \(Data(keyId).base64EncodedString()) on this device (attest one first)")
            }
            let file: KeyFile
            do {
                file = try JSONDecoder().decode(KeyFile.self, from: data)
            } catch {
                throw DeviceError("\(url.path) is not a key file: \(error)")
            }
            guard let raw = Data(base64Encoded: file.privateKey),
                let key = try? P256.Signing.PrivateKey(rawRepresentation: raw)
            else {
                throw DeviceError("\(url.path): bad private key")
            }
            let counter = try next(file.counter)
            if counter > file.counter {
                try AtomicFile.write(try Self.encoder.encode(KeyFile(privateKey: file.privateKey, counter: counter)), to: url)
            }
            return (key, counter)
        }
    }

    // MARK: DeviceCheck

    /// A DeviceCheck token for this device, as `DCDevice.generateToken` gives:
    /// opaque base64, different on every call, naming the same device to the
    /// local DeviceCheck service (``DeviceCheckToken``).
    public func deviceCheckToken() -> String {
        DeviceCheckToken.mint(deviceId: deviceId)
    }
}

/// `count` bytes from the system's random generator.
func randomBytes(_ count: Int) -> [UInt8] {
    (0..<count).map { _ in UInt8.random(in: 0...255) }
}

/// `TEAMID.bundle.id`: a ten-character team id of upper-case letters and
/// digits, a dot, and a non-empty bundle id. The CLI checks `--app-id`
/// with it before anything starts (`device init`, `serve appattest`).
public enum AppID {
    /// The rule, for messages.
    public static let rule = "TEAMID.bundle.id (ten upper-case letters or digits, a dot, a bundle id)"

    public static func isValid(_ appId: String) -> Bool {
        let parts = appId.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0].count == 10, !parts[1].isEmpty, !parts[1].hasSuffix(".") else { return false }
        return parts[0].allSatisfy { ($0.isASCII && $0.isUppercase) || ("0"..."9").contains($0) }
            && parts[1].allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "." || $0 == "-") }
    }
}
