import KeychainAccessControl

/// LocalAuthentication policies.
public enum AuthenticationPolicy: String, Sendable, Hashable, CaseIterable, Codable {
    case deviceOwnerAuthentication, deviceOwnerAuthenticationWithBiometrics
}

/// What the simulated user does when a prompt appears.
public enum UserAnswer: String, Sendable, Hashable, CaseIterable, Codable {
    case biometry, passcode, fail, cancel
}

/// LAError codes the model returns (LocalAuthentication's raw values).
public enum LAStatus {
    public static let authenticationFailed: Int32 = -1
    public static let userCancel: Int32 = -2
    public static let userFallback: Int32 = -3
    public static let passcodeNotSet: Int32 = -5
    public static let biometryNotAvailable: Int32 = -6
    public static let biometryNotEnrolled: Int32 = -7
    public static let biometryLockout: Int32 = -8
    public static let invalidContext: Int32 = -10
}

/// An LAContext: what it has proved, until it is invalidated. A context that
/// has proved what an item needs is reused by later calls without a prompt.
public struct AuthenticationContext: Sendable, Hashable {
    public private(set) var evidence: Evidence = []
    public private(set) var invalidated = false
    /// The biometry domain state seen by the last evaluation or check
    /// (changes with the enrolled set), nil before any.
    public internal(set) var domainState: Int?

    public init() {}

    mutating func record(_ proved: Evidence) { evidence.formUnion(proved) }
    mutating func invalidate() {
        invalidated = true
        evidence = []
    }

    /// canEvaluatePolicy: what keeps `policy` from being evaluated on `device`, or nil.
    public static func obstacle(_ policy: AuthenticationPolicy, device: DeviceState) -> Int32? {
        switch policy {
        case .deviceOwnerAuthenticationWithBiometrics:
            switch device.biometry {
            case .none: return LAStatus.biometryNotAvailable
            case .notEnrolled: return LAStatus.biometryNotEnrolled
            case .lockout: return LAStatus.biometryLockout
            case .enrolled: return nil
            }
        case .deviceOwnerAuthentication:
            return device.passcodeSet ? nil : LAStatus.passcodeNotSet
        }
    }
}
