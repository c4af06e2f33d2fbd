import Foundation
import Security
import SecuritySimulation
import Testing

/// Apple's si-12-item-stress.c: for eight items (two of each of inet, genp, keys and cert, their primary-key
/// attributes set from the item's number) a synchronizable and a local copy are added and deleted, with and
/// without tombstones. Tombstones are private: `kSecAttrTombstone` ("tomb") and `kSecUseTombstones` ("u_Tomb")
/// are SecItemPriv.h SPI with no public mapping, so the assertions whose dictionary carries `kSecAttrTombstone`
/// are skipped; in the deletes that only add `kSecUseTombstones`, that option is left out (it decides only
/// whether a tombstone stays, which nothing public can see) and Apple's expected status is kept.
@Suite struct SI12ItemStress {
    @Test func addDeleteSyncAndLocal() {
        Simulation.withNew {
            let t = AppleFile("si-12-item-stress.c", plan: 144)
            for num in 0..<8 {
                var item = Self.item(num)
                item[kSecAttrSynchronizable as String] = true
                t.okStatus(SecItemAdd(item as CFDictionary, nil), line: 340, "item \(num): add it synchronizable")
                t.okStatus(
                    SecItemDelete(item as CFDictionary), line: 344,
                    "item \(num): delete the synchronizable item (kSecUseTombstones left out)")
                t.skip(2, line: 347, "item \(num): finding and deleting its tombstone need kSecAttrTombstone (SPI)")
                t.okStatus(SecItemAdd(item as CFDictionary, nil), line: 351, "item \(num): add it synchronizable again")
                t.okStatus(
                    SecItemDelete(item as CFDictionary), line: 354,
                    "item \(num): delete it with no tombstone (kSecUseTombstones false is the default)")
                t.skip(1, line: 358, "item \(num): the query for its tombstone needs kSecAttrTombstone (SPI)")
                t.skip(
                    4, line: 361,
                    "item \(num): the local add and delete with kSecAttrTombstone set, and two tombstone finds, need that SPI")
                item.removeValue(forKey: kSecAttrSynchronizable as String)
                t.okStatus(SecItemAdd(item as CFDictionary, nil), line: 369, "item \(num): add it as a local item")
                t.okStatus(
                    SecItemDelete(item as CFDictionary), line: 372, "item \(num): delete the local item (kSecUseTombstones left out)")
                t.skip(5, line: 376, "item \(num): the five tombstone finds and deletes need kSecAttrTombstone and kSecUseTombstones (SPI)")
            }
            t.finish()
        }
    }

    /// Item `num`: its class by `num % 4`, and each primary-key attribute of the class with a value made from `num`
    /// (strings `string-N`, data `data-N`, numbers N, booleans true for even items); no access group and no dates.
    static func item(_ num: Int) -> [String: Any] {
        let string = "string-\(num)"
        let data = Data("data-\(num)".utf8)
        let number = NSNumber(value: Int32(num))
        let flag = num % 2 == 0
        switch num % 4 {
        case 0:
            return [
                kSecClass as String: kSecClassInternetPassword,
                kSecAttrAccount as String: string,
                kSecAttrSecurityDomain as String: string,
                kSecAttrServer as String: string,
                kSecAttrProtocol as String: number,
                kSecAttrAuthenticationType as String: number,
                kSecAttrPort as String: number,
                kSecAttrPath as String: string,
                kSecAttrSynchronizable as String: flag,
            ]
        case 1:
            return [
                kSecClass as String: kSecClassGenericPassword,
                kSecAttrAccount as String: string,
                kSecAttrService as String: string,
                kSecAttrSynchronizable as String: flag,
            ]
        case 2:
            return [
                kSecClass as String: kSecClassKey,
                kSecAttrKeyClass as String: string,
                kSecAttrApplicationLabel as String: data,
                kSecAttrApplicationTag as String: data,
                kSecAttrKeyType as String: number,
                kSecAttrKeySizeInBits as String: number,
                kSecAttrEffectiveKeySize as String: number,
                kSecAttrSynchronizable as String: flag,
            ]
        default:
            return [
                kSecClass as String: kSecClassCertificate,
                kSecAttrCertificateType as String: number,
                kSecAttrIssuer as String: data,
                kSecAttrSerialNumber as String: data,
                kSecAttrSynchronizable as String: flag,
            ]
        }
    }
}
