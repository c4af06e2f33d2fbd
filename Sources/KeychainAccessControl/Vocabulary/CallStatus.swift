/// What one keychain or LocalAuthentication call answered
/// (docs/traces.md, keychain-flow, "Rules the answers follow"): a
/// keychain OSStatus from a SecItem or SecKey call, or an LAError from an
/// LAContext call. Typed, so no bare `Int32` travels above the keychain
/// model: a SecItem call cannot answer an LAError by mistake, and the
/// number appears only where a vector or the CLI writes it.
public enum CallStatus: Sendable, Hashable {
    case keychain(OSStatusCode)
    case localAuthentication(LAErrorCode)

    /// errSecSuccess (LAContext calls answer it too).
    public static let success = CallStatus.keychain(.success)

    /// The number the call returns: the OSStatus, or LAError's raw value.
    public var rawValue: Int32 {
        switch self {
        case .keychain(let status): status.rawValue
        case .localAuthentication(let error): error.rawValue
        }
    }
}
