import Foundation

/// A problem with a third-party adapter as a whole (it could not start or
/// did not introduce itself); a run that gets one cannot happen (exit 2).
public struct AdapterError: Error, CustomStringConvertible, Sendable {
    public let description: String
    public init(_ description: String) { self.description = description }
}

/// A third-party implementation behind the JSON-lines adapter protocol of
/// spec/vectors.md: started once, restarted after a crash, a timeout or a
/// reply that cannot be trusted; each such case is graded `error` and the
/// run goes on.
public final class AdapterSubject: Subject {
    public let command: String
    public let adapterName: String
    public let version: String
    public let families: Set<Family>
    public let timeout: Duration
    private let session: AdapterSession

    public var name: String { "\(adapterName) \(version)" }
    public var gradesErrorCodes: Bool { false }

    /// Starts `command` (run by `/bin/sh -c`) and reads its introduction line.
    public static func launch(command: String, timeout: Duration = .seconds(10)) async throws -> AdapterSubject {
        let session = AdapterSession(command: command, timeout: timeout)
        let hello = try await session.start()
        guard let object = hello.objectValue, let name = object["adapter"]?.stringValue else {
            throw AdapterError("adapter's first line must be {\"adapter\": …, \"version\": …, \"families\": […]}")
        }
        let claimed = (object["families"]?.arrayValue ?? []).compactMap(\.stringValue)
        let families = Set(claimed.compactMap(Family.init(rawValue:)))
        return AdapterSubject(command: command, adapterName: name, version: object["version"]?.stringValue ?? "?",
                              families: families, timeout: timeout, session: session)
    }

    private init(command: String, adapterName: String, version: String, families: Set<Family>,
                 timeout: Duration, session: AdapterSession) {
        self.command = command
        self.adapterName = adapterName
        self.version = version
        self.families = families
        self.timeout = timeout
        self.session = session
    }

    public func evaluate(family: Family, input: JSONValue) async throws -> SubjectAnswer {
        try await session.ask(family: family, input: input)
    }

    /// Everything the adapter wrote to stderr so far (bounded).
    public func stderrText() async -> String { await session.stderrText() }

    /// Stops the adapter process.
    public func stop() async { await session.stop() }
}

/// The adapter process and its pipes; one request at a time.
actor AdapterSession {
    static let maxLineBytes = 16 * 1024 * 1024
    static let maxStderrBytes = 256 * 1024

    let command: String
    let timeout: Duration
    private var process: Process?
    private var input: FileHandle?
    private var lines: LineChannel?
    private var stderr = StderrBuffer(limit: AdapterSession.maxStderrBytes)
    private var counter = 0
    private var restarts = 0

    init(command: String, timeout: Duration) {
        self.command = command
        self.timeout = timeout
    }

    /// Starts the process and returns its introduction line.
    func start() async throws -> JSONValue {
        // A dead adapter must surface as a write error, not kill the runner.
        signal(SIGPIPE, SIG_IGN)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", command]
        let stdinPipe = Pipe(), stdoutPipe = Pipe(), stderrPipe = Pipe()
        process.standardInput = stdinPipe
        process.standardOutput = stdoutPipe
        process.standardError = stderrPipe
        let channel = LineChannel(maxLineBytes: Self.maxLineBytes)
        stdoutPipe.fileHandleForReading.readabilityHandler = { handle in channel.feed(handle.availableData) }
        let sink = stderr
        stderrPipe.fileHandleForReading.readabilityHandler = { handle in
            let data = handle.availableData
            if data.isEmpty { handle.readabilityHandler = nil } else { sink.append(data) }
        }
        do {
            try process.run()
        } catch {
            throw AdapterError("cannot start adapter `\(command)`: \(error.localizedDescription)")
        }
        self.process = process
        self.input = stdinPipe.fileHandleForWriting
        self.lines = channel
        switch await channel.next(timeout: timeout) {
        case .line(let text):
            guard let hello = try? JSONDecoder().decode(JSONValue.self, from: Data(text.utf8)) else {
                throw AdapterError("adapter's first line is not JSON: \(text.prefix(200))")
            }
            return hello
        case .closed:
            throw AdapterError("adapter exited before introducing itself; stderr: \(stderr.tail(400))")
        case .timeout:
            throw AdapterError("adapter said nothing within \(timeout)")
        }
    }

    func ask(family: Family, input value: JSONValue) async throws -> SubjectAnswer {
        if process == nil {
            restarts += 1
            _ = try await start()
        }
        guard let input, let lines else { throw AdapterError("adapter is not running") }
        counter += 1
        let id = "\(counter)"
        let request: JSONValue = .object(["id": .string(id), "family": .string(family.rawValue), "input": value])
        do {
            try input.write(contentsOf: Data((request.jsonText + "\n").utf8))
        } catch {
            stop()
            throw AdapterError("adapter stopped reading its input (restarting); stderr: \(stderr.tail(400))")
        }
        switch await lines.next(timeout: timeout) {
        case .closed:
            stop()
            throw AdapterError("adapter crashed (restarting); stderr: \(stderr.tail(400))")
        case .timeout:
            stop()
            throw AdapterError("adapter did not answer within \(timeout) (restarting)")
        case .line(let text):
            guard let reply = try? JSONDecoder().decode(JSONValue.self, from: Data(text.utf8)), reply.objectValue != nil else {
                stop()
                throw AdapterError("malformed reply line (restarting): \(text.prefix(200))")
            }
            guard reply["id"]?.stringValue == id else {
                stop()
                throw AdapterError("reply for id \(reply["id"]?.jsonText ?? "none"), expected \"\(id)\" (restarting)")
            }
            guard let verdictName = reply["result"]?.stringValue,
                  let verdict = SubjectAnswer.Verdict(rawValue: verdictName) else {
                throw AdapterError("reply \"result\" must be valid, invalid or unsupported: \(text.prefix(200))")
            }
            return SubjectAnswer(verdict, error: reply["error"]?.stringValue, output: reply["output"])
        }
    }

    func stop() {
        if let process, process.isRunning {
            process.terminate()
            let pid = process.processIdentifier
            DispatchQueue.global().asyncAfter(deadline: .now() + 1) { if process.isRunning { kill(pid, SIGKILL) } }
        }
        try? input?.close()
        process = nil
        input = nil
        lines = nil
    }

    func stderrText() -> String { stderr.text() }
}

/// Bounded capture of an adapter's stderr (the first bytes are kept).
final class StderrBuffer: @unchecked Sendable {
    private let lock = NSLock()
    private var data = Data()
    private let limit: Int

    init(limit: Int) { self.limit = limit }

    func append(_ more: Data) {
        lock.withLock { if data.count < limit { data.append(more.prefix(limit - data.count)) } }
    }

    func text() -> String { lock.withLock { String(decoding: data, as: UTF8.self) } }

    func tail(_ n: Int) -> String {
        let all = text()
        return all.isEmpty ? "(empty)" : String(all.suffix(n))
    }
}

/// Lines from a pipe, handed to one waiter at a time with a timeout.
final class LineChannel: @unchecked Sendable {
    enum Event: Sendable { case line(String), closed, timeout }

    private let lock = NSLock()
    private var pending: [String] = []
    private var partial = Data()
    private var closed = false
    private var waiter: (token: Int, continuation: CheckedContinuation<Event, Never>)?
    private var nextToken = 0
    private let maxLineBytes: Int

    init(maxLineBytes: Int) { self.maxLineBytes = maxLineBytes }

    /// Called with each chunk read; an empty chunk means end of file.
    func feed(_ data: Data) {
        let resume: (CheckedContinuation<Event, Never>, Event)? = lock.withLock {
            if data.isEmpty {
                closed = true
            } else {
                partial.append(data)
                while let newline = partial.firstIndex(of: 0x0A) {
                    pending.append(String(decoding: partial[partial.startIndex..<newline], as: UTF8.self))
                    partial = Data(partial[partial.index(after: newline)...])
                }
                if partial.count > maxLineBytes {
                    pending.append(String(decoding: partial.prefix(200), as: UTF8.self) + "… (line too long)")
                    partial = Data()
                }
            }
            guard let waiter else { return nil }
            if !pending.isEmpty {
                self.waiter = nil
                return (waiter.continuation, .line(pending.removeFirst()))
            }
            if closed {
                self.waiter = nil
                return (waiter.continuation, .closed)
            }
            return nil
        }
        if let (continuation, event) = resume { continuation.resume(returning: event) }
    }

    func next(timeout: Duration) async -> Event {
        await withCheckedContinuation { continuation in
            let immediate: Event? = lock.withLock {
                if !pending.isEmpty { return .line(pending.removeFirst()) }
                if closed { return .closed }
                nextToken += 1
                waiter = (nextToken, continuation)
                let token = nextToken
                Task { [weak self] in
                    try? await Task.sleep(for: timeout)
                    self?.expire(token)
                }
                return nil
            }
            if let immediate { continuation.resume(returning: immediate) }
        }
    }

    private func expire(_ token: Int) {
        let continuation: CheckedContinuation<Event, Never>? = lock.withLock {
            guard let waiter, waiter.token == token else { return nil }
            self.waiter = nil
            return waiter.continuation
        }
        continuation?.resume(returning: .timeout)
    }
}
