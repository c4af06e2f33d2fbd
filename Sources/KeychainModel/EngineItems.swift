import Crypto
import KeychainAccessControl

/// Why an item did not match a query: the criteria a "not found" explains itself by.
enum MissReason: Equatable {
    case attribute(String)
    case protection
    case synchronizable
    case accessGroup
    case lost
}

extension KeychainEngine {
    /// A call whose dictionary the `Security` module could not read (a key
    /// that is not a string): -50, logged like every other call.
    package mutating func refuseUnreadable(_ call: SecCall) -> SecOutcome {
        finish(call, SecOutcome(.param, Ruling(tag: .dispatch, "the dictionary has a key that is not a string")))
    }

    // MARK: SecItemAdd

    /// `SecItemAdd`; `wantsResult` is whether the caller passed a result pointer.
    public mutating func add(_ attributes: [String: SecValue], wantsResult: Bool) -> SecOutcome {
        finish(.add, Self.answer { () throws(SecOutcome) in try addItem(attributes, wantsResult: wantsResult) })
    }

    mutating func addItem(_ attributes: [String: SecValue], wantsResult: Bool, keyMaterial: Int? = nil) throws(SecOutcome) -> SecOutcome {
        let query = try SecQuery.parse(attributes, for: .add)
        let protection = query.accessControl?.protection ?? query.protection ?? (query.itemClass == .certificate ? .dk : .ak)
        let synchronizable = query.sync == .synchronizable
        if synchronizable, query.accessControl != nil {
            return SecOutcome(.param, rule: .a9, "a synchronizable item cannot carry a kSecAttrAccessControl")
        }
        let group = query.accessGroup ?? app.defaultAccessGroup
        if let refusal = checkWritableGroup(group, rule: query.accessGroup == nil ? .a2 : .q6) { return refusal }
        let flags = query.accessControl?.flags ?? []
        if flags.contains(.privateKeyUsage) && query.itemClass != .key {
            return SecOutcome(
                .authFailed, rule: .ac4,
                "privateKeyUsage on a \(query.itemClass.constantName) item: the access control has no entry to create it")
        }
        let access: AccessControl
        switch bind(protection: protection, flags: flags) {
        case .failure(let outcome): return outcome
        case .success(let bound): access = bound
        }
        if !protection.isAvailable(in: device) {
            return SecOutcome(
                .interactionNotAllowed, rule: .a6,
                "the class \(protection.rawValue) is locked: encryption comes before the duplicate check")
        }
        var stored = query.filters
        stored[SecName.kSecAttrAccessible] = .string(protection.rawValue)
        stored[SecName.kSecAttrAccessGroup] = .string(group)
        // Q2′: a number column, returned as the number 0 or 1.
        stored[SecName.kSecAttrSynchronizable] = .number(synchronizable ? 1 : 0)
        stored[SecName.kSecAttrCreationDate] = .date(now)
        stored[SecName.kSecAttrModificationDate] = .date(now)
        var keyID = keyMaterial
        if query.itemClass == .key, keyID == nil, let reference = query.valueRef {
            guard let material = keys[reference], material.privateKey != nil || material.secureEnclave else {
                return SecOutcome(.param, rule: .a7, "kSecValueRef is not a private key this keychain holds")
            }
            keyID = reference
        }
        if let keyID, let material = keys[keyID] {
            for (name, value) in material.itemAttributes where stored[name] == nil { stored[name] = value }
        }
        for column in query.itemClass.primaryKey where stored[column] == nil {
            stored[column] = ColumnKind.of(column).hiddenDefault
        }
        let order = nextItem
        var item = StoredSecItem(
            itemClass: query.itemClass, attributes: stored, data: query.valueData, access: access,
            accessValue: query.accessControl, persistentRef: Self.persistentRef(query.itemClass, order), key: nil,
            order: order)
        if let existing = primaryKeys[item.primaryKey], items[existing] != nil {
            return SecOutcome(
                .duplicateItem, rule: .a6, "an item with the same primary key (\(describeKey(item))) exists\(samePrimaryKeyNote(query))")
        }
        if let keyID {
            // The stored key is its own material; handles the caller holds stay theirs.
            keys[keyID]?.item = order
            // Only an explicit access control governs the key's use (a bare key signs freely).
            if query.accessControl != nil { keys[keyID]?.access = access }
            var material = keys[keyID]
            material?.context = nil
            item.key = nextKey
            keys[nextKey] = material
            nextKey += 1
        }
        nextItem += 1
        insert(item, id: order)
        var result: SecValue?
        if wantsResult && query.returnsAnything { result = shape([order], query: query, context: query.context) }
        return SecOutcome(.success, rule: .a1, "added \(describeKey(item)) as \(protection.rawValue) in group \(group)", result: result)
    }

    /// P1: what an add that collides often misunderstands.
    func samePrimaryKeyNote(_ query: SecQuery) -> String {
        if query.protection != nil || query.filters[SecName.kSecAttrLabel] != nil || query.filters[SecName.kSecAttrGeneric] != nil {
            return "; kSecAttrAccessible, label and generic data are not part of the primary key (P1)"
        }
        return ""
    }

    /// A group an item may be written to (A2, Q6).
    func checkWritableGroup(_ group: String, rule: SecRule) -> SecOutcome? {
        if group.isKeychainText(SecName.kSecAttrAccessGroupToken) {
            return SecOutcome(.missingEntitlement, rule: .a2, "the token group com.apple.token is never writable")
        }
        guard app.accessGroups.containsKeychainText(group) else {
            return SecOutcome(
                .missingEntitlement, rule: rule,
                "the app is not entitled to access group \(group) (groups: \(app.accessGroups.joined(separator: ", ")))")
        }
        return nil
    }

    /// Q6: a query that names `kSecAttrAccessGroup` searches that group
    /// only, and only a group the app is entitled to; the refusal says which
    /// groups the app has. The token group is searchable by copy (its items
    /// are read, never written), not by update or delete.
    func checkSearchedGroup(_ query: SecQuery, for call: SecCall) throws(SecOutcome) {
        guard let group = query.accessGroup, !app.accessGroups.containsKeychainText(group) else { return }
        if call == .copyMatching && group.isKeychainText(SecName.kSecAttrAccessGroupToken) { return }
        throw SecOutcome(
            .missingEntitlement, rule: .q6,
            "the app is not entitled to access group \(group) (groups: \(app.accessGroups.joined(separator: ", ")))")
    }

    /// Binds an access control on the device as add and key creation do (AC1, A11, AC5).
    func bind(protection: ProtectionClass, flags: AccessControlFlags) -> Result<AccessControl, SecOutcome> {
        do {
            return .success(try AccessControl.create(protection: protection, flags: flags, device: device))
        } catch {
            switch error.code {
            case .notAvailable:
                return .failure(
                    SecOutcome(.notAvailable, rule: .a11, "akpu (whenPasscodeSetThisDeviceOnly) needs a passcode, and none is set"))
            case .authFailed:
                return .failure(SecOutcome(.authFailed, rule: .ac5, "the access control cannot be bound on this device: \(error.reason)"))
            default:
                return .failure(SecOutcome(.param, rule: .ac1, error.reason))
            }
        }
    }

    static func persistentRef(_ itemClass: SecItemClass, _ order: Int) -> [UInt8] {
        var bytes = Array(itemClass.rawValue.utf8)
        var value = UInt64(order)
        var tail = [UInt8](repeating: 0, count: 16)
        for index in (8..<16).reversed() {
            tail[index] = UInt8(truncatingIfNeeded: value)
            value >>= 8
        }
        bytes += tail
        return bytes
    }

    mutating func insert(_ item: StoredSecItem, id: Int) {
        items[id] = item
        primaryKeys[item.primaryKey] = id
        index[item.indexKey, default: []].insert(id)
    }

    /// Takes an item out of the tables, with its key material unless
    /// `keepingKey` (an update takes an item out and puts it back).
    mutating func remove(_ id: Int, keepingKey: Bool = false) {
        guard let item = items.removeValue(forKey: id) else { return }
        if primaryKeys[item.primaryKey] == id { primaryKeys[item.primaryKey] = nil }
        index[item.indexKey]?.remove(id)
        if index[item.indexKey]?.isEmpty == true { index[item.indexKey] = nil }
        if !keepingKey, let key = item.key { keys[key] = nil }
    }

    func describeKey(_ item: StoredSecItem) -> String {
        let shown = [
            SecName.kSecAttrAccount, SecName.kSecAttrService, SecName.kSecAttrServer, SecName.kSecAttrApplicationTag,
            SecName.kSecAttrSerialNumber,
        ].compactMap { name -> String? in
            guard let value = item.attributes[name], value != .string(""), value != .data([]) else { return nil }
            return "\(name)=\(value.shortDescription)"
        }
        return "\(item.itemClass.rawValue)[\(shown.joined(separator: ", "))]"
    }

    // MARK: Matching

    /// The items of the query's class in the app's groups, in storage order (Q6).
    func candidates(_ query: SecQuery) -> [Int] {
        let ids: [Int]
        if let reference = query.persistentRef {
            ids = items.first { $0.value.persistentRef == reference }.map { [$0.key] } ?? []
        } else if let wanted = query.filters[query.itemClass.indexedAttribute] {
            let column = query.itemClass.indexedAttribute
            ids = Array(index[SecIndexKey(itemClass: query.itemClass, value: wanted.columnKey(for: column))] ?? [])
        } else {
            ids = items.compactMap { $0.value.itemClass == query.itemClass ? $0.key : nil }
        }
        // Q6 (§9): the groups searched are the app's; the rows come back in
        // storage order (no ORDER BY across groups), here creation order.
        let groups = Set(app.accessGroups.map(\.keychainBytes))
        return ids.compactMap { id -> (Int, Int)? in
            guard let item = items[id], groups.contains(item.accessGroup.keychainBytes) else { return nil }
            return (item.order, id)
        }.sorted { $0.0 < $1.0 }.map(\.1)
    }

    /// What keeps `item` from matching `query` (empty: it matches).
    func misses(_ item: StoredSecItem, _ query: SecQuery) -> [MissReason] {
        var reasons: [MissReason] = []
        if item.itemClass != query.itemClass { reasons.append(.attribute(SecName.kSecClass)) }
        for (name, wanted) in query.filters {
            switch name {
            case SecName.kSecAttrAccessible:
                if item.attributes[SecName.kSecAttrAccessible] != wanted { reasons.append(.protection) }
            case "m_Host":
                guard case .string(let host) = wanted, case .string(let server)? = item.attributes[SecName.kSecAttrServer],
                    server.isKeychainText(host) || server.keychainBytes.reversed().starts(with: ("." + host).keychainBytes.reversed())
                else {
                    reasons.append(.attribute(SecName.kSecAttrServer))
                    continue
                }
            default:
                let have = item.attributes[name] ?? ColumnKind.of(name).hiddenDefault
                if have?.columnKey(for: name) != wanted.columnKey(for: name) { reasons.append(.attribute(name)) }
            }
        }
        // §9: a query with a persistent reference skips the default synchronizable filter.
        let sync = query.persistentRef != nil && !query.syncGiven ? .any : query.sync
        switch sync {
        case .nonSynchronizable: if item.synchronizable { reasons.append(.synchronizable) }
        case .synchronizable: if !item.synchronizable { reasons.append(.synchronizable) }
        case .any: break
        }
        if let group = query.accessGroup, !item.accessGroup.isKeychainText(group) { reasons.append(.accessGroup) }
        if let reference = query.valueRef, item.key == nil || keys[reference]?.item != item.order {
            reasons.append(.attribute(SecName.kSecValueRef))
        }
        if !item.access.exists(on: device) { reasons.append(.lost) }
        return reasons
    }

    /// The items matching `query`, in search order; lost items only when `includeLost`.
    func matches(_ query: SecQuery, includeLost: Bool = false) -> [Int] {
        candidates(query).filter { id in
            guard let item = items[id] else { return false }
            let reasons = misses(item, query)
            return reasons.isEmpty || (includeLost && reasons == [.lost])
        }
    }

    /// "Not found", explained by the nearest miss: an item that fails the
    /// query on one point only (Q3, Q4, Q6, A11), else the plain rule.
    func notFound(_ query: SecQuery, call: SecCall) -> SecOutcome {
        var near = query
        near.sync = .any
        near.accessGroup = nil
        near.filters[SecName.kSecAttrAccessible] = nil
        for id in candidates(near) {
            guard let item = items[id] else { continue }
            let reasons = misses(item, query)
            guard reasons.count == 1, let reason = reasons.first else { continue }
            switch reason {
            case .protection:
                let asked = query.filters[SecName.kSecAttrAccessible]?.stringValue ?? "?"
                return SecOutcome(
                    .itemNotFound, rule: .q4,
                    "the query's kSecAttrAccessible \(asked) filters out the item stored as \(item.protection.rawValue)")
            case .synchronizable where query.sync == .nonSynchronizable:
                let rule: SecRule = call == .delete ? .d2 : .q3
                return SecOutcome(
                    .itemNotFound, rule: rule,
                    "no kSecAttrSynchronizable in the \(call == .delete ? "delete" : "query"), so the synchronizable copy was not seen")
            case .synchronizable:
                return SecOutcome(.itemNotFound, rule: .q3, "kSecAttrSynchronizable true finds synchronizable items only; this one is not")
            case .accessGroup:
                return SecOutcome(
                    .itemNotFound, rule: .q6,
                    "the query names group \(query.accessGroup ?? "?"); the item is in \(item.accessGroup)")
            case .lost:
                return SecOutcome(
                    .itemNotFound, rule: .a11,
                    "the \(item.protection.rawValue) item was lost when the passcode was removed (or the backup moved to another device)")
            case .attribute:
                continue
            }
        }
        let named = query.filters.keys.sorted().map { "\($0)=\(query.filters[$0]?.shortDescription ?? "")" }.joined(separator: ", ")
        let rule: SecRule = call == .update ? .u4 : call == .delete ? .d3 : .q11
        return SecOutcome(.itemNotFound, rule: rule, "no \(query.itemClass.constantName) item matches [\(named)]")
    }

    // MARK: SecItemCopyMatching

    /// `SecItemCopyMatching`.
    public mutating func copyMatching(_ query: [String: SecValue], wantsResult: Bool) -> SecOutcome {
        finish(.copyMatching, Self.answer { () throws(SecOutcome) in try copyItems(query, wantsResult: wantsResult) })
    }

    mutating func copyItems(_ dictionary: [String: SecValue], wantsResult: Bool) throws(SecOutcome) -> SecOutcome {
        let query = try SecQuery.parse(dictionary, for: .copyMatching)
        try checkSearchedGroup(query, for: .copyMatching)
        let found = matches(query)
        guard !found.isEmpty else { return notFound(query, call: .copyMatching) }
        if query.limit.maximum == 0 {
            return SecOutcome(.itemNotFound, rule: .q7, "kSecMatchLimit 0 selects nothing (\(found.count) item(s) matched)")
        }
        var returned: [Int] = []
        var prompts = 0
        var skipped = 0
        // AC8: without kSecUseAuthenticationContext the call runs in a context of its own,
        // so one prompt serves every match of this call, and none after it.
        let context = query.context ?? newContext()
        defer { if query.context == nil { releaseContext(context) } }
        for id in found {
            guard let item = items[id] else { continue }
            if !item.protection.isAvailable(in: device) {
                return SecOutcome(
                    .interactionNotAllowed, rule: .q11,
                    "the matching item \(describeKey(item)) is \(item.protection.rawValue) and the device is locked: the whole query ends",
                    prompts: prompts)
            }
            if needsSecret(item, query) {
                if let refusal = authorize(
                    item.access, .useItem, context: context, ui: query.authenticationUI,
                    reason: query.operationPrompt, call: SecCall.copyMatching.rawValue, prompts: &prompts)
                {
                    switch refusal {
                    case .skipped:
                        skipped += 1
                        continue
                    case .status(let status, let ruling, _):
                        return SecOutcome(status, ruling, prompts: prompts)
                    }
                }
            }
            returned.append(id)
            if returned.count >= query.limit.maximum { break }
        }
        guard !returned.isEmpty else {
            return SecOutcome(
                .itemNotFound, rule: .ac7,
                "kSecUseAuthenticationUISkip left out \(skipped) item(s) that need authentication, and nothing else matched",
                prompts: prompts)
        }
        var result: SecValue?
        if wantsResult { result = shape(returned, query: query, context: query.context) }
        let what = query.returnsAnything ? query.returnKeys.joined(separator: "+") : "status only"
        let authenticated = prompts > 0 ? ", authenticated (Q12)" : ""
        let rule: SecRule
        let note: String
        if query.returnsAnything && !wantsResult {
            (rule, note) = (.q9, "; the result pointer is NULL, so the client drops the result")
        } else {
            (rule, note) = (query.returnsAnything ? .q8 : .q12, "")
        }
        var outcome = SecOutcome(
            .success, rule: rule, "\(returned.count) item(s) found; result: \(what)\(authenticated)\(note)",
            result: result, prompts: prompts)
        outcome.count = returned.count
        return outcome
    }

    /// Q12 and AC7 (§9): reading an item whose access control has
    /// constraints decrypts its secret part whatever the query asks —
    /// attributes, a persistent reference, a reference, data or nothing — so
    /// every such read authenticates. An item with a protection class only
    /// is read freely; so is a Secure Enclave key item, whose access control
    /// travels in the token and is enforced when the key is used (K5).
    func needsSecret(_ item: StoredSecItem, _ query: SecQuery) -> Bool {
        if case .requires = item.access.rule(for: .useItem) { return true }
        return false
    }

    /// The result's shape (Q7, Q8).
    mutating func shape(_ ids: [Int], query: SecQuery, context: Int?) -> SecValue? {
        if !query.returnsAnything { return query.limit.returnsArray ? .array([]) : nil }
        let each = ids.compactMap { id -> SecValue? in items[id].flatMap { one($0, query: query, context: context) } }
        if query.limit.returnsArray { return .array(each) }
        return each.first
    }

    /// One item's result (Q8).
    mutating func one(_ item: StoredSecItem, query: SecQuery, context: Int?) -> SecValue? {
        let asked = [query.returnData, query.returnAttributes, query.returnRef, query.returnPersistentRef].filter { $0 }.count
        let data = secretData(item)
        let reference = query.returnRef ? makeReference(item, context: context, ui: query.authenticationUI) : nil
        if asked == 1 {
            // Q8/A4 (§9): the client asks for attributes with the data and
            // hands back `v_Data`; an item without data gives no result.
            if query.returnData { return data.map { .data($0) } }
            if query.returnAttributes { return .dictionary(attributes(of: item)) }
            if query.returnPersistentRef { return .data(item.persistentRef) }
            return reference
        }
        var result: [String: SecValue] = query.returnAttributes || query.returnData ? attributes(of: item) : [:]
        if query.returnData, let data { result[SecName.kSecValueData] = .data(data) }
        if let reference { result[SecName.kSecValueRef] = reference }
        if query.returnPersistentRef { result[SecName.kSecValuePersistentRef] = .data(item.persistentRef) }
        return .dictionary(result)
    }

    /// The secret an item hands back for `kSecReturnData`: a password's data, a software key's bytes.
    func secretData(_ item: StoredSecItem) -> [UInt8]? {
        if item.itemClass == .key, let key = item.key, let material = keys[key] {
            return material.secureEnclave ? nil : material.externalBytes
        }
        return item.data
    }

    /// The access control that governs an item's use: a key's own (a
    /// Secure Enclave key item stores none, K5), else the item's.
    func governingAccess(_ item: StoredSecItem) -> AccessControl {
        if let key = item.key, let access = keys[key]?.access { return access }
        return item.access
    }

    /// The attributes an item reports (its class included).
    func attributes(of item: StoredSecItem) -> [String: SecValue] {
        var result = item.attributes
        result[SecName.kSecClass] = .string(item.itemClass.rawValue)
        if let control = item.accessValue { result[SecName.kSecAttrAccessControl] = .accessControl(control) }
        return result
    }

    /// A `SecKey` for a key item (no reference exists for passwords on iOS: Q8).
    mutating func makeReference(_ item: StoredSecItem, context: Int?, ui: SecQuery.AuthenticationUI) -> SecValue? {
        guard item.itemClass == .key, let key = item.key, var material = keys[key] else { return nil }
        material.context = context
        material.authenticationUI = ui
        // Q12 (§9): a read that authenticated the item decrypted a software key,
        // so the reference is the key itself; a token key (and a key whose
        // access control guards key use only) authenticates each use.
        if !material.secureEnclave, needsSecret(item, SecQuery(itemClass: .key)) { material.access = nil }
        let id = nextKey
        nextKey += 1
        keys[id] = material
        return .key(id)
    }

    // MARK: SecItemUpdate

    /// `SecItemUpdate`.
    public mutating func update(_ query: [String: SecValue], _ attributesToUpdate: [String: SecValue]) -> SecOutcome {
        finish(.update, Self.answer { () throws(SecOutcome) in try updateItems(query, attributesToUpdate) })
    }

    mutating func updateItems(_ dictionary: [String: SecValue], _ changes: [String: SecValue]) throws(SecOutcome) -> SecOutcome {
        let query = try SecQuery.parse(dictionary, for: .update)
        if let returnKey = dictionary.keys.sorted().first(where: { $0.hasPrefix("r_") }) {
            return SecOutcome(.param, rule: .u1, "\(returnKey) (kSecReturn…) in an update query is refused on iOS")
        }
        try checkSearchedGroup(query, for: .update)
        var newAttributes: [String: SecValue] = [:]
        var newData: [UInt8]?
        var newControl: SecAccessControlValue?
        for name in changes.keys.sorted() {
            guard let value = changes[name] else { continue }
            if name == SecName.kSecValueData {
                guard case .data(let bytes) = value else {
                    return SecOutcome(.param, rule: .u2, "kSecValueData must be data, not \(value.shortDescription)")
                }
                newData = bytes
                continue
            }
            if name == "musr" { continue }
            guard name.utf8.count == 4,
                query.itemClass.attributes.contains(name) || name == SecName.kSecAttrAccessGroup || name == SecName.kSecAttrSynchronizable
            else {
                return SecOutcome(
                    .noSuchAttr, rule: .u2,
                    "\"\(name)\" cannot be updated: attributesToUpdate holds only the class's attributes and kSecValueData")
            }
            switch name {
            case SecName.kSecAttrAccessControl:
                guard case .accessControl(let control) = value else {
                    return SecOutcome(.param, rule: .q16, "kSecAttrAccessControl must be a SecAccessControl")
                }
                newControl = control
            case SecName.kSecAttrAccessible:
                guard let text = value.stringValue, ProtectionClass(rawValue: text) != nil else {
                    return SecOutcome(.param, rule: .a1, "kSecAttrAccessible \(value.shortDescription) is not a protection class")
                }
                newAttributes[name] = value
            case SecName.kSecAttrAccessGroup:
                guard let group = value.stringValue else { return SecOutcome(.param, rule: .q6, "kSecAttrAccessGroup must be a string") }
                if let refusal = checkWritableGroup(group, rule: .u4) { return refusal }
                newAttributes[name] = value
            case SecName.kSecAttrSynchronizable:
                // A13′ (§9): Any in attributesToUpdate is accepted and ignored.
                if value == .string(SecName.kSecAttrSynchronizableAny) { continue }
                guard let flag = value.boolValue else { return SecOutcome(.param, rule: .q3, "kSecAttrSynchronizable must be a boolean") }
                newAttributes[name] = .number(flag ? 1 : 0)
            default:
                guard let normalized = value.normalized(for: name) else {
                    return SecOutcome(.param, rule: .q2, "\(value.shortDescription) is not a value of attribute \"\(name)\"")
                }
                newAttributes[name] = normalized
            }
        }
        if newControl != nil, newAttributes[SecName.kSecAttrAccessible] != nil {
            return SecOutcome(
                .param, rule: .a8,
                "attributesToUpdate has kSecAttrAccessible beside a kSecAttrAccessControl made by SecAccessControlCreateWithFlags")
        }
        let found = matches(query)
        guard !found.isEmpty else { return notFound(query, call: .update) }
        var prompts = 0
        var updated: [Int: StoredSecItem] = [:]
        let context = query.context ?? newContext()
        defer { if query.context == nil { releaseContext(context) } }
        for id in found {
            guard var item = items[id] else { continue }
            if !item.protection.isAvailable(in: device) {
                return SecOutcome(
                    .interactionNotAllowed, rule: .q11,
                    "the matching item \(describeKey(item)) is \(item.protection.rawValue) and the device is locked", prompts: prompts)
            }
            // U6 (§9): every update of an item whose access control has
            // constraints authenticates first, against the old access control.
            if needsSecret(item, query),
                let refusal = authorize(
                    item.access, .useItem, context: context, ui: query.authenticationUI,
                    reason: query.operationPrompt, call: SecCall.update.rawValue, prompts: &prompts),
                case .status(let status, let ruling, _) = refusal
            {
                return SecOutcome(status, ruling.restated("the update authenticates first (U6): \(ruling.reason)"), prompts: prompts)
            }
            for (name, value) in newAttributes { item.attributes[name] = value }
            let protection =
                newControl?.protection ?? newAttributes[SecName.kSecAttrAccessible]?.stringValue.flatMap(ProtectionClass.init(rawValue:))
            if protection != nil || newControl != nil {
                let flags = newControl?.flags ?? (newAttributes[SecName.kSecAttrAccessible] != nil ? [] : item.access.flags)
                let resolved = protection ?? item.protection
                if item.synchronizable, !flags.isEmpty || newControl != nil {
                    return SecOutcome(.param, rule: .a9, "a synchronizable item cannot carry a kSecAttrAccessControl", prompts: prompts)
                }
                switch bind(protection: resolved, flags: flags) {
                case .failure(var outcome):
                    outcome.prompts = prompts
                    return outcome
                case .success(let bound):
                    item.access = bound
                    item.accessValue = newControl ?? (newAttributes[SecName.kSecAttrAccessible] != nil ? nil : item.accessValue)
                    item.attributes[SecName.kSecAttrAccessible] = .string(resolved.rawValue)
                }
            }
            if item.synchronizable, item.accessValue != nil {
                return SecOutcome(.param, rule: .a9, "a synchronizable item cannot carry a kSecAttrAccessControl", prompts: prompts)
            }
            if let newData { item.data = newData }
            let previous =
                item.attributes[SecName.kSecAttrModificationDate].flatMap { value -> Double? in
                    if case .date(let time) = value { return time }
                    return nil
                } ?? 0
            item.attributes[SecName.kSecAttrModificationDate] = .date(max(now, previous + 0.001))
            updated[id] = item
        }
        var seen: [SecPrimaryKey: Int] = [:]
        for (id, item) in updated {
            if let other = seen[item.primaryKey], other != id {
                return SecOutcome(
                    .duplicateItem, rule: .u3, "the update gives two matching items the same primary key (\(describeKey(item)))",
                    prompts: prompts)
            }
            seen[item.primaryKey] = id
            if let holder = primaryKeys[item.primaryKey], holder != id, updated[holder] == nil, items[holder] != nil {
                return SecOutcome(
                    .duplicateItem, rule: .u3, "the update would give the item the primary key of another (\(describeKey(item)))",
                    prompts: prompts)
            }
        }
        for id in updated.keys.sorted() {
            guard let item = updated[id] else { continue }
            remove(id, keepingKey: true)
            insert(item, id: id)
        }
        var outcome = SecOutcome(.success, rule: .u1, "updated \(updated.count) item(s): every match, no limit", prompts: prompts)
        outcome.count = updated.count
        return outcome
    }

    // MARK: SecItemDelete

    /// `SecItemDelete`.
    public mutating func delete(_ query: [String: SecValue]) -> SecOutcome {
        finish(.delete, Self.answer { () throws(SecOutcome) in try deleteItems(query) })
    }

    mutating func deleteItems(_ dictionary: [String: SecValue]) throws(SecOutcome) -> SecOutcome {
        let query = try SecQuery.parse(dictionary, for: .delete)
        try checkSearchedGroup(query, for: .delete)
        let found = matches(query, includeLost: true)
        guard !found.isEmpty else { return notFound(query, call: .delete) }
        for id in found { remove(id) }
        let scope = query.syncGiven ? "" : " (non-synchronizable items only: no kSecAttrSynchronizable in the query)"
        var outcome = SecOutcome(.success, rule: .d1, "deleted \(found.count) item(s): every match\(scope); no prompt (D4)")
        outcome.count = found.count
        return outcome
    }
}
