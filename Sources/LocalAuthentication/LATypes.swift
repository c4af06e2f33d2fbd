import Foundation

/// `NSErrorPointer`: Apple's Foundation declares it, Foundation on Linux
/// does not; `canEvaluatePolicy(_:error:)` takes one (`&error` with
/// `var error: NSError?`).
public typealias NSErrorPointer = UnsafeMutablePointer<NSError?>?

/// `LAPolicy` with Apple's raw values (rule book §1h).
public enum LAPolicy: Int, Sendable, Hashable {
    /// Biometry only; the fallback button ends the evaluation with `userFallback`.
    case deviceOwnerAuthenticationWithBiometrics = 1
    /// Biometry, then the device passcode.
    case deviceOwnerAuthentication = 2
    /// A paired companion device (iOS 18).
    case deviceOwnerAuthenticationWithCompanion = 3
    /// Biometry or a paired companion device (iOS 18).
    case deviceOwnerAuthenticationWithBiometricsOrCompanion = 4
}

/// `LABiometryType` with Apple's raw values.
public enum LABiometryType: Int, Sendable, Hashable {
    /// No biometry, or no policy evaluated yet on the context.
    case none = 0
    /// Touch ID.
    case touchID = 1
    /// Face ID.
    case faceID = 2
    /// Optic ID.
    case opticID = 4
}

/// `LAAccessControlOperation` with Apple's raw values.
public enum LAAccessControlOperation: Int, Sendable, Hashable {
    /// Creating an item.
    case createItem = 0
    /// Reading an item.
    case useItem = 1
    /// Creating a key.
    case createKey = 2
    /// Signing with a key.
    case useKeySign = 3
    /// Decrypting with a key.
    case useKeyDecrypt = 4
    /// A key exchange with a key.
    case useKeyKeyExchange = 5
}

/// `LATouchIDAuthenticationMaximumAllowableReuseDuration`: the cap of
/// `touchIDAuthenticationAllowableReuseDuration`, 300 s (rule book §1h, O).
public let LATouchIDAuthenticationMaximumAllowableReuseDuration: TimeInterval = 300

/// `LADomainState` (iOS 18): the state of the authentication domains, read
/// once from the context when ``LAContext/domainState`` is read.
public final class LADomainState {
    /// The biometry domain.
    public let biometry: LADomainStateBiometry

    init(biometry: LADomainStateBiometry) { self.biometry = biometry }
}

/// `LADomainStateBiometry` (iOS 18).
public final class LADomainStateBiometry {
    /// The biometry hardware.
    public let biometryType: LABiometryType
    /// A value that changes when the enrolled set changes; nil when nothing is enrolled.
    public let stateHash: Data?

    init(biometryType: LABiometryType, stateHash: Data?) {
        self.biometryType = biometryType
        self.stateHash = stateHash
    }
}

// MARK: LAPublicDefines as Swift imports them (`Int(kLAErrorUserCancel)`)

/// `kLAPolicyDeviceOwnerAuthenticationWithBiometrics`.
public let kLAPolicyDeviceOwnerAuthenticationWithBiometrics: Int32 = 1
/// `kLAPolicyDeviceOwnerAuthentication`.
public let kLAPolicyDeviceOwnerAuthentication: Int32 = 2
/// `kLAPolicyDeviceOwnerAuthenticationWithCompanion`.
public let kLAPolicyDeviceOwnerAuthenticationWithCompanion: Int32 = 3
/// `kLAPolicyDeviceOwnerAuthenticationWithBiometricsOrCompanion`.
public let kLAPolicyDeviceOwnerAuthenticationWithBiometricsOrCompanion: Int32 = 4
/// `kLAPolicyDeviceOwnerAuthenticationWithWristDetection`.
public let kLAPolicyDeviceOwnerAuthenticationWithWristDetection: Int32 = 5
/// `kLAErrorAuthenticationFailed`.
public let kLAErrorAuthenticationFailed: Int32 = -1
/// `kLAErrorUserCancel`.
public let kLAErrorUserCancel: Int32 = -2
/// `kLAErrorUserFallback`.
public let kLAErrorUserFallback: Int32 = -3
/// `kLAErrorSystemCancel`.
public let kLAErrorSystemCancel: Int32 = -4
/// `kLAErrorPasscodeNotSet`.
public let kLAErrorPasscodeNotSet: Int32 = -5
/// `kLAErrorBiometryNotAvailable`.
public let kLAErrorBiometryNotAvailable: Int32 = -6
/// `kLAErrorBiometryNotEnrolled`.
public let kLAErrorBiometryNotEnrolled: Int32 = -7
/// `kLAErrorBiometryLockout`.
public let kLAErrorBiometryLockout: Int32 = -8
/// `kLAErrorAppCancel`.
public let kLAErrorAppCancel: Int32 = -9
/// `kLAErrorInvalidContext`.
public let kLAErrorInvalidContext: Int32 = -10
/// `kLAErrorCompanionNotAvailable`.
public let kLAErrorCompanionNotAvailable: Int32 = -11
/// `kLAErrorNotInteractive`.
public let kLAErrorNotInteractive: Int32 = -1004
/// `kLAErrorTouchIDNotAvailable`: the older name of ``kLAErrorBiometryNotAvailable``.
public let kLAErrorTouchIDNotAvailable: Int32 = -6
/// `kLAErrorTouchIDNotEnrolled`: the older name of ``kLAErrorBiometryNotEnrolled``.
public let kLAErrorTouchIDNotEnrolled: Int32 = -7
/// `kLAErrorTouchIDLockout`: the older name of ``kLAErrorBiometryLockout``.
public let kLAErrorTouchIDLockout: Int32 = -8
