import Foundation
package import KeychainModel
internal import SecuritySimulation

/// `SecAccessControlCreateFlags` with Apple's bit values (rule book §1g).
/// `.watch` is absent: it does not exist on iOS; `.companion` (iOS 18) has its bit.
public struct SecAccessControlCreateFlags: OptionSet, Sendable {
    /// The flag bits.
    public let rawValue: CFOptionFlags

    /// Flags from their bits.
    public init(rawValue: CFOptionFlags) { self.rawValue = rawValue }

    /// Biometry (any enrolled set) or the device passcode.
    public static let userPresence = SecAccessControlCreateFlags(rawValue: 1 << 0)
    /// Biometry, any enrolled set; survives enrolment changes.
    public static let biometryAny = SecAccessControlCreateFlags(rawValue: 1 << 1)
    /// The older name of ``biometryAny``.
    public static let touchIDAny = SecAccessControlCreateFlags(rawValue: 1 << 1)
    /// Biometry, the set enrolled now; an enrolment change invalidates the item.
    public static let biometryCurrentSet = SecAccessControlCreateFlags(rawValue: 1 << 3)
    /// The older name of ``biometryCurrentSet``.
    public static let touchIDCurrentSet = SecAccessControlCreateFlags(rawValue: 1 << 3)
    /// The device passcode.
    public static let devicePasscode = SecAccessControlCreateFlags(rawValue: 1 << 4)
    /// A paired companion device (iOS 18).
    public static let companion = SecAccessControlCreateFlags(rawValue: 1 << 5)
    /// Any one of the constraints suffices.
    public static let or = SecAccessControlCreateFlags(rawValue: 1 << 14)
    /// Every constraint is required.
    public static let and = SecAccessControlCreateFlags(rawValue: 1 << 15)
    /// The constraints guard the private key's use (sign, key exchange), not its reading.
    public static let privateKeyUsage = SecAccessControlCreateFlags(rawValue: 1 << 30)
    /// An application-supplied password is also required.
    public static let applicationPassword = SecAccessControlCreateFlags(rawValue: 1 << 31)
}

/// `SecAccessControl`: a protection class with access-control flags, as
/// `SecAccessControlCreateWithFlags` makes it. Equal when the same object.
public final class SecAccessControl: Hashable {
    /// What the model made; immutable.
    package let value: SecAccessControlValue

    init(_ value: SecAccessControlValue) { self.value = value }

    /// Identity.
    public static func == (lhs: SecAccessControl, rhs: SecAccessControl) -> Bool { lhs === rhs }
    /// Hashes the identity.
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}

/// `SecAccessControlGetTypeID()`.
@discardableResult
public func SecAccessControlGetTypeID() -> CFTypeID { TypeIdentifier.accessControl }

/// `SecAccessControlCreateWithFlags(_:_:_:_:)`: an access control for
/// `protection` (a `kSecAttrAccessible…` value) and `flags`; nil and an
/// error in `NSOSStatusErrorDomain` when the model refuses the combination.
/// `allocator` is ignored.
@discardableResult
public func SecAccessControlCreateWithFlags(
    _ allocator: CFAllocator?, _ protection: CFTypeRef,
    _ flags: SecAccessControlCreateFlags,
    _ error: UnsafeMutablePointer<Unmanaged<CFError>?>?
) -> SecAccessControl? {
    guard let protection = secValue(protection) else {
        setError(error, conversionFailure("SecAccessControlCreateWithFlags"))
        return nil
    }
    let bits = UInt64(flags.rawValue)
    switch Simulation.current.withEngine({ $0.createAccessControl(protection: protection, flags: bits) }) {
    case .success(let value):
        return SecAccessControl(value)
    case .failure(let failure):
        setError(error, failure)
        return nil
    }
}
