import ConformanceKit
import TrustSuiteSupport

/// A vector input that the reference cannot even read (a malformed vector,
/// not a verdict); the runner grades it `error`.
public struct ReferenceInputError: Error, CustomStringConvertible, Sendable {
    public let description: String
    public init(_ description: String) { self.description = description }
}

extension FamilyContract {
    /// The typed input of a vector, read by the family's contract; a
    /// mismatch is a ``ReferenceInputError`` (the loader refuses such
    /// vectors, so only hand-made inputs and fuzz inputs reach it).
    static func read(_ input: JSONValue) throws(ReferenceInputError) -> Input {
        do {
            return try Self.input(input)
        } catch {
            throw ReferenceInputError(error.description)
        }
    }
}

/// The model's value of a vocabulary name of the vector contract (the
/// contract and the models spell their vocabularies alike; a test checks
/// they hold the same names).
func model<Model: RawRepresentable, Name: RawRepresentable>(_ name: Name) throws(ReferenceInputError) -> Model
where Model.RawValue == String, Name.RawValue == String {
    guard let value = Model(rawValue: name.rawValue) else {
        throw ReferenceInputError("\"\(name.rawValue)\" has no \(Model.self) in the reference")
    }
    return value
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
    /// work (for fuzz harnesses), or nil. With ``evaluate(family:input:)``
    /// the one table from a family to its evaluator: a new family does not
    /// compile until it is placed here.
    public static func synchronousEvaluator(_ family: Family) -> (@Sendable (JSONValue) throws -> SubjectAnswer)? {
        switch family {
        case .cbor: { try CBORSubject.evaluate(CBORFamily.read($0)) }
        case .appAttestAssertion: { try AppAttestSubject.assertion(AssertionFamily.read($0)) }
        case .devicecheck: { try DeviceCheckSubject.evaluate(DeviceCheckFamily.read($0)) }
        case .keychainACL: { try KeychainACLSubject.evaluate(KeychainACLFamily.read($0)) }
        case .keychainFlow: { try KeychainFlowSubject.evaluate(KeychainFlowFamily.read($0)) }
        case .appAttestAttestation, .appAttestReceipt, .laRight, .appleAPI: nil
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
            return try await AppAttestSubject.attestation(AttestationFamily.read(input))
        case .appAttestReceipt:
            return try await ReceiptSubject.evaluate(ReceiptFamily.read(input))
        case .laRight:
            return try await LARightSubject.evaluate(LARightFamily.read(input))
        case .appleAPI:
            return try await AppleAPISubject.evaluate(input)
        case .cbor, .appAttestAssertion, .devicecheck, .keychainACL, .keychainFlow:
            return try evaluateSynchronously(family: family, input: input)
        }
    }
}
