import KeychainAccessControl

/// `LAAuthenticationRequirement`, with Apple's names only (rule book LA11):
/// `.default`, `.biometry`, `.biometryCurrentSet`, `.biometry(fallback:)`
/// with `LABiometryFallbackRequirement` `.default` or `.devicePasscode`.
/// Apple has no passcode-only requirement and no `fallback: none` (plain
/// `.biometry` has no fallback). The raw values are how vectors spell them.
public enum RightRequirement: String, Sendable, Hashable, CaseIterable, Codable {
    /// Biometry, Apple Watch or passcode.
    case `default`
    /// Biometry, no fallback.
    case biometry
    case biometryCurrentSet
    /// Biometry with the system's default fallback. Apple does not say what
    /// that fallback is; this model takes the device passcode, as for
    /// `.devicePasscode` (docs/models/la-rights.md).
    case biometryFallbackDefault = "biometry(fallback: default)"
    /// Biometry, falling back to the device passcode.
    case biometryFallbackDevicePasscode = "biometry(fallback: devicePasscode)"

    /// Whether a passcode can satisfy the requirement.
    public var takesPasscode: Bool {
        switch self {
        case .default, .biometryFallbackDefault, .biometryFallbackDevicePasscode: true
        case .biometry, .biometryCurrentSet: false
        }
    }

    /// The access-control flags of the right's key.
    public var flags: AccessControlFlags {
        switch self {
        case .default, .biometryFallbackDefault, .biometryFallbackDevicePasscode: return .userPresence
        case .biometry: return .biometryAny
        case .biometryCurrentSet: return .biometryCurrentSet
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
            return takesPasscode ? .passcodeNotSet : .biometryNotEnrolled
        }
    }

    /// What keeps the requirement from being evaluated on `device` (checkCanAuthorize), or nil.
    public func obstacle(on device: DeviceState) -> LAModelError.Code? {
        if takesPasscode { return device.passcodeSet ? nil : .passcodeNotSet }
        return device.biometryObstacle.flatMap { LAModelError.Code($0) }
    }
}

/// Answers prompts as a test tells it, honouring the device state: a
/// biometry answer only counts when biometry can match, a passcode answer
/// only when a passcode is set and the requirement takes one.
public struct SimulatedAuthenticator: Sendable {
    public init() {}

    /// The outcome of one prompt for `requirement`; `enrollment` is the
    /// biometry set a biometryCurrentSet right was bound to.
    public func authenticate(
        _ requirement: RightRequirement, answer: UserAnswer, device: DeviceState,
        boundEnrollment: Int
    ) -> LAModelError.Code? {
        switch answer {
        case .cancel: return .userCancel
        case .fail: return .authenticationFailed
        case .biometry:
            guard device.biometryUsable else { return .authenticationFailed }
            if requirement == .biometryCurrentSet && device.enrollmentGeneration != boundEnrollment { return .authenticationFailed }
            return nil
        case .passcode:
            return requirement.takesPasscode && device.passcodeSet ? nil : .authenticationFailed
        }
    }
}
