import VectorContract
import Foundation
import Synchronization
import TrustSuiteSupport

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
    /// Variables set in the adapter's environment (``HostileTrustStore``).
    let environment: [String: String]
    /// Cases in a row that may end with the adapter down (a crash, a hang,
    /// an untrusted reply, a failed restart) before it is given up; 0 never
    /// gives up (``AdapterSubject/defaultMaxConsecutiveCrashes``).
    let maxConsecutiveCrashes: Int
    /// Such cases since the last answer.
    private var consecutiveCrashes = 0
    /// Set once the adapter is given up: every later case is refused at once.
    private(set) var gaveUp = false
    private var child: ChildProcess?
    private var lines: LineChannel?
    /// Everything the adapter wrote to stderr, across restarts; a case's own
    /// lines are those after the mark taken when it started.
    private let stderr = StderrBuffer(limit: AdapterSession.maxStderrBytes)
    private var counter = 0
    /// The first request id sent to the running process: a reply carrying an
    /// id between it and the current one is late or doubled, and ignored.
    private var firstIdOfProcess = 1
    private(set) var restarts = 0
    /// The session's blocking steps, off the pool (``OffPool``): the
    /// process's (spawn, exit status, stop) and the pipes' (a write, the
    /// stderr drain), each on one thread for the session's life.
    private let processWorker = OffPool.Worker(name: "trustsuite-process")
    private let pipeWorker = OffPool.Worker(name: "trustsuite-pipes")

    init(
        command: String, timeout: Duration, maxLineBytes: Int, environment: [String: String] = [:],
        maxConsecutiveCrashes: Int = 0, log: (@Sendable (String) -> Void)?
    ) {
        self.command = command
        self.maxConsecutiveCrashes = maxConsecutiveCrashes
        self.environment = environment
        self.timeout = timeout
        self.maxLineBytes = maxLineBytes
        self.log = log
    }

    /// Threads the session's two workers started.
    var workerThreads: Int { processWorker.threadsStarted + pipeWorker.threadsStarted }

    deinit {
        processWorker.finish()
        pipeWorker.finish()
    }

    /// Starts the process and returns its introduction line.
    func start() async throws -> JSONValue {
        let channel = LineChannel(maxLineBytes: maxLineBytes)
        let stderr = self.stderr
        let child: ChildProcess
        do {
            // The spawn waits for the spawner thread: off the pool too.
            let (command, environment) = (self.command, self.environment)
            child = try await processWorker.run {
                try ChildProcess(
                    command: command, environment: environment, onStdout: { channel.feed($0) }, onStderr: { stderr.append($0) })
            }
        } catch {
            throw AdapterError("cannot start adapter `\(command)`: \(error)")
        }
        self.child = child
        self.lines = channel
        firstIdOfProcess = counter + 1
        let mark = stderr.mark
        switch await channel.next(timeout: timeout) {
        case .line(let text):
            log?("← \(text.prefix(2000))")
            guard let hello = try? JSONDecoder().decode(JSONValue.self, from: Data(text.utf8)) else {
                throw await abandon("adapter's first line is not JSON: \(text.prefix(200))", since: mark)
            }
            return hello
        case .tooLong:
            throw await abandon("adapter's first line is too long (over \(maxLineBytes) bytes)", since: mark)
        case .closed:
            let status = await exitStatus(of: child, otherwise: "closed its output")
            let error = await abandon("adapter \(status) before introducing itself", since: mark, limit: 2000)
            throw AdapterError("\(error.description); stderr: \(error.stderr ?? "")")
        case .timeout:
            throw await abandon("adapter said nothing within \(Self.describe(timeout))", since: mark)
        }
    }

    /// One case. After `maxConsecutiveCrashes` cases in a row that left the
    /// adapter down, it is not restarted again: an adapter that crashes on
    /// every case would otherwise be restarted for every vector (about 7
    /// minutes for the suite's vectors, issue 41).
    func ask(family: Family, input value: JSONValue) async throws -> SubjectAnswer {
        guard !gaveUp else {
            throw AdapterError(
                "not run: the adapter was given up after \(maxConsecutiveCrashes) cases in a row that crashed it, "
                    + "hung it or got an untrusted reply (--max-crashes)")
        }
        do {
            let answer = try await exchange(family: family, input: value)
            consecutiveCrashes = 0
            return answer
        } catch let error as AdapterError {
            // A bad verdict keeps the process: only a case that left it down counts.
            guard child == nil else {
                consecutiveCrashes = 0
                throw error
            }
            consecutiveCrashes += 1
            guard maxConsecutiveCrashes > 0, consecutiveCrashes >= maxConsecutiveCrashes else { throw error }
            gaveUp = true
            let said = error.description.replacingOccurrences(of: " (restarting)", with: "").replacingOccurrences(
                of: "; restarting", with: "")
            throw AdapterError(
                said + "; giving up on the adapter: \(consecutiveCrashes) cases in a row crashed it, "
                    + "hung it or got an untrusted reply (--max-crashes)", stderr: error.stderr)
        }
    }

    private func exchange(family: Family, input value: JSONValue) async throws -> SubjectAnswer {
        if child == nil {
            restarts += 1
            _ = try await start()
        }
        guard let child, let lines else { throw AdapterError("adapter is not running") }
        counter += 1
        let id = counter
        let mark = stderr.mark
        let request: JSONValue = .object(["id": .string("\(id)"), "family": .string(family.rawValue), "input": value])
        let requestText = request.jsonText
        log?("→ \(requestText.prefix(2000))")
        do {
            // A write blocks while the adapter does not read: off the pool (``OffPool``).
            let bytes = Array((requestText + "\n").utf8)
            try await pipeWorker.run { try child.write(bytes) }
        } catch {
            let status = await exitStatus(of: child, otherwise: "stopped reading its input")
            throw await abandon("adapter \(status) (restarting)", since: mark)
        }
        let deadline = ContinuousClock.now + timeout
        while true {
            let remaining = deadline - ContinuousClock.now
            switch await lines.next(timeout: max(remaining, .zero)) {
            case .closed:
                let status = await exitStatus(of: child, otherwise: "closed its output")
                throw await abandon("adapter crashed: it \(status) (restarting)", since: mark)
            case .timeout:
                throw await abandon(
                    "adapter did not answer within \(Self.describe(timeout)); its process group was stopped (restarting)",
                    since: mark)
            case .tooLong:
                throw await abandon("reply too long (over \(maxLineBytes) bytes; restarting)", since: mark)
            case .line(let text):
                log?("← \(text.prefix(2000))")
                switch AdapterReply.read(text, id: id, firstIdOfProcess: firstIdOfProcess) {
                case .late(let number):
                    log?("(ignored a late or doubled reply for id \(number) while waiting for \(id))")
                    continue
                case .untrusted(let reason):
                    throw await abandon("\(reason) (restarting)", since: mark)
                case .badVerdict:
                    await pipeWorker.run { child.settleStderr() }
                    throw AdapterError(
                        "reply \"result\" must be valid, invalid or unsupported: \(text.prefix(200))",
                        stderr: stderr.text(since: mark, limit: Self.maxCaseStderrBytes))
                case .answer(var answer):
                    await pipeWorker.run { child.settleStderr() }
                    let caseStderr = stderr.text(since: mark, limit: Self.maxCaseStderrBytes)
                    answer.stderr = caseStderr.isEmpty ? nil : caseStderr
                    return answer
                }
            }
        }
    }

    /// How `child` ended ("exited with status 3", …), once its stderr is read;
    /// `otherwise` when it is still running after two seconds.
    private func exitStatus(of child: ChildProcess, otherwise: String) async -> String {
        await processWorker.run {
            let status = child.exitStatus(within: .seconds(2)).map(ChildProcess.describe(status:)) ?? otherwise
            child.settleStderr(within: .seconds(1))
            return status
        }
    }

    /// Stops the process group and returns the error for the case, with the
    /// stderr written since `mark`.
    private func abandon(_ message: String, since mark: Int, limit: Int = AdapterSession.maxCaseStderrBytes) async -> AdapterError {
        if let child { await pipeWorker.run { child.settleStderr() } }
        let text = stderr.text(since: mark, limit: limit)
        await shutDown()
        return AdapterError(message, stderr: text)
    }

    /// Stops the process group (see `ChildProcess.stop`), off the pool: the
    /// stop waits up to seconds for the group to end.
    func shutDown() async {
        let stopping = child
        child = nil
        lines = nil
        if let stopping { _ = await processWorker.run { stopping.stop() } }
    }

    func stderrText() -> String { stderr.text(since: 0, limit: Self.maxStderrBytes) }

    static func describe(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        let value = Double(seconds) + Double(attoseconds) / 1e18
        return String(format: "%g s", value)
    }
}

/// Bounded capture of an adapter's stderr: the most recent `limit` bytes,
/// addressed by their offset in everything ever written.
final class StderrBuffer: Sendable {
    private struct Kept {
        var bytes: [UInt8] = []
        /// Offset of `bytes[0]` in the whole stream.
        var dropped = 0
    }
    private let kept = Mutex(Kept())
    private let limit: Int

    init(limit: Int) { self.limit = limit }

    func append(_ chunk: ArraySlice<UInt8>) {
        kept.withLock { kept in
            kept.bytes.append(contentsOf: chunk)
            // Trim in large steps so appending stays linear.
            if kept.bytes.count > 2 * limit {
                let excess = kept.bytes.count - limit
                kept.bytes.removeFirst(excess)
                kept.dropped += excess
            }
        }
    }

    /// The stream offset of the next byte written.
    var mark: Int { kept.withLock { $0.dropped + $0.bytes.count } }

    /// What was written from offset `start` on, at most the last `limit` bytes of it.
    func text(since start: Int, limit: Int) -> String {
        kept.withLock { kept in
            let from = max(start - kept.dropped, 0, kept.bytes.count - limit)
            var text = String(decoding: kept.bytes[min(from, kept.bytes.count)...], as: UTF8.self)
            if from > start - kept.dropped { text = "… " + text }
            return text
        }
    }
}
