import Foundation
import Security
import SecuritySimulation
import Testing

/// Apple's si-11-update-data.c: a generic password's data is updated; data that is not `CFData` is refused.
@Suite struct SI11UpdateData {
    @Test func updateData() {
        Simulation.withNew {
            let t = AppleFile("si-11-update-data.c", plan: 6)
            let query: [String: Any] = [
                kSecClass as String: kSecClassGenericPassword,
                kSecAttrAccount as String: "dankeen",
                kSecAttrService as String: "iTools",
            ]
            var item = query
            item[kSecValueData as String] = Data("test".utf8)
            t.okStatus(SecItemAdd(item as CFDictionary, nil), line: 34, "add the generic password")

            var results: CFTypeRef?
            t.okStatus(SecItemCopyMatching(query as CFDictionary, &results), line: 40, "find it by its attributes")
            results = nil

            var changes: [String: Any] = [kSecValueData as String: Data("different password data this time".utf8)]
            t.okStatus(SecItemUpdate(query as CFDictionary, changes as CFDictionary), line: 51, "replace its data")

            // Apple stores a NULL value under kSecValueData; kCFNull is the nearest value a dictionary can hold here.
            changes[kSecValueData as String] = NSNull()
            t.is(SecItemUpdate(query as CFDictionary, changes as CFDictionary), errSecParam, line: 54, "null data is refused")

            changes[kSecValueData as String] = "bogus"
            t.is(SecItemUpdate(query as CFDictionary, changes as CFDictionary), errSecParam, line: 60, "string data is refused")

            t.okStatus(SecItemDelete(query as CFDictionary), line: 62, "delete the generic password")
            t.finish()
        }
    }
}
