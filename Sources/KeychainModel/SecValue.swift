import KeychainAccessControl

/// A value of a SecItem dictionary as the model reads it. Keys are Apple's
/// strings (`class`, `acct`, `m_Limit`, `r_Data`, `v_Data`, …: the values of
/// the `kSec…` constants); values are typed here so that the model decides
/// everything and the `Security` module only translates Core Foundation.
public enum SecValue: Sendable, Hashable {
    case string(String)
    case data([UInt8])
    /// An integral CFNumber.
    case number(Int64)
    /// A CFNumber that is not integral.
    case real(Double)
    /// A CFBoolean.
    case bool(Bool)
    /// A CFDate, as seconds since 2001-01-01 00:00:00 UTC (CFAbsoluteTime).
    case date(Double)
    /// A `SecAccessControl`.
    case accessControl(SecAccessControlValue)
    /// An `LAContext`, by its id in the model (``KeychainEngine/newContext()``).
    case context(Int)
    /// A `SecKey`, by its id in the model.
    case key(Int)
    case array([SecValue])
    case dictionary([String: SecValue])
    /// A value of a type no SecItem call takes; the payload names the type.
    case unsupported(String)

    /// A boolean as the keychain reads one: a CFBoolean, or a CFNumber (0 is false).
    public var boolValue: Bool? {
        switch self {
        case .bool(let value): value
        case .number(let value): value != 0
        default: nil
        }
    }

    public var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    /// How a reason line names the value.
    public var shortDescription: String {
        switch self {
        case .string(let value): "\"\(value)\""
        case .data(let bytes): "<\(bytes.count) bytes>"
        case .number(let value): "\(value)"
        case .real(let value): "\(value)"
        case .bool(let value): value ? "true" : "false"
        case .date(let value): "date(\(value))"
        case .accessControl(let value): "SecAccessControl(\(value.protection.rawValue), \(value.flags.names))"
        case .context(let id): "LAContext#\(id)"
        case .key(let id): "SecKey#\(id)"
        case .array(let values): "[\(values.count) values]"
        case .dictionary(let values): "{\(values.count) keys}"
        case .unsupported(let type): "a \(type)"
        }
    }
}

/// What `SecAccessControlCreateWithFlags` returns: a protection class and
/// the flags, checked for their combination only (AC1: the device is not
/// looked at until an item or key is created with it).
public struct SecAccessControlValue: Sendable, Hashable {
    public let protection: ProtectionClass
    public let flags: AccessControlFlags

    public init(protection: ProtectionClass, flags: AccessControlFlags) {
        self.protection = protection
        self.flags = flags
    }
}
