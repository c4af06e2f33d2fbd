/// `SecAccessControlCreateFlags` with Apple's bit values.
public struct AccessControlFlags: OptionSet, Sendable, Hashable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    public static let userPresence = AccessControlFlags(rawValue: 1 << 0)
    public static let biometryAny = AccessControlFlags(rawValue: 1 << 1)
    public static let biometryCurrentSet = AccessControlFlags(rawValue: 1 << 3)
    public static let devicePasscode = AccessControlFlags(rawValue: 1 << 4)
    /// A paired companion device (iOS 18). The same bit is `.watch` on macOS,
    /// which does not exist on iOS (rule book §1g): this model has no `watch`.
    public static let companion = AccessControlFlags(rawValue: 1 << 5)
    public static let or = AccessControlFlags(rawValue: 1 << 14)
    public static let and = AccessControlFlags(rawValue: 1 << 15)
    public static let privateKeyUsage = AccessControlFlags(rawValue: 1 << 30)
    public static let applicationPassword = AccessControlFlags(rawValue: 1 << 31)

    /// Deprecated aliases.
    public static let touchIDAny = biometryAny
    public static let touchIDCurrentSet = biometryCurrentSet

    /// The user-authentication constraints (combined by `or` / `and`).
    public static let constraints: AccessControlFlags = [.userPresence, .biometryAny, .biometryCurrentSet, .devicePasscode, .companion]

    /// The only flags userPresence may be combined with (`or` and `and` not included).
    public static let userPresenceCompanions: AccessControlFlags = [.userPresence, .applicationPassword, .privateKeyUsage]

    /// Each flag's name, in bit order: the one table of flag names.
    public static let canonicalNames: [(String, AccessControlFlags)] = [
        ("userPresence", .userPresence), ("biometryAny", .biometryAny), ("biometryCurrentSet", .biometryCurrentSet),
        ("devicePasscode", .devicePasscode), ("companion", .companion), ("or", .or), ("and", .and),
        ("privateKeyUsage", .privateKeyUsage), ("applicationPassword", .applicationPassword),
    ]

    /// Names accepted in vectors and on the command line: the canonical ones
    /// and the older aliases (`touchIDAny`, `touchIDCurrentSet`). `watch` is
    /// refused: it is macOS's name, not on iOS.
    public static let names: [(String, AccessControlFlags)] =
        canonicalNames + [
            ("touchIDAny", .biometryAny), ("touchIDCurrentSet", .biometryCurrentSet),
        ]

    /// Parses flag names (`biometryAny`, `or`, …); unknown names are an error listing the valid ones.
    public static func parse(_ list: [String]) throws(KeychainError) -> AccessControlFlags {
        try parseNames(list, table: names, kind: "flag")
    }

    /// The canonical names of the flags set, in bit order.
    public var names: [String] { Self.canonicalNames.filter { contains($0.1) }.map(\.0) }
}

/// Parses names into an option set by a (name, value) table; an unknown name
/// is an error that lists the valid ones.
func parseNames<Options: OptionSet>(_ list: [String], table: [(String, Options)], kind: String) throws(KeychainError) -> Options
where Options.Element == Options {
    var result: Options = []
    for name in list {
        guard let value = table.first(where: { $0.0 == name })?.1 else {
            throw KeychainError(
                .invalidAccessControl, rule: .ac1, "unknown \(kind) \"\(name)\"; valid: \(table.map(\.0).joined(separator: ", "))")
        }
        result.insert(value)
    }
    return result
}
