import Foundation
internal import LocalAuthorization

/// The algorithms a right's P-256 key supports (the model's operations).
enum RightKeyAlgorithms {
    static let sign: Set<SecKeyAlgorithm> = [.ecdsaSignatureMessageX962SHA256]
    static let exchange: Set<SecKeyAlgorithm> = [.ecdhKeyExchangeStandard, .ecdhKeyExchangeCofactor]
    /// The model's ECIES (ephemeral P-256 key, HKDF-SHA256, AES-GCM): it
    /// answers to Apple's variable-IV ECIES name, but its bytes are the
    /// model's, not Apple's (docs/apple-api.md, Differences from a device).
    static let encrypt: Set<SecKeyAlgorithm> = [.eciesEncryptionCofactorVariableIVX963SHA256AESGCM]

    /// `errSecParam` in `NSOSStatusErrorDomain`: what Security answers for an algorithm a key does not support.
    static func unsupported(_ algorithm: SecKeyAlgorithm, _ operation: String) -> NSError {
        NSError(
            domain: NSOSStatusErrorDomain, code: Int(errSecParam),
            userInfo: [NSLocalizedDescriptionKey: "\(algorithm.rawValue) is not supported for \(operation) by a right's P-256 key"])
    }
}

/// `LAPrivateKey`: a persisted right's private key. Signing, decrypting
/// and key exchange work only while the right is authorized; the key never
/// leaves the (simulated) Secure Enclave.
open class LAPrivateKey: NSObject {
    let reference: RightReference
    private let publicKeyObject: LAPublicKey

    init(_ right: LAPersistedRight) {
        reference = RightReference(right)
        publicKeyObject = LAPublicKey(reference)
        super.init()
    }

    /// The public key: export, verify and encrypt, always allowed.
    open var publicKey: LAPublicKey { publicKeyObject }

    /// Signs `data` (ECDSA P-256 over SHA-256 of the message, DER, X9.62).
    open func sign(_ data: Data, algorithm: SecKeyAlgorithm) async throws -> Data {
        guard canSign(using: algorithm) else { throw RightKeyAlgorithms.unsupported(algorithm, "signing") }
        let persisted = try reference.live()
        do { return Data(try await persisted.sign(Array(data))) } catch { throw rightError(error) }
    }

    /// ``sign(_:algorithm:)``; `handler` gets the signature or the error, on a global queue.
    open func sign(_ data: Data, algorithm: SecKeyAlgorithm, completion handler: @escaping (Data?, (any Error)?) -> Void) {
        inTask { [self] in
            do { handler(try await sign(data, algorithm: algorithm), nil) } catch { handler(nil, error) }
        }
    }

    /// Whether the key signs with `algorithm`.
    open func canSign(using algorithm: SecKeyAlgorithm) -> Bool { RightKeyAlgorithms.sign.contains(algorithm) }

    /// Decrypts what ``LAPublicKey/encrypt(_:algorithm:)`` made.
    open func decrypt(_ data: Data, algorithm: SecKeyAlgorithm) async throws -> Data {
        guard canDecrypt(using: algorithm) else { throw RightKeyAlgorithms.unsupported(algorithm, "decryption") }
        let persisted = try reference.live()
        do { return Data(try await persisted.decrypt(Array(data))) } catch { throw rightError(error) }
    }

    /// ``decrypt(_:algorithm:)``; `handler` gets the plaintext or the error, on a global queue.
    open func decrypt(_ data: Data, algorithm: SecKeyAlgorithm, completion handler: @escaping (Data?, (any Error)?) -> Void) {
        inTask { [self] in
            do { handler(try await decrypt(data, algorithm: algorithm), nil) } catch { handler(nil, error) }
        }
    }

    /// Whether the key decrypts with `algorithm`.
    open func canDecrypt(using algorithm: SecKeyAlgorithm) -> Bool { RightKeyAlgorithms.encrypt.contains(algorithm) }

    /// ECDH with another P-256 public key (X9.63 bytes): the raw shared secret.
    open func exchangeKeys(publicKey: Data, algorithm: SecKeyAlgorithm, parameters: [AnyHashable: Any]) async throws -> Data {
        guard canExchangeKeys(using: algorithm) else { throw RightKeyAlgorithms.unsupported(algorithm, "key exchange") }
        let persisted = try reference.live()
        do { return Data(try await persisted.exchangeKeys(with: Array(publicKey))) } catch { throw rightError(error) }
    }

    /// ``exchangeKeys(publicKey:algorithm:parameters:)``; `handler` gets the secret or the error, on a global queue.
    open func exchangeKeys(
        publicKey: Data, algorithm: SecKeyAlgorithm, parameters: [AnyHashable: Any],
        completion handler: @escaping (Data?, (any Error)?) -> Void
    ) {
        inTask { [self] in
            do {
                handler(try await exchangeKeys(publicKey: publicKey, algorithm: algorithm, parameters: parameters), nil)
            } catch {
                handler(nil, error)
            }
        }
    }

    /// Whether the key exchanges keys with `algorithm`.
    open func canExchangeKeys(using algorithm: SecKeyAlgorithm) -> Bool { RightKeyAlgorithms.exchange.contains(algorithm) }
}

/// `LAPublicKey`: a persisted right's public key, usable whatever the right's state.
open class LAPublicKey: NSObject {
    let reference: RightReference

    init(_ reference: RightReference) {
        self.reference = reference
        super.init()
    }

    /// The key's bytes: the X9.63 uncompressed point (65 bytes), as
    /// `SecKeyCopyExternalRepresentation`. Apple's async form of
    /// ``exportBytes(completion:)`` is this property
    /// (`NS_SWIFT_ASYNC_NAME(getter:bytes())`): WWDC22's
    /// `try await right.key.publicKey.bytes`.
    open var bytes: Data {
        get async throws { Data(try reference.live().publicKey) }
    }

    /// ``bytes``; `handler` gets the bytes or the error, on a global queue.
    open func exportBytes(completion handler: @escaping (Data?, (any Error)?) -> Void) {
        inTask { [self] in
            do { handler(try await bytes, nil) } catch { handler(nil, error) }
        }
    }

    /// Verifies `signature` over `signedData`; throws when it does not verify.
    open func verify(_ signedData: Data, signature: Data, algorithm: SecKeyAlgorithm) async throws {
        guard canVerify(using: algorithm) else { throw RightKeyAlgorithms.unsupported(algorithm, "verification") }
        let persisted = try reference.live()
        guard persisted.verify(Array(signature), for: Array(signedData)) else {
            throw NSError(
                domain: NSOSStatusErrorDomain, code: Int(errSecVerifyFailed),
                userInfo: [NSLocalizedDescriptionKey: "the signature does not verify with the right's public key"])
        }
    }

    /// ``verify(_:signature:algorithm:)``; `handler` gets nil or the error, on a global queue.
    open func verify(
        _ signedData: Data, signature: Data, algorithm: SecKeyAlgorithm, completion handler: @escaping ((any Error)?) -> Void
    ) {
        inTask { [self] in
            do { try await verify(signedData, signature: signature, algorithm: algorithm) } catch { return handler(error) }
            handler(nil)
        }
    }

    /// Whether the key verifies with `algorithm`.
    open func canVerify(using algorithm: SecKeyAlgorithm) -> Bool { RightKeyAlgorithms.sign.contains(algorithm) }

    /// Encrypts `data` to the key (see ``RightKeyAlgorithms/encrypt``).
    open func encrypt(_ data: Data, algorithm: SecKeyAlgorithm) async throws -> Data {
        guard canEncrypt(using: algorithm) else { throw RightKeyAlgorithms.unsupported(algorithm, "encryption") }
        let persisted = try reference.live()
        guard let sealed = persisted.encrypt(Array(data)) else {
            throw NSError(
                domain: NSOSStatusErrorDomain, code: Int(errSecParam),
                userInfo: [NSLocalizedDescriptionKey: "the data could not be encrypted to the right's key"])
        }
        return Data(sealed)
    }

    /// ``encrypt(_:algorithm:)``; `handler` gets the ciphertext or the error, on a global queue.
    open func encrypt(_ data: Data, algorithm: SecKeyAlgorithm, completion handler: @escaping (Data?, (any Error)?) -> Void) {
        inTask { [self] in
            do { handler(try await encrypt(data, algorithm: algorithm), nil) } catch { handler(nil, error) }
        }
    }

    /// Whether the key encrypts with `algorithm`.
    open func canEncrypt(using algorithm: SecKeyAlgorithm) -> Bool { RightKeyAlgorithms.encrypt.contains(algorithm) }
}
