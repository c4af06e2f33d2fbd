import Foundation
import LocalAuthentication
import Security

/// An example of the keychain code iOS teams write, in Apple's style and
/// against Apple's API only: a token store whose tokens need Face ID (or
/// Touch ID) to read, with one `LAContext` reused across reads so the user
/// is asked once per session. On Linux it runs against TrustSuite's
/// `Security` and `LocalAuthentication`; on an iPhone, against Apple's.
public final class TokenStore {
    public enum Failure: Error, Equatable {
        case notFound
        case userCanceled
        case authenticationFailed
        case interactionNotAllowed
        case status(OSStatus)

        init(_ status: OSStatus) {
            switch status {
            case errSecItemNotFound: self = .notFound
            case errSecUserCanceled: self = .userCanceled
            case errSecAuthFailed: self = .authenticationFailed
            case errSecInteractionNotAllowed: self = .interactionNotAllowed
            default: self = .status(status)
            }
        }
    }

    let service: String
    private(set) var context: LAContext

    public init(service: String) {
        self.service = service
        context = LAContext()
        context.localizedReason = "Unlock your account"
    }

    private func query(account: String) -> [String: Any] {
        [kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: service, kSecAttrAccount as String: account]
    }

    /// Saves `token`, readable only after biometry of the currently enrolled set.
    /// Replaces an existing token: delete, then add (the delete names the
    /// synchronizable attribute as Any, so no copy is left behind).
    public func save(_ token: Data, account: String) throws {
        var error: Unmanaged<CFError>?
        guard
            let access = SecAccessControlCreateWithFlags(
                kCFAllocatorDefault, kSecAttrAccessibleWhenUnlockedThisDeviceOnly,
                .biometryCurrentSet, &error)
        else {
            throw error.map { $0.takeRetainedValue() as any Error } ?? Failure.status(errSecParam)
        }
        var delete = query(account: account)
        delete[kSecAttrSynchronizable as String] = kSecAttrSynchronizableAny
        let deleted = SecItemDelete(delete as CFDictionary)
        guard deleted == errSecSuccess || deleted == errSecItemNotFound else { throw Failure(deleted) }
        var add = query(account: account)
        add[kSecValueData as String] = token
        add[kSecAttrAccessControl as String] = access
        let status = SecItemAdd(add as CFDictionary, nil)
        guard status == errSecSuccess else { throw Failure(status) }
    }

    /// Reads the token; the first read of a session asks for biometry, later ones reuse the context.
    public func read(account: String) throws -> Data {
        var read = query(account: account)
        read[kSecReturnData as String] = kCFBooleanTrue
        read[kSecMatchLimit as String] = kSecMatchLimitOne
        read[kSecUseAuthenticationContext as String] = context
        var result: CFTypeRef?
        let status = withUnsafeMutablePointer(to: &result) { SecItemCopyMatching(read as CFDictionary, UnsafeMutablePointer($0)) }
        guard status == errSecSuccess else { throw Failure(status) }
        guard let data = result as? Data else { throw Failure.status(errSecInternalComponent) }
        return data
    }

    /// Whether a token exists, without ever asking the user. On a device
    /// any read of a protected item authenticates, an existence query
    /// included, so the probe forbids the prompt: -25308 means the item is
    /// there and needs the user (and -25293 that it is there but can no
    /// longer be opened). A Skip probe would miss a protected item.
    public func exists(account: String) -> Bool {
        var probe = query(account: account)
        probe[kSecUseAuthenticationUI as String] = kSecUseAuthenticationUIFail
        switch SecItemCopyMatching(probe as CFDictionary, nil) {
        case errSecSuccess, errSecInteractionNotAllowed, errSecAuthFailed: return true
        default: return false
        }
    }

    public func delete(account: String) throws {
        let status = SecItemDelete(query(account: account) as CFDictionary)
        guard status == errSecSuccess || status == errSecItemNotFound else { throw Failure(status) }
    }

    /// Ends the session: the next read asks again.
    public func lock() {
        context.invalidate()
        context = LAContext()
        context.localizedReason = "Unlock your account"
    }
}

/// A Secure Enclave P-256 signing key that needs biometry for each use.
public struct DeviceKey {
    public let privateKey: SecKey

    /// Creates a permanent key under `tag`.
    public static func create(tag: String) throws -> DeviceKey {
        var error: Unmanaged<CFError>?
        guard
            let access = SecAccessControlCreateWithFlags(
                kCFAllocatorDefault, kSecAttrAccessibleWhenUnlockedThisDeviceOnly,
                [.privateKeyUsage, .biometryAny], &error)
        else {
            throw error.map { $0.takeRetainedValue() as any Error } ?? TokenStore.Failure.status(errSecParam)
        }
        let attributes: [String: Any] = [
            kSecAttrKeyType as String: kSecAttrKeyTypeECSECPrimeRandom,
            kSecAttrKeySizeInBits as String: 256,
            kSecAttrTokenID as String: kSecAttrTokenIDSecureEnclave,
            kSecPrivateKeyAttrs as String: [
                kSecAttrIsPermanent as String: true,
                kSecAttrApplicationTag as String: Data(tag.utf8),
                kSecAttrAccessControl as String: access,
            ] as [String: Any],
        ]
        guard let key = SecKeyCreateRandomKey(attributes as CFDictionary, &error) else {
            throw error.map { $0.takeRetainedValue() as any Error } ?? TokenStore.Failure.status(errSecParam)
        }
        return DeviceKey(privateKey: key)
    }

    /// The key stored under `tag`, or nil.
    public static func load(tag: String) throws -> DeviceKey? {
        let query: [CFString: Any] = [
            kSecClass: kSecClassKey, kSecAttrApplicationTag: Data(tag.utf8), kSecAttrKeyType: kSecAttrKeyTypeECSECPrimeRandom,
            kSecReturnRef: true,
        ]
        var item: AnyObject?
        let status = SecItemCopyMatching(query as CFDictionary, &item)
        if status == errSecItemNotFound { return nil }
        guard status == errSecSuccess, let key = item as? SecKey else { throw TokenStore.Failure(status) }
        return DeviceKey(privateKey: key)
    }

    /// An ECDSA signature (X9.62 DER) over SHA-256 of `message`.
    public func sign(_ message: Data) throws -> Data {
        var error: Unmanaged<CFError>?
        guard let signature = SecKeyCreateSignature(privateKey, .ecdsaSignatureMessageX962SHA256, message as CFData, &error) else {
            throw error.map { $0.takeRetainedValue() as any Error } ?? TokenStore.Failure.status(errSecParam)
        }
        return signature as Data
    }

    /// The public key, X9.63 (`04‖X‖Y`), for the server.
    public func publicKey() throws -> Data {
        var error: Unmanaged<CFError>?
        guard let publicKey = SecKeyCopyPublicKey(privateKey),
            let bytes = SecKeyCopyExternalRepresentation(publicKey, &error)
        else {
            throw error.map { $0.takeRetainedValue() as any Error } ?? TokenStore.Failure.status(errSecParam)
        }
        return bytes as Data
    }
}
