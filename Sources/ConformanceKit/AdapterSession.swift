import Foundation

/// The adapter process and its pipes; one request at a time.
actor AdapterSession {
    /// The most recent stderr output kept for the report.
    static let maxStderrBytes = 1024 * 1024
    /// The most of one case's stderr attached to that case.
    static let maxCaseStderrBytes = 16 * 1024

    let command: String
    let timeout: Duration
    let maxLineBytes: Int
    let log: (@Sendable (String) -> Void)?
    private var child: ChildProcess?
    private var lines: LineChannel?
    private var stderr: StderrBuffer?
    private let kept = StderrBuffer(limit: AdapterSession.maxStderrBytes)
    private var counter = 0
    /// The first request id sent to the running process: a reply carrying an
    /// id between it and the current one is late or doubled, and ignored.
    private var firstIdOfProcess = 1
    private(set) var restarts = 0

    init(command: String, timeout: Duration, maxLineBytes: Int, log: (@Sendable (String) -> Void)?) {
        self.command = command
        self.timeout = timeout
        self.maxLineBytes = maxLineBytes
        self.log = log
    }

    /// Starts the process and returns its introduction line.
    func start() async throws -> JSONValue {
        let channel = LineChannel(maxLineBytes: maxLineBytes)
        let caseStderr = StderrBuffer(limit: Self.maxStderrBytes)
        let kept = self.kept
        let child: ChildProcess
        do {
            child = try ChildProcess(
                command: command,
                onStdout: { channel.feed($0) },
                onStderr: { chunk in caseStderr.append(chunk); kept.append(chunk) })
        } catch {
            throw AdapterError("cannot start adapter `\(command)`: \(error)")
        }
        self.child = child
        self.lines = channel
        self.stderr = caseStderr
        firstIdOfProcess = counter + 1
        let mark = caseStderr.mark
        switch await channel.next(timeout: timeout) {
        case .line(let text):
            log?("← \(text.prefix(2000))")
            guard let hello = try? JSONDecoder().decode(JSONValue.self, from: Data(text.utf8)) else {
                shutDown()
                throw AdapterError("adapter's first line is not JSON: \(text.prefix(200))")
            }
            return hello
        case .tooLong:
            shutDown()
            throw AdapterError("adapter's first line is too long (over \(maxLineBytes) bytes)")
        case .closed:
            let status = child.exitStatus(within: .seconds(2)).map(ChildProcess.describe(status:)) ?? "closed its output"
            caseStderr.waitForEnd(within: .seconds(1))
            shutDown()
            throw AdapterError("adapter \(status) before introducing itself; stderr: \(caseStderr.text(since: mark, limit: 2000))")
        case .timeout:
            shutDown()
            throw AdapterError("adapter said nothing within \(Self.describe(timeout))")
        }
    }

    func ask(family: Family, input value: JSONValue) async throws -> SubjectAnswer {
        if child == nil {
            restarts += 1
            _ = try await start()
        }
        guard let child, let lines, let stderr else { throw AdapterError("adapter is not running") }
        counter += 1
        let id = counter
        let mark = stderr.mark
        func caseStderr() -> String { stderr.text(since: mark, limit: Self.maxCaseStderrBytes) }
        let request: JSONValue = .object(["id": .string("\(id)"), "family": .string(family.rawValue), "input": value])
        let requestText = request.jsonText
        log?("→ \(requestText.prefix(2000))")
        do {
            try child.write(Array((requestText + "\n").utf8))
        } catch {
            let status = child.exitStatus(within: .seconds(2)).map(ChildProcess.describe(status:)) ?? "stopped reading its input"
            stderr.waitForEnd(within: .seconds(1))
            let text = caseStderr()
            shutDown()
            throw AdapterError("adapter \(status) (restarting)", stderr: text)
        }
        let deadline = ContinuousClock.now + timeout
        while true {
            let remaining = deadline - ContinuousClock.now
            switch await lines.next(timeout: max(remaining, .zero)) {
            case .closed:
                let status = child.exitStatus(within: .seconds(2)).map(ChildProcess.describe(status:)) ?? "closed its output"
                stderr.waitForEnd(within: .seconds(1))
                let text = caseStderr()
                shutDown()
                throw AdapterError("adapter crashed: it \(status) (restarting)", stderr: text)
            case .timeout:
                let text = caseStderr()
                shutDown()
                throw AdapterError("adapter did not answer within \(Self.describe(timeout)); its process group was stopped (restarting)",
                                   stderr: text)
            case .tooLong(let count):
                let text = caseStderr()
                shutDown()
                throw AdapterError("reply too long (over \(maxLineBytes) bytes, \(count) read; restarting)", stderr: text)
            case .line(let text):
                log?("← \(text.prefix(2000))")
                guard let reply = try? JSONDecoder().decode(JSONValue.self, from: Data(text.utf8)), reply.objectValue != nil else {
                    let err = caseStderr()
                    shutDown()
                    throw AdapterError("malformed reply line (restarting): \(text.prefix(200))", stderr: err)
                }
                let replyId = reply["id"]?.stringValue
                if let replyId, let number = Int(replyId), number >= firstIdOfProcess, number < id {
                    log?("(ignored a late or doubled reply for id \(number) while waiting for \(id))")
                    continue
                }
                guard replyId == "\(id)" else {
                    let err = caseStderr()
                    shutDown()
                    throw AdapterError("reply for id \(reply["id"]?.jsonText ?? "none"), expected \"\(id)\" (restarting)", stderr: err)
                }
                guard let verdictName = reply["result"]?.stringValue,
                      let verdict = SubjectAnswer.Verdict(rawValue: verdictName) else {
                    throw AdapterError("reply \"result\" must be valid, invalid or unsupported: \(text.prefix(200))",
                                       stderr: caseStderr())
                }
                var answer = SubjectAnswer(verdict, error: reply["error"]?.stringValue, output: reply["output"])
                child.settleStderr()
                let text = caseStderr()
                answer.stderr = text.isEmpty ? nil : text
                return answer
            }
        }
    }

    /// Stops the process group (see `ChildProcess.stop`).
    func shutDown() {
        child?.stop()
        child = nil
        lines = nil
        stderr = nil
    }

    func stderrText() -> String { kept.text(since: 0, limit: Self.maxStderrBytes) }

    static func describe(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        let value = Double(seconds) + Double(attoseconds) / 1e18
        return String(format: "%g s", value)
    }
}

/// Bounded capture of an adapter's stderr: the most recent `limit` bytes,
/// addressed by their offset in everything ever written.
final class StderrBuffer: @unchecked Sendable {
    private let lock = NSLock()
    private var bytes: [UInt8] = []
    /// Offset of `bytes[0]` in the whole stream.
    private var dropped = 0
    private var ended = false
    private let limit: Int

    init(limit: Int) { self.limit = limit }

    func append(_ chunk: ArraySlice<UInt8>) {
        lock.withLock {
            if chunk.isEmpty { ended = true; return }
            bytes.append(contentsOf: chunk)
            // Trim in large steps so appending stays linear.
            if bytes.count > 2 * limit {
                let excess = bytes.count - limit
                bytes.removeFirst(excess)
                dropped += excess
            }
        }
    }

    /// The stream offset of the next byte written.
    var mark: Int { lock.withLock { dropped + bytes.count } }

    /// Waits until the writer closed the stream or `limit` passed.
    func waitForEnd(within limit: Duration) {
        let deadline = ContinuousClock.now + limit
        while !lock.withLock({ ended }) && ContinuousClock.now < deadline { usleep(5_000) }
    }

    /// What was written from offset `start` on, at most the last `limit` bytes of it.
    func text(since start: Int, limit: Int) -> String {
        lock.withLock {
            let from = max(start - dropped, 0, bytes.count - limit)
            var text = String(decoding: bytes[min(from, bytes.count)...], as: UTF8.self)
            if from > start - dropped { text = "… " + text }
            return text
        }
    }
}

/// Lines from a pipe, handed to one waiter at a time with a timeout. Each
/// byte is looked at once, so reading a line is linear in its length.
final class LineChannel: @unchecked Sendable {
    enum Event: Sendable, Equatable { case line(String), tooLong(Int), closed, timeout }

    private let lock = NSLock()
    private var pending: [Event] = []
    private var head = 0
    /// The bytes of the line being read (no newline among them).
    private var partial: [UInt8] = []
    /// Inside a line that went over the limit: dropped up to its newline.
    private var discarding = false
    private var closed = false
    private var waiter: (token: Int, continuation: CheckedContinuation<Event, Never>)?
    private var nextToken = 0
    private let maxLineBytes: Int

    init(maxLineBytes: Int) { self.maxLineBytes = maxLineBytes }

    /// Called with each chunk read; an empty chunk means end of file.
    func feed(_ chunk: ArraySlice<UInt8>) {
        let resume: (CheckedContinuation<Event, Never>, Event)? = lock.withLock {
            if chunk.isEmpty {
                closed = true
            } else {
                split(chunk)
            }
            guard let waiter, let event = takeLocked() else { return nil }
            self.waiter = nil
            return (waiter.continuation, event)
        }
        if let (continuation, event) = resume { continuation.resume(returning: event) }
    }

    private func split(_ chunk: ArraySlice<UInt8>) {
        var rest = chunk
        while let newline = Self.newline(in: rest) {
            if discarding {
                discarding = false
            } else {
                partial.append(contentsOf: rest[rest.startIndex..<newline])
                if partial.count > maxLineBytes {
                    pending.append(.tooLong(partial.count))
                } else {
                    pending.append(.line(String(decoding: partial, as: UTF8.self)))
                }
                partial = []
            }
            rest = rest[(newline + 1)...]
        }
        guard !discarding else { return }
        partial.append(contentsOf: rest)
        if partial.count > maxLineBytes {
            pending.append(.tooLong(partial.count))
            partial = []
            discarding = true
        }
    }

    private static func newline(in bytes: ArraySlice<UInt8>) -> Int? {
        bytes.withUnsafeBufferPointer { buffer -> Int? in
            guard let base = buffer.baseAddress, buffer.count > 0,
                  let found = memchr(base, 0x0A, buffer.count) else { return nil }
            return bytes.startIndex + (UnsafeRawPointer(found) - UnsafeRawPointer(base))
        }
    }

    /// The next pending event (a line, or end of file once all lines are taken).
    private func takeLocked() -> Event? {
        if head < pending.count {
            let event = pending[head]
            head += 1
            if head > 64 && head * 2 > pending.count {
                pending.removeFirst(head)
                head = 0
            }
            return event
        }
        return closed ? .closed : nil
    }

    func next(timeout: Duration) async -> Event {
        await withCheckedContinuation { continuation in
            let immediate: Event? = lock.withLock {
                if let event = takeLocked() { return event }
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
