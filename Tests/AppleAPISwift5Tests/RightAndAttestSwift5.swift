import DeviceCheck
import Foundation
import LocalAuthentication
import Testing

// LARight and App Attest in Swift 5 language mode, as older app code writes
// them: a class with mutable state that its completion handlers capture.
// Compiled, never run against the shared simulation (see AppleAPITests).

final class LegacyAttestClient {
    var keyId: String?
    var lastError: Error?
    var authorized = false
    let right = LARight(requirement: .biometry(fallback: .devicePasscode))

    func prepare(challenge: Data) {
        let service = DCAppAttestService.shared
        guard service.isSupported else { return }
        service.generateKey { keyId, error in
            self.keyId = keyId
            self.lastError = error
            guard let keyId = keyId else { return }
            service.attestKey(keyId, clientDataHash: challenge) { attestation, error in
                if let error = error as? DCError, error.code == .serverUnavailable {
                    self.lastError = error
                } else if let error = error as NSError?, error.domain == DCErrorDomain {
                    self.lastError = error
                }
                _ = attestation
            }
        }
    }

    func sign(_ hash: Data) {
        guard let keyId = keyId else { return }
        DCAppAttestService.shared.generateAssertion(keyId, clientDataHash: hash) { assertion, error in
            switch error {
            case DCError.invalidKey?: self.keyId = nil
            default: self.lastError = error
            }
            _ = assertion
        }
        DCDevice.current.generateToken { token, error in
            self.lastError = error
            _ = token
        }
    }

    func unlock() {
        right.authorize(localizedReason: "Unlock") { error in
            self.authorized = error == nil
            if let error = error as? LAError, error.code == .userCancel { self.lastError = error }
        }
        right.checkCanAuthorize { error in self.lastError = error }
        right.deauthorize { self.authorized = false }
    }

    func save() {
        LARightStore.shared.saveRight(right, identifier: "legacy", secret: Data()) { persisted, error in
            self.lastError = error
            persisted?.key.sign(Data(), algorithm: .ecdsaSignatureMessageX962SHA256) { signature, error in
                self.lastError = error
                _ = signature
            }
            persisted?.secret.loadData { data, error in
                self.lastError = error
                _ = data
            }
            persisted?.key.publicKey.exportBytes { data, _ in _ = data }
        }
        LARightStore.shared.right(forIdentifier: "legacy") { persisted, error in
            self.lastError = error
            _ = persisted?.state == .authorized
        }
        LARightStore.shared.removeAllRights { error in self.lastError = error }
    }

    func modern() async throws {
        let keyId = try await DCAppAttestService.shared.generateKey()
        _ = try await DCAppAttestService.shared.attestKey(keyId, clientDataHash: Data())
        _ = try await DCAppAttestService.shared.generateAssertion(keyId, clientDataHash: Data())
        _ = try await DCDevice.current.generateToken()
        try await right.authorize(localizedReason: "Go")
        let persisted = try await LARightStore.shared.saveRight(right, identifier: "m")
        _ = try await persisted.key.sign(Data(), algorithm: .ecdsaSignatureMessageX962SHA256)
        _ = try await persisted.key.publicKey.bytes
        _ = try await persisted.secret.rawData
        try await LARightStore.shared.removeRight(forIdentifier: "m")
        await right.deauthorize()
    }
}

@Suite struct Swift5RightAndAttestTests {
    @Test func errorsMatchAndBridge() {
        let error: Error = DCError(.invalidKey)
        switch error {
        case DCError.invalidKey: break
        default: Issue.record("DCError.invalidKey matches")
        }
        #expect((error as NSError).domain == DCErrorDomain)
        #expect((error as NSError).code == 3)
        let bridged = NSError(domain: "com.apple.devicecheck.error", code: 4) as Error
        #expect((bridged as? DCError)?.code == .serverUnavailable)
        #expect(LARight.State.authorized.rawValue == 2)
    }
}
