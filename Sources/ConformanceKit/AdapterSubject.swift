import Foundation
import TrustSuiteSupport

/// A problem with a third-party adapter: it could not start or introduce
/// itself (the run cannot happen, exit 2), or one case went wrong (graded
/// `error`, with that case's stderr).
public struct AdapterError: Error, CustomStringConvertible, Sendable {
    public let description: String
    /// What the adapter wrote to stderr during the case.
    public let stderr: String?
    public init(_ description: String, stderr: String? = nil) {
        self.description = description
        self.stderr = stderr.flatMap { $0.isEmpty ? nil : $0 }
    }
}

/// A third-party implementation behind the JSON-lines adapter protocol of
/// spec/vectors.md: started once in a process group of its own, restarted
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
    public let timeout: Duration
    private let session: AdapterSession

    /// Longest reply line read (16 MiB); a longer one is graded `error` ("reply too long").
    public static let defaultMaxLineBytes = 16 * 1024 * 1024

    public var name: String { "\(adapterName) \(version)" }
    public var gradesErrorCodes: Bool { false }

    /// Starts `command` (run by `/bin/sh -c`) and reads its introduction line.
    /// `log` gets every request and reply line (`--verbose`).
    public static func launch(
        command: String, timeout: Duration = .seconds(10), maxLineBytes: Int = AdapterSubject.defaultMaxLineBytes,
        log: (@Sendable (String) -> Void)? = nil
    ) async throws -> AdapterSubject {
        let session = AdapterSession(command: command, timeout: timeout, maxLineBytes: maxLineBytes, log: log)
        let hello = try await session.start()
        guard let object = hello.objectValue, let name = object["adapter"]?.stringValue else {
            await session.shutDown()
            throw AdapterError("adapter's first line must be {\"adapter\": …, \"version\": …, \"families\": […]}")
        }
        let claimed = (object["families"]?.arrayValue ?? []).compactMap(\.stringValue)
        return AdapterSubject(
            command: command, adapterName: name, version: object["version"]?.stringValue ?? "?",
            families: Set(claimed.compactMap(Family.init(rawValue:))),
            unknownFamilies: claimed.filter { Family(rawValue: $0) == nil },
            gradesOutputs: object["gradeOutputs"]?.boolValue ?? false, timeout: timeout, session: session)
    }

    private init(command: String, adapterName: String, version: String, families: Set<Family>, unknownFamilies: [String],
                 gradesOutputs: Bool, timeout: Duration, session: AdapterSession) {
        self.command = command
        self.adapterName = adapterName
        self.version = version
        self.families = families
        self.unknownFamilies = unknownFamilies
        self.gradesOutputs = gradesOutputs
        self.timeout = timeout
        self.session = session
    }

    public func evaluate(family: Family, input: JSONValue) async throws -> SubjectAnswer {
        try await session.ask(family: family, input: input)
    }

    /// The most recent output the adapter wrote to stderr (bounded).
    public func stderrText() async -> String { await session.stderrText() }

    /// How many times the adapter was restarted after a crash, a timeout or
    /// a reply that could not be trusted.
    public func restarts() async -> Int { await session.restarts }

    /// Stops the adapter's whole process group and reaps it.
    public func stop() async { await session.shutDown() }
}
