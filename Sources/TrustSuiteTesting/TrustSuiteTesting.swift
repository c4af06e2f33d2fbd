// The vector model, the grader and JSON come with it: a consumer imports TrustSuiteTesting alone.
@_exported import ConformanceKit
@_exported import VectorContract
import Foundation
import Synchronization
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
///
/// By default (``Isolation/process``) your implementation answers in a child
/// process: a vector that traps, aborts, exhausts memory or hangs it is a
/// critical outcome of that vector, and the rest of the family is still
/// graded (docs/adopting.md, "Isolation").
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
    ///
    /// Only the folders that can hold the family are read (its own, and
    /// those no family owns, such as `real/`): an isolated child, which
    /// loads its test's cases at each start, then reads the `cbor` vectors
    /// alone, not the 5 MB of App Attest files (about 4 s in a debug build).
    public static func cases(_ family: Family) -> [ConformanceCase] {
        // A child whose test reaches no check still says why at exit.
        if IsolationWorker.isWorker { IsolationWorker.watchForAnUnreachedRoute() }
        return folderFiles(family).filter { $0.family == family }.flatMap(\.vectors).map(ConformanceCase.init)
    }

    /// Each top-level folder's files, loaded once (an empty list for a folder that does not load).
    private static let folders = Mutex<[String: [VectorFile]]>([:])

    private static func folderFiles(_ family: Family) -> [VectorFile] {
        guard let root = TrustSuiteVectorResources.folder,
            let names = try? FileManager.default.contentsOfDirectory(atPath: root.path)
        else { return [] }
        let owned = Set(Family.allCases.map(\.fixtureFolder))
        let wanted = names.filter { $0 == family.fixtureFolder || !owned.contains($0) }.sorted()
        return wanted.flatMap { name -> [VectorFile] in
            let path = root.appendingPathComponent(name).path
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue else { return [] }
            if let loaded = folders.withLock({ $0[name] }) { return loaded }
            let loaded = (try? VectorLoader.load(paths: [path])) ?? []
            folders.withLock { $0[name] = loaded }
            return loaded
        }
    }

    /// The processes the calling test has started under `isolation`: the
    /// first, then one after each vector that crashed or hung it (N crashes
    /// cost N + 1). 0 before its first isolated `check`, or in process.
    public static func processesStarted(_ isolation: Isolation = .process) async -> Int {
        await IsolationSessions.shared.processes(for: isolation)
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
    /// Where your implementation answers: in a child process (the default:
    /// a crash or a hang is that vector's critical outcome) or in the test
    /// process itself (faster; the first crash ends the whole `swift test`).
    public var isolation: Isolation

    public init(
        name: String, answersCodes: Bool = false, gradesOutputs: Bool = false, capabilities: Set<String>? = nil,
        skipFlags: Set<String> = [], expected: ExpectedFailures? = nil, isolation: Isolation = .process
    ) {
        self.name = name
        self.answersCodes = answersCodes
        self.gradesOutputs = gradesOutputs
        self.capabilities = capabilities
        self.skipFlags = skipFlags
        self.expected = expected
        self.isolation = isolation
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
    ///
    /// Under ``Isolation/process`` the answer comes from a child process
    /// (this test binary run again, filtered to the calling test): one child
    /// per calling test, case arguments other than the vector, setup name
    /// and call site (`fileID`, `line`, `column`: leave them to their
    /// defaults), where the same check of the first case to reach it
    /// answers each vector the parent sends there, one at a time. So
    /// `answer` must depend on its input and on those alone, and the test
    /// must reach the check the same way in every run (docs/adopting.md,
    /// "Isolation").
    public func check(
        _ setup: ConformanceSetup, fileID: String = #fileID, line: Int = #line, column: Int = #column,
        _ answer: (JSONValue) async throws -> SubjectAnswer
    ) async -> ConformanceOutcome {
        let isolation = Isolation.overridden ?? setup.isolation
        let place =
            isolation.inChildProcess || IsolationWorker.isWorker
            ? IsolationRoute.place(name: setup.name, fileID: fileID, line: line, column: column) : nil
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
        // In a child started by a parent's check: answer the parent on its route, never grade.
        // After the skips, so both sides count the checks of a vector alike.
        if IsolationWorker.isWorker {
            await IsolationWorker.serve(place: place, vectorID: vector.id, answer)
            return ConformanceOutcome(
                case: self, grade: .unsupported, message: "not this isolated process's check", listed: nil, answer: nil)
        }
        let given: IsolatedAnswer
        switch place {
        case .failure(let refusal)?:
            given = .notRun(refusal.description)
        case .success(let place)?:
            if let session = await IsolationSessions.shared.session(for: isolation, place: place, vectorID: vector.id) {
                given = await session.answer(family: vector.family, input: vector.input)
            } else {
                given = await Self.inProcess(answer, vector.input)
            }
        case nil:
            given = await Self.inProcess(answer, vector.input)
        }
        switch given {
        case .answer(let answered):
            let (grade, message) = Grader.grade(
                vector, answer: answered, gradesErrorCodes: false, gradesOutputs: setup.gradesOutputs,
                gradesReasons: setup.answersCodes)
            let listed = setup.expected?.entry(listing: vector.id)
            return ConformanceOutcome(case: self, grade: grade, message: message, listed: listed?.reason, answer: answered)
        case .thrown(let error):
            let listed = setup.expected?.entry(listing: vector.id)
            return ConformanceOutcome(case: self, grade: .error, message: error, listed: listed?.reason, answer: nil)
        case .crashed(let account):
            // A crash or a hang is listed only by its own id, as for `--expected`: never by a glob.
            let listed = setup.expected?.entry(listing: vector.id, critical: true)
            return ConformanceOutcome(
                case: self, grade: .error, message: account, listed: listed?.reason, answer: nil, critical: true)
        case .notRun(let why):
            let listed = setup.expected?.entry(listing: vector.id)
            return ConformanceOutcome(case: self, grade: .error, message: why, listed: listed?.reason, answer: nil)
        }
    }
}

extension ConformanceCase {
    fileprivate static func inProcess(_ answer: (JSONValue) async throws -> SubjectAnswer, _ input: JSONValue) async -> IsolatedAnswer {
        do {
            return .answer(try await answer(input))
        } catch {
            return .thrown("\(error)")
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
    /// The implementation crashed (trapped, aborted, ran out of memory) or
    /// hung on this vector, in its isolated process: the worst outcome. Only
    /// an expected-failures entry naming this vector's id lists it.
    public let critical: Bool

    init(
        case: ConformanceCase, grade: Grade, message: String, listed: String?, answer: SubjectAnswer?, critical: Bool = false
    ) {
        self.case = `case`
        self.grade = grade
        self.message = message
        self.listed = listed
        self.answer = answer
        self.critical = critical
    }

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
        var text = "\(self.case): \(critical ? "critical" : grade.rawValue)"
        if !message.isEmpty { text += " — \(message)" }
        if let listed {
            text += grade == .pass ? " (listed as expected to fail: \(listed); it passes now, remove it)" : " (expected: \(listed))"
        }
        if let code = self.case.vector.error { text += " [vector's code: \(code)]" }
        return text
    }
}
