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
            throw DeviceError("app id must be TEAMID.bundle.id (ten upper-case letters or digits, a dot, a bundle id): \(appId)")
        }
        guard !directory.path.isEmpty else { throw DeviceError("the state folder's path is empty") }
        let manager = FileManager.default
        try manager.createDirectory(at: directory.appendingPathComponent("keys"), withIntermediateDirectories: true)
        let stateURL = directory.appendingPathComponent("device.json")
        guard !manager.fileExists(atPath: stateURL.path) else {
            throw DeviceError("\(directory.path) already holds a device (device.json); choose another folder")
        }
        let ca = try SoftwareCA.make(seed: seed ?? UInt64.random(in: 0...UInt64.max), now: now)
        let deviceId = randomBytes(16)
        let state = StateFile(format: format, appId: appId, environment: environment,
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

    /// Largest state or key file read (the state holds a few certificates):
    /// read through the bounded reader, so a FIFO or device planted in the
    /// state folder is refused, not waited on.
    static let maxStateFileBytes = 1024 * 1024

    /// Opens the device whose state is in `directory`.
    public init(stateDirectory directory: URL) throws {
        let url = directory.appendingPathComponent("device.json")
        AtomicFile.removeStaleTemporaries(in: directory)
        AtomicFile.removeStaleTemporaries(in: directory.appendingPathComponent("keys"))
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
        self.init(stateDirectory: directory, appId: state.appId, environment: state.environment, deviceId: Array(deviceId),
                  ca: state.ca)
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

    // MARK: Attestation

    /// Shapes of attestation a server's negative paths need.
    public struct AttestOptions: LaunchDataOptions {
        /// The aaguid of the other environment (a development object sent to a
        /// production server, or the reverse): `aaguidMismatch`.
        public var otherEnvironment = false
        /// A credential certificate that expired a day ago: `certificateExpired`.
        public var expiredCertificate = false
        public var extensions = false
        public var validationCategory: UInt32? = nil
        public var bundleVersion: String? = nil

        public init(otherEnvironment: Bool = false, expiredCertificate: Bool = false, extensions: Bool = false,
                    validationCategory: UInt32? = nil, bundleVersion: String? = nil) {
            self.otherEnvironment = otherEnvironment
            self.expiredCertificate = expiredCertificate
            self.extensions = extensions
            self.validationCategory = validationCategory
            self.bundleVersion = bundleVersion
        }
    }

    /// A new attested key, as `generateKey` then `attestKey` give it.
    public struct Attestation: Sendable {
        public let keyId: [UInt8]
        public let attestationObject: [UInt8]
        /// What was passed to `attestKey`: the challenge, or its SHA-256.
        public let clientDataHash: [UInt8]
        /// X9.63 uncompressed P-256 point.
        public let publicKey: [UInt8]
        public let receipt: [UInt8]
    }

    /// Generates a key and attests it with `clientDataHash` (pass the
    /// challenge itself, as Apple's samples do, or its SHA-256).
    public func attest(clientDataHash: [UInt8], options: AttestOptions = AttestOptions(), now: Date = Date()) throws -> Attestation {
        let key = P256.Signing.PrivateKey()
        let publicKey = Array(key.publicKey.x963Representation)
        let keyId = Array(SHA256.hash(data: publicKey))
        let environment: AppAttestEnvironment = options.otherEnvironment
            ? (self.environment == .production ? .development : .production) : self.environment
        // Real credential certificates are valid from a day before the
        // attestation to two days after it.
        let notBefore = options.expiredCertificate ? now.addingTimeInterval(-4 * 86_400) : now.addingTimeInterval(-86_400)
        var request = SoftwareCA.AttestationRequest(
            credentialKey: key, appId: appId, environment: environment, clientDataHash: clientDataHash,
            notBefore: notBefore, notAfter: notBefore.addingTimeInterval(3 * 86_400), token: randomBytes(32))
        request.trailing = options.launchMap
        let made = try ca.attest(request)
        try AtomicFile.write(try Self.encoder.encode(KeyFile(privateKey: key.rawRepresentation.base64EncodedString(), counter: 0)),
                             to: keyURL(keyId))
        return Attestation(keyId: keyId, attestationObject: made.object, clientDataHash: clientDataHash, publicKey: publicKey,
                           receipt: made.receipt)
    }

    // MARK: Assertion

    /// Shapes of assertion a server's negative paths need.
    public struct AssertOptions: LaunchDataOptions {
        /// Sign with the counter of the previous assertion again (a replay): `counterNotIncreasing`.
        public var replayCounter = false
        /// Sign with a key this device never attested: `signatureInvalid`.
        public var foreignKey = false
        public var extensions = false
        public var validationCategory: UInt32? = nil
        public var bundleVersion: String? = nil

        public init(replayCounter: Bool = false, foreignKey: Bool = false, extensions: Bool = false,
                    validationCategory: UInt32? = nil, bundleVersion: String? = nil) {
            self.replayCounter = replayCounter
            self.foreignKey = foreignKey
            self.extensions = extensions
            self.validationCategory = validationCategory
            self.bundleVersion = bundleVersion
        }
    }

    public struct GeneratedAssertion: Sendable {
        public let assertion: [UInt8]
        public let counter: UInt32
    }

    /// Signs `clientData` with the key `keyId` and the next counter (or, with
    /// `replayCounter`, the last one again), as `generateAssertion` does.
    public func assert(keyId: [UInt8], clientData: [UInt8], options: AssertOptions = AssertOptions()) throws -> GeneratedAssertion {
        let url = keyURL(keyId)
        let (key, counter) = try FileLock.withLock(stateDirectory.appendingPathComponent("keys/.lock")) {
            () throws -> (P256.Signing.PrivateKey, UInt32) in
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
                  let key = try? P256.Signing.PrivateKey(rawRepresentation: raw) else {
                throw DeviceError("\(url.path): bad private key")
            }
            if options.replayCounter { return (key, file.counter) }
            guard file.counter < UInt32.max else { throw DeviceError("the counter of this key is exhausted") }
            let next = file.counter + 1
            try AtomicFile.write(try Self.encoder.encode(KeyFile(privateKey: file.privateKey, counter: next)), to: url)
            return (key, next)
        }
        var authData = Array(SHA256.hash(data: Array(appId.utf8)))
        authData.append(0x40)
        authData += withUnsafeBytes(of: counter.bigEndian, Array.init)
        authData += options.launchMap
        var hasher = SHA256()
        hasher.update(data: authData)
        hasher.update(data: Array(SHA256.hash(data: clientData)))
        let nonce = Array(hasher.finalize())
        let signer = options.foreignKey ? P256.Signing.PrivateKey() : key
        let signature = Array(try signer.signature(for: nonce).derRepresentation)
        let object = SoftwareCA.assertionObject(signature: signature, authenticatorData: authData)
        return GeneratedAssertion(assertion: object, counter: counter)
    }

    func keyURL(_ keyId: [UInt8]) -> URL {
        stateDirectory.appendingPathComponent("keys").appendingPathComponent(BinaryText.hex(keyId) + ".json")
    }

    // MARK: DeviceCheck

    /// A DeviceCheck token for this device, as `DCDevice.generateToken` gives:
    /// opaque base64, different on every call, naming the same device to the
    /// local DeviceCheck service (``DeviceCheckToken``).
    public func deviceCheckToken() -> String {
        DeviceCheckToken.mint(deviceId: deviceId)
    }
}

/// The launch data a device writes after the COSE key (attestation) or the
/// header (assertion), as iOS 27 devices do (spec/app-attest.md, Amendments
/// (round 3)): a map with the chosen validation category and bundle version.
public protocol LaunchDataOptions: Sendable, Hashable {
    /// Append the map of Apple's 2026 sample (category 1, version "1"); a
    /// category or version given below replaces its value.
    var extensions: Bool { get }
    /// The category to write (4 bytes, little-endian); nil: none unless `extensions`.
    var validationCategory: UInt32? { get }
    /// The bundle version text to write (any text); nil: none unless `extensions`.
    var bundleVersion: String? { get }
}

extension LaunchDataOptions {
    /// The map's bytes; empty when no key is chosen (a device before iOS 27).
    var launchMap: [UInt8] {
        SoftwareCA.launchMap(validationCategory: validationCategory ?? (extensions ? 1 : nil),
                             bundleVersion: bundleVersion ?? (extensions ? "1" : nil)) ?? []
    }
}

/// `count` bytes from the system's random generator.
func randomBytes(_ count: Int) -> [UInt8] {
    (0..<count).map { _ in UInt8.random(in: 0...255) }
}

/// `TEAMID.bundle.id`: a ten-character team id of upper-case letters and
/// digits, a dot, and a non-empty bundle id.
enum AppID {
    static func isValid(_ appId: String) -> Bool {
        let parts = appId.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0].count == 10, !parts[1].isEmpty, !parts[1].hasSuffix(".") else { return false }
        return parts[0].allSatisfy { ($0.isASCII && $0.isUppercase) || ("0"..."9").contains($0) }
            && parts[1].allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "." || $0 == "-") }
    }
}
