import Foundation
import Security
import SecuritySimulation
import Testing

/// Apple's si-00-find-nothing.c: a query on an empty keychain finds nothing.
/// (Apple runs it only in its in-process build, `NO_SERVER`; a simulation is one.)
@Suite struct SI00FindNothing {
    @Test func findNothing() {
        Simulation.withNew {
            let t = AppleFile("si-00-find-nothing.c", plan: 2)
            let query: [String: Any] = [kSecClass as String: kSecClassInternetPassword]
            var results: CFTypeRef?
            t.is(
                SecItemCopyMatching(query as CFDictionary, &results), errSecItemNotFound, line: 29,
                "an empty keychain has no internet password")
            t.ok(results == nil, line: 31, "the result stays nil")
            t.finish()
        }
    }
}
