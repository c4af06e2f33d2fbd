import Foundation

/// `DCErrorDomain`: the domain of DeviceCheck's errors.
public let DCErrorDomain = "com.apple.devicecheck.error"

/// `DCError`: DeviceCheck's error as Apple's SDK gives it in Swift, a code
/// (``DCError/Code``) over an `NSError` in ``DCErrorDomain``. It bridges
/// both ways: `error as NSError` gives that domain and code, an `NSError` of
/// that domain with a known code casts `as? DCError`; `catch
/// DCError.invalidKey` and `catch let error as DCError where error.code ==
/// .serverUnavailable` both match.
public struct DCError: Error, CustomNSError, Hashable, _ObjectiveCBridgeable {
    /// DeviceCheck's error codes with Apple's raw values (`DCError.h`).
    public enum Code: Int, Sendable, Hashable {
        /// A failure not of the other kinds.
        case unknownSystemFailure = 0
        /// The device or the app cannot use the service (an app extension, the Simulator, `isSupported` false).
        case featureUnsupported = 1
        /// An argument is malformed (an empty client data hash).
        case invalidInput = 2
        /// The key id names no key of the app, or one whose state forbids the call (attested twice, not attested).
        case invalidKey = 3
        /// Apple's server could not be reached: try again later with the same key and hash.
        case serverUnavailable = 4

        /// Matches an error against a code: `catch DCError.invalidKey`,
        /// `case DCError.serverUnavailable:` in a `switch` over an `Error`.
        public static func ~= (match: Self, error: any Error) -> Bool {
            guard let error = error as? DCError else { return false }
            return error.code == match
        }
    }

    /// The error as an `NSError` in ``DCErrorDomain``.
    public let _nsError: NSError
    /// The error's code.
    public let code: Code

    /// An error with `code` and `userInfo`.
    public init(_ code: Code, userInfo: [String: Any] = [:]) {
        self.code = code
        _nsError = NSError(domain: DCErrorDomain, code: code.rawValue, userInfo: userInfo)
    }

    init?(bridging error: NSError) {
        guard error.domain == DCErrorDomain, let code = Code(rawValue: error.code) else { return nil }
        self.code = code
        _nsError = error
    }

    /// ``DCErrorDomain``.
    public static var errorDomain: String { DCErrorDomain }
    /// The code's raw value.
    public var errorCode: Int { code.rawValue }
    /// The user info of the underlying `NSError`.
    public var errorUserInfo: [String: Any] { _nsError.userInfo }

    /// Equal codes.
    public static func == (lhs: DCError, rhs: DCError) -> Bool { lhs.code == rhs.code }
    /// Hashes the code.
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }

    /// ``Code/unknownSystemFailure``, for `catch DCError.unknownSystemFailure`.
    public static var unknownSystemFailure: Code { .unknownSystemFailure }
    /// ``Code/featureUnsupported``.
    public static var featureUnsupported: Code { .featureUnsupported }
    /// ``Code/invalidInput``.
    public static var invalidInput: Code { .invalidInput }
    /// ``Code/invalidKey``.
    public static var invalidKey: Code { .invalidKey }
    /// ``Code/serverUnavailable``.
    public static var serverUnavailable: Code { .serverUnavailable }

    // MARK: Bridging to and from NSError

    /// The underlying `NSError`.
    public func _bridgeToObjectiveC() -> NSError { _nsError }

    /// Bridges an `NSError`; one that is no `DCError` leaves `result` nil.
    public static func _forceBridgeFromObjectiveC(_ source: NSError, result: inout DCError?) {
        result = DCError(bridging: source)
    }

    /// Bridges an `NSError` of ``DCErrorDomain`` with a known code.
    public static func _conditionallyBridgeFromObjectiveC(_ source: NSError, result: inout DCError?) -> Bool {
        result = DCError(bridging: source)
        return result != nil
    }

    /// Bridges an `NSError`; one that is no `DCError` becomes ``Code/unknownSystemFailure``.
    public static func _unconditionallyBridgeFromObjectiveC(_ source: NSError?) -> DCError {
        source.flatMap { DCError(bridging: $0) } ?? DCError(.unknownSystemFailure)
    }
}
