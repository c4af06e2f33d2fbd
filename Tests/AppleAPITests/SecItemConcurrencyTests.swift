import Dispatch
import Foundation
import Security
import SecuritySimulation
import Testing

/// SecItem calls from 8 threads × 1,000 operations on one keychain: primary
/// keys stay unique and no acknowledged item is lost.
@Suite struct SecItemConcurrencyTests {
    static let threads = 8
    static let operations = 1_000

    static func query(_ account: String) -> [String: Any] {
        [kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: "concurrency", kSecAttrAccount as String: account]
    }

    @Test func eightThreadsKeepKeysUniqueAndLoseNothing() async {
        await Simulation.shared.session {
            final class Tally: @unchecked Sendable {
                let lock = NSLock()
                var kept = Set<String>()
                var sharedAdds = 0
                var unexpected: [String] = []
                func record(_ body: (Tally) -> Void) {
                    lock.lock()
                    body(self)
                    lock.unlock()
                }
            }
            let tally = Tally()
            DispatchQueue.concurrentPerform(iterations: Self.threads) { thread in
                for index in 0..<Self.operations {
                    let account = "t\(thread)-\(index % 250)"
                    switch index % 4 {
                    case 0:
                        var item = Self.query(account)
                        item[kSecValueData as String] = Data("\(thread)-\(index)".utf8)
                        let status = SecItemAdd(item as CFDictionary, nil)
                        tally.record { t in
                            if status == errSecSuccess {
                                t.kept.insert(account)
                            } else if status != errSecDuplicateItem {
                                t.unexpected.append("add \(status)")
                            }
                        }
                        // Every thread adds the same shared item: exactly one add may succeed.
                        var shared = Self.query("shared-\(index / 4 % 50)")
                        shared[kSecValueData as String] = Data("\(thread)".utf8)
                        let sharedStatus = SecItemAdd(shared as CFDictionary, nil)
                        tally.record { t in
                            if sharedStatus == errSecSuccess {
                                t.sharedAdds += 1
                            } else if sharedStatus != errSecDuplicateItem {
                                t.unexpected.append("shared add \(sharedStatus)")
                            }
                        }
                    case 1:
                        var read = Self.query(account)
                        read[kSecReturnData as String] = true
                        var result: CFTypeRef?
                        let status = SecItemCopyMatching(read as CFDictionary, &result)
                        if status != errSecSuccess && status != errSecItemNotFound {
                            tally.record { $0.unexpected.append("copy \(status)") }
                        }
                    case 2:
                        let status = SecItemUpdate(
                            Self.query(account) as CFDictionary, [kSecAttrLabel as String: "t\(thread)"] as CFDictionary)
                        if status != errSecSuccess && status != errSecItemNotFound {
                            tally.record { $0.unexpected.append("update \(status)") }
                        }
                    default:
                        if index % 16 == 3 {
                            let status = SecItemDelete(Self.query(account) as CFDictionary)
                            tally.record { t in
                                if status == errSecSuccess {
                                    t.kept.remove(account)
                                } else if status != errSecItemNotFound {
                                    t.unexpected.append("delete \(status)")
                                }
                            }
                        }
                    }
                }
            }
            #expect(tally.unexpected.isEmpty, "\(tally.unexpected.prefix(5))")
            #expect(tally.sharedAdds == 50, "each shared key added once, whatever the interleaving")
            let all: [String: Any] = [
                kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: "concurrency",
                kSecMatchLimit as String: kSecMatchLimitAll, kSecReturnAttributes as String: true,
            ]
            var result: CFTypeRef?
            #expect(SecItemCopyMatching(all as CFDictionary, &result) == errSecSuccess)
            let accounts = ((result as? [[String: Any]]) ?? []).compactMap { $0[kSecAttrAccount as String] as? String }
            #expect(accounts.count == Set(accounts).count, "two items share a primary key")
            let own = Set(accounts.filter { !$0.hasPrefix("shared-") })
            #expect(own == tally.kept, "lost \(tally.kept.subtracting(own).count), unexpected \(own.subtracting(tally.kept).count)")
        }
    }
}
