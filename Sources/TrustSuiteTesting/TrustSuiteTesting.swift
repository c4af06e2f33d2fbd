// The vector model, the grader and JSON come with it: a consumer imports TrustSuiteTesting alone.
@_exported import ConformanceKit
@_exported import VectorContract
import Foundation
@_exported import TrustSuiteSupport
import TrustSuiteVectors

/// In-process conformance for Swift implementations (docs/adopting.md,
/// "From your own swift test"): the suite's vectors as Swift Testing
/// arguments, and the suite's own grading of your answers — the verdicts,
/// error codes, flags, capabilities and expected-failure files of
/// `trustsuite run --adapter`, without a subprocess.
///
/// ```swift
/// @Test(arguments: TrustSuiteTesting.cases(.cbor))
/// func cbor(_ vector: ConformanceCase) async {
///     let outcome = await vector.check(setup) { input in myDecoder.answer(input) }
///     #expect(outcome.passes, "\(outcome)")
/// }
/// ```
public enum TrustSuiteTesting {
    /// Every vector file shipped with the package, loaded once.
    public static let files: Result<[VectorFile], VectorLoadError> = {
        guard let folder = TrustSuiteVectorResources.folder else {
            return .failure(VectorLoadError(path: "TrustSuiteVectors", "the vectors' resource bundle is missing"))
        }
        do throws(VectorLoadError) {
            return .success(try VectorLoader.load(paths: [folder.path]))
        } catch {
            return .failure(error)
        }
    }()

    /// The cases of `family`, one per vector, for `@Test(arguments:)`. A
    /// bundle that does not load gives no cases: check ``files`` in a test
    /// of its own so that the failure is seen.
    public static func cases(_ family: Family) -> [ConformanceCase] {
        ((try? files.get()) ?? []).filter { $0.family == family }.flatMap(\.vectors).map(ConformanceCase.init)
    }
}

/// How your implementation is graded: what `trustsuite run --adapter` learns
/// from an adapter's hello and its command line.
public struct ConformanceSetup: Sendable {
    /// Your implementation's name, in messages.
    public var name: String
    /// Whether your answers carry the suite's error codes (`code`): an
    /// invalid vector refused with another code is then `wrongReason`.
    public var answersCodes: Bool
    /// Whether your `output` fields are graded (otherwise only verdicts).
    public var gradesOutputs: Bool
    /// The capabilities you declare (nil: every vector is asked).
    public var capabilities: Set<String>?
    /// Flags whose vectors you skip (`--skip-flag`); each must be a flag some vector carries.
    public var skipFlags: Set<String>
    /// Your expected-failures file (`--expected`), if any.
    public var expected: ExpectedFailures?

    public init(
        name: String, answersCodes: Bool = false, gradesOutputs: Bool = false, capabilities: Set<String>? = nil,
        skipFlags: Set<String> = [], expected: ExpectedFailures? = nil
    ) {
        self.name = name
        self.answersCodes = answersCodes
        self.gradesOutputs = gradesOutputs
        self.capabilities = capabilities
        self.skipFlags = skipFlags
        self.expected = expected
    }
}

/// One vector, as a Swift Testing argument.
public struct ConformanceCase: Sendable, CustomStringConvertible {
    public let vector: Vector

    public init(_ vector: Vector) { self.vector = vector }

    public var family: Family { vector.family }
    /// The input to give your implementation (the file's defaults merged).
    public var input: JSONValue { vector.input }
    /// `cbor/strict-decoding.json tcId 212 cbor-int::…`: the file as the repository names it.
    public var description: String {
        var file = vector.file
        if let folder = TrustSuiteVectorResources.folder?.path, file.hasPrefix(folder + "/") { file.removeFirst(folder.count + 1) }
        return "\(file) tcId \(vector.tcId) \(vector.id)"
    }

    /// Asks `answer` for this vector's answer and grades it as the runner does.
    public func check(_ setup: ConformanceSetup, _ answer: (JSONValue) async throws -> SubjectAnswer) async -> ConformanceOutcome {
        if let flag = vector.flags.first(where: setup.skipFlags.contains) {
            return ConformanceOutcome(case: self, grade: .unsupported, message: "skipped: flag \(flag)", listed: nil, answer: nil)
        }
        let missing = Capabilities.missing(for: vector, declared: setup.capabilities)
        guard missing.isEmpty else {
            return ConformanceOutcome(
                case: self, grade: .unsupported,
                message: "needs capability \(missing.joined(separator: ", ")), which \(setup.name) did not declare",
                listed: nil, answer: nil)
        }
        let listed = setup.expected?.entries.first { $0.matches(vector.id) }
        do {
            let given = try await answer(vector.input)
            let (grade, message) = Grader.grade(
                vector, answer: given, gradesErrorCodes: false, gradesOutputs: setup.gradesOutputs,
                gradesReasons: setup.answersCodes)
            return ConformanceOutcome(case: self, grade: grade, message: message, listed: listed?.reason, answer: given)
        } catch {
            return ConformanceOutcome(case: self, grade: .error, message: "\(error)", listed: listed?.reason, answer: nil)
        }
    }
}

/// How one vector went for your implementation.
public struct ConformanceOutcome: Sendable, CustomStringConvertible {
    public let `case`: ConformanceCase
    public let grade: Grade
    public let message: String
    /// The reason your expected-failures file gives for this vector, if it lists it.
    public let listed: String?
    public let answer: SubjectAnswer?

    /// Whether the test should pass: a pass that is not listed, a listed
    /// finding (a known bug), or a vector you do not support. A listed vector
    /// that now passes does not pass: remove it from the file.
    public var passes: Bool {
        switch grade {
        case .pass: listed == nil
        case .unsupported: true
        case .fail, .wrongReason, .error: listed != nil
        }
    }

    public var description: String {
        var text = "\(self.case): \(grade.rawValue)"
        if !message.isEmpty { text += " — \(message)" }
        if let listed {
            text += grade == .pass ? " (listed as expected to fail: \(listed); it passes now, remove it)" : " (expected: \(listed))"
        }
        if let code = self.case.vector.error { text += " [vector's code: \(code)]" }
        return text
    }
}
