import TrustSuiteSupport

/// `apple-api` (docs/apple-api.md, "Vectors in Apple's vocabulary"): a trace
/// of Apple's own calls — SecItem, SecAccessControl, SecKey, LAContext,
/// LARight and its store, DCAppAttestService and DCDevice — with
/// dictionaries keyed by the constants' names, and the simulation's
/// `device`, `user`, `clock` and `appAttest` steps. Each step answers its status, the
/// prompts it raised and its result's shape and content.
public enum AppleAPIFamily: FamilyContract {
    public static var family: Family { .appleAPI }

    /// A step's call: Apple's function or method name, or a simulation step.
    public enum Call: String, StrictVocabulary {
        case secItemAdd = "SecItemAdd"
        case secItemCopyMatching = "SecItemCopyMatching"
        case secItemUpdate = "SecItemUpdate"
        case secItemDelete = "SecItemDelete"
        case secAccessControlCreateWithFlags = "SecAccessControlCreateWithFlags"
        case secKeyCreateRandomKey = "SecKeyCreateRandomKey"
        case secKeyCopyPublicKey = "SecKeyCopyPublicKey"
        case secKeyCreateSignature = "SecKeyCreateSignature"
        case secKeyVerifySignature = "SecKeyVerifySignature"
        case secKeyCopyExternalRepresentation = "SecKeyCopyExternalRepresentation"
        case laContext = "LAContext"
        case canEvaluatePolicy = "LAContext.canEvaluatePolicy"
        case evaluatePolicy = "LAContext.evaluatePolicy"
        case evaluateAccessControl = "LAContext.evaluateAccessControl"
        case invalidate = "LAContext.invalidate"
        case setContext = "LAContext.set"
        case evaluatedPolicyDomainState = "LAContext.evaluatedPolicyDomainState"
        case laRight = "LARight"
        case authorize = "LARight.authorize"
        case checkCanAuthorize = "LARight.checkCanAuthorize"
        case deauthorize = "LARight.deauthorize"
        case saveRight = "LARightStore.saveRight"
        case loadRight = "LARightStore.right"
        case removeRight = "LARightStore.removeRight"
        case removeAllRights = "LARightStore.removeAllRights"
        case signWithRight = "LAPrivateKey.sign"
        case verifyWithRight = "LAPublicKey.verify"
        case exportRightKey = "LAPublicKey.exportBytes"
        case loadSecret = "LASecret.loadData"
        case generateKey = "DCAppAttestService.generateKey"
        case attestKey = "DCAppAttestService.attestKey"
        case generateAssertion = "DCAppAttestService.generateAssertion"
        case generateToken = "DCDevice.generateToken"
        case device, user, clock
        /// The simulated App Attest device: a one-shot failure, support on or off, a reinstall.
        case appAttest
    }

    /// `LAAuthenticationRequirement` by Apple's names (rule book LA11).
    public enum Requirement: String, StrictVocabulary {
        case `default`, biometry, biometryCurrentSet
        case biometryFallbackDefault = "biometry(fallback: default)"
        case biometryFallbackDevicePasscode = "biometry(fallback: devicePasscode)"
    }

    /// The App Attest calls a one-shot failure targets.
    public enum AttestCall: String, StrictVocabulary { case generateKey, attestKey, generateAssertion, generateToken }
    /// `DCError.Code` by name.
    public enum DCErrorName: String, StrictVocabulary {
        case unknownSystemFailure, featureUnsupported, invalidInput, invalidKey, serverUnavailable
    }

    public enum Biometry: String, StrictVocabulary { case none, touchID, faceID, opticID }
    public enum Companion: String, StrictVocabulary { case watch, mac, vision, watchUnlockOnly = "watch-unlock-only" }
    public enum Answer: String, StrictVocabulary {
        case biometryMatch, biometryNoMatch, passcode, cancel, fallback, systemCancel, companion
    }
    public enum Policy: String, StrictVocabulary {
        case deviceOwnerAuthenticationWithBiometrics, deviceOwnerAuthentication, deviceOwnerAuthenticationWithCompanion
        case deviceOwnerAuthenticationWithBiometricsOrCompanion
    }
    public enum Operation: String, StrictVocabulary {
        case createItem, useItem, createKey, useKeySign, useKeyDecrypt, useKeyKeyExchange
    }
    public enum Event: String, StrictVocabulary {
        case lock, unlock, reboot, passcodeRemoved, passcodeSet, biometryEnrollmentChanged, biometryLockout
    }

    /// The app: its application identifier and groups in entitlement order.
    public struct App: Decodable, Sendable {
        public var applicationIdentifier: String?
        public var keychainAccessGroups: [String]?
        public var applicationGroups: [String]?
    }

    /// The device; absent fields: unlocked, passcode set, Face ID enrolled, no companion.
    public struct Device: Decodable, Sendable {
        public var biometry: Biometry?
        public var enrolled: Bool?
        public var passcodeSet: Bool?
        public var locked: Bool?
        public var lockedOut: Bool?
        public var companions: [Companion]?
    }

    public struct Step: TraceStep {
        public var call: Call
        /// SecItemAdd's attributes; SecKeyCreateRandomKey's parameters.
        public var attributes: [String: JSONValue]?
        public var query: [String: JSONValue]?
        public var attributesToUpdate: [String: JSONValue]?
        /// Whether a result pointer is passed (SecItemAdd: default false; SecItemCopyMatching: default true).
        public var result: Bool?
        /// SecAccessControlCreateWithFlags: `{"constant": "kSecAttrAccessible…"}` and the flags' names.
        public var protection: JSONValue?
        public var flags: [String]?
        /// The label the step's object is kept under (a context, an access control, a key, a signature).
        public var `as`: String?
        public var key: String?
        public var algorithm: String?
        public var data: JSONValue?
        public var signature: String?
        public var context: String?
        public var accessControl: String?
        public var policy: Policy?
        public var localizedReason: String?
        public var operation: Operation?
        public var interactionNotAllowed: Bool?
        public var touchIDAuthenticationAllowableReuseDuration: Double?
        /// LAContext.evaluatedPolicyDomainState: the label of a domain state to compare with.
        public var compare: String?
        public var event: Event?
        public var answers: [Answer]?
        public var advance: Double?
        /// LARight: the requirement; the right steps: the right's label (`as` of `LARight` or `LARightStore.right`).
        public var requirement: Requirement?
        public var right: String?
        /// LARightStore: the identifier; saveRight's optional secret (`{"data"}`).
        public var identifier: String?
        public var secret: JSONValue?
        /// DCAppAttestService: the hash given (`{"data"}`).
        public var clientDataHash: JSONValue?
        /// appAttest: queue `fail` for `failCall` once; set `supported`; `reinstall` the app.
        public var fail: DCErrorName?
        public var failCall: AttestCall?
        public var supported: Bool?
        public var reinstall: Bool?
        public var expect: StepAnswer?
    }

    /// One step's answer.
    public struct StepAnswer: Codable, Hashable, Sendable {
        /// The OSStatus, the CFError's code, or the LAError's code (0: success).
        public var status: Int64
        public var prompts: Int
        /// `none`, `data`, `dictionary`, `array`, `key`, `accessControl`, `true`, `false`.
        public var result: String
        public var count: Int?
        /// Base64 of a data result.
        public var data: String?
        /// A dictionary result's attributes (or the first element's), by constant name.
        public var attributes: [String: JSONValue]?
        /// The CFError's or LAError's domain.
        public var errorDomain: String?
        /// A data result's length.
        public var length: Int?
        /// Whether a domain state equals the one named by `compare`.
        public var same: Bool?
        /// An LARight step's state after it (`unknown`, `authorizing`, `authorized`, `notAuthorized`).
        public var state: String?
        /// Whether an attestation or assertion verifies with the device's test root (the simulation's verifier).
        public var verified: Bool?
        /// An assertion's counter.
        public var counter: Int?
    }

    public struct Input: Decodable, Sendable {
        public var app: App?
        public var device: Device?
        public var steps: [Step]
    }

    public struct Output: Decodable, Sendable {
        public var steps: [StepAnswer]
    }

    public static func problem(_ input: Input, output: Output?, flags: [String]) -> String? {
        Trace.problem(input.steps, output: output?.steps)
    }
}
