import KeychainAccessControl

/// The five item classes with Apple's strings and primary keys (rule book §2).
public enum SecItemClass: String, Sendable, Hashable, CaseIterable {
    case genericPassword = "genp"
    case internetPassword = "inet"
    case certificate = "cert"
    case key = "keys"
    case identity = "idnt"

    /// Apple's constant name.
    public var constantName: String {
        switch self {
        case .genericPassword: "kSecClassGenericPassword"
        case .internetPassword: "kSecClassInternetPassword"
        case .certificate: "kSecClassCertificate"
        case .key: "kSecClassKey"
        case .identity: "kSecClassIdentity"
        }
    }

    /// Attributes every class has (the hidden `musr` and `nleg` are read and ignored: U2, Q14).
    static let common: Set<String> = ["pdmn", "accc", "agrp", "sync", "tkid", "vwht", "cdat", "mdat", "labl"]
    static let passwordAttributes: Set<String> = ["acct", "desc", "icmt", "crtr", "type", "invi", "nega", "alis", "scrp"]
    static let certificateAttributes: Set<String> = ["ctyp", "cenc", "alis", "subj", "issr", "slnr", "skid", "pkhh"]
    static let keyAttributes: Set<String> = [
        "kcls", "alis", "perm", "priv", "modi", "klbl", "atag", "crtr", "type", "bsiz", "esiz", "sdat", "edat", "sens",
        "asen", "extr", "next", "encr", "decr", "drve", "sign", "vrfy", "snrc", "vyrc", "wrap", "unwp",
    ]

    /// The attributes of the class (Q2: any other 4-character key is errSecNoSuchAttr).
    public var attributes: Set<String> {
        switch self {
        case .genericPassword: Self.common.union(Self.passwordAttributes).union(["svce", "gena"])
        case .internetPassword: Self.common.union(Self.passwordAttributes).union(["sdmn", "srvr", "ptcl", "atyp", "port", "path"])
        case .certificate: Self.common.union(Self.certificateAttributes)
        case .key: Self.common.union(Self.keyAttributes)
        case .identity: Self.common.union(Self.certificateAttributes).union(Self.keyAttributes)
        }
    }

    /// The primary key's columns (rule book §2, the schema's hidden columns included).
    public var primaryKey: [String] {
        switch self {
        case .genericPassword: ["acct", "svce", "agrp", "sync", "vwht", "tkid"]
        case .internetPassword: ["acct", "sdmn", "srvr", "ptcl", "atyp", "port", "path", "agrp", "sync", "vwht", "tkid"]
        case .certificate, .identity: ["ctyp", "issr", "slnr", "agrp", "sync", "vwht", "tkid"]
        case .key: ["kcls", "type", "klbl", "atag", "bsiz", "esiz", "agrp", "sync", "crtr", "sdat", "edat", "vwht", "tkid"]
        }
    }

    /// The attribute most queries name, indexed for lookups that do not grow with the item count.
    var indexedAttribute: String {
        switch self {
        case .genericPassword, .internetPassword: "acct"
        case .certificate, .identity: "slnr"
        case .key: "atag"
        }
    }

    /// Whether the class holds a password (no reference exists for it on iOS: Q8).
    var isPassword: Bool { self == .genericPassword || self == .internetPassword }
}

/// How the keychain stores each attribute's value: the schema's column kinds.
enum ColumnKind {
    case string, blob, number, bool, date, accessControl

    static func of(_ attribute: String) -> ColumnKind {
        switch attribute {
        case "klbl", "atag", "gena", "subj", "issr", "slnr", "skid", "pkhh", "alis": .blob
        case "ptcl", "port", "kcls", "bsiz", "esiz", "type", "crtr", "ctyp", "cenc", "scrp": .number
        case "sync", "invi", "nega", "perm", "priv", "modi", "sens", "asen", "extr", "next", "encr", "decr", "drve", "sign",
            "vrfy", "snrc", "vyrc", "wrap", "unwp":
            .bool
        case "cdat", "mdat", "sdat", "edat": .date
        case "accc": .accessControl
        default: .string
        }
    }

    /// The hidden default of a primary-key column an add leaves out (rule
    /// book §2: strings and blobs empty, numbers and booleans 0), or nil.
    var hiddenDefault: SecValue? {
        switch self {
        case .string: .string("")
        case .blob: .data([])
        case .number: .number(0)
        case .bool: .bool(false)
        case .date: .date(0)
        case .accessControl: nil
        }
    }
}

extension SecValue {
    /// The value as the column stores it, so that equal values compare equal
    /// whichever type the caller passed (a string tag and its UTF-8 data; the
    /// key type `"73"` and the number 73; a CFBoolean and the number 1). nil:
    /// a value the column cannot take.
    func normalized(for attribute: String) -> SecValue? {
        switch (ColumnKind.of(attribute), self) {
        case (.string, .string): return self
        case (.string, .data(let bytes)): return .string(String(decoding: bytes, as: UTF8.self))
        case (.string, .number(let value)): return .string(String(value))
        case (.blob, .data): return self
        case (.blob, .string(let text)): return .data(Array(text.utf8))
        case (.number, .number): return self
        case (.number, .bool(let flag)): return .number(flag ? 1 : 0)
        case (.number, .string(let text)):
            if let value = Int64(text) { return .number(value) }
            // Four-character codes (kSecAttrProtocolHTTPS is `htps`) are numbers in the schema.
            let bytes = Array(text.utf8)
            guard bytes.count == 4 else { return nil }
            return .number(bytes.reduce(Int64(0)) { $0 << 8 | Int64($1) })
        case (.bool, .bool): return self
        case (.bool, .number(let value)): return .bool(value != 0)
        case (.date, .date): return self
        case (.accessControl, .accessControl): return self
        default: return nil
        }
    }
}
