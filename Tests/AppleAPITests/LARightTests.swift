import Crypto
import Foundation
import LocalAuthentication
import SecuritySimulation
import Testing

/// `LARight` and `LARightStore` on the simulation: prompts from the same
/// answer queue as `LAContext`, in the same prompt and call logs.
@Suite struct LARightTests {
    static let trustsuiteDomain = "TrustSuite.LocalAuthorization"

    @Test func authorizeTakesTheQueuedAnswerAndLogsThePrompt() async throws {
        try await Simulation.shared.session {
            Simulation.shared.enqueue(.biometryMatch)
            let right = LARight()
            #expect(right.state == .unknown)
            try await right.authorize(localizedReason: "Open the vault")
            #expect(right.state == .authorized)
            let prompts = Simulation.shared.prompts
            #expect(prompts.count == 1)
            #expect(prompts.first?.call == "LARight.authorize")
            #expect(prompts.first?.reason == "Open the vault")
            #expect(prompts.first?.kind == "faceID")
            await right.deauthorize()
            #expect(right.state == .notAuthorized)
        }
    }

    @Test func aContextAndARightShareOneQueue() async throws {
        try await Simulation.shared.session {
            Simulation.shared.enqueue(.biometryMatch, .cancel)
            let context = LAContext()
            #expect(try await context.evaluatePolicy(.deviceOwnerAuthentication, localizedReason: "Sign in"))
            let right = LARight(requirement: .biometry)
            do {
                try await right.authorize(localizedReason: "Approve")
                Issue.record("the second queued answer, a cancel, should refuse the right")
            } catch LAError.userCancel {
                #expect(right.state == .notAuthorized)
            }
            #expect(Simulation.shared.prompts.map(\.call) == ["LAContext.evaluatePolicy", "LARight.authorize"])
            #expect(Simulation.shared.pendingAnswers.isEmpty)
        }
    }

    @Test func noQueuedAnswerIsStrictAndNamesTheCall() async throws {
        await Simulation.shared.session {
            let right = LARight()
            await #expect(throws: LAError(.userCancel)) { try await right.authorize(localizedReason: "Pay") }
            #expect(Simulation.shared.unansweredPrompts.map(\.call) == ["LARight.authorize"])
        }
    }

    @Test func anEmptyReasonRaisesNoPromptAndLeavesTheState() async throws {
        await Simulation.shared.session {
            Simulation.shared.enqueue(.biometryMatch)
            let right = LARight()
            do {
                try await right.authorize(localizedReason: " ")
                Issue.record("an empty reason must fail")
            } catch {
                #expect((error as NSError).domain == LAErrorDomain)
                #expect((error as NSError).code == -1001)
            }
            #expect(right.state == .unknown)
            #expect(Simulation.shared.promptCount == 0)
        }
    }

    @Test func checkCanAuthorizeFollowsTheDeviceAndNeverPrompts() async throws {
        try await Simulation.shared.session {
            var device = Simulation.shared.device
            device.enrolled = false
            Simulation.shared.device = device
            let right = LARight(requirement: .biometry)
            await #expect(throws: LAError(.biometryNotEnrolled)) { try await right.checkCanAuthorize() }
            try await LARight(requirement: .default).checkCanAuthorize()
            Simulation.shared.apply(.passcodeRemoved)
            await #expect(throws: LAError(.passcodeNotSet)) { try await LARight().checkCanAuthorize() }
            #expect(Simulation.shared.promptCount == 0)
            #expect(right.state == .unknown)
        }
    }

    @Test func theStoreSavesSignsAndGuardsTheKey() async throws {
        try await Simulation.shared.session {
            let store = LARightStore.shared
            let saved = try await store.saveRight(LARight(), identifier: "payments", secret: Data("s3cret".utf8))
            #expect(saved.state == .unknown)
            do {
                _ = try await store.saveRight(LARight(), identifier: "payments")
                Issue.record("a second save under one identifier must fail")
            } catch {
                #expect((error as NSError).domain == Self.trustsuiteDomain)
                #expect((error as NSError).code == 1)
            }
            let message = Data("pay 10".utf8)
            do {
                _ = try await saved.key.sign(message, algorithm: .ecdsaSignatureMessageX962SHA256)
                Issue.record("signing needs an authorized right")
            } catch {
                #expect((error as NSError).code == 4)
            }
            Simulation.shared.enqueue(.passcode)
            let loaded = try await store.right(forIdentifier: "payments")
            try await loaded.authorize(localizedReason: "Pay")
            let signature = try await loaded.key.sign(message, algorithm: .ecdsaSignatureMessageX962SHA256)
            try await loaded.key.publicKey.verify(message, signature: signature, algorithm: .ecdsaSignatureMessageX962SHA256)
            // The signature verifies with swift-crypto's P-256 too.
            let exported = try await saved.key.publicKey.bytes
            let publicKey = try P256.Signing.PublicKey(x963Representation: exported)
            #expect(publicKey.isValidSignature(try P256.Signing.ECDSASignature(derRepresentation: signature), for: message))
            #expect(try await loaded.secret.rawData == Data("s3cret".utf8))
            #expect(!loaded.key.canSign(using: .ecdsaSignatureDigestX962SHA256))
            let sealed = try await loaded.key.publicKey.encrypt(message, algorithm: .eciesEncryptionCofactorVariableIVX963SHA256AESGCM)
            #expect(try await loaded.key.decrypt(sealed, algorithm: .eciesEncryptionCofactorVariableIVX963SHA256AESGCM) == message)
            try await store.removeRight(forIdentifier: "payments")
            do {
                _ = try await loaded.secret.rawData
                Issue.record("a removed right's secret is gone")
            } catch {
                #expect((error as NSError).code == 3)
            }
            do {
                _ = try await store.right(forIdentifier: "payments")
                Issue.record("a removed right is not found")
            } catch {
                #expect((error as NSError).code == 2)
            }
            #expect(Simulation.shared.calls.contains { $0.call == "LARightStore.saveRight" && $0.status == 1 })
        }
    }

    @Test func aCurrentSetRightDiesWithTheEnrolment() async throws {
        try await Simulation.shared.session {
            let saved = try await LARightStore.shared.saveRight(LARight(requirement: .biometryCurrentSet), identifier: "vault")
            Simulation.shared.apply(.biometryEnrollmentChanged)
            Simulation.shared.enqueue(.biometryMatch)
            await #expect(throws: LAError(.authenticationFailed)) { try await saved.authorize(localizedReason: "Open") }
            #expect(saved.state == .notAuthorized)
        }
    }

    @Test func savingABiometricRightNeedsEnrolledBiometry() async throws {
        await Simulation.shared.session {
            var device = Simulation.shared.device
            device.enrolled = false
            Simulation.shared.device = device
            await #expect(throws: LAError(.biometryNotEnrolled)) {
                try await LARightStore.shared.saveRight(LARight(requirement: .biometry), identifier: "x")
            }
        }
    }

    @Test func notificationsFollowChangesIntoAndOutOfAuthorized() async throws {
        try await Simulation.shared.session {
            final class Counter: @unchecked Sendable {
                let lock = NSLock()
                var names: [Notification.Name] = []
            }
            let counter = Counter()
            let right = LARight()
            let observers = [Notification.Name.simulatedRightDidBecomeAuthorized, .simulatedRightDidBecomeUnauthorized].map { name in
                NotificationCenter.default.addObserver(forName: name, object: right, queue: nil) { note in
                    counter.lock.withLock { counter.names.append(note.name) }
                }
            }
            defer { observers.forEach(NotificationCenter.default.removeObserver) }
            Simulation.shared.enqueue(.biometryMatch, .biometryMatch)
            try await right.authorize(localizedReason: "One")
            try await right.authorize(localizedReason: "Two")
            await right.deauthorize()
            await right.deauthorize()
            // Authorizing again passes through authorizing (out of authorized and back); a second deauthorize changes nothing.
            let expected: [Notification.Name] = [
                .simulatedRightDidBecomeAuthorized, .simulatedRightDidBecomeUnauthorized, .simulatedRightDidBecomeAuthorized,
                .simulatedRightDidBecomeUnauthorized,
            ]
            #expect(counter.lock.withLock { counter.names } == expected)
        }
    }

    @Test func completionHandlersAnswer() async throws {
        await Simulation.shared.session {
            Simulation.shared.enqueue(.biometryMatch)
            let right = LARight()
            let error: (any Error)? = await withCheckedContinuation { continuation in
                right.authorize(localizedReason: "Unlock") { continuation.resume(returning: $0) }
            }
            #expect(error == nil)
            #expect(right.state == .authorized)
            // A persisted right is not `Sendable` (as on a device): the handler hands on what the test reads.
            let saved: (Bool, NSError?) = await withCheckedContinuation { continuation in
                LARightStore.shared.saveRight(right, identifier: "c") { continuation.resume(returning: ($0 != nil, $1 as NSError?)) }
            }
            #expect(saved.0 && saved.1 == nil)
            let missing: (Bool, NSError?) = await withCheckedContinuation { continuation in
                LARightStore.shared.right(forIdentifier: "none") { continuation.resume(returning: ($0 != nil, $1 as NSError?)) }
            }
            #expect(!missing.0 && missing.1?.code == 2)
        }
    }
}
