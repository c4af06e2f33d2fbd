import KeychainAccessControl

/// LocalAuthentication policies.
public enum AuthenticationPolicy: String, Sendable, Hashable, CaseIterable, Codable {
    case deviceOwnerAuthentication, deviceOwnerAuthenticationWithBiometrics
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
    public static func obstacle(_ policy: AuthenticationPolicy, device: DeviceState) -> LAErrorCode? {
        switch policy {
        case .deviceOwnerAuthenticationWithBiometrics:
            return device.biometryObstacle
        case .deviceOwnerAuthentication:
            return device.passcodeSet ? nil : .passcodeNotSet
        }
    }
}
