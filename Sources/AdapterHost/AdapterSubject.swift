import VectorContract
import Foundation
import TrustSuiteSupport

/// A problem with a third-party adapter: it could not start or introduce
/// itself (the run cannot happen, exit 2), or one case went wrong (graded
/// `error`, with that case's stderr).
public struct AdapterError: SubjectFailure, CustomStringConvertible, Sendable {
    public let description: String
    /// What the adapter wrote to stderr during the case.
    public let stderr: String?
    public init(_ description: String, stderr: String? = nil) {
        self.description = description
        self.stderr = stderr.flatMap { $0.isEmpty ? nil : $0 }
    }
}

/// A third-party implementation behind the JSON-lines adapter protocol of
/// docs/vectors.md: started once in a process group of its own, restarted
/// after a crash, a timeout or a reply that cannot be trusted; each such
/// case is graded `error` and the run goes on.
public final class AdapterSubject: Subject {
    public let command: String
    public let adapterName: String
    public let version: String
    public let families: Set<Family>
    /// Families the adapter named that this suite does not know.
    public let unknownFamilies: [String]
    /// The hello's `"gradeOutputs": true`: outputs are graded, not only shown.
    public let gradesOutputs: Bool
    /// The hello's `"codes": true`: replies carry `code`, which is graded.
    public let answersCodes: Bool
    /// The hello's `"capabilities"` (nil when it has none).
    public let capabilities: Set<String>?
    /// The hello's `"callerChecks"`: checks the adapter does for its library (nil when it has none).
    public let callerChecks: [String]?
    /// Maps error texts to codes when a reply has no `code`.
    public let errorMap: ErrorMap?
    public let timeout: Duration
    private let session: AdapterSession

    /// Longest reply line read (16 MiB); a longer one is graded `error` ("reply too long").
    public static let defaultMaxLineBytes = 16 * 1024 * 1024

    /// Cases in a row that crash the adapter (or hang it, or get a reply
    /// that cannot be trusted, or whose restart fails) before it is given up
    /// and its remaining cases are graded `error` without running: an
    /// adapter broken on every input would otherwise be restarted once per
    /// vector (about 7 minutes for the suite's vectors, issue 41). The real
    /// adapters' crashes are single inputs (a nesting depth), far from 10 in
    /// a row. `--max-crashes N` sets it; 0 never gives up.
    public static let defaultMaxConsecutiveCrashes = 10

    public var name: String { "\(adapterName) \(version)" }
    public var gradesErrorCodes: Bool { false }
    /// Reasons are graded for an adapter that answers codes or has an error map.
    public var gradesReasons: Bool { answersCodes || errorMap != nil }

    /// Starts `command` (run by `/bin/sh -c`) and reads its introduction line.
    /// `log` gets every request and reply line (`--verbose`); `errorMap`
    /// maps the error texts of replies without a `code`; `environment` is
    /// set in the adapter's (``HostileTrustStore/environment``).
    public static func launch(
        command: String, timeout: Duration = .seconds(10), maxLineBytes: Int = AdapterSubject.defaultMaxLineBytes,
        errorMap: ErrorMap? = nil, environment: [String: String] = [:],
        maxConsecutiveCrashes: Int = AdapterSubject.defaultMaxConsecutiveCrashes, log: (@Sendable (String) -> Void)? = nil
    ) async throws -> AdapterSubject {
        let session = AdapterSession(
            command: command, timeout: timeout, maxLineBytes: maxLineBytes, environment: environment,
            maxConsecutiveCrashes: maxConsecutiveCrashes, log: log)
        let line = try await session.start()
        let hello: AdapterHello
        do {
            hello = try JSONDecoder().decode(AdapterHello.self, from: Data(line.jsonText.utf8))
        } catch {
            await session.shutDown()
            throw AdapterError(
                "adapter's first line must be {\"adapter\": …, \"version\": …, \"families\": […]} "
                    + "(\(Self.problem(error))): \(line.jsonText.prefix(200))")
        }
        let claimed = hello.families ?? []
        return AdapterSubject(
            command: command, adapterName: hello.adapter, version: hello.version ?? "?",
            families: Set(claimed.compactMap(Family.init(rawValue:))),
            unknownFamilies: claimed.filter { Family(rawValue: $0) == nil },
            gradesOutputs: hello.gradeOutputs ?? false, answersCodes: hello.codes ?? false,
            capabilities: hello.capabilities.map(Set.init), callerChecks: hello.callerChecks,
            errorMap: errorMap, timeout: timeout, session: session)
    }

    /// What is wrong with a hello, in a few words: the field and the problem.
    static func problem(_ error: any Error) -> String {
        guard let error = error as? DecodingError else { return "\(error)" }
        switch error {
        case .keyNotFound(let key, _): return "no \"\(key.stringValue)\""
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
            let path = context.codingPath.map(\.stringValue).joined(separator: ".")
            return path.isEmpty ? "not an object" : "\"\(path)\" has the wrong type"
        @unknown default: return "\(error)"
        }
    }

    private init(
        command: String, adapterName: String, version: String, families: Set<Family>, unknownFamilies: [String],
        gradesOutputs: Bool, answersCodes: Bool, capabilities: Set<String>?, callerChecks: [String]?, errorMap: ErrorMap?,
        timeout: Duration, session: AdapterSession
    ) {
        self.command = command
        self.adapterName = adapterName
        self.version = version
        self.families = families
        self.unknownFamilies = unknownFamilies
        self.gradesOutputs = gradesOutputs
        self.answersCodes = answersCodes
        self.capabilities = capabilities
        self.callerChecks = callerChecks
        self.errorMap = errorMap
        self.timeout = timeout
        self.session = session
    }

    /// The reply's `code` counts when the hello says `"codes": true`; else
    /// (or when a reply has none) the error map's code for its `error` text.
    public func evaluate(family: Family, input: JSONValue) async throws -> SubjectAnswer {
        var answer = try await session.ask(family: family, input: input)
        // A pattern past its match bound throws (the case is graded `error`, naming it).
        if !answersCodes || answer.code == nil { answer.code = try errorMap?.code(for: answer.error) }
        return answer
    }

    /// The most recent output the adapter wrote to stderr (bounded).
    public func stderrText() async -> String { await session.stderrText() }

    /// How many times the adapter was restarted after a crash, a timeout or
    /// a reply that could not be trusted.
    public func restarts() async -> Int { await session.restarts }

    /// How many threads the session's workers started (``OffPool/Worker``):
    /// one per kind of wait, however many cases ran.
    package func workerThreads() async -> Int { await session.workerThreads }

    /// Whether the adapter was given up after too many cases in a row left
    /// it down (``defaultMaxConsecutiveCrashes``).
    public func gaveUp() async -> Bool { await session.gaveUp }

    /// The number of cases in a row that make it give up (0: never).
    public var maxConsecutiveCrashes: Int { session.maxConsecutiveCrashes }

    /// Stops the adapter's whole process group and reaps it.
    public func stop() async { await session.shutDown() }
}
