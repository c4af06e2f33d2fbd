/// LocalAuthentication's error codes (LAError.h raw values) that the models
/// return, with the one mapping to keychain status that every model and the
/// CLI use (docs/models/keychain-acl.md, docs/traces.md): userCancel →
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
    /// What `canEvaluatePolicy(.deviceOwnerAuthenticationWithCompanion)` answered with a Watch that
    /// only unlocks the phone (LA3, observed on iOS 18.5): no public `LAError.Code` has this value.
    case companionUnlockOnly = -1000
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

/// The keychain OSStatus values the models answer, with Apple's names and
/// values (rule book §1f): the numbers in one place.
public enum OSStatusCode: Int32, Sendable, Hashable, CaseIterable {
    case success = 0
    case unimplemented = -4
    case io = -36
    case param = -50
    case allocate = -108
    case userCanceled = -128
    case badReq = -909
    case notAvailable = -25291
    case readOnly = -25292
    case authFailed = -25293
    case duplicateItem = -25299
    case itemNotFound = -25300
    case noSuchAttr = -25303
    case invalidItemRef = -25304
    case noSuchClass = -25306
    case interactionNotAllowed = -25308
    case interactionRequired = -25315
    case dataNotAvailable = -25316
    case noAccessForItem = -25243
    case decode = -26275
    case `internal` = -26276
    case missingEntitlement = -34018
    case restrictedAPI = -34020
    case verifyFailed = -67808
    case internalComponent = -2070
    case coreFoundationUnknown = -4960

    /// Apple's constant name (`errSecItemNotFound`).
    public var name: String {
        switch self {
        case .success: "errSecSuccess"
        case .unimplemented: "errSecUnimplemented"
        case .io: "errSecIO"
        case .param: "errSecParam"
        case .allocate: "errSecAllocate"
        case .userCanceled: "errSecUserCanceled"
        case .badReq: "errSecBadReq"
        case .notAvailable: "errSecNotAvailable"
        case .readOnly: "errSecReadOnly"
        case .authFailed: "errSecAuthFailed"
        case .duplicateItem: "errSecDuplicateItem"
        case .itemNotFound: "errSecItemNotFound"
        case .noSuchAttr: "errSecNoSuchAttr"
        case .invalidItemRef: "errSecInvalidItemRef"
        case .noSuchClass: "errSecNoSuchClass"
        case .interactionNotAllowed: "errSecInteractionNotAllowed"
        case .interactionRequired: "errSecInteractionRequired"
        case .dataNotAvailable: "errSecDataNotAvailable"
        case .noAccessForItem: "errSecNoAccessForItem"
        case .decode: "errSecDecode"
        case .internal: "errSecInternal"
        case .missingEntitlement: "errSecMissingEntitlement"
        case .restrictedAPI: "errSecRestrictedAPI"
        case .verifyFailed: "errSecVerifyFailed"
        case .internalComponent: "errSecInternalComponent"
        case .coreFoundationUnknown: "errSecCoreFoundationUnknown"
        }
    }

    /// The text `SecCopyErrorMessageString` gives (written for this model).
    public var message: String {
        switch self {
        case .success: "No error."
        case .unimplemented: "Function or operation not implemented."
        case .io: "I/O error."
        case .param: "One or more parameters passed to a function were not valid."
        case .allocate: "Failed to allocate memory."
        case .userCanceled: "User canceled the operation."
        case .badReq: "Bad parameter or invalid state for operation."
        case .notAvailable: "No keychain is available."
        case .readOnly: "Read only error."
        case .authFailed: "The user name or passphrase you entered is not correct."
        case .duplicateItem: "The specified item already exists in the keychain."
        case .itemNotFound: "The specified item could not be found in the keychain."
        case .noSuchAttr: "The specified attribute does not exist."
        case .invalidItemRef: "The specified item is no longer valid."
        case .noSuchClass: "The specified item class does not exist."
        case .interactionNotAllowed: "User interaction is not allowed."
        case .interactionRequired: "User interaction is required, but is currently not allowed."
        case .dataNotAvailable: "The contents of this item cannot be retrieved."
        case .noAccessForItem: "The specified item has no access control."
        case .decode: "Unable to decode the provided data."
        case .internal: "An internal error occurred in the Security framework."
        case .missingEntitlement: "A required entitlement isn't present."
        case .restrictedAPI: "The API is restricted."
        case .verifyFailed: "A cryptographic verification failure has occurred."
        case .internalComponent: "An internal component failed."
        case .coreFoundationUnknown: "An unknown Core Foundation error occurred."
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
