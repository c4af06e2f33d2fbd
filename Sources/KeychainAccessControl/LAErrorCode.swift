/// LocalAuthentication's error codes (LAError.h raw values) that the models
/// return, with the one mapping to keychain status that every model and the
/// CLI use (spec/access-control.md, spec/keychain-flows.md): userCancel →
/// -128, notInteractive → -25308, parameter → -50, every other → -25293.
public enum LAErrorCode: Int32, Sendable, Hashable, CaseIterable {
    case authenticationFailed = -1
    case userCancel = -2
    case userFallback = -3
    case systemCancel = -4
    case passcodeNotSet = -5
    case biometryNotAvailable = -6
    case biometryNotEnrolled = -7
    case biometryLockout = -8
    case appCancel = -9
    case invalidContext = -10
    /// A parameter the call cannot take (kLAErrorParameter).
    case parameter = -1001
    /// The call needed UI and the caller forbade it.
    case notInteractive = -1004
    /// "ACL operation is not allowed": the access control has no entry for the operation.
    case operationNotAllowed = -1009

    /// The OSStatus a SecItem or SecKey call answers when LocalAuthentication fails with this code.
    public var keychainStatus: Int32 {
        switch self {
        case .userCancel: return KeychainError.Code.userCanceled.osStatus
        case .notInteractive: return KeychainError.Code.interactionNotAllowed.osStatus
        case .parameter: return KeychainStatus.param
        default: return KeychainError.Code.authFailed.osStatus
        }
    }
}

/// Keychain OSStatus values that are not one of ``KeychainError/Code``.
public enum KeychainStatus {
    public static let success: Int32 = 0
    /// errSecParam.
    public static let param: Int32 = -50
}
