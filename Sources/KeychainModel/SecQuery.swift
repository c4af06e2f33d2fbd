import KeychainAccessControl

/// Which SecItem call a dictionary is parsed for.
public enum SecCall: String, Sendable, Hashable {
    case add = "SecItemAdd"
    case copyMatching = "SecItemCopyMatching"
    case update = "SecItemUpdate"
    case delete = "SecItemDelete"
}

/// A SecItem dictionary as the keychain's query parser reads it (rule book
/// §1d dispatch, Q1–Q16): the same parser serves add, copy, update and delete.
struct SecQuery {
    enum Limit: Equatable {
        case one, count(Int), all

        /// Whether the result is an array (Q7: LimitAll or N > 1, even for one hit).
        var returnsArray: Bool { self != .one }
        var maximum: Int {
            switch self {
            case .one: 1
            case .count(let n): n
            case .all: Int.max
            }
        }
    }

    enum SyncFilter: Equatable { case nonSynchronizable, synchronizable, any }
    enum AuthenticationUI: Equatable { case allow, fail, skip }

    var itemClass: SecItemClass
    /// Attribute filters (normalized), `sync` and `agrp` excluded.
    var filters: [String: SecValue] = [:]
    var sync: SyncFilter = .nonSynchronizable
    var syncGiven = false
    var accessGroup: String?
    var limit: Limit = .one
    var matchKeys: [String] = []
    var returnData = false, returnAttributes = false, returnRef = false, returnPersistentRef = false
    var returnKeys: [String] = []
    var authenticationUI: AuthenticationUI = .allow
    var authenticationUIGiven = false
    var context: Int?
    var operationPrompt: String?
    var valueData: [UInt8]?
    var valueDataGiven = false
    var valueRef: Int?
    var persistentRef: [UInt8]?
    var accessControl: SecAccessControlValue?
    var protection: ProtectionClass?

    var returnsAnything: Bool { returnData || returnAttributes || returnRef || returnPersistentRef }

    static func failure(_ status: SecStatus, _ rule: SecRule, _ reason: String) -> SecOutcome {
        SecOutcome(status, rule: rule, reason)
    }

    /// A refusal no rule of the book decides (§1d: how the keys dispatch).
    static func failure(_ status: SecStatus, tag: RuleTag, _ reason: String) -> SecOutcome {
        SecOutcome(status, Ruling(tag: tag, reason))
    }

    /// Parses `dictionary` for `call`. The class comes from `kSecClass`, or
    /// from a persistent reference's first four bytes (Q1).
    static func parse(_ dictionary: [String: SecValue], for call: SecCall) throws(SecOutcome) -> SecQuery {
        let itemClass: SecItemClass
        switch dictionary[SecName.kSecClass] {
        case .string(let name)?:
            guard let known = SecItemClass(rawValue: name) else {
                throw failure(.noSuchClass, .q1, "kSecClass \"\(name)\" is not an item class")
            }
            itemClass = known
        case let other?:
            throw failure(.param, .q1, "kSecClass must be a class constant, not \(other.shortDescription)")
        case nil:
            if case .data(let ref)? = dictionary[SecName.kSecValuePersistentRef], ref.count >= 4,
                let fromRef = SecItemClass(rawValue: String(decoding: ref.prefix(4), as: UTF8.self))
            {
                itemClass = fromRef
            } else {
                throw failure(.param, .q1, "no kSecClass in the \(call.rawValue) dictionary")
            }
        }
        var query = SecQuery(itemClass: itemClass)
        // Keys in a fixed order, so the first problem reported does not depend on hashing.
        for key in dictionary.keys.sorted() where key != SecName.kSecClass {
            guard let value = dictionary[key] else { continue }
            if let problem = query.take(key, value, for: call) { throw problem }
        }
        // A8 (§9): every access control is made by SecAccessControlCreateWithFlags
        // and carries an ACL, so kSecAttrAccessible beside one always conflicts.
        if query.protection != nil, query.accessControl != nil {
            throw failure(
                .param, .a8, "kSecAttrAccessible beside a kSecAttrAccessControl made by SecAccessControlCreateWithFlags conflicts")
        }
        // Q15′ (§9): kSecAttrSynchronizableAny is no attribute pair, so it may accompany a persistent reference.
        if query.persistentRef != nil, !query.filters.isEmpty || query.accessGroup != nil || (query.syncGiven && query.sync != .any) {
            throw failure(.param, .q15, "kSecValuePersistentRef cannot be combined with other attributes")
        }
        return query
    }

    /// Reads one key; a problem is the call's failure.
    mutating func take(_ key: String, _ value: SecValue, for call: SecCall) -> SecOutcome? {
        if key.utf8.count == 4 { return takeAttribute(key, value, for: call) }
        switch key.first {
        case "m": return takeMatch(key, value, for: call)
        case "r": return takeReturn(key, value)
        case "u": return takeUse(key, value, for: call)
        case "v": return takeValue(key, value, for: call)
        case "f": return nil
        default:
            return Self.failure(.param, tag: .dispatch, "\"\(key)\" is neither an attribute nor a match, return, use or value key")
        }
    }

    mutating func takeAttribute(_ key: String, _ value: SecValue, for call: SecCall) -> SecOutcome? {
        switch key {
        // Q14: kSecUseDataProtectionKeychain is a no-op on iOS; U2: musr is ignored.
        case SecName.kSecUseDataProtectionKeychain, "musr": return nil
        case SecName.kSecAttrSynchronizable:
            syncGiven = true
            if value == .string(SecName.kSecAttrSynchronizableAny) {
                // A13′ (§9): in an add, Any is accepted and ignored — the item is stored non-synchronizable.
                sync = call == .add ? .nonSynchronizable : .any
                return nil
            }
            guard let flag = value.boolValue else {
                return Self.failure(.param, .q3, "kSecAttrSynchronizable must be a boolean or kSecAttrSynchronizableAny")
            }
            sync = flag ? .synchronizable : .nonSynchronizable
            return nil
        case SecName.kSecAttrAccessGroup:
            guard let group = value.stringValue else { return Self.failure(.param, .q6, "kSecAttrAccessGroup must be a string") }
            accessGroup = group
            return nil
        default:
            break
        }
        guard itemClass.attributes.contains(key) else {
            return Self.failure(.noSuchAttr, .q2, "\(itemClass.constantName) has no attribute \"\(key)\"")
        }
        if key == SecName.kSecAttrAccessControl {
            guard case .accessControl(let control) = value else {
                return Self.failure(.param, .q16, "kSecAttrAccessControl must be a SecAccessControl, not \(value.shortDescription)")
            }
            accessControl = control
            return nil  // Q5: not a filter.
        }
        if key == SecName.kSecAttrAccessible {
            guard let name = value.stringValue, let protection = ProtectionClass(rawValue: name) else {
                return Self.failure(.param, .a1, "kSecAttrAccessible \(value.shortDescription) is not a protection class")
            }
            self.protection = protection
        }
        guard let normalized = value.normalized(for: key) else {
            return Self.failure(.param, .q2, "\(value.shortDescription) is not a value of attribute \"\(key)\"")
        }
        filters[key] = normalized
        return nil
    }

    mutating func takeMatch(_ key: String, _ value: SecValue, for call: SecCall) -> SecOutcome? {
        matchKeys.append(key)
        switch call {
        case .add: return Self.failure(.param, .a7, "\(key) (kSecMatch…) has no place in SecItemAdd")
        case .update: return Self.failure(.param, .u1, "\(key) (kSecMatch…) in an update query is refused on iOS")
        case .delete: return Self.failure(.param, .d1, "\(key) (kSecMatch…) in a delete query is refused on iOS")
        case .copyMatching: break
        }
        switch key {
        case SecName.kSecMatchLimit:
            // Q7 (§9): any CFNumber is a limit — 0 selects nothing, -1 is
            // kSecMatchUnlimited, another negative number one item in an array.
            let count: Int64?
            switch value {
            case .string(SecName.kSecMatchLimitOne):
                limit = .one
                return nil
            case .string(SecName.kSecMatchLimitAll):
                limit = .all
                return nil
            case .number(let n): count = n
            case .real(let r) where r.isFinite: count = Int64(exactly: r.rounded(.towardZero)) ?? (r < 0 ? Int64.min : Int64.max)
            default: count = nil
            }
            guard let count else {
                return Self.failure(.param, .q7, "kSecMatchLimit \(value.shortDescription) is not One, All or a number")
            }
            switch count {
            case 1: limit = .one
            case -1: limit = .all
            case ..<0: limit = .count(1)
            default: limit = .count(Int(clamping: count))
            }
            return nil
        case SecName.kSecMatchCaseInsensitive:
            return nil  // Q13: accepted, no effect on iOS.
        case SecName.kSecMatchHostOrSubdomainOfHost:
            guard itemClass == .internetPassword else {
                return Self.failure(.unimplemented, .q13, "kSecMatchHostOrSubdomainOfHost applies to internet passwords only")
            }
            guard case .string(let host) = value else { return Self.failure(.param, .q13, "the host must be a string") }
            filters["m_Host"] = .string(host)
            return nil
        case SecName.kSecMatchIssuers, SecName.kSecMatchPolicy:
            guard itemClass == .certificate || itemClass == .identity else {
                return Self.failure(.unimplemented, .q13, "\(key) applies to certificates and identities only")
            }
            return Self.failure(.unimplemented, .q13, "\(key): certificate trust evaluation is out of this model's scope")
        default:
            // Q13′ (§9): a match key with no handler for the class is accepted
            // and ignored (the server refuses only issuers, policy and host
            // outside their classes); on certificates, trust evaluation is out of scope.
            if itemClass == .certificate || itemClass == .identity {
                return Self.failure(.unimplemented, .q13, "\(key): certificate trust evaluation is out of this model's scope")
            }
            return nil
        }
    }

    mutating func takeReturn(_ key: String, _ value: SecValue) -> SecOutcome? {
        guard let flag = value.boolValue else { return Self.failure(.param, .q8, "\(key) must be a boolean") }
        switch key {
        case SecName.kSecReturnData: returnData = flag
        case SecName.kSecReturnAttributes: returnAttributes = flag
        case SecName.kSecReturnRef: returnRef = flag
        case SecName.kSecReturnPersistentRef: returnPersistentRef = flag
        default: return Self.failure(.param, tag: .dispatch, "\"\(key)\" is not a kSecReturn key")
        }
        if flag { returnKeys.append(key) }
        return nil
    }

    mutating func takeUse(_ key: String, _ value: SecValue, for call: SecCall) -> SecOutcome? {
        switch key {
        case SecName.kSecUseAuthenticationUI:
            authenticationUIGiven = true
            switch value {
            case .string(SecName.kSecUseAuthenticationUIAllow): authenticationUI = .allow
            case .string(SecName.kSecUseAuthenticationUIFail): authenticationUI = .fail
            case .string(SecName.kSecUseAuthenticationUISkip):
                guard call == .copyMatching else {
                    return Self.failure(.param, .a12, "kSecUseAuthenticationUISkip is for SecItemCopyMatching only")
                }
                authenticationUI = .skip
            case .bool:
                // A12 (§9): the client strips a Boolean (the legacy `true`) and the call runs as Allow.
                authenticationUIGiven = false
            default:
                return Self.failure(.param, .a12, "kSecUseAuthenticationUI must be Allow, Fail or Skip, not \(value.shortDescription)")
            }
            return nil
        case SecName.kSecUseNoAuthenticationUI:
            guard let flag = value.boolValue else { return Self.failure(.param, .a12, "kSecUseNoAuthenticationUI must be a boolean") }
            if flag && !authenticationUIGiven { authenticationUI = .fail }
            return nil
        case SecName.kSecUseAuthenticationContext:
            guard case .context(let id) = value else {
                return Self.failure(.param, .ac8, "kSecUseAuthenticationContext must be an LAContext, not \(value.shortDescription)")
            }
            context = id
            return nil
        case "u_CredRef":
            return Self.failure(.param, .q16, "kSecUseCredentialReference is not accepted with this model's contexts")
        case SecName.kSecUseOperationPrompt:
            guard case .string(let text) = value else { return Self.failure(.param, .ac9, "kSecUseOperationPrompt must be a string") }
            operationPrompt = text
            return nil
        default:
            return Self.failure(.param, tag: .dispatch, "\"\(key)\" is not a kSecUse key this keychain takes")
        }
    }

    mutating func takeValue(_ key: String, _ value: SecValue, for call: SecCall) -> SecOutcome? {
        switch key {
        case SecName.kSecValueData:
            guard case .data(let bytes) = value else {
                return Self.failure(.param, .a4, "kSecValueData must be data, not \(value.shortDescription)")
            }
            valueData = bytes  // Q5: a query ignores it; only add stores it.
            valueDataGiven = true
            return nil
        case SecName.kSecValueRef:
            if call == .add && itemClass.isPassword {
                return Self.failure(.param, .a7, "a password cannot be added by kSecValueRef")
            }
            guard case .key(let id) = value else {
                return Self.failure(
                    .param, .a7, "kSecValueRef must be a SecKey here (certificates and identities by reference are out of scope)")
            }
            valueRef = id
            return nil
        case SecName.kSecValuePersistentRef:
            if call == .add { return Self.failure(.param, .a7, "kSecValuePersistentRef has no place in SecItemAdd") }
            guard case .data(let bytes) = value else { return Self.failure(.param, .q15, "kSecValuePersistentRef must be data") }
            persistentRef = bytes
            return nil
        default:
            return Self.failure(.param, tag: .dispatch, "\"\(key)\" is not a kSecValue key")
        }
    }
}
