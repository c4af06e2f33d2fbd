import AppAttest
import AppAttestDevice
import Crypto
import DeviceCheck
import DeviceCheckModel
import Foundation
import SecuritySimulation
import Testing

/// `DCAppAttestService` and `DCDevice` on the simulation's software device:
/// what they make verifies with the reference verifier given the device's
/// test roots, and they refuse as Apple documents.
@Suite struct DeviceCheckTests {
    static func sha256(_ data: Data) -> Data { Data(SHA256.hash(data: data)) }

    /// The reference verifiers, trusting the simulated device's root.
    static func verifiers() throws -> (AttestationVerifier, AssertionVerifier) {
        let services = Simulation.shared.services
        let device = try services.appAttestDevice()
        let root = try device.testRoots.attestation
        return (
            try AttestationVerifier(appId: device.appId, environment: device.environment, trustAnchors: [root]),
            AssertionVerifier(appId: device.appId)
        )
    }

    @Test func theWholeFlowVerifies() async throws {
        try await Simulation.shared.session {
            let service = DCAppAttestService.shared
            #expect(service.isSupported)
            let keyId = try await service.generateKey()
            let challenge = Data("server challenge".utf8)
            let object = try await service.attestKey(keyId, clientDataHash: Self.sha256(challenge))
            let (attestations, assertions) = try Self.verifiers()
            let keyBytes = try #require(Data(base64Encoded: keyId))
            let verified = try await attestations.verify(
                attestationObject: Array(object), keyId: Array(keyBytes), clientDataHash: Array(Self.sha256(challenge)), at: Date())
            #expect(verified.counter == 0)
            let publicKey = try #require(ES256.publicKey(verified.publicKey))
            var previous: UInt32 = 0
            for n in 1...3 {
                let clientData = Data("{\"challenge\":\"\(n)\"}".utf8)
                let assertion = try await service.generateAssertion(keyId, clientDataHash: Self.sha256(clientData))
                let checked = try assertions.verify(
                    assertion: Array(assertion), clientData: Array(clientData), publicKey: publicKey, previousCounter: previous)
                #expect(checked.counter == previous + 1)
                previous = checked.counter
            }
        }
    }

    @Test func refusalsAreApples() async throws {
        try await Simulation.shared.session {
            let service = DCAppAttestService.shared
            let hash = Self.sha256(Data("c".utf8))
            let keyId = try await service.generateKey()
            await #expect(throws: DCError(.invalidKey)) { try await service.generateAssertion(keyId, clientDataHash: hash) }
            await #expect(throws: DCError(.invalidInput)) { try await service.attestKey(keyId, clientDataHash: Data()) }
            _ = try await service.attestKey(keyId, clientDataHash: hash)
            await #expect(throws: DCError(.invalidKey)) { try await service.attestKey(keyId, clientDataHash: hash) }
            let unknown = Data(repeating: 7, count: 32).base64EncodedString()
            await #expect(throws: DCError(.invalidKey)) { try await service.attestKey(unknown, clientDataHash: hash) }
            await #expect(throws: DCError(.invalidKey)) { try await service.generateAssertion(unknown, clientDataHash: hash) }
            await #expect(throws: DCError(.invalidInput)) { try await service.generateAssertion(keyId, clientDataHash: Data()) }
            #expect(Simulation.shared.services.appAttestCalls.filter { $0.code == .invalidKey }.count == 4)
        }
    }

    @Test func serverUnavailableIsRetryableWithTheSameKeyAndHash() async throws {
        try await Simulation.shared.session {
            let service = DCAppAttestService.shared
            let hash = Self.sha256(Data("c".utf8))
            let keyId = try await service.generateKey()
            Simulation.shared.services.failNext(.attestKey, with: .serverUnavailable)
            do {
                _ = try await service.attestKey(keyId, clientDataHash: hash)
                Issue.record("the queued failure must come first")
            } catch let error as DCError where error.code == .serverUnavailable {
                #expect((error as NSError).domain == "com.apple.devicecheck.error")
                #expect((error as NSError).code == 4)
            }
            let object = try await service.attestKey(keyId, clientDataHash: hash)
            #expect(!object.isEmpty)
            #expect(Simulation.shared.services.pendingFailures.isEmpty)
        }
    }

    @Test func unsupportedAndReinstalled() async throws {
        try await Simulation.shared.session {
            let service = DCAppAttestService.shared
            let hash = Self.sha256(Data("c".utf8))
            let keyId = try await service.generateKey()
            _ = try await service.attestKey(keyId, clientDataHash: hash)
            Simulation.shared.services.reinstallApp()
            await #expect(throws: DCError(.invalidKey)) { try await service.generateAssertion(keyId, clientDataHash: hash) }
            Simulation.shared.services.appAttest.isSupported = false
            #expect(!service.isSupported)
            await #expect(throws: DCError(.featureUnsupported)) { try await service.generateKey() }
            Simulation.shared.services.appAttest.deviceCheckSupported = false
            #expect(!DCDevice.current.isSupported)
            await #expect(throws: DCError(.featureUnsupported)) { try await DCDevice.current.generateToken() }
        }
    }

    @Test func deviceCheckTokensNameOneDevice() async throws {
        try await Simulation.shared.session {
            let first = try await DCDevice.current.generateToken()
            let second = try await DCDevice.current.generateToken()
            #expect(first != second)
            let device = try #require(DeviceCheckToken.deviceId(in: Array(first)))
            #expect(DeviceCheckToken.deviceId(in: Array(second)) == device)
            // The local DeviceCheck service takes it.
            let now = Date()
            var server = DeviceCheckServer()
            let response = server.handle(
                .validateDeviceToken,
                request: [
                    "device_token": .string(first.base64EncodedString()), "transaction_id": .string("t1"),
                    "timestamp": .integer(Int64(now.timeIntervalSince1970 * 1000)),
                ], at: now)
            #expect(response.status == 200)
        }
    }

    @Test func aStateFolderKeepsKeysAndRootsForAServer() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("dc-state-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try await Simulation.shared.session {
            Simulation.shared.services.appAttest.stateFolder = folder
            Simulation.shared.services.appAttest.environment = .production
            let service = DCAppAttestService.shared
            let keyId = try await service.generateKey()
            _ = try await service.attestKey(keyId, clientDataHash: Self.sha256(Data("c".utf8)))
            let opened = try SoftwareDevice(stateDirectory: folder)
            #expect(opened.environment == .production)
            #expect(opened.testRootsPEM.attestation == (try Simulation.shared.services.appAttestDevice()).testRootsPEM.attestation)
            // The folder's device signs with the key attested through the API (as `trustsuite device assert` does).
            let signed = try opened.assert(keyId: Array(try #require(Data(base64Encoded: keyId))), clientData: Array("x".utf8))
            #expect(signed.counter == 1)
            let next = try await service.generateAssertion(keyId, clientDataHash: Self.sha256(Data("y".utf8)))
            let parsed = try Assertion(bytes: Array(next))
            #expect(parsed.authenticatorData.signCount == 2)
        }
    }

    /// A state folder made for another App ID or environment is refused,
    /// naming both (issue 61, item 8): before, the simulation used it
    /// silently, and its attestations named the folder's App ID.
    @Test func aStateFolderOfAnotherAppIsRefused() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("dc-state-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        _ = try ClientDevice(folder: folder, appId: "OTHERTEAM1.com.example.other", environment: .production)
        await Simulation.shared.session {
            Simulation.shared.services.appAttest.stateFolder = folder
            Simulation.shared.services.appAttest.environment = .production
            await #expect {
                _ = try await DCAppAttestService.shared.generateKey()
            } throws: { error in
                "\(error)".contains("holds a device for OTHERTEAM1.com.example.other (production), not ")
            }
        }
    }

    @Test func completionHandlersAnswerOnAnotherQueue() async throws {
        await Simulation.shared.session {
            let service = DCAppAttestService.shared
            let generated: (String?, (any Error)?) = await withCheckedContinuation { continuation in
                service.generateKey { continuation.resume(returning: ($0, $1)) }
            }
            let keyId = generated.0 ?? ""
            #expect(!keyId.isEmpty)
            let attested: (Data?, (any Error)?) = await withCheckedContinuation { continuation in
                service.attestKey(keyId, clientDataHash: Data()) { continuation.resume(returning: ($0, $1)) }
            }
            #expect(attested.0 == nil)
            #expect((attested.1 as? DCError)?.code == .invalidInput)
        }
    }
}
