import Foundation
internal import KeychainAccessControl
internal import KeychainModel
internal import SecuritySimulation

/// `SecKey`: a reference to a key the model holds (a P-256 key; a Secure
/// Enclave key is a software key there, rule book K1–K4). Each object
/// holds one model key id and releases it when it goes away; the key item
/// in the keychain, if any, stays. Equal when the same object. A key
/// belongs to the simulation it was made in; after that simulation's reset
/// it is stale and every call with it fails with errSecInvalidItemRef,
/// touching nothing (it never reaches the next test's keys).
public final class SecKey: Hashable {
    /// The model's id for this reference.
    let keyID: Int
    let simulation: Simulation
    let epoch: UInt64

    init(id: Int, in simulation: Simulation = .current) {
        keyID = id
        self.simulation = simulation
        epoch = simulation.epoch
    }

    deinit {
        // Never under the simulation's lock: the release waits for the next call.
        simulation.releaseLater(key: keyID, epoch: epoch)
    }

    /// Runs `body` with the model's id of this key; nil when the key is stale.
    func run<T: Sendable>(_ body: (inout KeychainEngine, Int) -> T) -> T? {
        let id = keyID
        return simulation.withEngine(ifCurrent: epoch) { body(&$0, id) }
    }

    /// The model's id when this key belongs to `target` and is current; 0 (no key) otherwise.
    func id(in target: Simulation) -> Int {
        target === simulation && target.epoch == epoch ? keyID : 0
    }

    /// Identity.
    public static func == (lhs: SecKey, rhs: SecKey) -> Bool { lhs === rhs }
    /// Hashes the identity.
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}

/// `SecKeyAlgorithm`: an algorithm's name, a `CFString` (rule book §1b).
// @unchecked: `CFString` is Foundation's `NSString` here, a class the compiler cannot check; the value is immutable.
public struct SecKeyAlgorithm: RawRepresentable, Hashable, @unchecked Sendable {
    /// The algorithm's name (`algid:sign:ECDSA:message-X962:SHA256`, …).
    public let rawValue: CFString

    /// An algorithm from its name (`CF_STRING_ENUM`: Apple's has no unlabelled initializer).
    public init(rawValue: CFString) { self.rawValue = rawValue }

    /// ECDSA over SHA-256 of the message, X9.62 (DER) signature.
    public static let ecdsaSignatureMessageX962SHA256 = SecKeyAlgorithm(
        rawValue: CFString(string: SecName.kSecKeyAlgorithmECDSASignatureMessageX962SHA256))
    /// ECDSA over a SHA-256 digest the caller computed, X9.62 (DER) signature.
    public static let ecdsaSignatureDigestX962SHA256 = SecKeyAlgorithm(
        rawValue: CFString(string: SecName.kSecKeyAlgorithmECDSASignatureDigestX962SHA256))
    /// ECDSA over a digest, RFC 4754 (raw r‖s) signature.
    public static let ecdsaSignatureRFC4754 = SecKeyAlgorithm(rawValue: CFString(string: SecName.kSecKeyAlgorithmECDSASignatureRFC4754))
    /// ECDH key exchange, standard.
    public static let ecdhKeyExchangeStandard = SecKeyAlgorithm(rawValue: CFString(string: SecName.kSecKeyAlgorithmECDHKeyExchangeStandard))
    /// ECDH key exchange, cofactor.
    public static let ecdhKeyExchangeCofactor = SecKeyAlgorithm(rawValue: CFString(string: SecName.kSecKeyAlgorithmECDHKeyExchangeCofactor))
    /// ECIES with cofactor ECDH, X9.63 SHA-256 KDF, AES-GCM with a KDF-derived IV.
    public static let eciesEncryptionCofactorVariableIVX963SHA256AESGCM = SecKeyAlgorithm(
        rawValue: CFString(string: SecName.kSecKeyAlgorithmECIESEncryptionCofactorVariableIVX963SHA256AESGCM))
}

/// `SecKeyOperationType` (rule book §1b).
public enum SecKeyOperationType: CFIndex, Sendable, Hashable {
    /// `SecKeyCreateSignature`.
    case sign = 0
    /// `SecKeyVerifySignature`.
    case verify = 1
    /// `SecKeyCreateEncryptedData`.
    case encrypt = 2
    /// `SecKeyCreateDecryptedData`.
    case decrypt = 3
    /// `SecKeyCopyKeyExchangeResult`.
    case keyExchange = 4
}

/// `SecKeyGetTypeID()`.
@discardableResult
public func SecKeyGetTypeID() -> CFTypeID { TypeIdentifier.key }

/// `SecKeyCreateRandomKey(_:_:)`: a new private key made as `parameters` say
/// (`kSecAttrKeyType`, `kSecAttrKeySizeInBits`, `kSecAttrTokenID`,
/// `kSecPrivateKeyAttrs`, …); nil and an error when the model refuses.
@discardableResult
public func SecKeyCreateRandomKey(
    _ parameters: CFDictionary,
    _ error: UnsafeMutablePointer<Unmanaged<CFError>?>?
) -> SecKey? {
    guard let values = _secValues(parameters) else {
        setError(error, conversionFailure("SecKeyCreateRandomKey"))
        return nil
    }
    return keyResult(Simulation.current.withEngine { $0.createRandomKey(values) }, error)
}

/// `SecKeyCreateWithData(_:_:_:)`: a key from its external representation
/// (X9.63 for EC keys) and `attributes` (`kSecAttrKeyType`, `kSecAttrKeyClass`, …).
@discardableResult
public func SecKeyCreateWithData(
    _ keyData: CFData, _ attributes: CFDictionary,
    _ error: UnsafeMutablePointer<Unmanaged<CFError>?>?
) -> SecKey? {
    guard let values = _secValues(attributes) else {
        setError(error, conversionFailure("SecKeyCreateWithData"))
        return nil
    }
    let bytes = byteArray(keyData)
    return keyResult(Simulation.current.withEngine { $0.createKey(data: bytes, attributes: values) }, error)
}

/// `SecKeyCopyPublicKey(_:)`: the public key of `key`, or nil when the model has none.
@discardableResult
public func SecKeyCopyPublicKey(_ key: SecKey) -> SecKey? {
    return key.run { $0.publicKey(of: $1) }.flatMap { $0 }.map { SecKey(id: $0, in: key.simulation) }
}

/// `SecKeyCopyExternalRepresentation(_:_:)`: the key's bytes (X9.63 for an
/// EC public key); nil and an error when the key does not export.
@discardableResult
public func SecKeyCopyExternalRepresentation(
    _ key: SecKey,
    _ error: UnsafeMutablePointer<Unmanaged<CFError>?>?
) -> CFData? {
    return dataResult(key.run { $0.externalRepresentation(of: $1) } ?? staleKey("SecKeyCopyExternalRepresentation"), error)
}

/// `SecKeyCopyAttributes(_:)`: the key's attributes, or nil when the model has none.
@discardableResult
public func SecKeyCopyAttributes(_ key: SecKey) -> CFDictionary? {
    return key.run { $0.keyAttributes(of: $1) }.flatMap { $0 }.map { cfDictionary($0) }
}

/// `SecKeyIsAlgorithmSupported(_:_:_:)`: whether `key` can do `operation` with `algorithm`.
@discardableResult
public func SecKeyIsAlgorithmSupported(
    _ key: SecKey, _ operation: SecKeyOperationType,
    _ algorithm: SecKeyAlgorithm
) -> Bool {
    let name = algorithm.rawValue as String
    let operation = operation.rawValue
    return key.run { $0.isAlgorithmSupported(key: $1, operation: operation, algorithm: name) } ?? false
}

/// `SecKeyCreateSignature(_:_:_:_:)`: the signature of `dataToSign`; nil and
/// an error when the model refuses (a Secure Enclave key's prompt can fail
/// with a LocalAuthentication error, rule book K4).
@discardableResult
public func SecKeyCreateSignature(
    _ key: SecKey, _ algorithm: SecKeyAlgorithm, _ dataToSign: CFData,
    _ error: UnsafeMutablePointer<Unmanaged<CFError>?>?
) -> CFData? {
    let name = algorithm.rawValue as String
    let bytes = byteArray(dataToSign)
    return dataResult(key.run { $0.sign(key: $1, algorithm: name, data: bytes) } ?? staleKey("SecKeyCreateSignature"), error)
}

/// `SecKeyVerifySignature(_:_:_:_:_:)`: true when `signature` verifies over
/// `signedData`; false, with an error when the model gives one, otherwise.
@discardableResult
public func SecKeyVerifySignature(
    _ key: SecKey, _ algorithm: SecKeyAlgorithm, _ signedData: CFData,
    _ signature: CFData, _ error: UnsafeMutablePointer<Unmanaged<CFError>?>?
) -> Bool {
    let name = algorithm.rawValue as String
    let data = byteArray(signedData)
    let signatureBytes = byteArray(signature)
    let outcome: Result<Bool, SecFailure> =
        key.run { $0.verify(key: $1, algorithm: name, data: data, signature: signatureBytes) } ?? staleKey("SecKeyVerifySignature")
    switch outcome {
    case .success(let verified):
        return verified
    case .failure(let failure):
        setError(error, failure)
        return false
    }
}

/// The failure of a call with a key made before its simulation's reset (issue 52, item 2).
private func staleKey<T>(_ call: String) -> Result<T, SecFailure> {
    .failure(SecFailure(.invalidItemRef, Ruling(tag: .api, "\(call): the SecKey belongs to a simulation that was reset since")))
}

/// A new `SecKey` for the model's answer, or nil with the error set.
private func keyResult(_ result: Result<Int, SecFailure>, _ error: UnsafeMutablePointer<Unmanaged<CFError>?>?) -> SecKey? {
    switch result {
    case .success(let id):
        return SecKey(id: id)
    case .failure(let failure):
        setError(error, failure)
        return nil
    }
}

/// The model's bytes as `CFData`, or nil with the error set.
private func dataResult(
    _ result: Result<[UInt8], SecFailure>,
    _ error: UnsafeMutablePointer<Unmanaged<CFError>?>?
) -> CFData? {
    switch result {
    case .success(let bytes):
        return NSData(data: Data(bytes))
    case .failure(let failure):
        setError(error, failure)
        return nil
    }
}
