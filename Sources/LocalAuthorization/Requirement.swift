import KeychainAccessControl

/// `LAAuthenticationRequirement` (spec/local-authorization.md).
public enum RightRequirement: String, Sendable, Hashable, CaseIterable, Codable {
    /// Biometry, Apple Watch or passcode.
    case `default`
    /// biometry(fallback: none).
    case biometry
    /// biometry(fallback: devicePasscode).
    case biometryFallbackPasscode
    case biometryCurrentSet
    case devicePasscode

    /// The access-control flags of the right's key.
    public var flags: AccessControlFlags {
        switch self {
        case .default, .biometryFallbackPasscode: return .userPresence
        case .biometry: return .biometryAny
        case .biometryCurrentSet: return .biometryCurrentSet
        case .devicePasscode: return .devicePasscode
        }
    }

    /// What keeps a right's key from being saved on `device`: saving binds
    /// the key's access control as keychain creation does
    /// (``AccessControl/create(protection:flags:synchronizable:device:)``), so
    /// a biometric requirement needs enrolled biometry (`biometryNotEnrolled`)
    /// and the others a passcode (`passcodeNotSet`).
    public func bindingObstacle(on device: DeviceState) -> LAModelError.Code? {
        do {
            _ = try AccessControl.create(protection: .aku, flags: flags, device: device)
            return nil
        } catch {
            switch self {
            case .biometry, .biometryCurrentSet: return .biometryNotEnrolled
            case .default, .biometryFallbackPasscode, .devicePasscode: return .passcodeNotSet
            }
        }
    }

    /// What keeps the requirement from being evaluated on `device` (checkCanAuthorize), or nil.
    public func obstacle(on device: DeviceState) -> LAModelError.Code? {
        switch self {
        case .default, .biometryFallbackPasscode, .devicePasscode:
            return device.passcodeSet ? nil : .passcodeNotSet
        case .biometry, .biometryCurrentSet:
            return device.biometryObstacle.flatMap { LAModelError.Code($0) }
        }
    }
}

/// Answers prompts as a test tells it, honouring the device state: a
/// biometry answer only counts when biometry can match, a passcode answer
/// only when a passcode is set and the requirement takes one.
public struct SimulatedAuthenticator: Sendable {
    public init() {}

    /// The outcome of one prompt for `requirement`; `enrollment` is the
    /// biometry set a biometryCurrentSet right was bound to.
    public func authenticate(_ requirement: RightRequirement, answer: UserAnswer, device: DeviceState,
                             boundEnrollment: Int) -> LAModelError.Code? {
        switch answer {
        case .cancel: return .userCancel
        case .fail: return .authenticationFailed
        case .biometry:
            guard device.biometryUsable, requirement != .devicePasscode else { return .authenticationFailed }
            if requirement == .biometryCurrentSet && device.enrollmentGeneration != boundEnrollment { return .authenticationFailed }
            return nil
        case .passcode:
            switch requirement {
            case .default, .biometryFallbackPasscode, .devicePasscode: return device.passcodeSet ? nil : .authenticationFailed
            case .biometry, .biometryCurrentSet: return .authenticationFailed
            }
        }
    }
}
