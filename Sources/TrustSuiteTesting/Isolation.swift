import AdapterHost
import ConformanceKit
import Foundation
import Testing
import TrustSuiteSupport
import VectorContract

/// Where a graded implementation answers (``ConformanceSetup/isolation``,
/// docs/adopting.md, "Isolation").
///
/// - ``process`` (the default): in a child process, this test binary run
///   again and filtered to the calling test. A vector that traps, aborts,
///   exhausts memory or hangs the implementation is that vector's critical
///   outcome; the next vector gets a fresh child, so N crashes cost N + 1
///   processes, and the rest of the family is graded in the same `swift
///   test`. The child runs under an address-space limit and each vector
///   under a deadline.
/// - ``inProcess``: in the test process itself, as before: faster, but the
///   first crash ends the whole `swift test` and a hang hangs it.
public struct Isolation: Sendable, Hashable, CustomStringConvertible {
    /// Whether answers come from a child process.
    public let inChildProcess: Bool
    /// How long one vector may take in the child before it is stopped and
    /// the vector graded critical (a hang).
    public let deadline: Duration
    /// How many bytes of address space the child may add to what it holds
    /// when it starts answering (`setrlimit(RLIMIT_AS)`, Linux); nil: no limit.
    public let addressSpaceLimit: Int?
    /// Vectors in a row that crash or hang the child before the rest of the
    /// family is graded `error` without being sent (0: never give up).
    public let maxConsecutiveCrashes: Int

    /// The per-vector deadline unless set: 10 s, as `trustsuite run --timeout`.
    public static let defaultDeadline: Duration = .seconds(10)
    /// The address space a child may add unless set: 2 GiB.
    public static let defaultAddressSpaceLimit = 2 << 30
    /// As `trustsuite run --max-crashes`: 10.
    public static let defaultMaxConsecutiveCrashes = 10
    /// How long a child may take to start (the test binary, its test
    /// discovery, the vectors' loading) and introduce itself; not a vector's time.
    public static let startAllowance: Duration = .seconds(120)

    /// `TRUSTSUITE_TESTING_ISOLATION=in-process` in the environment answers
    /// every check in process, whatever its setup says (a quick local run);
    /// `process` isolates every check with the default bounds.
    public static let environmentVariable = "TRUSTSUITE_TESTING_ISOLATION"

    static let overridden: Isolation? = {
        switch ProcessInfo.processInfo.environment[environmentVariable] {
        case "in-process": .inProcess
        case "process": .process
        default: nil
        }
    }()

    /// In the test process: no child, no deadline, no memory limit.
    public static let inProcess = Isolation(inChildProcess: false, deadline: .zero, addressSpaceLimit: nil, maxConsecutiveCrashes: 0)
    /// In a child process with the default deadline, address-space limit and crash count.
    public static let process = Isolation.process()

    /// In a child process with these bounds.
    public static func process(
        deadline: Duration = defaultDeadline, addressSpaceLimit: Int? = defaultAddressSpaceLimit,
        maxConsecutiveCrashes: Int = defaultMaxConsecutiveCrashes
    ) -> Isolation {
        Isolation(
            inChildProcess: true, deadline: max(deadline, .milliseconds(1)), addressSpaceLimit: addressSpaceLimit.map { max($0, 0) },
            maxConsecutiveCrashes: max(maxConsecutiveCrashes, 0))
    }

    private init(inChildProcess: Bool, deadline: Duration, addressSpaceLimit: Int?, maxConsecutiveCrashes: Int) {
        self.inChildProcess = inChildProcess
        self.deadline = deadline
        self.addressSpaceLimit = addressSpaceLimit
        self.maxConsecutiveCrashes = maxConsecutiveCrashes
    }

    public var description: String {
        guard inChildProcess else { return "in process" }
        let limit = addressSpaceLimit.map { "\(Self.mebibytes($0)) MiB of address space" } ?? "no address-space limit"
        return "in a child process (deadline \(Self.seconds(deadline)), \(limit))"
    }

    static func seconds(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        return String(format: "%g s", Double(seconds) + Double(attoseconds) / 1e18)
    }

    static func mebibytes(_ bytes: Int) -> Int { bytes >> 20 }
}

/// What the implementation gave for one vector, before grading.
enum IsolatedAnswer: Sendable {
    case answer(SubjectAnswer)
    /// The implementation threw (graded `error`, as in process).
    case thrown(String)
    /// It crashed or hung on this vector: the account, for a critical outcome.
    case crashed(String)
    /// The vector was not sent (the child could not start, or gave up).
    case notRun(String)
}

/// One child per route (``IsolationRoute``: the calling test, its case's
/// other arguments, the setup's name, the call site) and isolation, for the
/// rest of the test process (the watchdog below each child ends it with the
/// test process).
actor IsolationSessions {
    static let shared = IsolationSessions()
    private var children: [String: IsolatedChild] = [:]
    /// Checks so far of each vector on each route without its occurrence.
    private var checks: [String: Int] = [:]

    /// The child for the check of `vectorID` on `place` under `isolation`,
    /// counting the check; nil where the test binary cannot be run again (not Linux).
    func session(for isolation: Isolation, place: IsolationRoute, vectorID: String) -> IsolatedChild? {
        guard isolation.inChildProcess, let executable = IsolationWorker.executable else { return nil }
        var route = place
        route.occurrence = Self.count(&checks, place, vectorID)
        let key = Self.key(route, isolation)
        if let child = children[key] { return child }
        let child = IsolatedChild(route: route, executable: executable, isolation: isolation)
        children[key] = child
        return child
    }

    /// The processes the calling test's children under `isolation` started (0 without one).
    func processes(for isolation: Isolation) async -> Int {
        guard let test = Test.current else { return 0 }
        let id = String(describing: test.id)
        var total = 0
        for child in children.values where child.route.testID == id && child.isolation == isolation {
            total += await child.processes
        }
        return total
    }

    /// The number of earlier checks of `vectorID` on `place`, counting this one.
    static func count(_ checks: inout [String: Int], _ place: IsolationRoute, _ vectorID: String) -> Int {
        let key = place.encoded + "\n" + vectorID
        let earlier = checks[key, default: 0]
        checks[key] = earlier + 1
        return earlier
    }

    private static func key(_ route: IsolationRoute, _ isolation: Isolation) -> String {
        route.encoded + "\n" + isolation.description + "\n\(isolation.maxConsecutiveCrashes)"
    }
}

/// The child process of one test: vectors one at a time, a fresh process
/// after each crash or hang.
actor IsolatedChild {
    nonisolated let route: IsolationRoute
    nonisolated let isolation: Isolation
    let command: String
    let environment: [String: String]
    private var subject: AdapterSubject?
    /// Set when no child could be started: every later vector is not run.
    private var startFailure: String?
    /// The last vector stopped the child: the next one first waits for a
    /// fresh process to introduce itself, outside its own deadline.
    private var down = false
    private var crashesInARow = 0
    private var busy = false
    private var waiting: [CheckedContinuation<Void, Never>] = []
    /// Processes started so far (the first, then one per crash or hang).
    private(set) var processes = 0

    init(route: IsolationRoute, executable: String, isolation: Isolation) {
        self.route = route
        self.isolation = isolation
        // The child reads requests on descriptor 8 and writes replies on 9,
        // copies of the pipes the host holds; its stdin is /dev/null, and its
        // standard output (Swift Testing's, the implementation's prints)
        // joins its stderr, shown with a crash.
        command =
            "exec 8<&0 9>&1 0</dev/null 1>&2; exec \(Self.quoted(executable)) --testing-library swift-testing --filter "
            + Self.quoted(IsolationWorker.filter(forTestID: route.testID))
        var environment = [IsolationWorker.routeVariable: route.encoded, "SWIFT_BACKTRACE": "enable=no"]
        if let limit = isolation.addressSpaceLimit { environment[IsolationWorker.limitVariable] = "\(limit)" }
        self.environment = environment
    }

    static func quoted(_ text: String) -> String { "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'" }

    func answer(family: Family, input: JSONValue) async -> IsolatedAnswer {
        await acquire()
        defer { release() }
        if let startFailure { return .notRun(startFailure) }
        if isolation.maxConsecutiveCrashes > 0, crashesInARow >= isolation.maxConsecutiveCrashes {
            return .notRun(
                "not run: the implementation crashed or hung on \(crashesInARow) vectors in a row in its isolated process "
                    + "(Isolation.process(maxConsecutiveCrashes:))")
        }
        guard let subject = await ready(family: family) else { return .notRun(startFailure ?? "the isolated process did not start") }
        let deadline = isolation.deadline
        let timer = Task { () -> Bool in
            do { try await Task.sleep(for: deadline) } catch { return false }
            await subject.stop()
            return true
        }
        let result: Result<SubjectAnswer, any Error>
        do {
            result = .success(try await subject.evaluate(family: family, input: input))
        } catch {
            result = .failure(error)
        }
        timer.cancel()
        let timedOut = await timer.value
        switch result {
        case .success(let answer):
            crashesInARow = 0
            // An answer that came as the deadline stopped the process counts; the next vector restarts it.
            if timedOut { down = true }
            if let thrown = IsolationWorker.thrownError(in: answer) { return .thrown(thrown) }
            return .answer(answer)
        case .failure(let error):
            down = true
            crashesInARow += 1
            return .crashed(account(of: error, timedOut: timedOut))
        }
    }

    /// The child, started (or restarted) and introduced.
    private func ready(family: Family) async -> AdapterSubject? {
        if let subject, !down { return subject }
        do {
            if let subject {
                // A restart: a ping the worker answers without the implementation.
                _ = try await subject.evaluate(family: family, input: IsolationWorker.ping)
            } else {
                subject = try await AdapterSubject.launch(
                    command: command, timeout: max(Isolation.startAllowance, isolation.deadline * 2), environment: environment,
                    maxConsecutiveCrashes: 0)
            }
            processes += 1
            down = false
            return subject
        } catch {
            // A child that reached no check on its route says so instead of a hello.
            if "\(error)".contains(IsolationWorker.unreached.jsonText) {
                startFailure = unreachedAccount(stderr: (error as? AdapterError)?.stderr ?? "\(error)")
            } else {
                startFailure = "not run: the isolated process (this test binary run again) did not start: \(error)"
            }
            return nil
        }
    }

    /// Why no vector of this route can be answered: the child ran the test
    /// and no check took the route (with the checks it did reach, when its
    /// stderr names them in time).
    private func unreachedAccount(stderr: String) -> String {
        let lines = stderr.replacingOccurrences(of: "\\n", with: "\n").split(whereSeparator: \.isNewline)
        let reached = lines.last { $0.hasPrefix(IsolationWorker.reachedPrefix) }.map { $0.dropFirst(IsolationWorker.reachedPrefix.count) }
        return "not run: the isolated process (this test binary run again) reached no check on this vector's route (\(route)), "
            + "so no implementation answered it. A check must be made the same way in every run of its test: the same call, "
            + "setup name and arguments, with no condition or code before it that goes otherwise in the child "
            + "(docs/adopting.md, \"Isolation\"). Checks the child reached: \(reached.map(String.init) ?? "not known")"
    }

    /// How the vector went wrong, in words: crashed (out of memory, when the
    /// implementation's last words say an allocation failed) or hung, with
    /// the last lines it wrote to stderr.
    private func account(of error: any Error, timedOut: Bool) -> String {
        let failure = error as? AdapterError
        let stderr = Self.lastLines(of: failure?.stderr ?? "")
        let said = stderr.isEmpty ? "" : "; its stderr: \(stderr)"
        if timedOut {
            return "hung: no answer within \(Isolation.seconds(isolation.deadline)) (the per-vector deadline, "
                + "Isolation.process(deadline:)); its process was stopped\(said)"
        }
        var text = failure?.description ?? "\(error)"
        text = text.replacingOccurrences(of: "adapter crashed: it ", with: "crashed: its isolated process ")
        text = text.replacingOccurrences(of: " (restarting)", with: "").replacingOccurrences(of: "; restarting", with: "")
        let lowered = stderr.lowercased()
        if lowered.contains("allocate") || lowered.contains("bad_alloc") || lowered.contains("out of memory") {
            let limit = isolation.addressSpaceLimit.map { "its address space was limited to \(Isolation.mebibytes($0)) MiB more" }
            text = "out of memory (\(limit ?? "no address-space limit")): " + text
        }
        return text + said
    }

    /// The lines of `text` that explain a death, at most three and 600
    /// characters, joined by " | ": the trap, abort or allocation failure
    /// when one is there (issue 61, item 7: the quoted lines used to be the
    /// child's test-start lines), else the last lines that say something.
    /// Left out: empty lines, Swift Testing's own event lines (`◇ Test …
    /// started.`, `✔`, `✘`, `↳`, printed by the child's other cases), and
    /// the stack trace Swift prints after a fatal error (`Current stack
    /// trace:`, then frames `3 libfoo.so 0x…`).
    static func lastLines(of text: String) -> String {
        let lines = text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.filter { line in
            !line.isEmpty && line != "Current stack trace:" && line.wholeMatch(of: /[0-9]+\s+\S+\s+0x[0-9a-fA-F]+.*/) == nil
                && !isTestingEvent(line)
        }
        let deaths = lines.filter(explainsADeath)
        let joined = (deaths.isEmpty ? lines : deaths).suffix(3).joined(separator: " | ")
        return joined.count > 600 ? "…" + String(joined.suffix(600)) : joined
    }

    /// A line of Swift Testing's console output (or XCTest's summary).
    static func isTestingEvent(_ line: String) -> Bool {
        guard let first = line.unicodeScalars.first else { return false }
        // ◇ ✔ ✘ ↳ ⚠ and the SF Symbols private-use glyphs Swift Testing may print instead.
        if ["\u{25C7}", "\u{2714}", "\u{2718}", "\u{21B3}", "\u{26A0}"].contains(first) { return true }
        if (0xF0000...0x10FFFF).contains(first.value) { return true }
        return line.hasPrefix("Test Suite '") || line.hasPrefix("Executed ")
    }

    /// A line in which a process says why it dies.
    static func explainsADeath(_ line: String) -> Bool {
        let lowered = line.lowercased()
        return [
            "fatal error", "precondition failed", "assertion failed", "terminate called", "what():", "abort", "out of memory",
            "bad_alloc", "cannot allocate", "failed to allocate", "segmentation fault", "addresssanitizer", "stack overflow",
            "crashed: the code under test closed",
        ].contains { lowered.contains($0) }
    }

    private func acquire() async {
        guard busy else {
            busy = true
            return
        }
        await withCheckedContinuation { waiting.append($0) }
    }

    private func release() {
        if waiting.isEmpty {
            busy = false
        } else {
            waiting.removeFirst().resume()
        }
    }
}
