import Foundation

// Core Foundation as keychain code uses it (docs/apple-api.md, "What
// compiles unchanged"). On Linux Foundation has no Core Foundation names in
// its public interface, so each CF type here is a type alias of the Foundation
// class Apple toll-free bridges it to: `query as CFDictionary`,
// `kSecClass as String`, `result as? Data` and `Unmanaged<CFError>` then
// work as they do with Apple's SDK, with no copies.

/// `CFString`: `NSString` (toll-free bridged on Apple platforms).
public typealias CFString = NSString
/// `CFDictionary`: `NSDictionary`.
public typealias CFDictionary = NSDictionary
/// `CFMutableDictionary`: `NSMutableDictionary`.
public typealias CFMutableDictionary = NSMutableDictionary
/// `CFArray`: `NSArray`.
public typealias CFArray = NSArray
/// `CFData`: `NSData`.
public typealias CFData = NSData
/// `CFNumber`: `NSNumber`.
public typealias CFNumber = NSNumber
/// `CFBoolean`: an `NSNumber` made from a `Bool` (``kCFBooleanTrue``, ``kCFBooleanFalse``).
public typealias CFBoolean = NSNumber
/// `CFDate`: `NSDate`.
public typealias CFDate = NSDate
/// `CFError`: `NSError`, so `takeRetainedValue()` bridges to `Error` and `NSError` directly.
public typealias CFError = NSError
/// `CFErrorDomain`.
public typealias CFErrorDomain = CFString
/// `CFTypeRef`: any object.
public typealias CFTypeRef = AnyObject
/// `CFOptionFlags`.
public typealias CFOptionFlags = UInt
/// `CFIndex`.
public typealias CFIndex = Int
/// `CFTypeID`: what ``CFGetTypeID(_:)`` answers.
public typealias CFTypeID = UInt
/// `OSStatus`: the status every SecItem call returns (``errSecSuccess``, …).
public typealias OSStatus = Int32

// Toll-free bridging of keys (issue 57, item 3). On Apple platforms an
// NSString (so every `kSec…` constant) hashes as the Swift String it holds,
// so `attributes[kSecAttrAccount]` finds the entry an `"acct"` key made in
// a `[AnyHashable: Any]`, whichever spelling built it. Foundation on Linux
// lacks that: an NSString's AnyHashable equals no String's. This gives it,
// for every NSString of a process that links Security, as a device does.
extension NSString: @retroactive _HasCustomAnyHashableRepresentation {
    /// The `String` this NSString holds, as an `AnyHashable`.
    public func _toCustomAnyHashable() -> AnyHashable? { AnyHashable(self as String) }
}

/// `CFAllocator`: accepted and ignored (every allocation uses Swift's allocator).
public final class CFAllocator: Sendable {
    init() {}
}

/// `kCFAllocatorDefault`: the default allocator, which is `NULL` in C as here.
public let kCFAllocatorDefault: CFAllocator! = nil

/// `kCFBundleIdentifierKey`: the Info.plist key of the bundle identifier
/// (keychain wrappers read `Bundle.main.infoDictionary?[kCFBundleIdentifierKey as String]`
/// to name their default service).
nonisolated(unsafe) public let kCFBundleIdentifierKey: CFString = "CFBundleIdentifier"
/// `kCFBooleanTrue`: the shared `true` boolean.
public let kCFBooleanTrue: CFBoolean! = NSNumber(value: true)
/// `kCFBooleanFalse`: the shared `false` boolean.
public let kCFBooleanFalse: CFBoolean! = NSNumber(value: false)

/// `kCFErrorDomainOSStatus`: the domain of Security's `CFError`s (`NSOSStatusErrorDomain`).
nonisolated(unsafe) public let kCFErrorDomainOSStatus: CFErrorDomain! = NSString(string: NSOSStatusErrorDomain)

// MARK: Type identifiers

/// The type identifiers. Apple's values differ between releases; these are
/// distinct numbers, and only comparisons between them mean anything.
enum TypeIdentifier {
    static let notAType: CFTypeID = 0
    static let string: CFTypeID = 7
    static let dictionary: CFTypeID = 18
    static let array: CFTypeID = 19
    static let data: CFTypeID = 20
    static let boolean: CFTypeID = 21
    static let number: CFTypeID = 22
    static let error: CFTypeID = 30
    static let date: CFTypeID = 42
    static let accessControl: CFTypeID = 301
    static let key: CFTypeID = 302
}

/// `CFGetTypeID(_:)`: the type identifier of `cf`, to compare with a
/// `…GetTypeID()` function; 0 for nil or an object of no listed type.
@discardableResult
public func CFGetTypeID(_ cf: CFTypeRef!) -> CFTypeID {
    switch cf {
    case .none: TypeIdentifier.notAType
    case .some(is SecKey): TypeIdentifier.key
    case .some(is SecAccessControl): TypeIdentifier.accessControl
    case .some(let number as NSNumber): isBoolean(number) ? TypeIdentifier.boolean : TypeIdentifier.number
    case .some(is NSString): TypeIdentifier.string
    case .some(is NSData): TypeIdentifier.data
    case .some(is NSDictionary): TypeIdentifier.dictionary
    case .some(is NSArray): TypeIdentifier.array
    case .some(is NSDate): TypeIdentifier.date
    case .some(is NSError): TypeIdentifier.error
    case .some: TypeIdentifier.notAType
    }
}

/// `CFStringGetTypeID()`.
@discardableResult
public func CFStringGetTypeID() -> CFTypeID { TypeIdentifier.string }
/// `CFDataGetTypeID()`.
@discardableResult
public func CFDataGetTypeID() -> CFTypeID { TypeIdentifier.data }
/// `CFDictionaryGetTypeID()`.
@discardableResult
public func CFDictionaryGetTypeID() -> CFTypeID { TypeIdentifier.dictionary }
/// `CFArrayGetTypeID()`.
@discardableResult
public func CFArrayGetTypeID() -> CFTypeID { TypeIdentifier.array }
/// `CFBooleanGetTypeID()`.
@discardableResult
public func CFBooleanGetTypeID() -> CFTypeID { TypeIdentifier.boolean }
/// `CFNumberGetTypeID()`.
@discardableResult
public func CFNumberGetTypeID() -> CFTypeID { TypeIdentifier.number }
/// `CFDateGetTypeID()`.
@discardableResult
public func CFDateGetTypeID() -> CFTypeID { TypeIdentifier.date }
/// `CFErrorGetTypeID()`.
@discardableResult
public func CFErrorGetTypeID() -> CFTypeID { TypeIdentifier.error }

/// Whether a number is a boolean (`kCFBooleanTrue`/`kCFBooleanFalse`, or a
/// Swift `Bool` bridged to `NSNumber`), as against an integer 0 or 1.
/// Foundation on Linux makes every boolean one of two shared objects whose
/// `objCType` is `c`; an `Int8` reports `i` there, so neither test confuses
/// an integer with a boolean.
func isBoolean(_ number: NSNumber) -> Bool {
    number === kCFBooleanTrue || number === kCFBooleanFalse || String(cString: number.objCType) == "c"
}

// MARK: CFError

/// `CFErrorGetCode(_:)`: the error's code (0 for nil).
@discardableResult
public func CFErrorGetCode(_ err: CFError!) -> CFIndex {
    err?.code ?? 0
}

/// `CFErrorGetDomain(_:)`: the error's domain.
@discardableResult
public func CFErrorGetDomain(_ err: CFError!) -> CFErrorDomain! {
    err.map { NSString(string: $0.domain) }
}

/// `CFErrorCopyUserInfo(_:)`: the error's user-info dictionary.
@discardableResult
public func CFErrorCopyUserInfo(_ err: CFError!) -> CFDictionary! {
    err.map { $0.userInfo as NSDictionary }
}

/// `CFErrorCopyDescription(_:)`: the error's localized description.
@discardableResult
public func CFErrorCopyDescription(_ err: CFError!) -> CFString! {
    err.map { NSString(string: $0.localizedDescription) }
}

/// `CFErrorCreate(_:_:_:_:)`: a new error; nil when `domain` is nil.
/// User-info entries whose keys are not strings are dropped.
@discardableResult
public func CFErrorCreate(
    _ allocator: CFAllocator!, _ domain: CFErrorDomain!, _ code: CFIndex,
    _ userInfo: CFDictionary!
) -> CFError! {
    guard let domain else { return nil }
    var info: [String: Any] = [:]
    for (key, value) in userInfo ?? NSDictionary() {
        if let key = key as? String { info[key] = value }
    }
    return NSError(domain: domain as String, code: code, userInfo: info)
}
