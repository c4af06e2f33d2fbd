import VectorContract
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

    /// How the reference evaluates a family: synchronously (what fuzz
    /// harnesses can call), or only asynchronously (actors, the simulation).
    public enum Evaluator: Sendable {
        case synchronous(@Sendable (JSONValue) throws -> SubjectAnswer)
        case asynchronous(@Sendable (JSONValue) async throws -> SubjectAnswer)
    }

    /// The one table from a family to the reference's evaluator: a new
    /// family does not compile until it is placed here.
    public static func evaluator(_ family: Family) -> Evaluator {
        switch family {
        case .cbor: .synchronous { try CBORSubject.evaluate(CBORFamily.read($0)) }
        case .appAttestAssertion: .synchronous { try AppAttestSubject.assertion(AssertionFamily.read($0)) }
        case .devicecheck: .synchronous { try DeviceCheckSubject.evaluate(DeviceCheckFamily.read($0)) }
        case .keychainACL: .synchronous { try KeychainACLSubject.evaluate(KeychainACLFamily.read($0)) }
        case .keychainFlow: .synchronous { try KeychainFlowSubject.evaluate(KeychainFlowFamily.read($0)) }
        case .appAttestAttestation: .asynchronous { try await AppAttestSubject.attestation(AttestationFamily.read($0)) }
        case .appAttestReceipt: .asynchronous { try await ReceiptSubject.evaluate(ReceiptFamily.read($0)) }
        case .laRight: .asynchronous { try await LARightSubject.evaluate(LARightFamily.read($0)) }
        case .appleAPI: .asynchronous { try await AppleAPISubject.evaluate($0) }
        }
    }

    /// Evaluates a family that has a synchronous evaluator; others are unsupported here.
    public func evaluateSynchronously(family: Family, input: JSONValue) throws -> SubjectAnswer {
        guard case .synchronous(let evaluate) = Self.evaluator(family) else { return .unsupported }
        return try evaluate(input)
    }

    public func evaluate(family: Family, input: JSONValue) async throws -> SubjectAnswer {
        switch Self.evaluator(family) {
        case .synchronous(let evaluate): try evaluate(input)
        case .asynchronous(let evaluate): try await evaluate(input)
        }
    }
}
