import KeychainAccessControl

/// The single error type of ``LocalAuthorization``: the LAError names plus the
/// right-store codes of docs/vectors.md (la-right).
public struct LAModelError: Error, Hashable, Sendable, CustomStringConvertible {
    public enum Code: String, Sendable, Hashable, CaseIterable, Codable {
        case authenticationFailed, userCancel, passcodeNotSet, biometryNotAvailable, biometryNotEnrolled, biometryLockout
        case notInteractive, invalidContext
        case duplicateIdentifier, notFound, rightDeallocated, invalidReason, notAuthorized

        /// The model's code for an LAError, nil for the LAErrors a right never reports.
        public init?(_ error: LAErrorCode) {
            switch error {
            case .authenticationFailed: self = .authenticationFailed
            case .userCancel: self = .userCancel
            case .passcodeNotSet: self = .passcodeNotSet
            case .biometryNotAvailable: self = .biometryNotAvailable
            case .biometryNotEnrolled: self = .biometryNotEnrolled
            case .biometryLockout: self = .biometryLockout
            case .notInteractive: self = .notInteractive
            case .invalidContext: self = .invalidContext
            case .userFallback, .systemCancel, .appCancel, .parameter, .operationNotAllowed, .companionNotAvailable, .companionUnlockOnly:
                return nil
            }
        }
    }

    public let code: Code
    public let reason: String

    public init(_ code: Code, _ reason: String) {
        self.code = code
        self.reason = reason
    }

    public var description: String { "\(code.rawValue): \(reason)" }
    public static func == (lhs: LAModelError, rhs: LAModelError) -> Bool { lhs.code == rhs.code }
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }
}
