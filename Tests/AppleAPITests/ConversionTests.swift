import Foundation
import KeychainAccessControl
import KeychainModel
@testable import LocalAuthentication
@testable import Security
import Testing

/// A key id no model key has (a `SecKey` releases its id on deinit).
let unusedKeyID = Int.max - 16

/// The conversion layer alone: Core Foundation in, `SecValue` out, and back.
/// No call here reaches the model, except that a `SecKey` made here releases
/// its id when it goes away: the ids are far from any the model hands out.
@Suite struct ConversionTests {
    @Test func stringKeyedLiteral() throws {
        let query: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword,
            kSecAttrAccount as String: "alice",
            kSecValueData as String: Data([1, 2, 3]),
            kSecReturnData as String: true,
            kSecMatchLimit as String: kSecMatchLimitOne,
            kSecAttrPort as String: 443,
        ]
        let values = try #require(_secValues(query as CFDictionary))
        #expect(
            values == [
                "class": .string("genp"), "acct": .string("alice"), "v_Data": .data([1, 2, 3]),
                "r_Data": .bool(true), "m_Limit": .string("m_LimitOne"), "port": .number(443),
            ])
    }

    /// A Swift `Int` and a Swift `Bool` both bridge to `NSNumber` on Linux; they must stay apart.
    @Test func integersAreNotBooleans() throws {
        let query: [String: Any] = ["one": 1, "zero": 0, "yes": true, "no": false, "real": 2.5, "int8": Int8(1)]
        let values = try #require(_secValues(query as CFDictionary))
        #expect(values["one"] == .number(1))
        #expect(values["zero"] == .number(0))
        #expect(values["yes"] == .bool(true))
        #expect(values["no"] == .bool(false))
        #expect(values["real"] == .real(2.5))
        #expect(values["int8"] == .number(1))
    }

    @Test func foundationNumbersAndBooleans() throws {
        let query = NSMutableDictionary()
        query[kSecReturnData] = kCFBooleanTrue
        query[kSecReturnAttributes] = kCFBooleanFalse
        query[NSString(string: "n1")] = NSNumber(value: 1)
        query[NSString(string: "b1")] = NSNumber(value: true)
        query[NSString(string: "u8")] = NSNumber(value: UInt8(1))
        query[NSString(string: "big")] = NSNumber(value: UInt64.max)
        query[NSString(string: "anyObject")] = true as AnyObject
        let values = try #require(_secValues(query))
        #expect(values["r_Data"] == .bool(true))
        #expect(values["r_Attributes"] == .bool(false))
        #expect(values["n1"] == .number(1))
        #expect(values["b1"] == .bool(true))
        #expect(values["u8"] == .number(1))
        #expect(values["big"] == .real(Double(UInt64.max)))
        #expect(values["anyObject"] == .bool(true))
    }

    @Test func cfStringKeyedAndAnyObjectDictionaries() throws {
        let cfKeyed: [CFString: Any] = [kSecClass: kSecClassKey, kSecAttrApplicationTag: Data([7]), kSecReturnRef: kCFBooleanTrue!]
        #expect(_secValues(cfKeyed as CFDictionary) == ["class": .string("keys"), "atag": .data([7]), "r_Ref": .bool(true)])
        let anyObjects: [String: AnyObject] = [
            kSecAttrService as String: "svc" as AnyObject, kSecAttrSynchronizable as String: kSecAttrSynchronizableAny,
        ]
        #expect(_secValues(anyObjects as CFDictionary) == ["svce": .string("svc"), "sync": .string("syna")])
        let foundation = NSDictionary(dictionary: [kSecClass as String: kSecClassIdentity])
        #expect(_secValues(foundation) == ["class": .string("idnt")])
    }

    @Test func datesNestingAndUnsupportedValues() throws {
        let date = Date(timeIntervalSinceReferenceDate: 1234.5)
        let query: [String: Any] = [
            "cdat": date,
            "nsdate": NSDate(timeIntervalSinceReferenceDate: 7),
            kSecPrivateKeyAttrs as String: [kSecAttrIsPermanent as String: true, kSecAttrApplicationTag as String: Data([1])],
            "list": [Data([1]), "two", 3] as [Any],
            "url": URL(fileURLWithPath: "/tmp"),
            "null": NSNull(),
        ]
        let values = try #require(_secValues(query as CFDictionary))
        #expect(values["cdat"] == .date(1234.5))
        #expect(values["nsdate"] == .date(7))
        #expect(values["private"] == .dictionary(["perm": .bool(true), "atag": .data([1])]))
        #expect(values["list"] == .array([.data([1]), .string("two"), .number(3)]))
        #expect(values["null"] == .unsupported("NSNull"))
        guard case .unsupported = values["url"] else { Issue.record("a URL is no SecItem value"); return }
    }

    @Test func nonStringKeysFailTheConversion() {
        let numberKeyed = NSMutableDictionary()
        numberKeyed[NSNumber(value: 1)] = "x"
        #expect(_secValues(numberKeyed) == nil)
        let nested: [String: Any] = [kSecPrivateKeyAttrs as String: numberKeyed]
        #expect(_secValues(nested as CFDictionary) == nil)
        #expect(SecItemAdd(numberKeyed, nil) == errSecParam)
        #expect(SecItemDelete(numberKeyed) == errSecParam)
    }

    @Test func deepNestingStopsAtTheLimit() throws {
        var innermost: NSDictionary = NSDictionary(dictionary: ["acct": "deep"])
        for _ in 0..<(maxNestingDepth + 8) {
            innermost = NSDictionary(object: innermost, forKey: NSString(string: "next"))
        }
        let values = try #require(_secValues(innermost))
        var depth = 1  // the top level
        var current = values["next"]
        while case .dictionary(let inner)? = current {
            depth += 1
            current = inner["next"]
        }
        #expect(depth == maxNestingDepth)
        guard case .unsupported = current else { Issue.record("the level past the limit is unsupported"); return }
    }

    @Test func accessControlKeyAndContextObjects() throws {
        let access = SecAccessControl(SecAccessControlValue(protection: .ak, flags: [.biometryAny]))
        let key = SecKey(id: unusedKeyID)
        let context = LAContext()
        let query: [String: Any] = [
            kSecAttrAccessControl as String: access, kSecValueRef as String: key,
            kSecUseAuthenticationContext as String: context,
        ]
        let values = try #require(_secValues(query as CFDictionary))
        #expect(values["accc"] == .accessControl(access.value))
        #expect(values["v_Ref"] == .key(unusedKeyID))
        #expect(values["u_AuthCtx"] == .context(context.contextID))
    }

    @Test func resultsReadBackAsAppsReadThem() throws {
        let item: SecValue = .dictionary([
            "v_Data": .data([9, 8]), "acct": .string("bob"), "sync": .bool(false), "port": .number(8080),
            "mdat": .date(100), "v_Ref": .key(unusedKeyID - 1),
        ])
        let object: AnyObject? = cfObject(item)
        let dictionary = try #require(object as? [String: Any])
        #expect(dictionary[kSecValueData as String] as? Data == Data([9, 8]))
        #expect(dictionary[kSecAttrAccount as String] as? String == "bob")
        #expect(dictionary[kSecAttrSynchronizable as String] as? Bool == false)
        #expect(dictionary[kSecAttrPort as String] as? Int == 8080)
        #expect(dictionary[kSecAttrModificationDate as String] as? Date == Date(timeIntervalSinceReferenceDate: 100))
        #expect(dictionary[kSecValueRef as String] is SecKey)
        #expect(object as? NSDictionary != nil)

        let list: AnyObject? = cfObject(.array([item, item]))
        #expect((list as? [[String: Any]])?.count == 2)
        let datas: AnyObject? = cfObject(.array([.data([1]), .data([])]))
        #expect(list as? [Data] == nil)
        #expect(datas as? [Data] == [Data([1]), Data()])
        let data: AnyObject? = cfObject(.data([4, 2]))
        #expect(data as? Data == Data([4, 2]))
        #expect((data as! CFData).length == 2)
        #expect(CFGetTypeID(data) == CFDataGetTypeID())
        #expect(CFGetTypeID(cfObject(.key(unusedKeyID - 2))) == SecKeyGetTypeID())
        #expect(CFGetTypeID(cfObject(.bool(true))) == CFBooleanGetTypeID())
        #expect(CFGetTypeID(cfObject(.number(1))) == CFNumberGetTypeID())
    }

    @Test func roundTripThroughBothDirections() {
        let values: [String: SecValue] = [
            "s": .string("x"), "d": .data([0, 255]), "n": .number(-7), "r": .real(0.25), "b": .bool(true),
            "t": .date(-3), "a": .array([.number(1), .bool(false)]), "m": .dictionary(["k": .string("v")]),
        ]
        #expect(_secValues(cfDictionary(values)) == values)
    }
}
