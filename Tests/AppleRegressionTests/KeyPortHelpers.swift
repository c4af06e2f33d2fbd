import Foundation
import Security
import Testing

// Helpers the key ports (si-40 RSA, si-41 EC) share: Apple's two files walk
// the same scenarios, and their checks read results the same way.

/// Records `lines` as failed: Apple's test could not make them because an earlier step gave nothing.
func notRun(_ t: AppleFile, _ lines: some Sequence<Int>, _ why: String) {
    for line in lines { t.ok(false, line: line, "not run: \(why)") }
}

/// The value `attributes` holds for `key`, as stored.
func attribute(_ attributes: CFDictionary, _ key: CFString) -> Any? {
    (attributes as NSDictionary).object(forKey: key)
}

/// Apple's `eq_cf(value, string constant)`: a string with the constant's value.
func isString(_ value: Any?, _ expected: CFString) -> Bool {
    guard let string = value as? String else { return false }
    return string == expected as String
}

/// Apple's `eq_cf(value, CFNumber)`: a number (not a boolean) of that value.
func isNumber(_ value: Any?, _ expected: Int) -> Bool {
    guard let number = value as? NSNumber else { return false }
    return CFGetTypeID(number) == CFNumberGetTypeID() && number.intValue == expected
}

/// Apple's `eq_cf(value, kCFBooleanTrue/False)`: a CFBoolean with that value.
func isBoolean(_ value: Any?, _ expected: Bool) -> Bool {
    guard let number = value as? NSNumber else { return false }
    return CFGetTypeID(number) == CFBooleanGetTypeID() && number.boolValue == expected
}

/// `data` with its first byte inverted.
func firstByteFlipped(_ data: Data) -> Data {
    var copy = data
    if let first = copy.indices.first { copy[first] ^= 0xff }
    return copy
}
