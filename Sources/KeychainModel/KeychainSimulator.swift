import Crypto
import KeychainAccessControl

/// `kSecUseAuthenticationUI`.
public enum AuthenticationUI: String, Sendable, Hashable, CaseIterable, Codable {
    /// Prompt when needed (the default).
    case allow
    /// `copyMatching` only: protected items look absent (-25300); any other call answers -50.
    case skip
    /// Never prompt: -25308 wherever a prompt would be needed.
    case fail
}

/// A query of `copyMatching`, `update`, `delete`, `sign` and `evaluateAccessControl`.
public struct ItemQuery: Sendable, Hashable {
    public var attributes: ItemAttributes
    public var matchAll = false
    /// Only the secret changes the outcome (a read of protected data
    /// prompts); `returnAttributes`, `returnRef` and `operationPrompt` shape
    /// what an app sees, not the status or the prompts, so the model has none.
    public var returnData = false
    public var authenticationUI: AuthenticationUI = .allow

    public init(attributes: ItemAttributes) { self.attributes = attributes }
}

/// What one call returned: an OSStatus (or LAError for LAContext calls), the
/// prompts it raised, and what it read.
public struct StepOutcome: Sendable, Hashable {
    public var status: CallStatus
    public var prompts: Int
    public var data: [UInt8]? = nil
    public var count: Int? = nil
    public var signature: [UInt8]? = nil

    public init(status: CallStatus, prompts: Int = 0) {
        self.status = status
        self.prompts = prompts
    }
}

/// An in-memory keychain with SecItem semantics, LAContext reuse and a
/// simulated user (spec/keychain-flows.md). Access decisions go through
/// ``AccessControl/evaluate(_:device:evidence:)``; every prompt is counted.
public struct KeychainSimulator: Sendable {
    public static let success = CallStatus.success
    public static let paramError = CallStatus.keychain(.param)

    public private(set) var device: DeviceState
    var items: [StoredItem] = []
    public private(set) var contexts: [String: AuthenticationContext] = [:]
    /// Prompts raised since the simulator started.
    public private(set) var totalPrompts = 0

    public init(device: DeviceState = DeviceState()) { self.device = device }

    /// The access control of the first item matching `query`, if any.
    public func accessControl(matching query: ItemQuery) -> AccessControl? {
        items.first { $0.attributes.matches(query.attributes) }?.access
    }

    // MARK: - Items

    /// `SecItemAdd`. Keys added this way are software P-256 keys.
    public mutating func add(_ attributes: ItemAttributes, protection: ProtectionClass, flags: AccessControlFlags,
                             data: [UInt8], authenticationUI: AuthenticationUI = .allow) -> StepOutcome {
        if authenticationUI == .skip { return StepOutcome(status: Self.paramError) }
        return store(attributes, protection: protection, flags: flags, data: data, key: attributes.itemClass == .key ? P256.Signing.PrivateKey() : nil)
    }

    /// `SecKeyCreateRandomKey` with `kSecAttrIsPermanent`. A Secure Enclave
    /// key (`tokenID: secureEnclave`) without privateKeyUsage is generated,
    /// but its access control has no sign, decrypt or key-exchange entry.
    public mutating func generateKey(_ attributes: ItemAttributes, protection: ProtectionClass, flags: AccessControlFlags,
                                     authenticationUI: AuthenticationUI = .allow) -> StepOutcome {
        if authenticationUI == .skip { return StepOutcome(status: Self.paramError) }
        var attributes = attributes
        attributes.itemClass = .key
        return store(attributes, protection: protection, flags: flags, data: [], key: P256.Signing.PrivateKey())
    }

    mutating func store(_ attributes: ItemAttributes, protection: ProtectionClass, flags: AccessControlFlags,
                        data: [UInt8], key: P256.Signing.PrivateKey?) -> StepOutcome {
        let access: AccessControl
        do {
            access = try AccessControl.create(protection: protection, flags: flags, synchronizable: attributes.synchronizable ?? false,
                                              device: device)
        } catch {
            return StepOutcome(status: .keychain(error.code.status))
        }
        // A password item under privateKeyUsage: the access control has no entry to create it with.
        if case .notAllowed = access.rule(for: attributes.itemClass == .key ? .createKey : .createItem) {
            return StepOutcome(status: .keychain(KeychainError.Code.operationNotAllowed.status))
        }
        if items.contains(where: { $0.attributes.primaryKey == attributes.primaryKey }) {
            return StepOutcome(status: .keychain(KeychainError.Code.duplicateItem.status))
        }
        if !protection.isAvailable(in: device) { return StepOutcome(status: .keychain(KeychainError.Code.interactionNotAllowed.status)) }
        items.append(StoredItem(attributes: attributes, access: access, data: data, key: key))
        return StepOutcome(status: Self.success)
    }

    /// `SecItemCopyMatching`.
    public mutating func copyMatching(_ query: ItemQuery, context: String? = nil, user: UserAnswer? = nil) -> StepOutcome {
        var matches = items.indices.filter { items[$0].attributes.matches(query.attributes) }
        if !query.matchAll { matches = Array(matches.prefix(1)) }
        guard !matches.isEmpty else { return StepOutcome(status: .keychain(KeychainError.Code.itemNotFound.status)) }
        var prompts = 0
        var proved: Evidence = []
        var returned: [Int] = []
        for index in matches {
            let item = items[index]
            if !item.access.protection.isAvailable(in: device) {
                return StepOutcome(status: .keychain(KeychainError.Code.interactionNotAllowed.status), prompts: prompts)
            }
            let needsSecret = query.returnData && item.attributes.itemClass == .genericPassword
            if needsSecret && item.readNeedsAuthentication {
                if query.authenticationUI == .skip && !satisfied(item, .useItem, context: context, proved: proved) { continue }
                if let refusal = authorize(item, .useItem, context: context, user: user, ui: query.authenticationUI,
                                           prompts: &prompts, proved: &proved) {
                    return StepOutcome(status: refusal.keychainStatus, prompts: prompts)
                }
            }
            returned.append(index)
        }
        guard !returned.isEmpty else { return StepOutcome(status: .keychain(KeychainError.Code.itemNotFound.status), prompts: prompts) }
        var outcome = StepOutcome(status: Self.success, prompts: prompts)
        outcome.count = returned.count
        if query.returnData, let first = returned.first, items[first].attributes.itemClass == .genericPassword {
            outcome.data = items[first].data
        }
        return outcome
    }

    /// `SecItemUpdate`: `data` changes the secret (gated like a read), the
    /// attributes change the primary key (no collision allowed).
    public mutating func update(_ query: ItemQuery, service: String?, account: String?, data: [UInt8]?,
                                context: String? = nil, user: UserAnswer? = nil) -> StepOutcome {
        if query.authenticationUI == .skip { return StepOutcome(status: Self.paramError) }
        let matches = items.indices.filter { items[$0].attributes.matches(query.attributes) }
        guard !matches.isEmpty else { return StepOutcome(status: .keychain(KeychainError.Code.itemNotFound.status)) }
        var prompts = 0
        var proved: Evidence = []
        var changed = items
        for index in matches {
            let item = items[index]
            if !item.access.protection.isAvailable(in: device) {
                return StepOutcome(status: .keychain(KeychainError.Code.interactionNotAllowed.status), prompts: prompts)
            }
            if data != nil && item.readNeedsAuthentication {
                if let refusal = authorize(item, .useItem, context: context, user: user, ui: query.authenticationUI,
                                           prompts: &prompts, proved: &proved) {
                    return StepOutcome(status: refusal.keychainStatus, prompts: prompts)
                }
            }
            if let service { changed[index].attributes.service = service }
            if let account { changed[index].attributes.account = account }
            if let data { changed[index].data = data }
        }
        let keys = changed.map(\.attributes.primaryKey)
        if Set(keys).count != keys.count {
            return StepOutcome(status: .keychain(KeychainError.Code.duplicateItem.status), prompts: prompts)
        }
        items = changed
        var outcome = StepOutcome(status: Self.success, prompts: prompts)
        outcome.count = matches.count
        return outcome
    }

    /// `SecItemDelete`: every match, never gated by user presence.
    public mutating func delete(_ query: ItemQuery) -> StepOutcome {
        if query.authenticationUI == .skip { return StepOutcome(status: Self.paramError) }
        let before = items.count
        items.removeAll { $0.attributes.matches(query.attributes) }
        guard items.count < before else { return StepOutcome(status: .keychain(KeychainError.Code.itemNotFound.status)) }
        var outcome = StepOutcome(status: Self.success)
        outcome.count = before - items.count
        return outcome
    }

    /// `SecKeyCreateSignature` with a key fetched by `query` (ECDSA P-256, SHA-256).
    public mutating func sign(_ query: ItemQuery, message: [UInt8], context: String? = nil, user: UserAnswer? = nil) -> StepOutcome {
        if query.authenticationUI == .skip { return StepOutcome(status: Self.paramError) }
        var keyQuery = query.attributes
        keyQuery.itemClass = .key
        guard let index = items.indices.first(where: { items[$0].attributes.matches(keyQuery) }), let key = items[index].key else {
            return StepOutcome(status: .keychain(KeychainError.Code.itemNotFound.status))
        }
        var prompts = 0
        var proved: Evidence = []
        if let refusal = authorize(items[index], .useKeySign, context: context, user: user, ui: query.authenticationUI,
                                   prompts: &prompts, proved: &proved) {
            return StepOutcome(status: refusal.keychainStatus, prompts: prompts)
        }
        var outcome = StepOutcome(status: Self.success, prompts: prompts)
        outcome.signature = (try? key.signature(for: message)).map { Array($0.derRepresentation) }
        return outcome
    }

    // MARK: - LAContext

    /// `LAContext.evaluatePolicy`: one prompt; what is proved stays in the context.
    public mutating func evaluatePolicy(_ policy: AuthenticationPolicy, context label: String, user: UserAnswer?) -> StepOutcome {
        if let invalid = invalidContextStatus(label) { return StepOutcome(status: invalid) }
        var context = contexts[label] ?? AuthenticationContext()
        if let obstacle = AuthenticationContext.obstacle(policy, device: device) {
            contexts[label] = context
            return StepOutcome(status: .localAuthentication(obstacle))
        }
        totalPrompts += 1
        let status: CallStatus
        switch user {
        case .biometry? where device.biometryUsable:
            context.record(.biometry)
            // Only a successful biometric evaluation sets the domain state.
            context.domainState = device.enrollmentGeneration
            status = Self.success
        case .passcode? where policy == .deviceOwnerAuthentication && device.passcodeSet:
            context.record(.passcode)
            status = Self.success
        case .passcode? where policy == .deviceOwnerAuthenticationWithBiometrics:
            status = .localAuthentication(.userFallback)
        case .cancel?, nil:
            status = .localAuthentication(.userCancel)
        default:
            status = .localAuthentication(.authenticationFailed)
        }
        contexts[label] = context
        return StepOutcome(status: status, prompts: 1)
    }

    /// `LAContext.evaluateAccessControl` for the item found by `query`: one
    /// prompt unless the context already satisfies the operation's tree; an
    /// operation the access control has no entry for answers -1009 unprompted.
    public mutating func evaluateAccessControl(_ query: ItemQuery, operation: KeychainOperation, context label: String,
                                               user: UserAnswer?) -> StepOutcome {
        if let invalid = invalidContextStatus(label) { return StepOutcome(status: invalid) }
        guard let item = items.first(where: { $0.attributes.matches(query.attributes) }) else {
            return StepOutcome(status: .keychain(KeychainError.Code.itemNotFound.status))
        }
        if contexts[label] == nil { contexts[label] = AuthenticationContext() }
        var prompts = 0
        var proved: Evidence = []
        guard let refusal = authorize(item, operation, context: label, user: user, ui: query.authenticationUI, prompts: &prompts,
                                      proved: &proved, ignoreProtectionClass: true) else {
            return StepOutcome(status: Self.success, prompts: prompts)
        }
        return StepOutcome(status: refusal.laStatus, prompts: prompts)
    }

    /// `LAContext.canEvaluatePolicy`: no prompt. A successful check of the
    /// biometric policy sets the context's domain state.
    public mutating func canEvaluatePolicy(_ policy: AuthenticationPolicy, context label: String?) -> StepOutcome {
        let obstacle = AuthenticationContext.obstacle(policy, device: device)
        if let label {
            if let invalid = invalidContextStatus(label) { return StepOutcome(status: invalid) }
            var context = contexts[label] ?? AuthenticationContext()
            if obstacle == nil && policy == .deviceOwnerAuthenticationWithBiometrics { context.domainState = device.enrollmentGeneration }
            contexts[label] = context
        }
        return StepOutcome(status: obstacle.map(CallStatus.localAuthentication) ?? Self.success)
    }

    /// `LAContext.invalidate()`.
    public mutating func invalidate(context label: String) -> StepOutcome {
        var context = contexts[label] ?? AuthenticationContext()
        context.invalidate()
        contexts[label] = context
        return StepOutcome(status: Self.success)
    }

    /// A device event; items that no longer exist (akpu after passcode
    /// removal, ThisDeviceOnly after a restore) leave the store.
    public mutating func apply(_ event: DeviceEvent) -> StepOutcome {
        device.apply(event)
        items.removeAll { !$0.access.exists(on: device) }
        return StepOutcome(status: Self.success)
    }

    // MARK: - Authorization

    /// Why `authorize` refused: a keychain decision, or what LocalAuthentication answered.
    enum Refusal {
        case denied(KeychainError.Code)
        case localAuthentication(LAErrorCode)

        /// What a SecItem or SecKey call answers.
        var keychainStatus: CallStatus {
            switch self {
            case .denied(let code): return .keychain(code.status)
            case .localAuthentication(let error): return .keychain(error.keychainStatus)
            }
        }

        /// What an LAContext call answers.
        var laStatus: CallStatus {
            switch self {
            case .denied(.operationNotAllowed): return .localAuthentication(.operationNotAllowed)
            case .denied(.interactionNotAllowed): return .keychain(KeychainError.Code.interactionNotAllowed.status)
            case .denied: return .localAuthentication(.authenticationFailed)
            case .localAuthentication(let error): return .localAuthentication(error)
            }
        }
    }

    /// LAContext calls on an invalidated context answer invalidContext (-10).
    func invalidContextStatus(_ label: String?) -> CallStatus? {
        guard let label, contexts[label]?.invalidated == true else { return nil }
        return .localAuthentication(.invalidContext)
    }

    func satisfied(_ item: StoredItem, _ operation: KeychainOperation, context: String?, proved: Evidence) -> Bool {
        let evidence = proved.union(context.flatMap { contexts[$0]?.evidence } ?? [])
        return item.evaluate(operation, device: device, evidence: evidence) == .allowed
    }

    /// Decides `operation` on `item`, prompting the simulated user when the
    /// context (and this call) have not proved enough. nil: allowed. A call
    /// through an invalidated context that needs authentication fails
    /// (invalidContext → -25293) without a prompt; `ui: fail` forbids the prompt.
    mutating func authorize(
        _ item: StoredItem, _ operation: KeychainOperation, context: String?, user: UserAnswer?, ui: AuthenticationUI,
        prompts: inout Int, proved: inout Evidence, ignoreProtectionClass: Bool = false
    ) -> Refusal? {
        var state = device
        if ignoreProtectionClass { state.locked = false; state.unlockedSinceBoot = true }
        let known = proved.union(context.flatMap { contexts[$0]?.evidence } ?? [])
        switch item.evaluate(operation, device: state, evidence: known) {
        case .allowed: return nil
        case .denied(let code): return .denied(code)
        case .needsAuthentication:
            if let context, contexts[context]?.invalidated == true { return .localAuthentication(.invalidContext) }
            if ui == .fail { return .localAuthentication(.notInteractive) }
            prompts += 1
            totalPrompts += 1
            let answer: Evidence
            switch user {
            case .cancel?, nil: return .localAuthentication(.userCancel)
            case .fail?: return .localAuthentication(.authenticationFailed)
            case .biometry?: answer = state.biometryUsable ? .biometry : []
            case .passcode?: answer = state.passcodeSet ? .passcode : []
            }
            proved.formUnion(answer)
            if let context { contexts[context, default: AuthenticationContext()].record(answer) }
            return item.evaluate(operation, device: state, evidence: proved.union(known)) == .allowed
                ? nil : .localAuthentication(.authenticationFailed)
        }
    }
}
