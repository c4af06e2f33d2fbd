/// The single error type of ``KeychainAccessControl``, and its refusal: a
/// stable code from docs/vectors.md (keychain-acl) with Apple's OSStatus,
/// the rule of the rule book that refused and a reason, all three given
/// where the refusal is made (there is no initializer without a rule, so a
/// new refusal cannot be labelled after the fact).
public struct KeychainError: Error, Hashable, Sendable, CustomStringConvertible, Ruled {
    public enum Code: String, Sendable, Hashable, CaseIterable, Codable {
        /// errSecParam: a flag combination the keychain refuses.
        case invalidAccessControl
        /// errSecParam: synchronizable with ThisDeviceOnly or with access control.
        case notSynchronizable
        /// errSecInteractionNotAllowed: the protection class is locked, or a prompt is not allowed.
        case interactionNotAllowed
        /// errSecItemNotFound: the item is gone (or not there).
        case itemNotFound
        /// errSecAuthFailed: authentication failed or cannot succeed.
        case authFailed
        /// The operation is not one this item's access control has an entry
        /// for (LAError -1009); the keychain surfaces it as errSecAuthFailed.
        case operationNotAllowed
        /// errSecUserCanceled.
        case userCanceled
        /// errSecNotAvailable: e.g. akpu with no passcode set.
        case notAvailable
        /// errSecDuplicateItem (keychain flows).
        case duplicateItem

        /// Apple's OSStatus for the code.
        public var status: OSStatusCode {
            switch self {
            case .invalidAccessControl, .notSynchronizable: .param
            case .interactionNotAllowed: .interactionNotAllowed
            case .itemNotFound: .itemNotFound
            case .authFailed, .operationNotAllowed: .authFailed
            case .userCanceled: .userCanceled
            case .notAvailable: .notAvailable
            case .duplicateItem: .duplicateItem
            }
        }

        /// The status as the number the keychain returns.
        public var osStatus: Int32 { status.rawValue }

        /// The LocalAuthentication error behind the status, where the
        /// keychain got its answer from LocalAuthentication (AC10): the one
        /// table, beside ``status``, that the keychain model reads.
        public var laError: LAErrorCode? {
            switch self {
            case .authFailed: .authenticationFailed
            case .operationNotAllowed: .operationNotAllowed
            case .userCanceled: .userCancel
            case .invalidAccessControl, .notSynchronizable, .interactionNotAllowed, .itemNotFound, .notAvailable, .duplicateItem: nil
            }
        }
    }

    public let code: Code
    /// The rule of the rule book that refused, and why.
    public let ruling: Ruling

    public init(_ code: Code, rule: SecRule, _ reason: String) {
        self.code = code
        self.ruling = Ruling(rule, reason)
    }

    public var description: String { "\(code.rawValue) (\(code.osStatus)): \(explanation)" }
    public static func == (lhs: KeychainError, rhs: KeychainError) -> Bool { lhs.code == rhs.code }
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }
}
