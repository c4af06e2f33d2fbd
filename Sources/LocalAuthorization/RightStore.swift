import Crypto
import Foundation
import KeychainAccessControl

/// An LAPersistedRight: a right backed by a P-256 key (swift-crypto standing
/// in for the Secure Enclave) whose private operations work only while the
/// right is authorized, and an optional secret.
public actor PersistedRight {
    public nonisolated let identifier: String
    public nonisolated let right: Right
    /// The public key, X9.63 uncompressed: always available.
    public nonisolated let publicKey: [UInt8]
    private let signingKey: P256.Signing.PrivateKey
    private let agreementKey: P256.KeyAgreement.PrivateKey
    private let secret: [UInt8]?
    public private(set) var isDeallocated = false

    init(identifier: String, right: Right, keyBytes: [UInt8], secret: [UInt8]?) throws {
        self.identifier = identifier
        self.right = right
        signingKey = try P256.Signing.PrivateKey(rawRepresentation: keyBytes)
        agreementKey = try P256.KeyAgreement.PrivateKey(rawRepresentation: keyBytes)
        publicKey = Array(signingKey.publicKey.x963Representation)
        self.secret = secret
    }

    func deallocate() { isDeallocated = true }

    /// Deallocated first, then the right's authorization.
    private func gate() async throws(LAModelError) {
        guard !isDeallocated, await !right.isReleased else {
            throw LAModelError(.rightDeallocated, "the persisted right no longer exists")
        }
        guard await right.state == .authorized else {
            throw LAModelError(.notAuthorized, "private key operations need an authorized right")
        }
    }

    /// ECDSA P-256 / SHA-256 signature (DER); only while authorized.
    public func sign(_ data: [UInt8]) async throws(LAModelError) -> [UInt8] {
        try await gate()
        guard let signature = try? signingKey.signature(for: data) else {
            throw LAModelError(.authenticationFailed, "signing failed")
        }
        return Array(signature.derRepresentation)
    }

    /// Public-key verification: always allowed.
    public nonisolated func verify(_ signature: [UInt8], for data: [UInt8]) -> Bool {
        guard let key = try? P256.Signing.PublicKey(x963Representation: publicKey),
            let parsed = try? P256.Signing.ECDSASignature(derRepresentation: signature)
        else { return false }
        return key.isValidSignature(parsed, for: data)
    }

    /// Encrypts to the right's public key (ECDH with an ephemeral key, HKDF,
    /// AES-GCM): always allowed. Output: ephemeral X9.63 key ‖ sealed box.
    public nonisolated func encrypt(_ plaintext: [UInt8]) -> [UInt8]? {
        guard let recipient = try? P256.KeyAgreement.PublicKey(x963Representation: publicKey) else { return nil }
        let ephemeral = P256.KeyAgreement.PrivateKey()
        guard let shared = try? ephemeral.sharedSecretFromKeyAgreement(with: recipient) else { return nil }
        let key = Self.symmetricKey(shared, ephemeral: Array(ephemeral.publicKey.x963Representation))
        guard let sealed = try? AES.GCM.seal(plaintext, using: key), let combined = sealed.combined else { return nil }
        return Array(ephemeral.publicKey.x963Representation) + Array(combined)
    }

    /// Decrypts what ``encrypt(_:)`` made; only while authorized.
    public func decrypt(_ ciphertext: [UInt8]) async throws(LAModelError) -> [UInt8] {
        try await gate()
        guard ciphertext.count > 65, let ephemeral = try? P256.KeyAgreement.PublicKey(x963Representation: ciphertext.prefix(65)),
            let shared = try? agreementKey.sharedSecretFromKeyAgreement(with: ephemeral),
            let box = try? AES.GCM.SealedBox(combined: ciphertext.dropFirst(65)),
            let plaintext = try? AES.GCM.open(box, using: Self.symmetricKey(shared, ephemeral: Array(ciphertext.prefix(65))))
        else {
            throw LAModelError(.authenticationFailed, "the ciphertext does not open with this key")
        }
        return Array(plaintext)
    }

    /// ECDH with another P-256 public key (X9.63); only while authorized.
    public func exchangeKeys(with otherPublicKey: [UInt8]) async throws(LAModelError) -> [UInt8] {
        try await gate()
        guard let other = try? P256.KeyAgreement.PublicKey(x963Representation: otherPublicKey),
            let shared = try? agreementKey.sharedSecretFromKeyAgreement(with: other)
        else {
            throw LAModelError(.authenticationFailed, "key exchange failed")
        }
        return shared.withUnsafeBytes { Array($0) }
    }

    /// The secret's raw data; only while authorized, `notFound` when saved without one.
    public func loadSecret() async throws(LAModelError) -> [UInt8] {
        try await gate()
        guard let secret else { throw LAModelError(.notFound, "the right was saved without a secret") }
        return secret
    }

    static func symmetricKey(_ shared: SharedSecret, ephemeral: [UInt8]) -> SymmetricKey {
        shared.hkdfDerivedSymmetricKey(using: SHA256.self, salt: ephemeral, sharedInfo: Array("trustsuite-la".utf8), outputByteCount: 32)
    }
}

/// LARightStore: persisted rights by identifier. An actor.
public actor RightStore {
    struct Entry {
        let requirement: RightRequirement
        let keyBytes: [UInt8]
        let secret: [UInt8]?
        let boundEnrollment: Int
    }

    public nonisolated let environment: AuthorizationEnvironment
    private var entries: [String: Entry] = [:]
    private var instances: [String: [PersistedRight]] = [:]

    public init(environment: AuthorizationEnvironment) { self.environment = environment }

    /// Saves `right` under `identifier` with an optional secret; returns a new
    /// persisted right in state unknown backed by a new key. Nothing is
    /// stored when the key's access control cannot be bound on the device.
    public func saveRight(_ right: Right, identifier: String, secret: [UInt8]? = nil) async throws(LAModelError) -> PersistedRight {
        guard entries[identifier] == nil else {
            throw LAModelError(.duplicateIdentifier, "a right is already saved as \"\(identifier)\"")
        }
        if let obstacle = right.requirement.bindingObstacle(on: await environment.device) {
            throw LAModelError(obstacle, "the right's key cannot be bound: \(right.requirement.rawValue) needs what the device lacks")
        }
        let key = P256.Signing.PrivateKey()
        let bound = await right.requirement == .biometryCurrentSet ? environment.device.enrollmentGeneration : right.boundEnrollment
        let entry = Entry(requirement: right.requirement, keyBytes: Array(key.rawRepresentation), secret: secret, boundEnrollment: bound)
        // The awaits above let another save of the same identifier run
        // (actor reentrancy): the check is made again where nothing can
        // interleave, so one save wins and the others get -1008 (LA12′).
        guard entries[identifier] == nil else {
            throw LAModelError(.duplicateIdentifier, "a right is already saved as \"\(identifier)\"")
        }
        entries[identifier] = entry
        return try instance(identifier, entry)
    }

    /// The persisted right saved as `identifier`, as a new instance in state unknown.
    public func right(forIdentifier identifier: String) throws(LAModelError) -> PersistedRight {
        guard let entry = entries[identifier] else { throw LAModelError(.notFound, "no right saved as \"\(identifier)\"") }
        return try instance(identifier, entry)
    }

    private func instance(_ identifier: String, _ entry: Entry) throws(LAModelError) -> PersistedRight {
        let right = Right(requirement: entry.requirement, environment: environment, boundEnrollment: entry.boundEnrollment)
        guard let persisted = try? PersistedRight(identifier: identifier, right: right, keyBytes: entry.keyBytes, secret: entry.secret)
        else {
            throw LAModelError(.notFound, "the right's key could not be loaded")
        }
        instances[identifier, default: []].append(persisted)
        return persisted
    }

    /// Removes the right saved as `identifier`; no error when absent. Its
    /// instances can no longer use their key or secret.
    public func removeRight(forIdentifier identifier: String) async {
        entries[identifier] = nil
        for instance in instances.removeValue(forKey: identifier) ?? [] { await instance.deallocate() }
    }

    public func removeRight(_ right: PersistedRight) async { await removeRight(forIdentifier: right.identifier) }

    public func removeAllRights() async {
        for identifier in Array(entries.keys) + Array(instances.keys) { await removeRight(forIdentifier: identifier) }
    }
}
