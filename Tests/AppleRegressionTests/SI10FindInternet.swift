import Foundation
import Security
import SecuritySimulation
import Testing

/// Apple's si-10-find-internet.c: an internet password is added, found (also through the attributes
/// its query returned), updated into another server, and an update that collides is a duplicate.
@Suite struct SI10FindInternet {
    @Test func findUpdateDelete() {
        Simulation.withNew {
            let t = AppleFile("si-10-find-internet.c", plan: 15)
            let password = Data("test".utf8)
            let query: [String: Any] = [
                kSecClass as String: kSecClassInternetPassword,
                kSecAttrServer as String: "members.spamcop.net",
                kSecAttrAccount as String: "smith",
                kSecAttrPort as String: NSNumber(value: Int32(80)),
                kSecAttrProtocol as String: kSecAttrProtocolHTTP,
                kSecAttrAuthenticationType as String: kSecAttrAuthenticationTypeDefault,
            ]
            var item = query
            item[kSecValueData as String] = password
            t.okStatus(SecItemAdd(item as CFDictionary, nil), line: 45, "add the internet password")
            t.is(SecItemAdd(item as CFDictionary, nil), errSecDuplicateItem, line: 46, "adding it again is a duplicate")

            var results: CFTypeRef?
            t.okStatus(SecItemCopyMatching(query as CFDictionary, &results), line: 53, "find it by its attributes")
            results = nil

            var withAttributes = query
            withAttributes[kSecReturnAttributes as String] = true
            withAttributes[kSecMatchLimit as String] = kSecMatchLimitOne
            t.okStatus(
                SecItemCopyMatching(withAttributes as CFDictionary, &results), line: 59, "find it and return its attributes")
            let returned = (results as? NSDictionary)?.mutableCopy() as? NSMutableDictionary
            results = nil
            if let returned {
                // The reply may carry the item's digest (kSecAttrSHA1, "sha1", private), which is no query key.
                returned.removeObject(forKey: "sha1")
                returned.setObject(kSecClassInternetPassword, forKey: kSecClass)
                returned.setObject(NSNumber(value: true), forKey: kSecReturnData)
                t.okStatus(
                    SecItemCopyMatching(returned as NSDictionary, &results), line: 66,
                    "find it again through the attributes returned")
                t.ok((results as? Data) == password, line: 68, "the data read back is the password")
            } else {
                t.ok(false, line: 66, "no attributes came back to search with")
                t.ok(false, line: 68, "no attributes came back to search with")
            }
            results = nil

            let changes: [String: Any] = [kSecAttrServer as String: "www.spamcop.net"]
            t.okStatus(SecItemUpdate(query as CFDictionary, changes as CFDictionary), line: 82, "move it to another server")
            t.is(
                SecItemUpdate(query as CFDictionary, changes as CFDictionary), errSecItemNotFound, line: 84,
                "the old server has nothing left to update")
            t.is(SecItemDelete(query as CFDictionary), errSecItemNotFound, line: 88, "nothing to delete at the old server")
            t.okStatus(SecItemAdd(item as CFDictionary, nil), line: 90, "add the original password again")
            t.okStatus(SecItemDelete(query as CFDictionary), line: 91, "delete it")

            t.okStatus(SecItemAdd(item as CFDictionary, nil), line: 93, "add the original password once more")
            t.is(
                SecItemUpdate(query as CFDictionary, changes as CFDictionary), errSecDuplicateItem, line: 94,
                "moving it onto the moved item is a duplicate")
            t.okStatus(SecItemDelete(query as CFDictionary), line: 96, "delete the original")

            let moved: [String: Any] = [
                kSecAttrServer as String: "www.spamcop.net",
                kSecClass as String: kSecClassInternetPassword,
            ]
            t.okStatus(SecItemDelete(moved as CFDictionary), line: 100, "delete the moved password")
            t.finish()
        }
    }
}
