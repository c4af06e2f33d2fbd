import ConformanceReports
import Foundation
import TrustSuiteSupport
import VectorContract

/// Progress of a run, reported after each vector.
public struct RunProgress: Sendable {
    public let done: Int
    public let total: Int
    public let last: CaseResult
}

/// All graded cases of one run against one subject.
public struct RunReport: Sendable {
    public let subject: String
    public let cases: [CaseResult]
    public let seconds: Double
    /// What the subject wrote to stderr (adapters), kept for the JSON report.
    public var subjectStderr: String?
    /// The capabilities the subject declared (nil: none declared).
    public var capabilities: Set<String>?
    /// Whether rejections' reasons were graded (codes or an error map).
    public var gradesReasons = false
    /// The checks the subject's adapter does for its library (nil: none named).
    public var callerChecks: [String]?
    /// Families the subject named that this suite does not know (shown on the scorecard).
    public var unknownFamilies: [String] = []
    /// Where the run's vectors came from and their digest (shown on the
    /// scorecard and in every report; nil when the caller did not say).
    public var vectorSource: VectorSource?

    public init(subject: String, cases: [CaseResult], seconds: Double) {
        self.subject = subject
        self.cases = cases
        self.seconds = seconds
    }

    public func count(_ grade: Grade, family: Family? = nil) -> Int {
        cases.filter { $0.grade == grade && (family == nil || $0.vector.family == family) }.count
    }

    public var families: [Family] { Array(Set(cases.map(\.vector.family))).sorted() }

    /// Vectors that got a verdict that was graded (passed, failed or refused for a wrong reason).
    public var graded: Int { cases.filter { $0.grade == .pass || $0.grade == .fail || $0.grade == .wrongReason }.count }

    /// 0 when every graded vector passed; 1 when any failed, was refused for
    /// a wrong reason or errored, or when nothing was graded at all (a
    /// subject that supports nothing has not been tested).
    public var exitCode: Int32 {
        cases.contains { $0.grade.isFinding } || graded == 0 ? 1 : 0
    }
}

/// Runs vectors against a subject in process, one at a time, in file order.
public struct Runner: Sendable {
    public let subject: any Subject

    public init(subject: any Subject) {
        self.subject = subject
    }

    public func run(
        _ vectors: [Vector],
        progress: (@Sendable (RunProgress) -> Void)? = nil
    ) async -> RunReport {
        let clock = ContinuousClock()
        let started = clock.now
        var cases: [CaseResult] = []
        cases.reserveCapacity(vectors.count)
        for vector in vectors {
            let result = await runOne(vector, clock: clock)
            cases.append(result)
            progress?(RunProgress(done: cases.count, total: vectors.count, last: result))
        }
        var report = RunReport(subject: subject.name, cases: cases, seconds: Self.seconds(clock.now - started))
        report.capabilities = subject.capabilities
        report.gradesReasons = subject.gradesReasons
        report.callerChecks = subject.callerChecks
        report.unknownFamilies = subject.unknownFamilies
        return report
    }

    func runOne(_ vector: Vector, clock: ContinuousClock) async -> CaseResult {
        guard subject.families.contains(vector.family) else {
            return CaseResult(
                vector: vector, grade: .unsupported, answer: nil,
                message: "subject does not claim family \(vector.family.rawValue)", seconds: 0)
        }
        let missing = Capabilities.missing(for: vector, declared: subject.capabilities)
        guard missing.isEmpty else {
            return CaseResult(
                vector: vector, grade: .unsupported, answer: nil,
                message: "needs capability \(missing.joined(separator: ", ")), which the subject did not declare",
                seconds: 0)
        }
        let start = clock.now
        do {
            let answer = try await subject.evaluate(family: vector.family, input: vector.input)
            let (grade, message) = Grader.grade(
                vector, answer: answer, gradesErrorCodes: subject.gradesErrorCodes,
                gradesOutputs: subject.gradesOutputs, gradesReasons: subject.gradesReasons)
            var result = CaseResult(
                vector: vector, grade: grade, answer: Self.bounded(answer), message: message,
                seconds: Self.seconds(clock.now - start), stderr: answer.stderr)
            result.receivedCode = CaseResult.code(of: answer, errorIsCode: subject.gradesErrorCodes)
            return result
        } catch {
            return CaseResult(
                vector: vector, grade: .error, answer: nil, message: "\(error)",
                seconds: Self.seconds(clock.now - start), stderr: (error as? any SubjectFailure)?.stderr)
        }
    }

    /// The most an answer's output keeps once graded (64 KiB of JSON): a run
    /// holds every case's answer for its reports, so an adapter answering
    /// megabytes per case cannot grow the run's memory or its reports (issue 44).
    public static let maxKeptOutputBytes = 64 * 1024

    /// `answer` with an output past ``maxKeptOutputBytes`` replaced by a marked cut.
    package static func bounded(_ answer: SubjectAnswer) -> SubjectAnswer {
        guard let output = answer.output else { return answer }
        let size = output.jsonText.utf8.count
        guard size > maxKeptOutputBytes else { return answer }
        var kept = answer
        kept.output = .string("[output of \(size) bytes cut; graded before the cut]")
        return kept
    }

    public static func seconds(_ duration: Duration) -> Double {
        let (s, attoseconds) = duration.components
        return Double(s) + Double(attoseconds) / 1e18
    }
}

/// Where a run's vectors came from, and what they were (issue 61, item 6):
/// the folder and why it was chosen, the files, and one SHA-256 over them.
public struct VectorSource: Sendable, Hashable {
    /// The folders and files read, each with how it was found
    /// (`TRUSTSUITE_FIXTURES`, `beside the binary`, `the source checkout`, `--fixtures`).
    public var origins: [String]
    /// How many vector files the run read.
    public var files: Int
    /// SHA-256 (hex) of the lines `<SHA-256 of the file> <file name>`, one
    /// per file in name order: equal on two machines for the same files.
    public var sha256: String

    public init(origins: [String], files: Int, sha256: String) {
        self.origins = origins
        self.files = files
        self.sha256 = sha256
    }

    /// The object every JSON report (run, matrix, SARIF) carries as `vectors`.
    public var json: JSONValue {
        .object([
            "origins": .array(origins.map(JSONValue.string)), "files": .int(Int64(files)), "sha256": .string(sha256),
        ])
    }

    /// `N file(s)`, as every report words the count.
    public var filesText: String { "\(files) file\(files == 1 ? "" : "s")" }

    /// The scorecard's line.
    public var line: String {
        "vectors: " + origins.joined(separator: "; ") + " — \(filesText), sha256 \(sha256)"
    }
}
