import Foundation
import LocalAuthentication
import Security

// Keychain code as wrappers and Apple's sample code write it, in Swift 6
// mode (spec/apple-api.md, "What compiles unchanged"). These functions are
// compiled, never run here: they would change the one shared simulation
// that other suites' semantic tests rely on. What the casts do at run time
// is tested on the conversion layer (ConversionTests.swift).

enum PasswordPatterns {
    /// Delete-then-add with a `[String: Any]` literal keyed by `kSec… as String`.
    static func save(account: String, password: Data) -> OSStatus {
        let query: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword,
            kSecAttrService as String: "com.example.service",
            kSecAttrAccount as String: account,
        ]
        SecItemDelete(query as CFDictionary)
        var attributes = query
        attributes[kSecValueData as String] = password
        attributes[kSecAttrAccessible as String] = kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly
        return SecItemAdd(attributes as CFDictionary, nil)
    }

    /// CopyMatching into `var result: AnyObject?`, read back `as? Data`.
    static func load(account: String) -> Data? {
        let query: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword,
            kSecAttrAccount as String: account,
            kSecReturnData as String: true,
            kSecMatchLimit as String: kSecMatchLimitOne,
        ]
        var result: AnyObject?
        let status = SecItemCopyMatching(query as CFDictionary, &result)
        guard status == errSecSuccess else { return nil }
        return result as? Data
    }

    /// `withUnsafeMutablePointer(to:)` and `UnsafeMutablePointer($0)`, `CFTypeRef?` result.
    static func loadWithPointer(account: String) -> (OSStatus, Data?) {
        let query =
            [
                kSecClass as String: kSecClassGenericPassword,
                kSecAttrAccount as String: account,
                kSecReturnData as String: kCFBooleanTrue as Any,
            ] as [String: Any]
        var result: CFTypeRef?
        let status = withUnsafeMutablePointer(to: &result) {
            SecItemCopyMatching(query as CFDictionary, UnsafeMutablePointer($0))
        }
        return (status, result as? Data)
    }

    /// `[String: AnyObject]` with `as AnyObject` values; `kCFBooleanTrue` unwrapped implicitly.
    static func attributes(account: String) -> [String: Any]? {
        let query: [String: AnyObject] = [
            kSecClass as String: kSecClassGenericPassword,
            kSecAttrAccount as String: account as AnyObject,
            kSecReturnAttributes as String: kCFBooleanTrue,
            kSecReturnData as String: kCFBooleanTrue,
        ]
        var result: AnyObject?
        guard SecItemCopyMatching(query as CFDictionary, &result) == errSecSuccess else { return nil }
        guard let item = result as? [String: Any] else { return nil }
        _ = item[kSecValueData as String] as? Data
        _ = item[kSecAttrAccount as String] as? String
        _ = item[kSecAttrModificationDate as String] as? Date
        return item
    }

    /// `[CFString: Any]` literal keyed by the constants themselves; `as? [[String: Any]]`.
    static func allAccounts() -> [String] {
        let query: [CFString: Any] = [
            kSecClass: kSecClassGenericPassword,
            kSecReturnAttributes: true,
            kSecMatchLimit: kSecMatchLimitAll,
            kSecAttrSynchronizable: kSecAttrSynchronizableAny,
        ]
        var items: CFTypeRef?
        let status = SecItemCopyMatching(query as CFDictionary, &items)
        switch status {
        case errSecSuccess:
            let list = items as? [[String: Any]] ?? []
            return list.compactMap { $0[kSecAttrAccount as String] as? String }
        case errSecItemNotFound:
            return []
        default:
            _ = SecCopyErrorMessageString(status, nil) as String?
            return []
        }
    }

    /// `NSMutableDictionary` and `NSDictionary`, `as? NSDictionary`, `as? [Data]`, `as! CFData`.
    static func foundationDictionaries() {
        let query = NSMutableDictionary()
        query[kSecClass] = kSecClassInternetPassword
        query.setObject("example.com", forKey: kSecAttrServer as NSString)
        query[kSecAttrProtocol] = kSecAttrProtocolHTTPS
        query[kSecAttrPort] = 443
        query[kSecReturnData] = kCFBooleanTrue
        query[kSecMatchLimit] = kSecMatchLimitAll
        var result: AnyObject?
        if SecItemCopyMatching(query, &result) == errSecSuccess {
            _ = result as? [Data]
        }
        let copy = NSDictionary(dictionary: [kSecClass as String: kSecClassGenericPassword, kSecReturnAttributes as String: true])
        var single: CFTypeRef?
        if SecItemCopyMatching(copy, &single) == errSecSuccess, let dictionary = single as? NSDictionary {
            _ = dictionary[kSecAttrAccessGroup as String]
        }
        var data: CFTypeRef?
        if SecItemCopyMatching([kSecClass: kSecClassGenericPassword, kSecReturnData: true] as CFDictionary, &data) == 0 {
            let bytes = data as! CFData
            _ = bytes.length
        }
    }

    /// Update with a value passed `as CFTypeRef`.
    static func update(account: String, password: Data) -> Bool {
        let query = [kSecClass as String: kSecClassGenericPassword, kSecAttrAccount as String: account] as CFDictionary
        let changes = [kSecValueData as String: password as CFTypeRef, kSecAttrLabel as String: "label" as AnyObject]
        let status = SecItemUpdate(query, changes as CFDictionary)
        return status == errSecSuccess || status == errSecDuplicateItem
    }
}

enum AccessControlPatterns {
    struct KeychainFailure: Error {}

    /// `SecAccessControlCreateWithFlags` with `kCFAllocatorDefault`, an
    /// `Unmanaged<CFError>?` and `takeRetainedValue()` bridged to `Error`.
    static func protectedItem(secret: Data, context: LAContext) throws -> OSStatus {
        var error: Unmanaged<CFError>?
        guard
            let access = SecAccessControlCreateWithFlags(
                kCFAllocatorDefault, kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly, [.biometryCurrentSet, .or, .devicePasscode], &error
            )
        else {
            throw error!.takeRetainedValue() as any Error
        }
        context.localizedReason = "Unlock your secret"
        let attributes: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword,
            kSecAttrAccount as String: "secret",
            kSecValueData as String: secret,
            kSecAttrAccessControl as String: access,
            kSecUseAuthenticationContext as String: context,
        ]
        return SecItemAdd(attributes as CFDictionary, nil)
    }

    /// A `nil` allocator, the error bridged to `NSError`, and the CFError functions.
    static func describe() -> String? {
        var error: Unmanaged<CFError>?
        if SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleWhenUnlocked, .userPresence, &error) == nil,
            let failure = error?.takeRetainedValue()
        {
            let nsError = failure as NSError
            let code = CFErrorGetCode(failure)
            let domain = CFErrorGetDomain(failure) as String
            _ = CFErrorCopyUserInfo(failure) as? [String: Any]
            if domain == (kCFErrorDomainOSStatus as String) && code == Int(errSecParam) && nsError.domain == NSOSStatusErrorDomain {
                return CFErrorCopyDescription(failure) as String
            }
        }
        return nil
    }
}

enum KeyPatterns {
    /// A Secure Enclave key, its public key exported, a signature made and verified.
    static func secureEnclaveRoundTrip(tag: Data, message: Data) throws -> Bool {
        var error: Unmanaged<CFError>?
        guard
            let access = SecAccessControlCreateWithFlags(
                kCFAllocatorDefault, kSecAttrAccessibleWhenUnlockedThisDeviceOnly, [.privateKeyUsage, .biometryAny], &error
            )
        else { throw error!.takeRetainedValue() as any Error }
        let attributes: [String: Any] = [
            kSecAttrKeyType as String: kSecAttrKeyTypeECSECPrimeRandom,
            kSecAttrKeySizeInBits as String: 256,
            kSecAttrTokenID as String: kSecAttrTokenIDSecureEnclave,
            kSecPrivateKeyAttrs as String: [
                kSecAttrIsPermanent as String: true,
                kSecAttrApplicationTag as String: tag,
                kSecAttrAccessControl as String: access,
            ],
        ]
        guard let privateKey = SecKeyCreateRandomKey(attributes as CFDictionary, &error) else {
            throw error!.takeRetainedValue() as any Error
        }
        guard let publicKey = SecKeyCopyPublicKey(privateKey),
            SecKeyIsAlgorithmSupported(privateKey, .sign, .ecdsaSignatureMessageX962SHA256)
        else { return false }
        guard let exported = SecKeyCopyExternalRepresentation(publicKey, &error) as Data?, exported.count == 65 else { return false }
        guard let signature = SecKeyCreateSignature(privateKey, .ecdsaSignatureMessageX962SHA256, message as CFData, &error) as Data?
        else { throw error!.takeRetainedValue() as any Error }
        let imported = SecKeyCreateWithData(
            exported as CFData,
            [
                kSecAttrKeyType: kSecAttrKeyTypeECSECPrimeRandom, kSecAttrKeyClass: kSecAttrKeyClassPublic,
            ] as CFDictionary, nil)
        _ = SecKeyCopyAttributes(privateKey) as? [String: Any]
        return SecKeyVerifySignature(
            imported ?? publicKey, .ecdsaSignatureMessageX962SHA256, message as CFData,
            signature as CFData, &error)
    }

    /// A key fetched by reference: `as! SecKey` after a `CFGetTypeID` check.
    static func fetchKey(tag: Data) -> SecKey? {
        let query: [String: Any] = [
            kSecClass as String: kSecClassKey,
            kSecAttrApplicationTag as String: tag,
            kSecAttrKeyType as String: kSecAttrKeyTypeEC,
            kSecReturnRef as String: true,
        ]
        var item: CFTypeRef?
        guard SecItemCopyMatching(query as CFDictionary, &item) == errSecSuccess,
            CFGetTypeID(item) == SecKeyGetTypeID()
        else { return nil }
        return (item as! SecKey)
    }
}
