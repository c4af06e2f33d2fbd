import TrustSuiteSupport

/// The vector model of `trustsuite-vectors/1` (docs/vectors.md).

/// The families a vector file may declare.
public enum Family: String, Sendable, Hashable, CaseIterable, Codable, Comparable {
    case cbor
    case appAttestAttestation = "app-attest-attestation"
    case appAttestAssertion = "app-attest-assertion"
    case appAttestReceipt = "app-attest-receipt"
    case devicecheck
    case keychainACL = "keychain-acl"
    case keychainFlow = "keychain-flow"
    case laRight = "la-right"
    case appleAPI = "apple-api"

    /// The part of a family a vector belongs to in the reports' breakdown:
    /// the decoding mode for cbor; nil for families without parts.
    public func part(of input: JSONValue) -> String? { contract.part(of: input) }

    /// The folder under Fixtures/ that holds the family's vector files.
    public var fixtureFolder: String { contract.fixtureFolder }

    /// The family's typed contract (Families/): the one table from a family
    /// to its input, step and output types, its fixture folder, its parts
    /// and the capabilities its vectors need.
    public var contract: any FamilyContract.Type {
        switch self {
        case .cbor: CBORFamily.self
        case .appAttestAttestation: AttestationFamily.self
        case .appAttestAssertion: AssertionFamily.self
        case .appAttestReceipt: ReceiptFamily.self
        case .devicecheck: DeviceCheckFamily.self
        case .keychainACL: KeychainACLFamily.self
        case .keychainFlow: KeychainFlowFamily.self
        case .laRight: LARightFamily.self
        case .appleAPI: AppleAPIFamily.self
        }
    }

    public static func < (lhs: Family, rhs: Family) -> Bool {
        allCases.firstIndex(of: lhs) ?? 0 < allCases.firstIndex(of: rhs) ?? 0
    }
}

/// Who can produce an App Attest vector's bytes (docs/vectors.md, "App
/// Attest vectors any verifier can run (round 3)", Severity): `network`
/// when no signature of Apple's CA or the device key is needed, `signed`
/// when the defect sits inside bytes they sign.
public enum Attack: String, Sendable, Hashable, Codable, CaseIterable {
    case network, signed
}

/// The expected verdict of a vector.
public enum ExpectedResult: String, Sendable, Hashable, Codable {
    case valid, invalid, acceptable
}

/// One test case, with its group's defaults already merged under `input`.
public struct Vector: Sendable, Hashable, Identifiable {
    public let family: Family
    /// The file the vector came from, as given to the loader.
    public let file: String
    public let tcId: Int
    /// Namespaced identifier, unique across all files (`family-area::case`).
    public let id: String
    public let comment: String
    public let flags: [String]
    public let input: JSONValue
    public let result: ExpectedResult
    /// Expected error code of an `invalid` vector.
    public let error: String?
    /// Expected outputs of a `valid` vector (graded key by key).
    public let output: JSONValue?
    /// The index of the vector's test group in its file, and the group's
    /// comment: a SARIF rule per group (docs/vectors.md, Amendments (round 3)).
    public let group: Int
    public let groupComment: String
    /// The vector's `attack` (App Attest files carry one on every vector).
    public let attack: Attack?

    /// The attack the reports grade by: the vector's own, else `network`
    /// for cbor (a decoder reads bytes from anyone), else none.
    public var effectiveAttack: Attack? { attack ?? (family == .cbor ? .network : nil) }

    /// The vector's part of its family in the reports (the cbor mode).
    public var part: String? { family.part(of: input) }

    public init(
        family: Family, file: String, tcId: Int, id: String, comment: String, flags: [String],
        input: JSONValue, result: ExpectedResult, error: String?, output: JSONValue?, group: Int = 0, groupComment: String = "",
        attack: Attack? = nil
    ) {
        self.family = family
        self.file = file
        self.tcId = tcId
        self.id = id
        self.comment = comment
        self.flags = flags
        self.input = input
        self.result = result
        self.error = error
        self.output = output
        self.group = group
        self.groupComment = groupComment
        self.attack = attack
    }
}

/// A parsed and checked vector file.
public struct VectorFile: Sendable {
    public static let schema = "trustsuite-vectors/1"

    public let path: String
    public let family: Family
    public let title: String
    public let source: String
    /// Each note's text (an object note's `description`).
    public let notes: [String: String]
    /// The notes as written, old string form included (``VectorNote``).
    public var flagNotes: [String: VectorNote] = [:]
    public let vectors: [Vector]
}
