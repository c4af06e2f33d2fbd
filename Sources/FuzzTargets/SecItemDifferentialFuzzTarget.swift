#if os(Linux)
import Foundation
import KeychainModel
import Security
import SecuritySimulation

/// SecItem calls built from fuzz bytes, made twice: through Apple's API
/// (`import Security`, Core Foundation dictionaries) and straight on the
/// keychain model in its own vocabulary (``SecValue`` dictionaries). No
/// input traps, and every status and result of the API equals the model's.
extension FuzzTargets {
    /// Keys the calls are built from: Apple's, a few the class lacks, and nonsense.
    static let secItemKeys = [
        SecName.kSecClass, SecName.kSecAttrAccount, SecName.kSecAttrService, SecName.kSecAttrAccessible, SecName.kSecAttrSynchronizable,
        SecName.kSecAttrAccessGroup, SecName.kSecAttrLabel, SecName.kSecAttrGeneric, SecName.kSecAttrServer, SecName.kSecAttrProtocol,
        SecName.kSecAttrPort, SecName.kSecAttrApplicationTag, SecName.kSecAttrApplicationLabel, SecName.kSecAttrKeyClass,
        SecName.kSecAttrType,
        SecName.kSecAttrKeySizeInBits, SecName.kSecAttrSerialNumber, SecName.kSecAttrIssuer, SecName.kSecAttrAccessControl,
        SecName.kSecAttrTokenID, SecName.kSecUseDataProtectionKeychain, "musr", SecName.kSecMatchLimit, SecName.kSecMatchCaseInsensitive,
        SecName.kSecMatchHostOrSubdomainOfHost,
        SecName.kSecMatchIssuers, SecName.kSecReturnData, SecName.kSecReturnAttributes, SecName.kSecReturnRef,
        SecName.kSecReturnPersistentRef, SecName.kSecUseAuthenticationUI, SecName.kSecUseOperationPrompt, SecName.kSecUseNoAuthenticationUI,
        SecName.kSecValueData,
        SecName.kSecValuePersistentRef, "f_Ignored", "zzzz", "xyz", "", "persistref",
    ]
    /// String values: classes, protection classes, limits, UI values, and plain text.
    static let secItemStrings = [
        SecName.kSecClassGenericPassword, SecName.kSecClassInternetPassword, SecName.kSecClassCertificate, SecName.kSecClassKey,
        SecName.kSecClassIdentity, "nope", SecName.kSecAttrAccessibleWhenUnlocked, SecName.kSecAttrAccessibleAfterFirstUnlock,
        SecName.kSecAttrAccessibleAlways, SecName.kSecAttrAccessibleWhenUnlockedThisDeviceOnly,
        SecName.kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly, SecName.kSecAttrAccessibleAlwaysThisDeviceOnly,
        SecName.kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly, "f", SecName.kSecMatchLimitOne, SecName.kSecMatchLimitAll,
        SecName.kSecAttrSynchronizableAny, SecName.kSecUseAuthenticationUIAllow, SecName.kSecUseAuthenticationUIFail,
        SecName.kSecUseAuthenticationUISkip, "", "alice", "svc", "TEAMID1234.com.example.app", "com.apple.token", "73",
        SecName.kSecAttrProtocolHTTPS, "é",
    ]

    /// Reads bytes as a stream of small choices; past the end every read is 0.
    struct ByteReader {
        let bytes: [UInt8]
        var offset = 0
        mutating func next() -> Int {
            guard offset < bytes.count else { return 0 }
            defer { offset += 1 }
            return Int(bytes[offset])
        }
        var atEnd: Bool { offset >= bytes.count }
    }

    /// One value in both vocabularies: the model's and the Core Foundation object the API takes.
    static func secItemValue(_ reader: inout ByteReader) -> (SecValue, AnyObject) {
        let choice = reader.next()
        switch choice % 7 {
        case 0, 1:
            let text = secItemStrings[reader.next() % secItemStrings.count]
            return (.string(text), text as NSString)
        case 2:
            let value = Int64(reader.next()) - 64
            return (.number(value), NSNumber(value: value))
        case 3:
            let flag = reader.next() % 2 == 1
            return (.bool(flag), NSNumber(value: flag))
        case 4:
            let count = reader.next() % 5
            let bytes = (0..<count).map { _ in UInt8(truncatingIfNeeded: reader.next()) }
            return (.data(bytes), Data(bytes) as NSData)
        case 5:
            let seconds = Double(reader.next())
            return (.date(seconds), NSDate(timeIntervalSinceReferenceDate: seconds))
        default:
            let (inner, object) = secItemValue(&reader)
            return (.array([inner]), [object] as NSArray)
        }
    }

    /// A dictionary of a few keys, in both vocabularies.
    static func secItemDictionary(_ reader: inout ByteReader) -> ([String: SecValue], NSMutableDictionary) {
        var model: [String: SecValue] = [:]
        let api = NSMutableDictionary()
        if reader.next() % 4 != 0 {
            let name = [
                SecName.kSecClassGenericPassword, SecName.kSecClassInternetPassword, SecName.kSecClassKey, SecName.kSecClassCertificate,
                SecName.kSecClassIdentity,
            ][reader.next() % 5]
            model[SecName.kSecClass] = .string(name)
            api[SecName.kSecClass as NSString] = name as NSString
        }
        for _ in 0..<(reader.next() % 6) {
            let key = secItemKeys[reader.next() % secItemKeys.count]
            let (value, object) = secItemValue(&reader)
            model[key] = value
            api[key as NSString] = object
        }
        return (model, api)
    }

    /// A result of the API, read back into the model's vocabulary (keys as the ids the model gave).
    static func secItemResult(_ object: AnyObject?) -> SecValue? {
        guard let object else { return nil }
        if let data = object as? Data { return .data(Array(data)) }
        if let text = object as? String { return .string(text) }
        if let date = object as? Date { return .date(date.timeIntervalSinceReferenceDate) }
        if let number = object as? NSNumber {
            return CFGetTypeID(number) == CFBooleanGetTypeID() ? .bool(number.boolValue) : .number(number.int64Value)
        }
        if let array = object as? [AnyObject] { return .array(array.compactMap(secItemResult)) }
        if let dictionary = object as? [String: AnyObject] { return .dictionary(dictionary.compactMapValues(secItemResult)) }
        if object is SecKey { return .string("SecKey") }
        if object is SecAccessControl { return .string("SecAccessControl") }
        return .string("\(type(of: object))")
    }

    /// The model's result with keys and access controls named as the API's read-back names them.
    static func secItemComparable(_ value: SecValue?) -> SecValue? {
        guard let value else { return nil }
        switch value {
        case .key: return .string("SecKey")
        case .accessControl: return .string("SecAccessControl")
        case .array(let values): return .array(values.compactMap(secItemComparable))
        case .dictionary(let values): return .dictionary(values.compactMapValues(secItemComparable))
        case .real(let number): return .number(Int64(number))
        default: return value
        }
    }

    /// The oracle: up to 12 calls, each through the API and on the model.
    public static func secItemDifferential(_ bytes: [UInt8]) -> [String] {
        var reader = ByteReader(bytes: bytes)
        Simulation.shared.reset()
        var model = KeychainEngine(app: Simulation.shared.app, device: Simulation.shared.withEngine { $0.device })
        var problems: [String] = []
        for index in 0..<12 where !reader.atEnd {
            let call = reader.next() % 4
            let wantsResult = reader.next() % 3 != 0
            let (query, apiQuery) = secItemDictionary(&reader)
            let expected: SecOutcome
            var status: OSStatus
            var result: CFTypeRef?
            switch call {
            case 0:
                expected = model.add(query, wantsResult: wantsResult)
                status = wantsResult ? SecItemAdd(apiQuery, &result) : SecItemAdd(apiQuery, nil)
            case 1:
                expected = model.copyMatching(query, wantsResult: wantsResult)
                status = wantsResult ? SecItemCopyMatching(apiQuery, &result) : SecItemCopyMatching(apiQuery, nil)
            case 2:
                let (changes, apiChanges) = secItemDictionary(&reader)
                expected = model.update(query, changes)
                status = SecItemUpdate(apiQuery, apiChanges)
            default:
                expected = model.delete(query)
                status = SecItemDelete(apiQuery)
            }
            if status != expected.status.rawValue {
                problems.append(
                    "call \(index): the API answered \(status), the model \(expected.status.rawValue) (\(expected.explanation))")
            }
            if wantsResult, call < 2, secItemResult(result) != secItemComparable(expected.result) {
                problems.append(
                    "call \(index): the API's result \(String(describing: secItemResult(result))) is not the model's \(String(describing: expected.result))"
                )
            }
        }
        return problems
    }
}
#endif
