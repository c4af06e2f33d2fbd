import KeychainAccessControl

/// Apple's OSStatus values (rule book §1f): one table, ``OSStatusCode``.
public typealias SecStatus = OSStatusCode

/// What one SecItem or SecKey call answered, and why: the status, the rule
/// of the rule book (docs/models/secitem.md) that
/// decided it, one line of reason, the result and the prompts it raised.
public struct SecOutcome: Sendable, Hashable, Ruled {
    public var status: SecStatus
    /// The rule id (`Q4`, `D2`, …) that decided the status, and why.
    public var ruling: Ruling
    /// The result handed back through the call's result pointer (nil: none).
    public var result: SecValue?
    public var prompts: Int
    /// How many items the call found, changed or deleted (nil: not a count the call has).
    public var count: Int?

    package init(_ status: SecStatus, _ ruling: Ruling, result: SecValue? = nil, prompts: Int = 0) {
        self.status = status
        self.ruling = ruling
        self.result = result
        self.prompts = prompts
    }

    package init(_ status: SecStatus, rule: SecRule, _ reason: String, result: SecValue? = nil, prompts: Int = 0) {
        self.init(status, Ruling(rule, reason), result: result, prompts: prompts)
    }
}

/// The app whose keychain this is: its application identifier (team ID +
/// bundle ID) and its groups in entitlement order (Q6, A2).
public struct AppIdentity: Sendable, Hashable {
    public var applicationIdentifier: String
    /// The `keychain-access-groups` entitlement, in order.
    public var keychainAccessGroups: [String]
    /// The `com.apple.security.application-groups` entitlement, in order.
    public var applicationGroups: [String]

    public init(
        applicationIdentifier: String = "TEAMID1234.com.example.app", keychainAccessGroups: [String] = [],
        applicationGroups: [String] = []
    ) {
        self.applicationIdentifier = applicationIdentifier
        self.keychainAccessGroups = keychainAccessGroups
        self.applicationGroups = applicationGroups
    }

    /// The groups the app may read and write, in the order the keychain
    /// searches them: keychain-access-groups, the application identifier,
    /// the app groups (Q6).
    public var accessGroups: [String] {
        var seen = Set<String>()
        return (keychainAccessGroups + [applicationIdentifier] + applicationGroups).filter { seen.insert($0).inserted }
    }

    /// The group an add without `kSecAttrAccessGroup` writes to (A2).
    public var defaultAccessGroup: String { accessGroups.first ?? applicationIdentifier }
}

/// How the simulated user answers one prompt.
public enum PromptAnswer: String, Sendable, Hashable, CaseIterable, Codable {
    /// A biometric match (Face ID, Touch ID or Optic ID, whichever the device has).
    case biometryMatch
    /// A biometric attempt that does not match.
    case biometryNoMatch
    /// The device passcode.
    case passcode
    /// The Cancel button.
    case cancel
    /// The fallback button ("Enter Password").
    case fallback
    /// The system dismisses the prompt (another app came forward).
    case systemCancel
    /// A paired companion approves.
    case companion
}

/// One prompt the model raised: what asked, why and how it was answered.
public struct PromptRecord: Sendable, Hashable {
    /// The kind: `biometry`, `passcode`, `biometryOrPasscode`, `companion`.
    public var kind: String
    /// The reason shown (`localizedReason` or `kSecUseOperationPrompt`).
    public var reason: String
    /// The operation (`useItem`, `useKeySign`, `evaluatePolicy`, …).
    public var operation: String
    /// The call that raised it (`SecItemCopyMatching`, `LAContext.evaluatePolicy`, …).
    public var call: String
    /// The answer, or nil when the queue was empty (the strict default).
    public var answer: PromptAnswer?
    public var time: Double
}

/// One call and how it ended.
public struct CallRecord: Sendable, Hashable, Ruled {
    public var call: String
    /// The OSStatus, or the LAError code for LocalAuthentication calls.
    public var status: Int32
    public var ruling: Ruling
    public var prompts: Int
    public var time: Double

    /// "SecItemCopyMatching → -25308: Q11: the item's class ak is locked".
    public var line: String { "\(call) → \(status): \(explanation)" }
}

/// A failed parse or check travels as the call's outcome.
extension SecOutcome: Error {}
