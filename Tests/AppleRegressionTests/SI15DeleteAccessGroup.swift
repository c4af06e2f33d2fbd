import Foundation
import Security
import SecuritySimulation
import Testing

/// Apple's si-15-delete-access-group.m: two generic passwords in two access groups; deleting everything of one
/// group leaves the other's item. The deletion is `SecItemDeleteAllWithAccessGroups`, SecItemPriv.h SPI (for
/// MobileInstallation, entitlement `com.apple.private.uninstall.deletion`), which this `Security` module lacks:
/// its calls and the finds that observe their effect are ported under `APPLE_REGRESSION_FULL_API`, with
/// Apple's declaration `func SecItemDeleteAllWithAccessGroups(_ accessGroups: CFArray!,
/// _ error: UnsafeMutablePointer<Unmanaged<CFError>?>!) -> Bool`.
@Suite struct SI15DeleteAccessGroup {
    static let group = "123456.test.group"
    static let group2 = "123456.test.group2"

    @Test func deleteAllWithAccessGroups() {
        // The test app is entitled to both groups.
        let environment = [Simulation.Environment.accessGroups: "\(Self.group),\(Self.group2)"]
        Simulation.withNew(environment: environment) {
            let t = AppleFile("si-15-delete-access-group.m", plan: 11)
            let query: [String: Any] = [
                kSecClass as String: kSecClassGenericPassword,
                kSecAttrLabel as String: "keychain label",
            ]
            let query2: [String: Any] = [
                kSecClass as String: kSecClassGenericPassword,
                kSecAttrLabel as String: "keychain label2",
            ]
            SecItemDelete(query as CFDictionary)
            SecItemDelete(query2 as CFDictionary)

            var item = query
            item[kSecAttrAccessGroup as String] = Self.group
            t.okStatus(SecItemAdd(item as CFDictionary, nil), line: 52, "add an item in the first group")
            t.okStatus(SecItemCopyMatching(query as CFDictionary, nil), line: 54, "it is found")

            var item2 = query2
            item2[kSecAttrAccessGroup as String] = Self.group2
            t.okStatus(SecItemAdd(item2 as CFDictionary, nil), line: 62, "add an item in the second group")
            t.is(SecItemCopyMatching(query as CFDictionary, nil), errSecSuccess, line: 64, "the first item is found")
            t.is(SecItemCopyMatching(query2 as CFDictionary, nil), errSecSuccess, line: 65, "the second item is found")

            #if APPLE_REGRESSION_FULL_API
            var error: Unmanaged<CFError>?
            t.ok(SecItemDeleteAllWithAccessGroups([Self.group] as CFArray, &error), line: 68, "delete everything of the first group")
            error?.release()
            error = nil
            t.is(SecItemCopyMatching(query as CFDictionary, nil), errSecItemNotFound, line: 74, "the first item is gone")
            t.is(SecItemCopyMatching(query2 as CFDictionary, nil), errSecSuccess, line: 75, "the second item stays")
            t.ok(SecItemDeleteAllWithAccessGroups([Self.group2] as CFArray, &error), line: 77, "delete everything of the second group")
            error?.release()
            t.is(SecItemCopyMatching(query as CFDictionary, nil), errSecItemNotFound, line: 83, "the first item is still gone")
            t.is(SecItemCopyMatching(query2 as CFDictionary, nil), errSecItemNotFound, line: 84, "the second item is gone")
            #else
            let absent = "SecItemDeleteAllWithAccessGroups (SPI) is absent"
            t.ok(false, line: 68, "delete everything of the first group: \(absent)", known: "API")
            t.is(
                SecItemCopyMatching(query as CFDictionary, nil), errSecItemNotFound, line: 74,
                "the first item is gone: nothing deleted it, \(absent)", known: "API")
            t.is(SecItemCopyMatching(query2 as CFDictionary, nil), errSecSuccess, line: 75, "the second item stays")
            t.ok(false, line: 77, "delete everything of the second group: \(absent)", known: "API")
            t.is(
                SecItemCopyMatching(query as CFDictionary, nil), errSecItemNotFound, line: 83,
                "the first item is still gone: nothing deleted it, \(absent)", known: "API")
            t.is(
                SecItemCopyMatching(query2 as CFDictionary, nil), errSecItemNotFound, line: 84,
                "the second item is gone: nothing deleted it, \(absent)", known: "API")
            #endif
            t.finish()
        }
    }
}
