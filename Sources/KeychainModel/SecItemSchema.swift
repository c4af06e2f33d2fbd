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

/// How the keychain stores each attribute's value: the schema's column
/// kinds (rule book §9, "Values kept as given"; Apple's `SecItemSchema.c`
/// and the converters of `SecDbItem.c`).
enum ColumnKind {
    /// A blob column (`acct`, `svce`, `labl`, `atag`, …): the value keeps
    /// the caller's type (data, string or number) and compares by its bytes
    /// (a string's UTF-8, a number's 32-bit little-endian integer), never
    /// through text.
    case blob
    /// A data column (`klbl`, `issr`, `slnr`, …): stored as data, a string as its UTF-8 bytes.
    case data
    /// A number column: a number, a boolean as 0/1, a string only when it is
    /// an integer (else the string is kept as given).
    case number
    /// A text column (`agrp`, `tkid`, `vwht`, `pdmn`): data only when it is valid UTF-8.
    case string
    case bool, date, accessControl

    static func of(_ attribute: String) -> ColumnKind {
        switch attribute {
        case "acct", "svce", "labl", "desc", "icmt", "gena", "sdmn", "srvr", "atyp", "path", "atag", "alis", "prot": .blob
        case "klbl", "subj", "issr", "slnr", "skid", "pkhh": .data
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
        case .blob, .data: .data([])
        case .number: .number(0)
        case .bool: .bool(false)
        case .date: .date(0)
        case .accessControl: nil
        }
    }
}

/// What a column compares: equal keys are one value to the keychain (a
/// blob's bytes whatever its type; another column's stored value).
enum ColumnValueKey: Hashable, Sendable {
    case bytes([UInt8])
    case value(SecValue)
}

extension SecValue {
    /// The value as the column stores it (rule book §9, "Values kept as
    /// given"): a blob keeps the caller's type; a data column takes a
    /// string's UTF-8 bytes; a number column converts a string only when it
    /// is an integer. nil: a value the column cannot take.
    func normalized(for attribute: String) -> SecValue? {
        switch (ColumnKind.of(attribute), self) {
        case (.blob, .string), (.blob, .data), (.blob, .number): return self
        case (.data, .data): return self
        case (.data, .string(let text)): return .data(Array(text.utf8))
        case (.string, .string): return self
        case (.string, .data(let bytes)):
            // CFStringCreateFromExternalRepresentation: invalid UTF-8 is no string at all.
            guard let text = String(validating: bytes, as: UTF8.self) else { return nil }
            return .string(text)
        case (.number, .number): return self
        case (.number, .bool(let flag)): return .number(flag ? 1 : 0)
        case (.number, .string(let text)):
            // copyNumber: the string becomes a number only when printing the number gives the string back.
            if let value = Int32(text), String(value) == text { return .number(Int64(value)) }
            return self
        case (.bool, .bool): return self
        case (.bool, .number(let value)): return .bool(value != 0)
        case (.date, .date): return self
        case (.accessControl, .accessControl): return self
        default: return nil
        }
    }

    /// The key the column compares by (blobs: their bytes, as the schema's
    /// SHA-1 columns hash them).
    func columnKey(for attribute: String) -> ColumnValueKey {
        guard ColumnKind.of(attribute) == .blob else { return .value(self) }
        switch self {
        case .string(let text): return .bytes(Array(text.utf8))
        case .data(let bytes): return .bytes(bytes)
        case .number(let value):
            let word = UInt32(bitPattern: Int32(truncatingIfNeeded: value))
            return .bytes([UInt8(word & 0xff), UInt8(word >> 8 & 0xff), UInt8(word >> 16 & 0xff), UInt8(word >> 24)])
        default: return .value(self)
        }
    }
}
