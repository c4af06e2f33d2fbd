import TrustSuiteSupport

/// What an implementation under test answers for one vector.
public struct SubjectAnswer: Sendable, Hashable {
    public enum Verdict: String, Sendable, Hashable, Codable {
        case valid, invalid, unsupported
    }

    public var verdict: Verdict
    /// The error code (reference) or free text (third parties) of a rejection.
    public var error: String?
    /// The error code of a rejection from docs/vectors.md's vocabulary: the
    /// reply's `code`, or the one an adapter's `error-map.json` gives its
    /// `error` text (docs/vectors.md, Amendments (round 3): reasons are graded).
    public var code: String?
    /// Outputs, in the shape of docs/vectors.md for the family.
    public var output: JSONValue?
    /// What a third party wrote to stderr while answering (for the reports).
    public var stderr: String?
    /// Why the subject answered as it did, in its own words (the reference:
    /// the rule of the rule book and its reason, e.g. `AC6: …`; an adapter:
    /// its reply's `"explanation"`). Shown where a case did not pass, never
    /// graded, as stderr is.
    public var explanation: String?

    public init(_ verdict: Verdict, error: String? = nil, code: String? = nil, output: JSONValue? = nil) {
        self.verdict = verdict
        self.error = error
        self.code = code
        self.output = output
    }

    public static let unsupported = SubjectAnswer(.unsupported)

    /// The fields of an adapter's reply line that carry this answer
    /// (docs/vectors.md, the adapter protocol; the request's `id` aside):
    /// what `trustsuite adapter` and an isolated test's child write.
    public var replyFields: [String: JSONValue] {
        var reply: [String: JSONValue] = ["result": .string(verdict.rawValue)]
        if let error { reply["error"] = .string(error) }
        if let code { reply["code"] = .string(code) }
        if let output { reply["output"] = output }
        if let explanation { reply["explanation"] = .string(explanation) }
        return reply
    }
}

/// An implementation under test: the reference modules, or a third party
/// behind an adapter. ConformanceKit knows nothing else about it.
public protocol Subject: Sendable {
    /// Shown in reports, e.g. `reference` or `pyattest 1.0.5`.
    var name: String { get }
    /// Whether error codes are graded (the reference) or only shown (third parties).
    var gradesErrorCodes: Bool { get }
    /// Whether `output` is graded like the reference's (an adapter's hello
    /// `"gradeOutputs": true`) or only shown.
    var gradesOutputs: Bool { get }
    /// Whether the reason of a rejection is graded: an invalid vector refused
    /// with another code is `wrongReason` (the reference; an adapter whose
    /// hello says `"codes": true` or that has an error map).
    var gradesReasons: Bool { get }
    /// The families the subject claims; others are graded `unsupported`.
    var families: Set<Family> { get }
    /// The capabilities the subject declared (docs/vectors.md, Amendments
    /// (round 3)); nil when it declared none, and every vector is sent.
    var capabilities: Set<String>? { get }
    /// The checks the adapter performs itself because the library's
    /// documentation leaves them to its caller (the hello's `"callerChecks"`,
    /// docs/vectors.md, round 3); nil when it names none.
    var callerChecks: [String]? { get }
    /// Families the subject named that this suite does not know (an
    /// adapter's hello), shown on the scorecard; none for the reference.
    var unknownFamilies: [String] { get }
    /// Evaluates one vector input. A thrown error is graded `error`.
    func evaluate(family: Family, input: JSONValue) async throws -> SubjectAnswer
}

extension Subject {
    /// By default a subject whose error codes are graded has its outputs graded too.
    public var gradesOutputs: Bool { gradesErrorCodes }
    /// By default a subject whose error codes are graded has its reasons graded.
    public var gradesReasons: Bool { gradesErrorCodes }
    /// By default a subject declares no capabilities (a version-1 adapter).
    public var capabilities: Set<String>? { nil }
    /// By default a subject does no check on a library's behalf.
    public var callerChecks: [String]? { nil }
    /// By default a subject names only families this suite knows.
    public var unknownFamilies: [String] { [] }
}

/// An adapter's first line (docs/vectors.md, the adapter protocol, with the
/// round-3 additions): read as this type, so a hello of the wrong shape is
/// refused with what is wrong in it. Fields it does not name are ignored
/// (an adapter may say more than this suite reads).
public struct AdapterHello: Decodable, Sendable, Hashable {
    /// The implementation's name.
    public var adapter: String
    public var version: String?
    /// The families it answers (names this suite does not know included).
    public var families: [String]?
    /// `true`: its `output` fields are graded as the reference's.
    public var gradeOutputs: Bool?
    /// `true`: its replies carry `code`, which is graded.
    public var codes: Bool?
    public var capabilities: [String]?
    /// Checks the adapter does on its library's behalf.
    public var callerChecks: [String]?
}

/// An error a subject throws that carries what the implementation wrote to
/// stderr while failing (an adapter's case): the runner keeps it in the case.
public protocol SubjectFailure: Error {
    var stderr: String? { get }
}
