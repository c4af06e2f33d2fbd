import Foundation
import PropertyBased
import Security
import SecuritySimulation
import Testing

/// Toll-free bridging as on a device (issue 57, item 3): a `kSec…`
/// constant and its string are one key in every dictionary a caller builds
/// or gets back, and a number attribute reads as `Bool` and as `Int`.
@Suite struct BridgingTests {
    @Test func aConstantAndItsStringAreOneKey() {
        #expect(AnyHashable(kSecAttrAccount) == AnyHashable("acct"))
        #expect(AnyHashable(kSecAttrAccount).hashValue == AnyHashable("acct").hashValue)
        let byString: [AnyHashable: Any] = ["acct": "alice"]
        #expect(byString[kSecAttrAccount] as? String == "alice")
        let byConstant: [AnyHashable: Any] = [kSecAttrAccount: "bob"]
        #expect(byConstant["acct"] as? String == "bob")
        let keys: Set<AnyHashable> = [kSecAttrAccount, "acct", NSString(string: "acct")]
        #expect(keys.count == 1)
    }

    /// How a query is spelled: its keys as constants or strings, in an
    /// `[AnyHashable: Any]` or a `[String: Any]`.
    enum Spelling: Int, CaseIterable, Sendable {
        case constantsAnyHashable, stringsAnyHashable, constantsAsString, stringsStringKeyed

        func query(_ entries: [(CFString, Any)]) -> CFDictionary {
            switch self {
            case .constantsAnyHashable:
                var query: [AnyHashable: Any] = [:]
                for (key, value) in entries { query[key] = value }
                return query as CFDictionary
            case .stringsAnyHashable:
                var query: [AnyHashable: Any] = [:]
                for (key, value) in entries { query[String(key)] = value }
                return query as CFDictionary
            case .constantsAsString:
                var query: [String: Any] = [:]
                for (key, value) in entries { query[key as String] = value }
                return query as CFDictionary
            case .stringsStringKeyed:
                var query: [String: Any] = [:]
                for (key, value) in entries { query[String(key)] = value }
                return query as CFDictionary
            }
        }
    }

    struct Item: Sendable, CustomStringConvertible {
        let account: String, service: String, synchronizable: Bool, spelling: Spelling
        var description: String { "\(account)/\(service)/\(synchronizable ? "sync" : "local")/\(spelling)" }
    }

    static let item = zip(Gen.int(in: 0...5), Gen.int(in: 0...1), Gen.bool, Gen.int(in: 0...3)).map {
        Item(account: "a\($0.0)", service: "s\($0.1)", synchronizable: $0.2, spelling: Spelling(rawValue: $0.3) ?? .constantsAnyHashable)
    }

    /// Items added in one spelling are found in every other, and each
    /// result reads the same through a constant in `[AnyHashable: Any]`,
    /// through `as String` in `[String: Any]` and through a constant in an
    /// `NSDictionary`; `kSecAttrSynchronizable` reads as `Bool` and `Int`.
    @Test func everySpellingFindsTheSameItems() async {
        await propertyCheck(count: 60, input: Self.item.array(of: 1...8), Gen.int(in: 0...3)) { items, searched in
            Simulation.withNew {
                var stored: [String: Bool] = [:]
                for item in items {
                    let status = SecItemAdd(
                        item.spelling.query([
                            (kSecClass, kSecClassGenericPassword), (kSecAttrAccount, item.account), (kSecAttrService, item.service),
                            (kSecAttrSynchronizable, item.synchronizable), (kSecValueData, Data(item.account.utf8)),
                        ]), nil)
                    // The primary key: account, service and synchronizable (rule book §2).
                    let key = "\(item.account)/\(item.service)/\(item.synchronizable)"
                    if stored[key] == nil {
                        #expect(status == errSecSuccess, "\(item): \(status)")
                        stored[key] = item.synchronizable
                    } else {
                        #expect(status == errSecDuplicateItem, "\(item): \(status)")
                    }
                }
                let spelling = Spelling(rawValue: searched) ?? .constantsAnyHashable
                var result: AnyObject?
                let status = SecItemCopyMatching(
                    spelling.query([
                        (kSecClass, kSecClassGenericPassword), (kSecAttrSynchronizable, kSecAttrSynchronizableAny),
                        (kSecReturnAttributes, true), (kSecMatchLimit, kSecMatchLimitAll),
                    ]), &result)
                #expect(status == errSecSuccess, "\(spelling): \(status)")
                let asAnyHashable = result as? [[AnyHashable: Any]] ?? []
                let asStrings = result as? [[String: Any]] ?? []
                let asFoundation = (result as? NSArray)?.compactMap { $0 as? NSDictionary } ?? []
                #expect(asAnyHashable.count == stored.count && asStrings.count == stored.count && asFoundation.count == stored.count)
                var found: [String: Bool] = [:]
                for (index, attributes) in asAnyHashable.enumerated() where index < asStrings.count && index < asFoundation.count {
                    let account = attributes[kSecAttrAccount] as? String
                    let service = attributes[kSecAttrService] as? String
                    #expect(account != nil && service != nil, "\(attributes)")
                    #expect(asStrings[index][kSecAttrAccount as String] as? String == account)
                    #expect(asFoundation[index][kSecAttrAccount] as? String == account)
                    #expect(asFoundation[index][kSecAttrService] as? String == service)
                    let synchronizable = attributes[kSecAttrSynchronizable] as? Bool
                    let number = asStrings[index][kSecAttrSynchronizable as String] as? Int
                    #expect(synchronizable != nil && number == synchronizable.map { $0 ? 1 : 0 }, "\(attributes)")
                    if let account, let service, let synchronizable { found["\(account)/\(service)/\(synchronizable)"] = synchronizable }
                }
                #expect(found == stored, "\(items), searched \(spelling)")
            }
        }
    }
}
