import Foundation
internal import KeychainAccessControl
internal import KeychainModel
package import SecuritySimulation

// Core Foundation values ⇄ the model's `SecValue`. This is the whole of
// the skin's work: the conversion decides nothing about the keychain; a
// value of a type no call takes becomes `.unsupported` for the model to
// judge. The one failure here is a dictionary key that is not a string:
// the caller answers errSecParam without asking the model.

/// An object that stands for an `LAContext` in a SecItem dictionary
/// (`kSecUseAuthenticationContext`). `LocalAuthentication.LAContext` adopts it.
package protocol SecContextHandle: AnyObject {
    /// The model's id of the context in `simulation`: 0 (no context) when the
    /// context belongs to another simulation or to one reset since.
    func contextID(in simulation: Simulation) -> Int
}

/// How many levels of dictionaries and arrays a value may have, the top
/// dictionary included: deeper nesting recurses towards a stack overflow.
/// (A collection that contains itself never gets here: Foundation on Linux
/// overflows the stack bridging it, before any call of this module.)
let maxNestingDepth = 32

/// `dictionary` as the model reads it: keys are the constants' strings
/// (`class`, `acct`, `m_Limit`, …); nil when a key, at any depth, is not a string.
func _secValues(_ dictionary: CFDictionary, for simulation: Simulation = .current) -> [String: SecValue]? {
    secDictionary(dictionary, depth: 0, simulation)
}

/// One value as the model reads it; nil when it holds a dictionary with a key that is not a string.
func secValue(_ value: Any, for simulation: Simulation = .current) -> SecValue? {
    secValue(value, depth: 0, simulation)
}

/// Reads keys and values through `allKeys` and `allValues`, which hand the
/// stored objects over as they are: iterating an `NSDictionary` on Linux
/// bridges every nested dictionary to a Swift one first, all levels at once.
private func secDictionary(_ dictionary: NSDictionary, depth: Int, _ simulation: Simulation) -> [String: SecValue]? {
    let keys = dictionary.allKeys
    let objects = dictionary.allValues
    guard keys.count == objects.count else { return nil }
    var values: [String: SecValue] = [:]
    for (key, value) in zip(keys, objects) {
        guard let name = key as? String, let converted = secValue(value, depth: depth + 1, simulation) else { return nil }
        values[name] = converted
    }
    return values
}

private func secValue(_ value: Any, depth: Int, _ simulation: Simulation) -> SecValue? {
    switch value {
    case let key as SecKey:
        // A key of another simulation, or of one reset since, is no key here (issue 52, item 2).
        return .key(key.id(in: simulation))
    case let accessControl as SecAccessControl:
        return .accessControl(accessControl.value)
    case let context as any SecContextHandle:
        return .context(context.contextID(in: simulation))
    case is NSNull:
        return .unsupported("NSNull")
    case let string as String:
        return .string(string)
    case let data as Data:
        return .data([UInt8](data))
    case let date as Date:
        return .date(date.timeIntervalSinceReferenceDate)
    case let number as NSNumber:
        return secNumber(number)
    case let dictionary as NSDictionary:
        guard depth < maxNestingDepth else { return .unsupported("dictionary nested deeper than \(maxNestingDepth)") }
        return secDictionary(dictionary, depth: depth, simulation).map { .dictionary($0) }
    case let array as NSArray:
        guard depth < maxNestingDepth, !nests(array, deeperThan: maxNestingDepth - depth) else {
            return .unsupported("array nested deeper than \(maxNestingDepth)")
        }
        var values: [SecValue] = []
        for element in array {
            guard let converted = secValue(element, depth: depth + 1, simulation) else { return nil }
            values.append(converted)
        }
        return .array(values)
    default:
        return .unsupported(String(describing: type(of: value)))
    }
}

/// Whether `array` holds arrays more than `limit` levels deep, found
/// without bridging: reading an element of an `NSArray` on Linux bridges a
/// nested array to a Swift one, all its levels at once, and 20,000 levels
/// overflow the stack (issue 52, item 6). `Mirror` hands the stored objects
/// over as they are; the walk keeps its own stack and stops at `limit`.
func nests(_ array: NSArray, deeperThan limit: Int) -> Bool {
    var pending: [(AnyObject, Int)] = [(array, 1)]
    while let (object, level) = pending.popLast() {
        guard let nested = object as? NSArray else { continue }
        if level > limit { return true }
        for child in Mirror(reflecting: nested).children { pending.append((child.value as AnyObject, level + 1)) }
    }
    return false
}

/// A number as a boolean, an integer or a real: a boolean only when made
/// from a `Bool` (``isBoolean(_:)``), so `1` stays a number.
private func secNumber(_ number: NSNumber) -> SecValue {
    if isBoolean(number) { return .bool(number.boolValue) }
    switch String(cString: number.objCType) {
    case "f", "d":
        return .real(number.doubleValue)
    case "Q", "L", "I":
        // Unsigned: an integer when it fits Int64, else the nearest real.
        return Int64(exactly: number.uint64Value).map { .number($0) } ?? .real(number.doubleValue)
    default:
        return .number(number.int64Value)
    }
}

/// A model value as the Core Foundation object Apple's API returns. A
/// `.key` becomes a new `SecKey` holding that id. `.context` and
/// `.unsupported` have no object a result can carry: `NSNull`.
func cfObject(_ value: SecValue, in simulation: Simulation = .current) -> AnyObject {
    switch value {
    case .string(let string): NSString(string: string)
    case .data(let bytes): NSData(data: Data(bytes))
    case .number(let number): NSNumber(value: number)
    case .real(let real): NSNumber(value: real)
    case .bool(let bool): NSNumber(value: bool)
    case .date(let time): NSDate(timeIntervalSinceReferenceDate: time)
    case .accessControl(let accessControl): SecAccessControl(accessControl)
    case .key(let id): SecKey(id: id, in: simulation)
    case .array(let values): NSArray(array: values.map { cfObject($0, in: simulation) })
    case .dictionary(let values): cfDictionary(values, in: simulation)
    case .context, .unsupported: NSNull()
    }
}

/// A model dictionary as an `NSDictionary` keyed by `NSString`.
func cfDictionary(_ values: [String: SecValue], in simulation: Simulation = .current) -> NSDictionary {
    let dictionary = NSMutableDictionary(capacity: values.count)
    for (key, value) in values {
        dictionary.setObject(cfObject(value, in: simulation), forKey: NSString(string: key))
    }
    return dictionary
}

/// The bytes of a `CFData`.
func byteArray(_ data: CFData) -> [UInt8] {
    [UInt8](Data(referencing: data))
}

/// Fills a `CFError` out-parameter, when the caller passed one, with the
/// model's failure: its domain, code and "rule: reason" as the description.
func setError(_ error: UnsafeMutablePointer<Unmanaged<CFError>?>?, _ failure: SecFailure) {
    guard let error else { return }
    error.pointee = Unmanaged.passRetained(
        NSError(domain: failure.domain, code: failure.code, userInfo: [NSLocalizedDescriptionKey: failure.explanation]))
}

/// The failure of a call whose dictionary did not convert (a key that is not a string).
func conversionFailure(_ call: String) -> SecFailure {
    SecFailure(.param, Ruling(tag: .api, "\(call): a dictionary key is not a string"))
}
