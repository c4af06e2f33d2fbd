import DeviceCheck
import Foundation
import LocalAuthentication

// LARight, LARightStore and DCAppAttestService as apps write them (WWDC22's
// "Streamline local authorization flows", Apple's App Attest guide), in
// Swift 6 mode: compiled, run by LARightTests and DeviceCheckTests.

enum RightPatterns {
    /// A right per flow; `catch LAError…`, `state` read after the call.
    static func login() async -> Bool {
        let right = LARight()
        right.tag = 1
        do {
            try await right.checkCanAuthorize()
            try await right.authorize(localizedReason: "Access sandcastle competition designs")
        } catch LAError.biometryNotEnrolled, LAError.passcodeNotSet {
            return false
        } catch let error as LAError where error.code == .userCancel {
            return false
        } catch {
            return (error as NSError).domain == LAErrorDomain
        }
        return right.state == .authorized
    }

    /// Each requirement of LA11.
    static var requirements: [LAAuthenticationRequirement] {
        [.default, .biometry, .biometryCurrentSet, .biometry(fallback: .default), .biometry(fallback: .devicePasscode)]
    }

    /// The store, async: save with a secret, load, sign, verify, read the secret, remove.
    static func persisted() async throws -> Data {
        let store = LARightStore.shared
        let right = LARight(requirement: .biometry(fallback: .devicePasscode))
        _ = try await store.saveRight(right, identifier: "payments", secret: Data("k".utf8))
        let loaded = try await store.right(forIdentifier: "payments")
        try await loaded.authorize(localizedReason: "Pay")
        let key: LAPrivateKey = loaded.key
        guard key.canSign(using: .ecdsaSignatureMessageX962SHA256) else { return Data() }
        let signature = try await key.sign(Data("m".utf8), algorithm: .ecdsaSignatureMessageX962SHA256)
        let publicKey: LAPublicKey = key.publicKey
        if publicKey.canVerify(using: .ecdsaSignatureMessageX962SHA256) {
            try await publicKey.verify(Data("m".utf8), signature: signature, algorithm: .ecdsaSignatureMessageX962SHA256)
        }
        // WWDC22 13:44: `return try await persisted2FA.key.publicKey.bytes`.
        _ = try await publicKey.bytes
        if publicKey.canEncrypt(using: .eciesEncryptionCofactorVariableIVX963SHA256AESGCM),
            key.canDecrypt(using: .eciesEncryptionCofactorVariableIVX963SHA256AESGCM)
        {
            let sealed = try await publicKey.encrypt(Data("p".utf8), algorithm: .eciesEncryptionCofactorVariableIVX963SHA256AESGCM)
            _ = try await key.decrypt(sealed, algorithm: .eciesEncryptionCofactorVariableIVX963SHA256AESGCM)
        }
        if key.canExchangeKeys(using: .ecdhKeyExchangeStandard) {
            _ = try await key.exchangeKeys(publicKey: Data(), algorithm: .ecdhKeyExchangeStandard, parameters: [:])
        }
        let secret: LASecret = loaded.secret
        let data = try await secret.rawData
        await loaded.deauthorize()
        try await store.removeRight(loaded)
        try await store.removeRight(forIdentifier: "payments")
        try await store.removeAllRights()
        return data
    }

    /// The completion forms.
    static func completions(onDone: @escaping @Sendable (String) -> Void) {
        let right = LARight(requirement: .biometryCurrentSet)
        right.checkCanAuthorize { error in if error != nil { onDone("cannot") } }
        right.authorize(localizedReason: "Unlock") { error in
            switch error {
            case LAError.userCancel?: onDone("cancelled")
            case nil: onDone("ok")
            default: onDone((error as NSError?)?.domain ?? "")
            }
        }
        right.deauthorize { onDone("done") }
        let store = LARightStore.shared
        store.saveRight(right, identifier: "r") { persisted, error in
            guard let persisted else { return onDone(error.map { "\($0)" } ?? "") }
            persisted.key.sign(Data(), algorithm: .ecdsaSignatureMessageX962SHA256) { signature, _ in
                persisted.key.publicKey.verify(Data(), signature: signature ?? Data(), algorithm: .ecdsaSignatureMessageX962SHA256) { _ in }
            }
            persisted.key.publicKey.exportBytes { _, _ in }
            persisted.key.publicKey.encrypt(Data(), algorithm: .eciesEncryptionCofactorVariableIVX963SHA256AESGCM) { _, _ in }
            persisted.key.decrypt(Data(), algorithm: .eciesEncryptionCofactorVariableIVX963SHA256AESGCM) { _, _ in }
            persisted.key.exchangeKeys(publicKey: Data(), algorithm: .ecdhKeyExchangeStandard, parameters: [:]) { _, _ in }
            persisted.secret.loadData { _, _ in }
            store.removeRight(persisted) { _ in }
        }
        store.saveRight(right, identifier: "s", secret: Data()) { _, _ in }
        store.right(forIdentifier: "r") { _, _ in }
        store.removeRight(forIdentifier: "r") { _ in }
        store.removeAllRights { _ in }
    }
}

enum AttestPatterns {
    /// Apple's guide: check support, generate, attest, keep the id; recover from serverUnavailable and invalidKey.
    static func attest(challenge: Data, hash: (Data) -> Data) async throws -> (String, Data)? {
        let service = DCAppAttestService.shared
        guard service.isSupported else { return nil }
        let keyId = try await service.generateKey()
        do {
            return (keyId, try await service.attestKey(keyId, clientDataHash: hash(challenge)))
        } catch DCError.serverUnavailable {
            return (keyId, try await service.attestKey(keyId, clientDataHash: hash(challenge)))
        } catch let error as DCError where error.code == .invalidKey {
            return nil
        } catch {
            let nsError = error as NSError
            return nsError.domain == DCErrorDomain && nsError.code == DCError.Code.invalidInput.rawValue ? nil : nil
        }
    }

    /// The completion forms and DCDevice.
    static func completions(keyId: String, onDone: @escaping @Sendable (Data?) -> Void) {
        let service = DCAppAttestService.shared
        service.generateKey { keyId, error in
            guard let keyId, error == nil else { return onDone(nil) }
            service.attestKey(keyId, clientDataHash: Data()) { object, error in
                if let error = error as? DCError, error.code == .featureUnsupported { return onDone(nil) }
                onDone(object)
            }
        }
        service.generateAssertion(keyId, clientDataHash: Data()) { assertion, error in
            switch error {
            case DCError.invalidKey?: onDone(nil)
            default: onDone(assertion)
            }
        }
        if DCDevice.current.isSupported {
            DCDevice.current.generateToken { token, _ in onDone(token) }
        }
        _ = DCError(.unknownSystemFailure, userInfo: [:])
    }

    static func token() async throws -> String {
        try await DCDevice.current.generateToken().base64EncodedString()
    }
}
