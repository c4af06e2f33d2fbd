import Foundation
import LocalAuthentication
import Security
import Testing

// Keychain code in Swift 5 language mode, as older wrappers write it: a
// class with mutable state that its completion handlers capture. Compiled,
// never run against the shared simulation (see AppleAPITests).

final class LegacyKeychain {
    var lastStatus: OSStatus = errSecSuccess
    var unlocked = false
    let service: String

    init(service: String) { self.service = service }

    func set(_ value: String, forKey key: String) -> Bool {
        guard let data = value.data(using: .utf8) else { return false }
        var query = [String: Any]()
        query[kSecClass as String] = kSecClassGenericPassword as String
        query[kSecAttrService as String] = service
        query[kSecAttrAccount as String] = key
        SecItemDelete(query as CFDictionary)
        query[kSecValueData as String] = data
        query[kSecAttrAccessible as String] = kSecAttrAccessibleWhenUnlocked
        lastStatus = SecItemAdd(query as CFDictionary, nil)
        return lastStatus == errSecSuccess
    }

    func get(_ key: String) -> String? {
        let query: [String: AnyObject] = [
            kSecClass as String: kSecClassGenericPassword,
            kSecAttrService as String: service as AnyObject,
            kSecAttrAccount as String: key as AnyObject,
            kSecReturnData as String: kCFBooleanTrue,
            kSecMatchLimit as String: kSecMatchLimitOne,
        ]
        var result: AnyObject?
        lastStatus = withUnsafeMutablePointer(to: &result) {
            SecItemCopyMatching(query as CFDictionary, UnsafeMutablePointer($0))
        }
        guard lastStatus == noErrStatus, let data = result as? Data else { return nil }
        return String(data: data, encoding: .utf8)
    }

    /// The reply captures `self` (not `Sendable`): accepted in Swift 5 mode.
    func unlock() {
        let context = LAContext()
        var error: NSError?
        guard context.canEvaluatePolicy(.deviceOwnerAuthentication, error: &error) else {
            unlocked = false
            return
        }
        context.evaluatePolicy(.deviceOwnerAuthentication, localizedReason: "Unlock") { success, error in
            DispatchQueue.main.async {
                self.unlocked = success
                if let error = error as? LAError, error.code == .userCancel { self.lastStatus = errSecUserCanceled }
            }
        }
    }

    private let noErrStatus: OSStatus = 0
}

/// What Swift 5 mode changes nothing about: the casts and error matching.
@Suite struct Swift5ModeTests {
    @Test func bridgingAndMatching() {
        #expect(kSecClass as String == "class")
        #expect(CFGetTypeID(kCFBooleanTrue) == CFBooleanGetTypeID())
        let error: any Error = LAError(.userCancel)
        switch error {
        case LAError.userCancel: break
        default: Issue.record("LAError.userCancel matches")
        }
        #expect((error as NSError).domain == LAErrorDomain)
    }
}
