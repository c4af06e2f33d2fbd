/// `kSecAttrAccessible` protection classes (docs/models/keychain-acl.md).
public enum ProtectionClass: String, Sendable, Hashable, CaseIterable, Codable {
    case ak, ck, dk, akpu, aku, cku, dku

    /// When the class key is available.
    public enum Availability: Sendable, Hashable {
        case whenUnlocked, afterFirstUnlock, always
    }

    /// The long name (`whenUnlocked`, …).
    public var longName: String {
        switch self {
        case .ak: return "whenUnlocked"
        case .ck: return "afterFirstUnlock"
        case .dk: return "always"
        case .akpu: return "whenPasscodeSetThisDeviceOnly"
        case .aku: return "whenUnlockedThisDeviceOnly"
        case .cku: return "afterFirstUnlockThisDeviceOnly"
        case .dku: return "alwaysThisDeviceOnly"
        }
    }

    public var availability: Availability {
        switch self {
        case .ak, .akpu, .aku: return .whenUnlocked
        case .ck, .cku: return .afterFirstUnlock
        case .dk, .dku: return .always
        }
    }

    /// Never migrates to another device, never in a backup that restores elsewhere.
    public var isThisDeviceOnly: Bool { self == .akpu || self == .aku || self == .cku || self == .dku }

    /// Needs a passcode to exist (akpu): added only with one, gone when it is removed.
    public var requiresPasscode: Bool { self == .akpu }

    /// Accepts the code (`ak`), the long name (`whenUnlocked`) or the constant
    /// (`kSecAttrAccessibleWhenUnlocked`).
    public init?(name: String) {
        let trimmed = name.hasPrefix("kSecAttrAccessible") ? String(name.dropFirst("kSecAttrAccessible".count)) : name
        if let byCode = ProtectionClass(rawValue: trimmed) {
            self = byCode
            return
        }
        guard let match = ProtectionClass.allCases.first(where: { $0.longName.lowercased() == trimmed.lowercased() }) else {
            return nil
        }
        self = match
    }

    /// Whether the class key is available in `device`.
    public func isAvailable(in device: DeviceState) -> Bool {
        switch availability {
        case .always: return true
        case .afterFirstUnlock: return device.unlockedSinceBoot
        case .whenUnlocked: return !device.locked
        }
    }
}
