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
    /// No paired, nearby companion can authenticate (iOS 18; = watchNotAvailable).
    case companionNotAvailable = -11
    /// A parameter the call cannot take (kLAErrorParameter).
    case parameter = -1001
    /// The call needed UI and the caller forbade it.
    case notInteractive = -1004
    /// "ACL operation is not allowed": the access control has no entry for the operation.
    case operationNotAllowed = -1009

    /// The OSStatus a SecItem or SecKey call answers when LocalAuthentication fails with this code.
    public var keychainStatus: OSStatusCode {
        switch self {
        case .userCancel: return KeychainError.Code.userCanceled.status
        case .notInteractive: return KeychainError.Code.interactionNotAllowed.status
        case .parameter: return .param
        default: return KeychainError.Code.authFailed.status
        }
    }
}

/// The keychain OSStatus values the models answer, with Apple's names: the
/// numbers in one place.
public enum OSStatusCode: Int32, Sendable, Hashable, CaseIterable {
    case success = 0
    case param = -50
    case userCanceled = -128
    case noAccessForItem = -25243
    case notAvailable = -25291
    case authFailed = -25293
    case duplicateItem = -25299
    case itemNotFound = -25300
    case interactionNotAllowed = -25308

    /// Apple's constant, e.g. `errSecItemNotFound`.
    public var name: String {
        switch self {
        case .success: "errSecSuccess"
        case .param: "errSecParam"
        case .userCanceled: "errSecUserCanceled"
        case .noAccessForItem: "errSecNoAccessForItem"
        case .notAvailable: "errSecNotAvailable"
        case .authFailed: "errSecAuthFailed"
        case .duplicateItem: "errSecDuplicateItem"
        case .itemNotFound: "errSecItemNotFound"
        case .interactionNotAllowed: "errSecInteractionNotAllowed"
        }
    }

    /// The name of a status a keychain or LocalAuthentication call answered
    /// (`errSec…` or `LAError.…`), or nil for a number neither defines.
    public static func name(of status: Int64) -> String? {
        guard let value = Int32(exactly: status) else { return nil }
        if let code = OSStatusCode(rawValue: value) { return code.name }
        return LAErrorCode(rawValue: value).map { "LAError.\($0)" }
    }
}
