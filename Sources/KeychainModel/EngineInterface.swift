import KeychainAccessControl

/// A failure of a call that answers through a `CFError` (SecAccessControl,
/// SecKey) rather than an OSStatus: the status is the error's code in
/// `NSOSStatusErrorDomain`, unless `laCode` is set (K4: Secure Enclave key
/// operations hand LocalAuthentication's error on unconverted).
public struct SecFailure: Error, Sendable, Hashable, Ruled {
    public var status: SecStatus
    /// A LocalAuthentication error code (domain `com.apple.LocalAuthentication`) that replaces the OSStatus.
    public var laCode: Int32?
    public var ruling: Ruling

    package init(_ status: SecStatus, _ ruling: Ruling, laCode: Int32? = nil) {
        self.status = status
        self.ruling = ruling
        self.laCode = laCode
    }

    package init(_ status: SecStatus, rule: SecRule, _ reason: String, laCode: Int32? = nil) {
        self.init(status, Ruling(rule, reason), laCode: laCode)
    }

    /// The error's domain and code as a `CFError` carries them.
    public var domain: String { laCode == nil ? "NSOSStatusErrorDomain" : "com.apple.LocalAuthentication" }
    public var code: Int { Int(laCode ?? status.rawValue) }
}

/// What an LAContext call answered: success (nil code) or an LAError code,
/// with the rule and reason, and the prompts raised.
public struct LAOutcome: Sendable, Hashable, Ruled {
    public var code: LAErrorCode?
    public var ruling: Ruling
    public var prompts: Int

    package init(_ code: LAErrorCode?, _ ruling: Ruling, prompts: Int = 0) {
        self.code = code
        self.ruling = ruling
        self.prompts = prompts
    }

    package init(_ code: LAErrorCode?, rule: SecRule, _ reason: String, prompts: Int = 0) {
        self.init(code, Ruling(rule, reason), prompts: prompts)
    }

    public var succeeded: Bool { code == nil }
}

/// The settable properties of an `LAContext`.
public struct ContextSettings: Sendable, Hashable {
    public var localizedReason = ""
    public var localizedFallbackTitle: String?
    public var localizedCancelTitle: String?
    public var interactionNotAllowed = false
    /// `touchIDAuthenticationAllowableReuseDuration`, capped at 300 s when read (LA5).
    public var allowableReuseDuration: Double = 0

    public init() {}
}

/// `LAPolicy` raw values (rule book §1h).
public enum LAPolicyValue: Int, Sendable, Hashable, CaseIterable {
    case deviceOwnerAuthenticationWithBiometrics = 1
    case deviceOwnerAuthentication = 2
    case deviceOwnerAuthenticationWithCompanion = 3
    case deviceOwnerAuthenticationWithBiometricsOrCompanion = 4
    case deviceOwnerAuthenticationWithWristDetection = 5
}

/// `LAAccessControlOperation` raw values.
public enum LAAccessControlOperationValue: Int, Sendable, Hashable, CaseIterable {
    case createItem = 0, useItem, createKey, useKeySign, useKeyDecrypt, useKeyKeyExchange

    package var operation: KeychainOperation {
        switch self {
        case .createItem: .createItem
        case .useItem: .useItem
        case .createKey: .createKey
        case .useKeySign: .useKeySign
        case .useKeyDecrypt: .useKeyDecrypt
        case .useKeyKeyExchange: .useKeyKeyExchange
        }
    }
}

/// `LABiometryType` raw values.
public enum BiometryKind: Int, Sendable, Hashable, CaseIterable, Codable {
    case none = 0, touchID = 1, faceID = 2, opticID = 4

    public var name: String {
        switch self {
        case .none: "none"
        case .touchID: "touchID"
        case .faceID: "faceID"
        case .opticID: "opticID"
        }
    }
}
