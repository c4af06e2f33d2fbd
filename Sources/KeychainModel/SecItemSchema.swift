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
    static let common: Set<String> = [
        SecName.kSecAttrAccessible, SecName.kSecAttrAccessControl, SecName.kSecAttrAccessGroup, SecName.kSecAttrSynchronizable,
        SecName.kSecAttrTokenID, SecName.kSecAttrSyncViewHint, SecName.kSecAttrCreationDate, SecName.kSecAttrModificationDate,
        SecName.kSecAttrLabel,
    ]
    static let passwordAttributes: Set<String> = [
        SecName.kSecAttrAccount, SecName.kSecAttrDescription, SecName.kSecAttrComment, SecName.kSecAttrCreator, SecName.kSecAttrType,
        SecName.kSecAttrIsInvisible, SecName.kSecAttrIsNegative, "alis", "scrp",
    ]
    static let certificateAttributes: Set<String> = [
        SecName.kSecAttrCertificateType, SecName.kSecAttrCertificateEncoding, "alis", SecName.kSecAttrSubject, SecName.kSecAttrIssuer,
        SecName.kSecAttrSerialNumber, SecName.kSecAttrSubjectKeyID, SecName.kSecAttrPublicKeyHash,
    ]
    static let keyAttributes: Set<String> = [
        SecName.kSecAttrKeyClass, "alis", SecName.kSecAttrIsPermanent, "priv", "modi", SecName.kSecAttrApplicationLabel,
        SecName.kSecAttrApplicationTag, SecName.kSecAttrCreator, SecName.kSecAttrType, SecName.kSecAttrKeySizeInBits,
        SecName.kSecAttrEffectiveKeySize, "sdat", "edat", SecName.kSecAttrIsSensitive,
        "asen", SecName.kSecAttrIsExtractable, "next", SecName.kSecAttrCanEncrypt, SecName.kSecAttrCanDecrypt, SecName.kSecAttrCanDerive,
        SecName.kSecAttrCanSign, SecName.kSecAttrCanVerify, "snrc", "vyrc", SecName.kSecAttrCanWrap, SecName.kSecAttrCanUnwrap,
    ]

    /// The attributes of the class (Q2: any other 4-character key is errSecNoSuchAttr).
    public var attributes: Set<String> {
        switch self {
        case .genericPassword: Self.common.union(Self.passwordAttributes).union([SecName.kSecAttrService, SecName.kSecAttrGeneric])
        case .internetPassword:
            Self.common.union(Self.passwordAttributes).union([
                SecName.kSecAttrSecurityDomain, SecName.kSecAttrServer, SecName.kSecAttrProtocol, SecName.kSecAttrAuthenticationType,
                SecName.kSecAttrPort, SecName.kSecAttrPath,
            ])
        case .certificate: Self.common.union(Self.certificateAttributes)
        case .key: Self.common.union(Self.keyAttributes)
        case .identity: Self.common.union(Self.certificateAttributes).union(Self.keyAttributes)
        }
    }

    /// The primary key's columns (rule book §2, the schema's hidden columns included).
    public var primaryKey: [String] {
        switch self {
        case .genericPassword:
            [
                SecName.kSecAttrAccount, SecName.kSecAttrService, SecName.kSecAttrAccessGroup, SecName.kSecAttrSynchronizable,
                SecName.kSecAttrSyncViewHint, SecName.kSecAttrTokenID,
            ]
        case .internetPassword:
            [
                SecName.kSecAttrAccount, SecName.kSecAttrSecurityDomain, SecName.kSecAttrServer, SecName.kSecAttrProtocol,
                SecName.kSecAttrAuthenticationType, SecName.kSecAttrPort, SecName.kSecAttrPath, SecName.kSecAttrAccessGroup,
                SecName.kSecAttrSynchronizable, SecName.kSecAttrSyncViewHint, SecName.kSecAttrTokenID,
            ]
        case .certificate, .identity:
            [
                SecName.kSecAttrCertificateType, SecName.kSecAttrIssuer, SecName.kSecAttrSerialNumber, SecName.kSecAttrAccessGroup,
                SecName.kSecAttrSynchronizable, SecName.kSecAttrSyncViewHint, SecName.kSecAttrTokenID,
            ]
        case .key:
            [
                SecName.kSecAttrKeyClass, SecName.kSecAttrType, SecName.kSecAttrApplicationLabel, SecName.kSecAttrApplicationTag,
                SecName.kSecAttrKeySizeInBits, SecName.kSecAttrEffectiveKeySize, SecName.kSecAttrAccessGroup,
                SecName.kSecAttrSynchronizable, SecName.kSecAttrCreator, "sdat", "edat", SecName.kSecAttrSyncViewHint,
                SecName.kSecAttrTokenID,
            ]
        }
    }

    /// The attribute most queries name, indexed for lookups that do not grow with the item count.
    var indexedAttribute: String {
        switch self {
        case .genericPassword, .internetPassword: SecName.kSecAttrAccount
        case .certificate, .identity: SecName.kSecAttrSerialNumber
        case .key: SecName.kSecAttrApplicationTag
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
        case SecName.kSecAttrAccount, SecName.kSecAttrService, SecName.kSecAttrLabel, SecName.kSecAttrDescription, SecName.kSecAttrComment,
            SecName.kSecAttrGeneric, SecName.kSecAttrSecurityDomain, SecName.kSecAttrServer, SecName.kSecAttrAuthenticationType,
            SecName.kSecAttrPath, SecName.kSecAttrApplicationTag, "alis", "prot":
            .blob
        case SecName.kSecAttrApplicationLabel, SecName.kSecAttrSubject, SecName.kSecAttrIssuer, SecName.kSecAttrSerialNumber,
            SecName.kSecAttrSubjectKeyID, SecName.kSecAttrPublicKeyHash:
            .data
        case SecName.kSecAttrProtocol, SecName.kSecAttrPort, SecName.kSecAttrKeyClass, SecName.kSecAttrKeySizeInBits,
            SecName.kSecAttrEffectiveKeySize, SecName.kSecAttrType, SecName.kSecAttrCreator, SecName.kSecAttrCertificateType,
            SecName.kSecAttrCertificateEncoding, "scrp", SecName.kSecAttrSynchronizable:
            .number
        case SecName.kSecAttrIsInvisible, SecName.kSecAttrIsNegative, SecName.kSecAttrIsPermanent, "priv",
            "modi", SecName.kSecAttrIsSensitive, "asen", SecName.kSecAttrIsExtractable, "next", SecName.kSecAttrCanEncrypt,
            SecName.kSecAttrCanDecrypt, SecName.kSecAttrCanDerive, SecName.kSecAttrCanSign,
            SecName.kSecAttrCanVerify, "snrc", "vyrc", SecName.kSecAttrCanWrap, SecName.kSecAttrCanUnwrap:
            .bool
        case SecName.kSecAttrCreationDate, SecName.kSecAttrModificationDate, "sdat", "edat": .date
        case SecName.kSecAttrAccessControl: .accessControl
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

    /// The key the column compares by: text by its UTF-8 bytes in every
    /// column, as SQLite compares it (issue 61, item 9: Swift's `==` takes
    /// NFC and NFD for one string, so two accounts were one item); blobs by
    /// their bytes, as the schema's SHA-1 columns hash them.
    func columnKey(for attribute: String) -> ColumnValueKey {
        if case .string(let text) = self { return .bytes(text.keychainBytes) }
        guard ColumnKind.of(attribute) == .blob else { return .value(self) }
        switch self {
        case .data(let bytes): return .bytes(bytes)
        case .number(let value):
            let word = UInt32(bitPattern: Int32(truncatingIfNeeded: value))
            return .bytes([UInt8(word & 0xff), UInt8(word >> 8 & 0xff), UInt8(word >> 16 & 0xff), UInt8(word >> 24)])
        default: return .value(self)
        }
    }
}

extension String {
    /// The bytes the keychain compares a text by: its UTF-8, as SQLite's
    /// BINARY collation and `CFEqual` (code unit by code unit) do, never
    /// Swift's canonical equivalence (issue 61, item 9).
    var keychainBytes: [UInt8] { Array(utf8) }

    /// Whether the keychain takes `other` for this text: the same UTF-8 bytes.
    func isKeychainText(_ other: String) -> Bool { utf8.elementsEqual(other.utf8) }
}

extension [String] {
    /// Whether the list holds `text` byte for byte (an entitlement's groups).
    func containsKeychainText(_ text: String) -> Bool { contains { $0.isKeychainText(text) } }
}
