import AppAttest
import Crypto
import DeviceCheckModel
import Foundation
import Synchronization
import TestPKI
import TrustSuiteSupport
import X509

/// The app's side of App Attest on the software device: what
/// `DCAppAttestService` does on a phone (generate a key, attest it once,
/// sign assertions with it), with Apple's refusals as values, so the
/// `DeviceCheck` module only translates. Attestations chain to the device's
/// test roots (``testRootsPEM``) and assertions carry the key's counter,
/// exactly as ``SoftwareDevice`` makes them.
///
/// Keys live in memory, or in a state folder (``SoftwareDevice``'s
/// `device.json` and `keys/`), so a server test can read the roots and
/// `trustsuite device assert --state DIR` can sign with a key attested here.
/// A generated key that is not attested yet is kept in memory in both cases.
/// Thread safe: the keys in a `Mutex`, the folder's own file lock for counters.
public final class ClientDevice: Sendable {
    /// Why a call is refused, in the terms of `DCError.Code`.
    public enum Refusal: Error, Equatable, Sendable, CustomStringConvertible {
        /// The key id is not one this app's device holds, or its state forbids the call.
        case invalidKey(String)
        /// An argument is malformed.
        case invalidInput(String)
        /// Something else failed (the state folder could not be written, say).
        case unknownSystemFailure(String)

        public var description: String {
            switch self {
            case .invalidKey(let reason): "invalidKey: \(reason)"
            case .invalidInput(let reason): "invalidInput: \(reason)"
            case .unknownSystemFailure(let reason): "unknownSystemFailure: \(reason)"
            }
        }
    }

    struct MemoryKey {
        var key: P256.Signing.PrivateKey
        var counter: UInt32
    }

    /// The app's keys in memory; a call that reads the state folder holds
    /// the lock too, so two calls never interleave on one key.
    struct Keys {
        /// Generated, not attested yet.
        var pending: [String: P256.Signing.PrivateKey] = [:]
        /// Attested keys, in memory mode.
        var attested: [String: MemoryKey] = [:]
    }

    /// The device itself: its App ID, environment and CA (in memory: a device whose folder is never written).
    let device: SoftwareDevice
    /// True when keys are kept in `device`'s folder.
    public let persistent: Bool
    private let keys = Mutex(Keys())

    /// A device in memory for `appId` in `environment`; with a seed, the CA's
    /// keys are the same on every run.
    public init(appId: String, environment: AppAttestEnvironment, seed: UInt64? = nil, now: Date = Date()) throws {
        guard AppID.isValid(appId) else { throw DeviceError("app id must be \(AppID.rule): \(appId)") }
        let ca = try SoftwareCA.make(seed: seed ?? UInt64.random(in: 0...UInt64.max), now: now)
        device = SoftwareDevice(
            stateDirectory: URL(fileURLWithPath: "/nonexistent/trustsuite-memory-device"), appId: appId,
            environment: environment, deviceId: randomBytes(16), ca: ca)
        persistent = false
    }

    /// The device whose state is in `folder`, created there for `appId` and
    /// `environment` when the folder holds none yet (an existing device keeps
    /// its own App ID and environment).
    /// Of several processes whose first call reaches one empty folder, one
    /// creates the device and the others open it (issue 61, item 8).
    public init(folder: URL, appId: String, environment: AppAttestEnvironment, seed: UInt64? = nil) throws {
        let state = folder.appendingPathComponent("device.json")
        if FileManager.default.fileExists(atPath: state.path) {
            device = try SoftwareDevice(stateDirectory: folder)
        } else {
            do {
                device = try SoftwareDevice.create(at: folder, appId: appId, environment: environment, seed: seed)
            } catch  where FileManager.default.fileExists(atPath: state.path) {
                // Another process created it meanwhile (the state file is
                // written whole, then linked into place): that device is this one.
                device = try SoftwareDevice(stateDirectory: folder)
            }
        }
        persistent = true
    }

    /// The App ID (team ID + bundle ID) the device attests for.
    public var appId: String { device.appId }
    /// The environment whose aaguid its attestations carry.
    public var environment: AppAttestEnvironment { device.environment }
    /// The state folder, when keys are kept on disk.
    public var folder: URL? { persistent ? device.stateDirectory : nil }
    /// The test roots a server under test trusts (attestation, receipt), PEM.
    public var testRootsPEM: (attestation: String, receipt: String) { device.testRootsPEM }
    /// The same roots as certificates.
    public var testRoots: (attestation: Certificate, receipt: Certificate) { get throws { try device.testRoots } }

    /// `generateKey`: a new P-256 key; its id is the base64 SHA-256 of its
    /// X9.63 public key, as Apple's.
    public func generateKey() -> String {
        let key = P256.Signing.PrivateKey()
        let keyId = Data(SHA256.hash(data: key.publicKey.x963Representation)).base64EncodedString()
        keys.withLock { $0.pending[keyId] = key }
        return keyId
    }

    /// `attestKey`: attests the generated key `keyId` with `clientDataHash`
    /// once. An unknown key, or one already attested, is `invalidKey`; an
    /// empty hash is `invalidInput`.
    public func attestKey(_ keyId: String, clientDataHash: [UInt8], now: Date = Date()) throws(Refusal) -> [UInt8] {
        guard !clientDataHash.isEmpty else { throw .invalidInput("the client data hash is empty") }
        return try keys.withLock { (keys) throws(Refusal) -> [UInt8] in
            guard let key = keys.pending[keyId] else {
                if isAttested(keyId, keys) { throw .invalidKey("the key \(keyId) is already attested (a key is attested once)") }
                throw .invalidKey("no key \(keyId) on this device (generate one first; a reinstall loses every key)")
            }
            let made: SoftwareDevice.Attestation
            do {
                made = try device.attestation(of: key, clientDataHash: clientDataHash, options: .init(), now: now)
                if persistent, let raw = BinaryText.base64(keyId) { try device.saveKey(key, keyId: raw, counter: 0) }
            } catch {
                throw .unknownSystemFailure("the attestation could not be made: \(error)")
            }
            keys.pending[keyId] = nil
            if !persistent { keys.attested[keyId] = MemoryKey(key: key, counter: 0) }
            return made.attestationObject
        }
    }

    /// `generateAssertion`: signs `clientDataHash` with the attested key
    /// `keyId` and its next counter. An unknown or unattested key is
    /// `invalidKey`; an empty hash is `invalidInput`.
    public func generateAssertion(_ keyId: String, clientDataHash: [UInt8]) throws(Refusal) -> [UInt8] {
        guard !clientDataHash.isEmpty else { throw .invalidInput("the client data hash is empty") }
        return try keys.withLock { (keys) throws(Refusal) -> [UInt8] in
            if keys.pending[keyId] != nil { throw .invalidKey("the key \(keyId) is not attested (attest it before asserting)") }
            let key: P256.Signing.PrivateKey
            let counter: UInt32
            if persistent {
                guard let raw = BinaryText.base64(keyId), FileManager.default.fileExists(atPath: device.keyURL(raw).path) else {
                    throw .invalidKey("no key \(keyId) on this device (a reinstall loses every key)")
                }
                do {
                    (key, counter) = try device.withKey(raw) { stored in
                        guard stored < UInt32.max else { throw DeviceError("the counter of this key is exhausted") }
                        return stored + 1
                    }
                } catch {
                    throw .unknownSystemFailure("\(error)")
                }
            } else {
                guard var stored = keys.attested[keyId] else {
                    throw .invalidKey("no key \(keyId) on this device (a reinstall loses every key)")
                }
                guard stored.counter < UInt32.max else { throw .unknownSystemFailure("the counter of this key is exhausted") }
                stored.counter += 1
                keys.attested[keyId] = stored
                (key, counter) = (stored.key, stored.counter)
            }
            do {
                return try device.assertionObject(key: key, counter: counter, clientDataHash: clientDataHash, options: .init())
            } catch {
                throw .unknownSystemFailure("the assertion could not be signed: \(error)")
            }
        }
    }

    /// The app was deleted and installed again: every key is gone (a stored
    /// key id now answers `invalidKey`), the device and its roots stay.
    /// In a state folder the files go under the key lock (issue 61, item 8);
    /// a folder that cannot be locked is `unknownSystemFailure`.
    public func reinstall() throws(Refusal) {
        try keys.withLock { (keys) throws(Refusal) in
            keys = Keys()
            guard persistent else { return }
            do { try device.removeAllKeys() } catch { throw .unknownSystemFailure("the keys could not be removed: \(error)") }
        }
    }

    /// The number of keys the app holds (generated or attested).
    public var keyCount: Int {
        keys.withLock { keys in
            guard persistent else { return keys.pending.count + keys.attested.count }
            let folder = device.stateDirectory.appendingPathComponent("keys")
            let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
            return keys.pending.count + names.filter { $0.hasSuffix(".json") }.count
        }
    }

    /// A DeviceCheck token for this device, as `DCDevice.generateToken` gives
    /// it: new bytes on every call, naming the same device to `trustsuite
    /// serve devicecheck`.
    public func deviceCheckToken() -> [UInt8] {
        BinaryText.base64(device.deviceCheckToken()) ?? []
    }

    private func isAttested(_ keyId: String, _ keys: Keys) -> Bool {
        if !persistent { return keys.attested[keyId] != nil }
        guard let raw = BinaryText.base64(keyId) else { return false }
        return FileManager.default.fileExists(atPath: device.keyURL(raw).path)
    }
}
