import KeychainAccessControl
import KeychainModel

/// LocalAuthentication policies of the keychain-flow vocabulary.
public enum AuthenticationPolicy: String, Sendable, Hashable, CaseIterable, Codable {
    case deviceOwnerAuthentication, deviceOwnerAuthenticationWithBiometrics
}

/// An LAContext as the keychain-flow vocabulary reports it: what it has
/// proved (until invalidated), and its biometry domain state.
public struct AuthenticationContext: Sendable, Hashable {
    public let evidence: Evidence
    public let invalidated: Bool
    /// `evaluatedPolicyDomainState`: set by a successful biometric check or evaluation (LA4).
    public let domainState: [UInt8]?

    init(_ state: KeychainEngine.ContextSnapshot) {
        evidence = state.evidence
        invalidated = state.invalidated
        domainState = state.domainState
    }
}
