/// The single error type of ``KeychainAccessControl``: a stable code from
/// docs/vectors.md (keychain-acl) with Apple's OSStatus, and a reason.
public struct KeychainError: Error, Hashable, Sendable, CustomStringConvertible {
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
    }

    public let code: Code
    public let reason: String

    public init(_ code: Code, _ reason: String) {
        self.code = code
        self.reason = reason
    }

    public var description: String { "\(code.rawValue) (\(code.osStatus)): \(reason)" }
    public static func == (lhs: KeychainError, rhs: KeychainError) -> Bool { lhs.code == rhs.code }
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }
}
