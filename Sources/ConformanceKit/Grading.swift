import ConformanceReports
import TrustSuiteSupport
import VectorContract

/// How one vector went.
public enum Grade: String, Sendable, Hashable, Codable, CaseIterable {
    case pass, fail
    /// An invalid vector refused with another code than the vector's, by a
    /// subject whose reasons are graded: neither a pass nor the dangerous
    /// accepted-invalid (docs/vectors.md, Amendments (round 3)).
    case wrongReason
    case unsupported, error

    /// A graded verdict that is a finding: counted by the exit status and by `--expected`.
    public var isFinding: Bool { self == .fail || self == .wrongReason || self == .error }
}

/// The graded outcome of one vector.
public struct CaseResult: Sendable, Hashable {
    public let vector: Vector
    public let grade: Grade
    public let answer: SubjectAnswer?
    /// Why it did not pass (empty on pass).
    public let message: String
    /// Time spent by the subject, in seconds.
    public let seconds: Double
    /// What the subject wrote to stderr during this case (adapters).
    public let stderr: String?

    public init(vector: Vector, grade: Grade, answer: SubjectAnswer?, message: String, seconds: Double, stderr: String? = nil) {
        self.vector = vector
        self.grade = grade
        self.answer = answer
        self.message = message
        self.seconds = seconds
        self.stderr = stderr
        receivedCode = answer.flatMap { Self.code(of: $0, errorIsCode: false) }
    }

    /// The subject's explanation of its answer, when it gave one (shown, never graded).
    public var explanation: String? { answer?.explanation }

    /// An invalid vector that the subject accepted: the dangerous kind of failure.
    public var acceptedInvalid: Bool {
        grade == .fail && vector.result == .invalid && answer?.verdict == .valid
    }

    /// A valid vector that the subject rejected.
    public var rejectedValid: Bool {
        grade == .fail && vector.result == .valid && answer?.verdict == .invalid
    }

    /// The code the subject gave for a rejection: the reply's (or the error
    /// map's) `code`, or for the reference its `error`, which is a code.
    /// Set by the runner; shown in every report next to the expected one.
    public var receivedCode: String?

    /// The code the vector expects (its `error`).
    public var expectedCode: String? { vector.error }

    /// The code of a rejection: `code`, or `error` when the subject's errors are codes.
    static func code(of answer: SubjectAnswer, errorIsCode: Bool) -> String? {
        guard answer.verdict == .invalid else { return nil }
        return answer.code ?? (errorIsCode ? answer.error : nil)
    }
}

/// Grades answers against vectors (docs/vectors.md, "The runner grades").
public enum Grader {
    /// `gradesErrorCodes`: an invalid vector must be rejected with its code;
    /// `gradesOutputs`: a valid vector's expected outputs must all be given
    /// and match (otherwise they are only shown).
    /// `gradesReasons` (an adapter answering codes or with an error map):
    /// the answer's `code` must be the vector's, or the case is `wrongReason`.
    public static func grade(
        _ vector: Vector, answer: SubjectAnswer, gradesErrorCodes: Bool,
        gradesOutputs: Bool, gradesReasons: Bool = false
    ) -> (Grade, String) {
        if answer.verdict == .unsupported { return (.unsupported, "subject does not support this case") }
        switch vector.result {
        case .acceptable:
            return (.pass, "")
        case .invalid:
            guard answer.verdict == .invalid else {
                return (.fail, "accepted an invalid input (expected \(vector.error ?? "an error"))")
            }
            let received = CaseResult.code(of: answer, errorIsCode: gradesErrorCodes)
            if gradesErrorCodes || gradesReasons, let expected = vector.error, received != expected {
                return (.wrongReason, "rejected with \(received ?? "no code"), expected \(expected)")
            }
            return (.pass, "")
        case .valid:
            guard answer.verdict == .valid else {
                return (.fail, "rejected a valid input: \(answer.error ?? "no reason given")")
            }
            guard gradesOutputs, let expected = vector.output?.objectValue else { return (.pass, "") }
            let actual = answer.output?.objectValue ?? [:]
            for key in expected.keys.sorted() {
                guard let want = expected[key] else { continue }
                guard let got = actual[key] else {
                    return (.fail, "output \"\(key)\" missing, expected \(want.jsonText)")
                }
                if let difference = firstDifference(want, got, path: key) {
                    return (.fail, difference)
                }
            }
            return (.pass, "")
        }
    }

    /// Describes the first place where `got` differs from `want`, or nil.
    /// Arrays are compared element by element so a trace names its step;
    /// objects on the keys `want` names (extra outputs such as `data` or
    /// `count` are not graded unless expected).
    public static func firstDifference(_ want: JSONValue, _ got: JSONValue, path: String) -> String? {
        if case .array(let w) = want, case .array(let g) = got {
            for i in 0..<min(w.count, g.count) {
                if let d = firstDifference(w[i], g[i], path: "\(path)[\(i)]") { return d }
            }
            if w.count != g.count { return "\(path): expected \(w.count) entries, got \(g.count)" }
            return nil
        }
        if case .object(let w) = want, case .object(let g) = got {
            // The expected keys are graded; of the others only an unexpected
            // "error" counts (a trace step that should have succeeded).
            for key in Set(w.keys).union(g.keys.filter { $0 == "error" }).sorted() {
                let a = w[key] ?? .null
                let b = g[key] ?? .null
                if let d = firstDifference(a, b, path: "\(path).\(key)") { return d }
            }
            return nil
        }
        return want.matches(got) ? nil : "\(path): expected \(want.jsonText), got \(got.jsonText)"
    }
}
