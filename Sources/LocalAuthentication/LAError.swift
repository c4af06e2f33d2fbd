import Foundation

/// `LAErrorDomain`: the domain of LocalAuthentication's errors.
public let LAErrorDomain = "com.apple.LocalAuthentication"

/// `LAError`: LocalAuthentication's error, in the shape Apple's SDK gives
/// it in Swift: a code (``LAError/Code``) over an `NSError` in
/// ``LAErrorDomain``. It bridges both ways: `error as NSError` gives that
/// domain and code, and an `NSError` of that domain with a public code casts
/// `as? LAError`. `catch LAError.userCancel` and
/// `catch let error as LAError where error.code == .userCancel` both match.
///
/// Codes the iOS SDK does not name (the model's parameter error -1001, the
/// access-control operation error -1009) have no ``LAError/Code``: calls
/// hand them on as a plain `NSError` in ``LAErrorDomain`` that does not cast
/// to `LAError` (on a device the cast succeeds and reading `code` traps).
public struct LAError: Error, CustomNSError, Hashable, _ObjectiveCBridgeable {
    /// LocalAuthentication's error codes as the iOS SDK names them (rule book §1h).
    public enum Code: Int, Sendable, Hashable {
        /// The user did not authenticate (e.g. too many biometric mismatches).
        case authenticationFailed = -1
        /// The user tapped Cancel.
        case userCancel = -2
        /// The user tapped the fallback button.
        case userFallback = -3
        /// The system cancelled the prompt (another app came forward).
        case systemCancel = -4
        /// No passcode is set on the device.
        case passcodeNotSet = -5
        /// Biometry is not available on the device (the case's name is the
        /// iOS SDK's: `biometryNotAvailable` is its alias there too).
        case touchIDNotAvailable = -6
        /// No biometric identity is enrolled.
        case touchIDNotEnrolled = -7
        /// Biometry is locked out after too many failures.
        case touchIDLockout = -8
        /// The app cancelled (``LAContext/invalidate()`` during an evaluation).
        case appCancel = -9
        /// The context was invalidated before the call.
        case invalidContext = -10
        /// No paired, nearby companion device can authenticate (iOS 18).
        case companionNotAvailable = -11
        /// A prompt was needed and `interactionNotAllowed` forbade it.
        case notInteractive = -1004

        /// ``touchIDNotAvailable`` by its current name.
        public static var biometryNotAvailable: LAError.Code { .touchIDNotAvailable }
        /// ``touchIDNotEnrolled`` by its current name.
        public static var biometryNotEnrolled: LAError.Code { .touchIDNotEnrolled }
        /// ``touchIDLockout`` by its current name.
        public static var biometryLockout: LAError.Code { .touchIDLockout }

        /// Matches an error against a code: `catch LAError.Code.userCancel`,
        /// `case LAError.userCancel:` in a `switch` over an `Error`.
        public static func ~= (match: Self, error: any Error) -> Bool {
            guard let error = error as? LAError else { return false }
            return error.code == match
        }
    }

    /// The error as an `NSError` in ``LAErrorDomain``.
    public let _nsError: NSError
    /// The error's code.
    public let code: Code

    /// An error with `code` and `userInfo`.
    public init(_ code: Code, userInfo: [String: Any] = [:]) {
        self.code = code
        _nsError = NSError(domain: LAErrorDomain, code: code.rawValue, userInfo: userInfo)
    }

    /// The error an `NSError` stands for, when it is in ``LAErrorDomain`` with a public code.
    init?(bridging error: NSError) {
        guard error.domain == LAErrorDomain, let code = Code(rawValue: error.code) else { return nil }
        self.code = code
        _nsError = error
    }

    /// ``LAErrorDomain``.
    public static var errorDomain: String { LAErrorDomain }
    /// The code's raw value.
    public var errorCode: Int { code.rawValue }
    /// The user info of the underlying `NSError`.
    public var errorUserInfo: [String: Any] { _nsError.userInfo }

    /// Equal codes.
    public static func == (lhs: LAError, rhs: LAError) -> Bool { lhs.code == rhs.code }
    /// Hashes the code.
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }

    /// ``Code/authenticationFailed``, for `catch LAError.authenticationFailed`.
    public static var authenticationFailed: Code { .authenticationFailed }
    /// ``Code/userCancel``.
    public static var userCancel: Code { .userCancel }
    /// ``Code/userFallback``.
    public static var userFallback: Code { .userFallback }
    /// ``Code/systemCancel``.
    public static var systemCancel: Code { .systemCancel }
    /// ``Code/passcodeNotSet``.
    public static var passcodeNotSet: Code { .passcodeNotSet }
    /// ``Code/biometryNotAvailable``.
    public static var biometryNotAvailable: Code { .biometryNotAvailable }
    /// ``Code/biometryNotEnrolled``.
    public static var biometryNotEnrolled: Code { .biometryNotEnrolled }
    /// ``Code/biometryLockout``.
    public static var biometryLockout: Code { .biometryLockout }
    /// ``Code/appCancel``.
    public static var appCancel: Code { .appCancel }
    /// ``Code/invalidContext``.
    public static var invalidContext: Code { .invalidContext }
    /// ``Code/companionNotAvailable``.
    public static var companionNotAvailable: Code { .companionNotAvailable }
    /// ``Code/notInteractive``.
    public static var notInteractive: Code { .notInteractive }
    /// ``Code/biometryNotAvailable``, by its older name.
    public static var touchIDNotAvailable: Code { .biometryNotAvailable }
    /// ``Code/biometryNotEnrolled``, by its older name.
    public static var touchIDNotEnrolled: Code { .biometryNotEnrolled }
    /// ``Code/biometryLockout``, by its older name.
    public static var touchIDLockout: Code { .biometryLockout }

    // MARK: Bridging to and from NSError (`error as NSError`, `nsError as? LAError`)

    /// The underlying `NSError`.
    public func _bridgeToObjectiveC() -> NSError { _nsError }

    /// Bridges an `NSError`; one that is no `LAError` leaves `result` nil.
    public static func _forceBridgeFromObjectiveC(_ source: NSError, result: inout LAError?) {
        result = LAError(bridging: source)
    }

    /// Bridges an `NSError` of ``LAErrorDomain`` with a public code.
    public static func _conditionallyBridgeFromObjectiveC(_ source: NSError, result: inout LAError?) -> Bool {
        result = LAError(bridging: source)
        return result != nil
    }

    /// Bridges an `NSError`; one that is no `LAError` becomes ``Code/authenticationFailed``
    /// (this entry point cannot fail; Swift's casts use the conditional one).
    public static func _unconditionallyBridgeFromObjectiveC(_ source: NSError?) -> LAError {
        source.flatMap { LAError(bridging: $0) } ?? LAError(.authenticationFailed)
    }
}

/// The error a model outcome reports, or nil on success: an ``LAError``
/// for a code the SDK names, else an `NSError` in ``LAErrorDomain``.
func laError(code: Int32?, explanation: String) -> (any Error)? {
    guard let code else { return nil }
    let userInfo: [String: Any] = [NSLocalizedDescriptionKey: explanation]
    if let known = LAError.Code(rawValue: Int(code)) { return LAError(known, userInfo: userInfo) }
    return NSError(domain: LAErrorDomain, code: Int(code), userInfo: userInfo)
}

/// An `NSError` for a model outcome's code (what `canEvaluatePolicy(_:error:)` fills in).
func laNSError(code: Int32, explanation: String) -> NSError {
    NSError(domain: LAErrorDomain, code: Int(code), userInfo: [NSLocalizedDescriptionKey: explanation])
}
