import Foundation
import Security
import SecuritySimulation
import Testing

/// Apple's si-43-persistent.c: an internet password's persistent reference finds, updates and deletes
/// exactly that item, and finds nothing once it is gone.
@Suite struct SI43Persistent {
    @Test func persistentReferences() {
        Simulation.withNew {
            let t = AppleFile("si-43-persistent.c", plan: 22)
            let attributes: [String: Any] = [
                kSecClass as String: kSecClassInternetPassword,
                kSecAttrServer as String: "zuigt.nl",
                kSecAttrAccount as String: "frtnbf",
                kSecAttrPort as String: NSNumber(value: Int32(80)),
                kSecAttrProtocol as String: kSecAttrProtocolHTTP,
                kSecAttrAuthenticationType as String: kSecAttrAuthenticationTypeDefault,
            ]
            var item = attributes
            item[kSecReturnPersistentRef as String] = true
            item[kSecValueData as String] = Data("test".utf8)

            var persist: CFTypeRef?
            t.okStatus(SecItemAdd(item as CFDictionary, &persist), line: 50, "add the internet password")
            t.ok(persist != nil, line: 51, "a persistent reference comes back")

            var query = attributes
            query[kSecReturnAttributes as String] = true
            var results: CFTypeRef?
            t.okStatus(SecItemCopyMatching(query as CFDictionary, &results), line: 58, "find it by its attributes")

            var query2: [String: Any] = [kSecReturnAttributes as String: true]
            if let persist { query2[kSecValuePersistentRef as String] = persist }
            var results2: CFTypeRef?
            if persist != nil {
                t.okStatus(SecItemCopyMatching(query2 as CFDictionary, &results2), line: 71, "find it by its persistent reference")
                let same = (results as? NSDictionary).map { found in (results2 as? NSDictionary).map { found.isEqual($0) } ?? false }
                t.ok(same ?? false, line: 72, "both finds return the same attributes")
            } else {
                t.ok(false, line: 71, "no persistent reference to find it by")
                t.ok(false, line: 72, "no persistent reference to find it by")
            }
            results = nil
            results2 = nil

            t.okStatus(SecItemDelete(query as CFDictionary), line: 77, "delete it")
            t.isnt(SecItemCopyMatching(query as CFDictionary, &results), errSecSuccess, line: 79, "its attributes find nothing now")
            t.ok(results == nil, line: 81, "and return nothing")
            if persist != nil {
                t.isnt(
                    SecItemCopyMatching(query2 as CFDictionary, &results2), errSecSuccess, line: 92,
                    "its persistent reference finds nothing now")
                t.ok(results2 == nil, line: 94, "and returns nothing")
            } else {
                t.ok(false, line: 92, "no persistent reference to look up")
                t.ok(false, line: 94, "no persistent reference to look up")
            }
            persist = nil

            // Two items, one updated and deleted by its persistent reference.
            t.okStatus(SecItemAdd(item as CFDictionary, &persist), line: 99, "add the internet password again")
            var item2 = item
            item2[kSecAttrAccount as String] = "johndoe"
            var persist2: CFTypeRef?
            t.okStatus(SecItemAdd(item2 as CFDictionary, &persist2), line: 103, "add a second internet password")
            t.is(CFGetTypeID(persist), CFDataGetTypeID(), line: 104, "the persistent reference is data")

            guard let persist else {
                for line in [109, 113, 115, 123, 125, 129, 130, 133, 136] {
                    t.ok(false, line: line, "no persistent reference for the first item")
                }
                t.finish()
                return
            }
            var query3: [String: Any] = [kSecValuePersistentRef as String: persist]
            let update: [String: Any] = [kSecAttrServer as String: "zuigt.com"]
            t.okStatus(SecItemUpdate(query3 as CFDictionary, update as CFDictionary), line: 109, "update it by its persistent reference")

            query3[kSecReturnAttributes as String] = true
            t.okStatus(SecItemCopyMatching(query3 as CFDictionary, &results2), line: 113, "find the updated item by its reference")
            t.ok(Self.server(results2) == "zuigt.com", line: 115, "its server is the new one")
            results2 = nil
            query3.removeValue(forKey: kSecReturnAttributes as String)

            var query4: [String: Any] = [kSecReturnAttributes as String: true]
            if let persist2 { query4[kSecValuePersistentRef as String] = persist2 }
            if persist2 != nil {
                t.okStatus(SecItemCopyMatching(query4 as CFDictionary, &results2), line: 123, "find the second item by its reference")
                t.ok(Self.server(results2) == "zuigt.nl", line: 125, "its server did not change")
            } else {
                t.ok(false, line: 123, "no persistent reference for the second item")
                t.ok(false, line: 125, "no persistent reference for the second item")
            }
            results2 = nil

            t.okStatus(SecItemDelete(query3 as CFDictionary), line: 129, "delete the first item by its reference")
            t.is(
                SecItemCopyMatching(query3 as CFDictionary, &results2), errSecItemNotFound, line: 130,
                "its reference finds nothing now")
            results2 = nil
            if persist2 != nil {
                t.okStatus(SecItemCopyMatching(query4 as CFDictionary, &results2), line: 133, "the second item is still found")
                results2 = nil
                t.okStatus(SecItemDelete(query4 as CFDictionary), line: 136, "delete the second item by its reference")
            } else {
                t.ok(false, line: 133, "no persistent reference for the second item")
                t.ok(false, line: 136, "no persistent reference for the second item")
            }
            t.finish()
        }
    }

    /// The server in a returned attribute dictionary.
    static func server(_ result: CFTypeRef?) -> String? {
        (result as? NSDictionary)?.object(forKey: kSecAttrServer) as? String
    }
}
