import KeychainAccessControl
import KeychainModel
import TrustSuiteSupport
import VectorContract

/// What one call returned: an OSStatus (or LAError for LAContext calls and
/// Secure Enclave key operations), the prompts it raised, and what it read.
public struct StepOutcome: Sendable, Hashable {
    public var status: CallStatus
    public var prompts: Int
    public var data: [UInt8]? = nil
    public var count: Int? = nil
    public var signature: [UInt8]? = nil
    /// The rule that decided the status, and why (``KeychainEngine``'s explanation).
    public var explanation: String? = nil

    public init(status: CallStatus, prompts: Int = 0) {
        self.status = status
        self.prompts = prompts
    }
}

/// The keychain-flow vocabulary (docs/models/keychain-flows.md) over
/// ``KeychainEngine``: one model, two vocabularies. It lives with the
/// reference subject, not in the model: the engine keeps only the
/// keychain, and the trace vocabulary is translated into Apple's calls here. Each call is translated
/// into the engine's Apple-keyed dictionary and answered as the engine
/// answers; contexts are named by label, and a step's `user` is the answer
/// to the prompt that step raises (none: the strict default, a cancel).
public struct KeychainSimulator: Sendable {
    public typealias Flow = KeychainFlowFamily

    public static let success = CallStatus.success
    public static let paramError = CallStatus.keychain(.param)

    public private(set) var engine: KeychainEngine
    var labels: [String: Int] = [:]

    public init(device: DeviceState = DeviceState()) { engine = KeychainEngine(device: device) }

    public var device: DeviceState { engine.device }
    /// Prompts raised since the simulator started.
    public var totalPrompts: Int { engine.prompts.count }

    /// The contexts by label, as the engine keeps them: what each proved
    /// (until invalidated) and its biometry domain state.
    package var contexts: [String: KeychainEngine.ContextSnapshot] { labels.compactMapValues { engine.contextState($0) } }

    /// The access control that governs the first item matching `query`, if
    /// any (a Secure Enclave key's travels with the key: K5).
    public func accessControl(matching query: Flow.Query) -> AccessControl? {
        (try? Self.dictionary(query)).flatMap(engine.governingAccessControl(matching:))
    }

    // MARK: Translation

    mutating func context(_ label: String?) -> Int? {
        guard let label else { return nil }
        if let id = labels[label] { return id }
        let id = engine.newContext()
        labels[label] = id
        return id
    }

    /// The step's answer, queued for the prompt it may raise; `passcode` under
    /// the biometric policy is the fallback button (the trace vocabulary's reading).
    mutating func queue(_ user: UserAnswer?, biometricPolicy: Bool = false) {
        switch user {
        case .biometry?: engine.answers = [.biometryMatch]
        case .passcode?: engine.answers = [biometricPolicy ? .fallback : .passcode]
        case .fail?: engine.answers = [.biometryNoMatch]
        case .cancel?: engine.answers = [.cancel]
        case nil: engine.answers = []
        }
    }

    /// The attributes a trace's item or query names, as the engine's
    /// Apple-keyed dictionary, for an item of `itemClass`.
    static func attributes(_ named: some FlowAttributes, itemClass: Flow.ItemClass) -> [String: SecValue] {
        var result: [String: SecValue] = [
            SecName.kSecClass: .string(itemClass == .key ? SecName.kSecClassKey : SecName.kSecClassGenericPassword)
        ]
        if let service = named.service { result[SecName.kSecAttrService] = .string(service) }
        if let account = named.account { result[SecName.kSecAttrAccount] = .string(account) }
        if let group = named.accessGroup { result[SecName.kSecAttrAccessGroup] = .string(group) }
        if let synchronizable = named.synchronizable { result[SecName.kSecAttrSynchronizable] = .bool(synchronizable) }
        if let tag = named.applicationTag { result[SecName.kSecAttrApplicationTag] = .string(tag) }
        if let keyClass = named.keyClass {
            result[SecName.kSecAttrKeyClass] = .number(keyClass == "public" ? 0 : keyClass == "symmetric" ? 2 : 1)
        }
        if named.tokenID == "secureEnclave" { result[SecName.kSecAttrTokenID] = .string(SecName.kSecAttrTokenIDSecureEnclave) }
        if let ui = named.useAuthenticationUI, ui != .allow { result[SecName.kSecUseAuthenticationUI] = constant(ui) }
        return result
    }

    /// A trace's query as the engine's dictionary: its attributes (its
    /// `class`, else `defaultClass`), match limit, data return and
    /// `kSecAttrAccessible` filter (Q4).
    static func dictionary(
        _ query: Flow.Query?, defaultClass: Flow.ItemClass = .genericPassword
    ) throws(ReferenceInputError) -> [String: SecValue] {
        let query = query ?? Flow.Query()
        var result = attributes(query, itemClass: query.class ?? defaultClass)
        if query.matchLimit == .all { result[SecName.kSecMatchLimit] = .string(SecName.kSecMatchLimitAll) }
        if query.returnData == true { result[SecName.kSecReturnData] = .bool(true) }
        if let protection = query.protection {
            result[SecName.kSecAttrAccessible] = .string(try KeychainJSON.protection(protection).rawValue)
        }
        return result
    }

    /// `kSecUseAuthenticationUI`'s constant.
    static func constant(_ ui: Flow.AuthenticationUI) -> SecValue {
        switch ui {
        case .allow: .string(SecName.kSecUseAuthenticationUIAllow)
        case .skip: .string(SecName.kSecUseAuthenticationUISkip)
        case .fail: .string(SecName.kSecUseAuthenticationUIFail)
        }
    }

    static func outcome(_ secOutcome: SecOutcome) -> StepOutcome {
        var outcome = StepOutcome(status: .keychain(secOutcome.status), prompts: secOutcome.prompts)
        outcome.explanation = secOutcome.explanation
        return outcome
    }

    static func outcome(_ failure: SecFailure, prompts: Int) -> StepOutcome {
        var outcome = StepOutcome(
            status: failure.laCode.flatMap(LAErrorCode.init(rawValue:)).map(CallStatus.localAuthentication) ?? .keychain(failure.status),
            prompts: prompts)
        outcome.explanation = failure.explanation
        return outcome
    }

    static func outcome(_ laOutcome: LAOutcome) -> StepOutcome {
        var outcome = StepOutcome(status: laOutcome.code.map(CallStatus.localAuthentication) ?? .success, prompts: laOutcome.prompts)
        outcome.explanation = laOutcome.explanation
        return outcome
    }

    /// The access-control value (or plain protection) an item is created with.
    mutating func protect(_ dictionary: inout [String: SecValue], _ item: Flow.Item) throws(ReferenceInputError) -> StepOutcome? {
        let protection = try KeychainJSON.protection(item.protection)
        let flags = try KeychainJSON.flags(item.flags)
        guard !flags.isEmpty else {
            dictionary[SecName.kSecAttrAccessible] = .string(protection.rawValue)
            return nil
        }
        switch engine.createAccessControl(protection: .string(protection.rawValue), flags: UInt64(flags.rawValue)) {
        case .success(let control): dictionary[SecName.kSecAttrAccessControl] = .accessControl(control)
        case .failure(let failure): return Self.outcome(failure, prompts: 0)
        }
        return nil
    }

    // MARK: Items

    /// `SecItemAdd`. Keys added this way are software P-256 keys.
    public mutating func add(_ item: Flow.Item) throws(ReferenceInputError) -> StepOutcome {
        let itemClass = item.class ?? .genericPassword
        if itemClass == .key { return try generateKey(item) }
        var dictionary = Self.attributes(item, itemClass: itemClass)
        dictionary[SecName.kSecValueData] = .data(item.data?.bytes ?? [])
        if let refusal = try protect(&dictionary, item) { return refusal }
        return Self.outcome(engine.add(dictionary, wantsResult: false))
    }

    /// `SecKeyCreateRandomKey` with `kSecAttrIsPermanent`: a P-256 key, in the
    /// Secure Enclave when `tokenID` is `secureEnclave`.
    public mutating func generateKey(_ item: Flow.Item) throws(ReferenceInputError) -> StepOutcome {
        var parameters = Self.attributes(item, itemClass: .key)
        parameters[SecName.kSecClass] = nil
        parameters[SecName.kSecAttrKeyType] = .number(73)
        parameters[SecName.kSecAttrKeySizeInBits] = .number(256)
        parameters[SecName.kSecAttrIsPermanent] = .bool(true)
        if let refusal = try protect(&parameters, item) { return refusal }
        switch engine.createRandomKey(parameters) {
        case .success(let key):
            engine.releaseKey(key)
            return loggedSuccess()
        case .failure(let failure):
            return Self.outcome(failure, prompts: 0)
        }
    }

    /// `SecItemCopyMatching`: `count` is the number of items the call found, `data` the first one's secret.
    public mutating func copyMatching(
        _ query: Flow.Query?, context label: String? = nil, user: UserAnswer? = nil
    ) throws(ReferenceInputError) -> StepOutcome {
        var dictionary = try Self.dictionary(query)
        if let id = context(label) { dictionary[SecName.kSecUseAuthenticationContext] = .context(id) }
        queue(user)
        let found = engine.copyMatching(dictionary, wantsResult: true)
        engine.answers = []
        var outcome = Self.outcome(found)
        guard found.status == .success else { return outcome }
        outcome.count = found.count
        if query?.returnData == true, (query?.class ?? .genericPassword) == .genericPassword {
            switch found.result {
            case .data(let bytes)?: outcome.data = bytes
            case .array(let values)?:
                if case .data(let bytes)? = values.first { outcome.data = bytes }
            default: break
            }
        }
        return outcome
    }

    /// `SecItemUpdate`: `data` replaces the secret (authenticated as a read: U6).
    public mutating func update(
        _ query: Flow.Query?, changes given: Flow.Changes?, context label: String? = nil, user: UserAnswer? = nil
    ) throws(ReferenceInputError) -> StepOutcome {
        var dictionary = try Self.dictionary(query)
        if let id = context(label) { dictionary[SecName.kSecUseAuthenticationContext] = .context(id) }
        var changes: [String: SecValue] = [:]
        if let service = given?.service { changes[SecName.kSecAttrService] = .string(service) }
        if let account = given?.account { changes[SecName.kSecAttrAccount] = .string(account) }
        if let data = given?.data { changes[SecName.kSecValueData] = .data(data.bytes) }
        queue(user)
        let updated = engine.update(dictionary, changes)
        engine.answers = []
        var outcome = Self.outcome(updated)
        outcome.count = updated.count
        return outcome
    }

    /// `SecItemDelete`: every match, never a prompt.
    public mutating func delete(_ query: Flow.Query?) throws(ReferenceInputError) -> StepOutcome {
        let deleted = engine.delete(try Self.dictionary(query))
        var outcome = Self.outcome(deleted)
        outcome.count = deleted.count
        return outcome
    }

    /// `SecKeyCreateSignature` with the key `query` finds (fetched with the
    /// context, as `kSecUseAuthenticationContext` does): ECDSA P-256, SHA-256.
    public mutating func sign(
        _ query: Flow.Query?, message: [UInt8], context label: String? = nil, user: UserAnswer? = nil
    ) throws(ReferenceInputError) -> StepOutcome {
        var item = query ?? Flow.Query()
        item.class = .key
        item.returnData = false
        if item.useAuthenticationUI == .skip { return StepOutcome(status: Self.paramError) }
        var dictionary = try Self.dictionary(item)
        dictionary[SecName.kSecReturnRef] = .bool(true)
        if let id = context(label) { dictionary[SecName.kSecUseAuthenticationContext] = .context(id) }
        let found = engine.copyMatching(dictionary, wantsResult: true)
        guard found.status == .success, case .key(let key)? = found.result else { return Self.outcome(found) }
        defer { engine.releaseKey(key) }
        queue(user)
        let before = engine.prompts.count
        let signed = engine.sign(key: key, algorithm: SecName.kSecKeyAlgorithmECDSASignatureMessageX962SHA256, data: message)
        engine.answers = []
        let prompts = engine.prompts.count - before
        switch signed {
        case .success(let signature):
            var outcome = loggedSuccess(prompts: prompts)
            outcome.signature = signature
            return outcome
        case .failure(let failure):
            return Self.outcome(failure, prompts: prompts)
        }
    }

    // MARK: LAContext

    /// The reason the trace vocabulary's evaluations show (it names none).
    static let reason = "TrustSuite keychain-flow trace"

    /// `LAContext.evaluatePolicy`.
    public mutating func evaluatePolicy(_ policy: Flow.Policy, context label: String, user: UserAnswer?) -> StepOutcome {
        guard let id = context(label) else { return StepOutcome(status: Self.paramError) }
        queue(user, biometricPolicy: policy == .deviceOwnerAuthenticationWithBiometrics)
        let outcome = engine.evaluatePolicy(context: id, policy: policy.rawPolicy, reason: Self.reason)
        engine.answers = []
        return Self.outcome(outcome)
    }

    /// `LAContext.evaluateAccessControl` with the access control of the item `query` finds.
    public mutating func evaluateAccessControl(
        _ query: Flow.Query?, operation: KeychainOperation, context label: String,
        user: UserAnswer?
    ) throws(ReferenceInputError) -> StepOutcome {
        guard let id = context(label),
            let raw = LAAccessControlOperationValue.allCases.first(where: { $0.operation == operation })?.rawValue
        else { return StepOutcome(status: .localAuthentication(.parameter)) }
        queue(user)
        let itemQuery = try Self.dictionary(query, defaultClass: .key)
        let evaluated = engine.evaluateAccessControl(context: id, itemQuery: itemQuery, operation: raw, reason: Self.reason)
        engine.answers = []
        switch evaluated {
        case .success(let outcome): return Self.outcome(outcome)
        case .failure(let outcome): return Self.outcome(outcome)
        }
    }

    /// `LAContext.canEvaluatePolicy`: no prompt; without a label, on a context of its own.
    public mutating func canEvaluatePolicy(_ policy: Flow.Policy, context label: String?) -> StepOutcome {
        let id = context(label) ?? engine.newContext()
        defer { if label == nil { engine.releaseContext(id) } }
        return Self.outcome(engine.canEvaluatePolicy(context: id, policy: policy.rawPolicy))
    }

    /// `LAContext.invalidate()`.
    public mutating func invalidate(context label: String) -> StepOutcome {
        guard let id = context(label) else { return StepOutcome(status: Self.paramError) }
        engine.invalidate(context: id)
        return loggedSuccess()
    }

    /// A device event.
    public mutating func apply(_ event: DeviceEvent) -> StepOutcome {
        engine.apply(event)
        return loggedSuccess()
    }

    /// A step that answers success, explained as the engine logged its last call.
    func loggedSuccess(prompts: Int = 0) -> StepOutcome {
        var outcome = StepOutcome(status: Self.success, prompts: prompts)
        outcome.explanation = engine.calls.last?.explanation
        return outcome
    }
}

extension KeychainFlowFamily.Policy {
    var rawPolicy: Int {
        switch self {
        case .deviceOwnerAuthenticationWithBiometrics: LAPolicyValue.deviceOwnerAuthenticationWithBiometrics.rawValue
        case .deviceOwnerAuthentication: LAPolicyValue.deviceOwnerAuthentication.rawValue
        }
    }
}

/// What a trace's item and query both name: the attributes the engine's
/// dictionary is built from (``KeychainSimulator/attributes(_:itemClass:)``).
protocol FlowAttributes {
    var service: String? { get }
    var account: String? { get }
    var accessGroup: String? { get }
    var synchronizable: Bool? { get }
    var applicationTag: String? { get }
    var keyClass: String? { get }
    var tokenID: String? { get }
    var useAuthenticationUI: KeychainFlowFamily.AuthenticationUI? { get }
}

extension KeychainFlowFamily.Item: FlowAttributes {}
extension KeychainFlowFamily.Query: FlowAttributes {}
