import TrustSuiteSupport

/// `keychain-flow` (docs/traces.md, keychain-flow): a trace of SecItem
/// and LAContext calls; each step answers `{status, prompts}` (plus `data`
/// and `count` for reads).
public enum KeychainFlowFamily: FamilyContract {
    public static var family: Family { .keychainFlow }

    public enum Op: String, StrictVocabulary {
        case add, generateKey, copyMatching, update, delete, sign
        case evaluatePolicy, canEvaluatePolicy, evaluateAccessControl, invalidateContext, device
    }

    public enum ItemClass: String, StrictVocabulary { case genericPassword, key }
    public enum AuthenticationUI: String, StrictVocabulary { case allow, skip, fail }
    public enum MatchLimit: String, StrictVocabulary { case one, all }
    public enum Policy: String, StrictVocabulary { case deviceOwnerAuthentication, deviceOwnerAuthenticationWithBiometrics }

    /// What `add` and `generateKey` create.
    public struct Item: Decodable, Sendable {
        public var `class`: ItemClass?
        public var service: String?
        public var account: String?
        public var accessGroup: String?
        public var applicationTag: String?
        public var keyClass: String?
        public var tokenID: String?
        public var protection: String?
        public var flags: [String]?
        public var synchronizable: Bool?
        public var data: Base64Bytes?
        public var useAuthenticationUI: AuthenticationUI?

        /// An item as a trace writes it (a Swift caller builds one without JSON).
        public init(
            class itemClass: ItemClass? = nil, service: String? = nil, account: String? = nil, accessGroup: String? = nil,
            applicationTag: String? = nil, keyClass: String? = nil, tokenID: String? = nil, protection: String? = nil,
            flags: [String]? = nil, synchronizable: Bool? = nil, data: [UInt8]? = nil, useAuthenticationUI: AuthenticationUI? = nil
        ) {
            self.class = itemClass
            self.service = service
            self.account = account
            self.accessGroup = accessGroup
            self.applicationTag = applicationTag
            self.keyClass = keyClass
            self.tokenID = tokenID
            self.protection = protection
            self.flags = flags
            self.synchronizable = synchronizable
            self.data = data.map(Base64Bytes.init)
            self.useAuthenticationUI = useAuthenticationUI
        }
    }

    /// The query of `copyMatching`, `update`, `delete`, `sign`, `evaluateAccessControl`.
    /// `returnAttributes`, `returnRef` and `operationPrompt` are part of the
    /// call (docs/traces.md) but change neither status nor prompts,
    /// the only answers a step has; the reference reads none of them.
    public struct Query: Decodable, Sendable {
        public var `class`: ItemClass?
        public var service: String?
        public var account: String?
        public var accessGroup: String?
        public var synchronizable: Bool?
        public var applicationTag: String?
        public var keyClass: String?
        public var tokenID: String?
        public var matchLimit: MatchLimit?
        /// `kSecAttrAccessible` in the query: a filter (rule book Q4).
        public var protection: String?
        public var returnData: Bool?
        public var returnAttributes: Bool?
        public var returnRef: Bool?
        public var useAuthenticationUI: AuthenticationUI?
        public var operationPrompt: String?

        /// A query as a trace writes it (a Swift caller builds one without JSON).
        public init(
            class itemClass: ItemClass? = nil, service: String? = nil, account: String? = nil, accessGroup: String? = nil,
            synchronizable: Bool? = nil, applicationTag: String? = nil, keyClass: String? = nil, tokenID: String? = nil,
            matchLimit: MatchLimit? = nil, protection: String? = nil, returnData: Bool? = nil,
            useAuthenticationUI: AuthenticationUI? = nil
        ) {
            self.class = itemClass
            self.service = service
            self.account = account
            self.accessGroup = accessGroup
            self.synchronizable = synchronizable
            self.applicationTag = applicationTag
            self.keyClass = keyClass
            self.tokenID = tokenID
            self.matchLimit = matchLimit
            self.protection = protection
            self.returnData = returnData
            self.useAuthenticationUI = useAuthenticationUI
        }
    }

    /// What `update` may change.
    public struct Changes: Decodable, Sendable {
        public var service: String?
        public var account: String?
        public var data: Base64Bytes?

        public init(service: String? = nil, account: String? = nil, data: [UInt8]? = nil) {
            self.service = service
            self.account = account
            self.data = data.map(Base64Bytes.init)
        }
    }

    public struct Step: TraceStep {
        public var op: Op
        public var item: Item?
        public var query: Query?
        public var changes: Changes?
        public var message: Base64Bytes?
        public var operation: KeychainOperationName?
        public var policy: Policy?
        public var context: String?
        public var event: DeviceEventName?
        public var user: UserName?
        public var expect: Answer?
    }

    public struct Answer: Codable, Hashable, Sendable {
        /// The OSStatus (`0`, `-25300` …).
        public var status: Int32
        public var prompts: Int
        public var data: String?
        public var count: Int?
    }

    public struct Input: Decodable, Sendable {
        public var device: DeviceShape?
        public var steps: [Step]
    }

    public struct Output: Decodable, Sendable {
        public var steps: [Answer]
    }

    public static func problem(_ input: Input, output: Output?, flags: [String]) -> String? {
        Trace.problem(input.steps, output: output?.steps)
    }
}
