import ConformanceKit

/// A vector input that the reference cannot even read (a malformed vector,
/// not a verdict); the runner grades it `error`.
public struct ReferenceInputError: Error, CustomStringConvertible, Sendable {
    public let description: String
    public init(_ description: String) { self.description = description }
}

/// The reference implementation as a ConformanceKit subject. Error codes are
/// graded for it.
public struct ReferenceSubject: Subject {
    public init() {}

    public var name: String { "reference" }
    public var gradesErrorCodes: Bool { true }
    public var families: Set<Family> {
        [.cbor, .appAttestAttestation, .appAttestAssertion, .appAttestReceipt, .devicecheck, .keychainACL, .keychainFlow, .laRight]
    }

    /// The families whose reference needs no asynchronous work (cbor,
    /// assertion, devicecheck, keychain-acl), for fuzz harnesses.
    public func evaluateSynchronously(family: Family, input: JSONValue) throws -> SubjectAnswer {
        switch family {
        case .cbor: return try CBORSubject.evaluate(input)
        case .appAttestAssertion: return try AppAttestSubject.assertion(input)
        case .devicecheck: return try AppAttestSubject.deviceCheck(input)
        case .keychainACL: return try KeychainACLSubject.evaluate(input)
        case .keychainFlow: return try KeychainFlowSubject.evaluate(input)
        default: return .unsupported
        }
    }

    public func evaluate(family: Family, input: JSONValue) async throws -> SubjectAnswer {
        switch family {
        case .cbor:
            return try CBORSubject.evaluate(input)
        case .appAttestAttestation:
            return try await AppAttestSubject.attestation(input)
        case .appAttestAssertion:
            return try AppAttestSubject.assertion(input)
        case .appAttestReceipt:
            return try await AppAttestSubject.receipt(input)
        case .devicecheck:
            return try AppAttestSubject.deviceCheck(input)
        case .keychainACL:
            return try KeychainACLSubject.evaluate(input)
        case .keychainFlow:
            return try KeychainFlowSubject.evaluate(input)
        case .laRight:
            return try await LARightSubject.evaluate(input)
        default:
            return .unsupported
        }
    }
}
