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
    /// Every family: the reference implements all of them.
    public var families: Set<Family> { Set(Family.allCases) }

    /// The reference's evaluator of a family that needs no asynchronous
    /// work (for fuzz harnesses), or nil. One exhaustive switch: a new
    /// family does not compile until it is placed here.
    public static func synchronousEvaluator(_ family: Family) -> (@Sendable (JSONValue) throws -> SubjectAnswer)? {
        switch family {
        case .cbor: CBORSubject.evaluate
        case .appAttestAssertion: AppAttestSubject.assertion
        case .devicecheck: AppAttestSubject.deviceCheck
        case .keychainACL: KeychainACLSubject.evaluate
        case .keychainFlow: KeychainFlowSubject.evaluate
        case .appAttestAttestation, .appAttestReceipt, .laRight: nil
        }
    }

    /// Evaluates a family that has a synchronous evaluator; others are unsupported here.
    public func evaluateSynchronously(family: Family, input: JSONValue) throws -> SubjectAnswer {
        guard let evaluate = Self.synchronousEvaluator(family) else { return .unsupported }
        return try evaluate(input)
    }

    public func evaluate(family: Family, input: JSONValue) async throws -> SubjectAnswer {
        switch family {
        case .appAttestAttestation:
            return try await AppAttestSubject.attestation(input)
        case .appAttestReceipt:
            return try await AppAttestSubject.receipt(input)
        case .laRight:
            return try await LARightSubject.evaluate(input)
        case .cbor, .appAttestAssertion, .devicecheck, .keychainACL, .keychainFlow:
            return try evaluateSynchronously(family: family, input: input)
        }
    }
}
