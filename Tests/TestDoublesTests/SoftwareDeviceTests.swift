import DeviceCheckModel
import AppAttest
import AppAttestDevice
import ConformanceKit
import VectorContract
import TrustSuiteSupport
import Crypto
import Foundation
import StrictCBOR
import Testing
import TestSupport
import X509

/// The software device end to end through the reference verifier: what it
/// makes verifies against its test roots, is refused against Apple's, and
/// each failure shape gives the error a server must see.
@Suite struct SoftwareDeviceTests {
    static let appId = "ABCDE12345.org.trustsuite.server-test"

    static func makeDevice(_ environment: AppAttestEnvironment = .production, seed: UInt64? = 7) throws -> SoftwareDevice {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("trustsuite-device-\(UUID().uuidString)")
        return try SoftwareDevice.create(at: folder, appId: appId, environment: environment, seed: seed)
    }

    func verifier(_ device: SoftwareDevice, apple: Bool = false, environment: AppAttestEnvironment? = nil) throws -> AttestationVerifier {
        let roots = try device.testRoots
        return try AttestationVerifier(
            appId: Self.appId, environment: environment ?? device.environment,
            trustAnchors: apple ? nil : [roots.attestation],
            receiptAnchors: apple ? nil : [roots.receipt], requireReceipt: true)
    }

    @Test(arguments: AppAttestEnvironment.allCases)
    func attestVerifyThreeAssertionsThenAReplay(_ environment: AppAttestEnvironment) async throws {
        let device = try Self.makeDevice(environment)
        defer { try? FileManager.default.removeItem(at: device.stateDirectory) }
        let challenge = Array("server challenge 1".utf8)
        let made = try device.attest(clientDataHash: challenge)
        let verified = try await verifier(device).verify(
            attestationObject: made.attestationObject, keyId: made.keyId,
            clientDataHash: challenge, at: Date())
        #expect(verified.publicKey == made.publicKey)
        #expect(verified.receiptStatus == .verified)
        #expect(verified.counter == 0)

        let key = try P256.Signing.PublicKey(x963Representation: verified.publicKey)
        let assertions = AssertionVerifier(appId: Self.appId)
        var stored: UInt32 = 0
        for round in 1...3 {
            let clientData = Array("request \(round)".utf8)
            let assertion = try device.assert(keyId: made.keyId, clientData: clientData)
            #expect(assertion.counter == UInt32(round))
            let checked = try assertions.verify(
                assertion: assertion.assertion, clientData: clientData, publicKey: key,
                previousCounter: stored)
            #expect(checked.counter == UInt32(round))
            stored = checked.counter
        }
        let replay = try device.assert(
            keyId: made.keyId, clientData: Array("again".utf8),
            options: .init(replayCounter: true))
        #expect(replay.counter == 3)
        #expect(
            await appAttestErrorCode {
                _ = try assertions.verify(
                    assertion: replay.assertion, clientData: Array("again".utf8), publicKey: key,
                    previousCounter: stored)
            } == AppAttestError.Code.counterNotIncreasing)
    }

    @Test func refusedAgainstApplesRoots() async throws {
        let device = try Self.makeDevice()
        defer { try? FileManager.default.removeItem(at: device.stateDirectory) }
        let made = try device.attest(clientDataHash: [1, 2, 3])
        #expect(
            await appAttestErrorCode {
                _ = try await verifier(device, apple: true).verify(
                    attestationObject: made.attestationObject, keyId: made.keyId,
                    clientDataHash: [1, 2, 3], at: Date())
            } == AppAttestError.Code.certificateChainInvalid)
        // The receipt alone, against Apple Root CA - G3.
        #expect(
            await appAttestErrorCode {
                _ = try await ReceiptVerifier().verify(receipt: made.receipt, at: Date())
            } == AppAttestError.Code.receiptChainInvalid)
        let roots = try device.testRoots
        _ = try await ReceiptVerifier(trustAnchors: [roots.receipt]).verify(
            receipt: made.receipt, at: Date(), appId: Self.appId,
            type: .attest)
    }

    @Test func attestationFailureShapes() async throws {
        let device = try Self.makeDevice(.development)
        defer { try? FileManager.default.removeItem(at: device.stateDirectory) }
        let hash = Array(SHA256.hash(data: Array("c".utf8)))
        let cases: [(SoftwareDevice.AttestOptions, AppAttestError.Code)] = [
            (.init(otherEnvironment: true), .aaguidMismatch),
            (.init(expiredCertificate: true), .certificateChainInvalid),
        ]
        for (options, code) in cases {
            let made = try device.attest(clientDataHash: hash, options: options)
            #expect(
                await appAttestErrorCode {
                    _ = try await verifier(device).verify(
                        attestationObject: made.attestationObject, keyId: made.keyId,
                        clientDataHash: hash, at: Date())
                } == code)
        }
        // The iOS 27 trailing map is valid and exposed.
        let made = try device.attest(clientDataHash: hash, options: .init(extensions: true))
        let verified = try await verifier(device).verify(
            attestationObject: made.attestationObject, keyId: made.keyId,
            clientDataHash: hash, at: Date())
        #expect(verified.extensions?.mapValue?["apple_bundle_version_01"]?.textValue == "1")
    }

    @Test func assertionFailureShapesAndExtensions() async throws {
        let device = try Self.makeDevice()
        defer { try? FileManager.default.removeItem(at: device.stateDirectory) }
        let made = try device.attest(clientDataHash: [9])
        let key = try P256.Signing.PublicKey(x963Representation: made.publicKey)
        let assertions = AssertionVerifier(appId: Self.appId)
        let foreign = try device.assert(keyId: made.keyId, clientData: [1], options: .init(foreignKey: true))
        #expect(
            await appAttestErrorCode {
                _ = try assertions.verify(assertion: foreign.assertion, clientData: [1], publicKey: key, previousCounter: 0)
            } == AppAttestError.Code.signatureInvalid)
        let extended = try device.assert(keyId: made.keyId, clientData: [2], options: .init(extensions: true))
        let checked = try assertions.verify(assertion: extended.assertion, clientData: [2], publicKey: key, previousCounter: 1)
        #expect(checked.extensions != nil)
        #expect(throws: DeviceError.self) { try device.assert(keyId: [UInt8](repeating: 0, count: 32), clientData: [1]) }
    }

    /// Concurrent signers on one key (threads here; processes in the CLI
    /// tests) never reuse a counter: the lock serialises read-advance-write.
    /// The launch data a device writes (spec/app-attest.md, Amendments (round
    /// 3)): the chosen category and version, or none, judged by a policy.
    @Test func launchDataUnderAPolicy() async throws {
        let device = try Self.makeDevice()
        defer { try? FileManager.default.removeItem(at: device.stateDirectory) }
        let challenge = Array("launch".utf8)
        let roots = try device.testRoots
        func code(_ made: SoftwareDevice.Attestation, _ policy: LaunchPolicy) async throws -> AppAttestError.Code? {
            let verifier = try AttestationVerifier(
                appId: Self.appId, environment: device.environment, trustAnchors: [roots.attestation],
                receiptAnchors: [roots.receipt], launchPolicy: policy)
            return await appAttestErrorCode {
                _ = try await verifier.verify(
                    attestationObject: made.attestationObject, keyId: made.keyId,
                    clientDataHash: challenge, at: Date())
            }
        }
        let appStore = try device.attest(clientDataHash: challenge, options: .init(validationCategory: 4, bundleVersion: "2.3"))
        let minimum = try #require(BundleVersion("2.2.9"))
        #expect(try await code(appStore, LaunchPolicy(allowedValidationCategories: [4], minimumBundleVersion: minimum)) == nil)
        #expect(try await code(appStore, LaunchPolicy(allowedValidationCategories: [1])) == .validationCategoryNotAllowed)
        #expect(try await code(appStore, LaunchPolicy(minimumBundleVersion: BundleVersion("2.10"))) == .bundleVersionNotAllowed)
        let sample = try device.attest(clientDataHash: challenge, options: .init(extensions: true))
        #expect(try await code(sample, LaunchPolicy(allowedValidationCategories: [1], minimumBundleVersion: BundleVersion("1"))) == nil)
        let old = try device.attest(clientDataHash: challenge)
        #expect(try await code(old, LaunchPolicy(allowedValidationCategories: [4])) == .launchDataMissing)
        #expect(try await code(old, LaunchPolicy(allowedValidationCategories: [4], missingLaunchData: .allow)) == nil)

        let key = try P256.Signing.PublicKey(x963Representation: appStore.publicKey)
        let versionOnly = try device.assert(keyId: appStore.keyId, clientData: challenge, options: .init(bundleVersion: "7"))
        let checked = try AssertionVerifier(appId: Self.appId).verify(
            assertion: versionOnly.assertion, clientData: challenge,
            publicKey: key, previousCounter: 0)
        #expect(checked.launchData?.bundleVersion == "7" && checked.launchData?.validationCategory == nil)
        #expect(
            await appAttestErrorCode {
                _ = try AssertionVerifier(appId: Self.appId, launchPolicy: LaunchPolicy(allowedValidationCategories: [4]))
                    .verify(assertion: versionOnly.assertion, clientData: challenge, publicKey: key, previousCounter: 0)
            } == .launchDataMissing)
        let plain = try device.assert(keyId: appStore.keyId, clientData: challenge)
        #expect(
            try AssertionVerifier(appId: Self.appId).verify(
                assertion: plain.assertion, clientData: challenge, publicKey: key,
                previousCounter: 1
            ).extensions == nil)
    }

    @Test func concurrentAssertionsNeverShareACounter() async throws {
        let device = try Self.makeDevice()
        defer { try? FileManager.default.removeItem(at: device.stateDirectory) }
        let made = try device.attest(clientDataHash: [1])
        let counters = try await withThrowingTaskGroup(of: UInt32.self) { group in
            for index in 0..<40 {
                group.addTask {
                    try SoftwareDevice(stateDirectory: device.stateDirectory)
                        .assert(keyId: made.keyId, clientData: [UInt8(index)]).counter
                }
            }
            return try await group.reduce(into: [UInt32]()) { $0.append($1) }
        }
        #expect(counters.sorted() == Array(1...40))
    }

    @Test func stateSurvivesReopeningAndSeedsRepeatKeys() throws {
        let device = try Self.makeDevice(seed: 42)
        defer { try? FileManager.default.removeItem(at: device.stateDirectory) }
        let reopened = try SoftwareDevice(stateDirectory: device.stateDirectory)
        #expect(reopened.appId == Self.appId)
        #expect(try reopened.testRoots.attestation.publicKey == device.testRoots.attestation.publicKey)
        let other = try Self.makeDevice(seed: 42)
        defer { try? FileManager.default.removeItem(at: other.stateDirectory) }
        #expect(try other.testRoots.attestation.publicKey == device.testRoots.attestation.publicKey)
        #expect(throws: DeviceError.self) {
            try SoftwareDevice.create(at: device.stateDirectory, appId: Self.appId, environment: .production)
        }
        #expect(throws: DeviceError.self) {
            try SoftwareDevice.create(
                at: device.stateDirectory.appendingPathComponent("x"), appId: "bundle.only",
                environment: .production)
        }
        #expect(try device.testRoots.attestation.subject.description.contains("TrustSuite Test"))
        #expect(try !device.testRoots.receipt.subject.description.contains("Apple"))
    }

    @Test func deviceCheckTokensNameTheSameDevice() throws {
        let device = try Self.makeDevice()
        defer { try? FileManager.default.removeItem(at: device.stateDirectory) }
        let first = device.deviceCheckToken()
        let second = device.deviceCheckToken()
        #expect(first != second)
        let ids = [first, second].compactMap { Data(base64Encoded: $0).flatMap { DeviceCheckToken.deviceId(in: Array($0)) } }
        #expect(ids == [device.deviceId, device.deviceId])
        var server = DeviceCheckServer()
        let now = Date()
        func request(_ token: String, bit0: Bool? = nil) -> [String: DeviceCheckServer.Field] {
            var fields: [String: DeviceCheckServer.Field] = [
                "device_token": .string(token), "transaction_id": .string("t"),
                "timestamp": .integer(1),
            ]
            if let bit0 { fields["bit0"] = .bool(bit0) }
            return fields
        }
        #expect(server.handle(.updateTwoBits, request: request(first, bit0: true), at: now).status == 200)
        guard case .bits(let bit0, _, _) = server.handle(.queryTwoBits, request: request(second), at: now).body else {
            Issue.record("query with the device's second token found no state")
            return
        }
        #expect(bit0)
    }
}
