import AdapterHost
import Foundation
import Synchronization
import Testing
import TrustSuiteSupport
import VectorContract

#if canImport(Glibc)
import Glibc
#endif

/// The child's side of ``Isolation/process``: this test binary, run again
/// by a parent's `check` with ``routeVariable`` naming the parent's
/// ``IsolationRoute``. The first case whose `check` is on that route answers
/// the parent's vectors over the adapter protocol (docs/vectors.md), one
/// JSON line each, with its own implementation, until the parent closes its
/// input. Another case on the same route waits; a `check` on any other
/// route returns at once, never running its implementation, so it holds no
/// place that Swift Testing could give the served case.
enum IsolationWorker {
    /// The route a child serves (``IsolationRoute/encoded``).
    static let routeVariable = "TRUSTSUITE_TESTING_ROUTE"
    /// The bytes of address space the child may add (``Isolation/addressSpaceLimit``).
    static let limitVariable = "TRUSTSUITE_TESTING_ADDRESS_SPACE"
    /// Where the child reads the parent's requests and writes its replies,
    /// as the parent's command sets them up (its stdin is `/dev/null`, its
    /// stdout joins its stderr).
    static let requestDescriptor: Int32 = 8
    static let replyDescriptor: Int32 = 9
    /// The two, moved to descriptors at or above 512 and closed on exec, when
    /// the child starts serving: a process the code under test starts never
    /// inherits them (issue 61, item 7: a `Process` that inherited the
    /// request pipe as its stdin read the parent's next request).
    static let channel: (requests: Int32, replies: Int32) = (moved(requestDescriptor), moved(replyDescriptor))

    private static func moved(_ descriptor: Int32) -> Int32 {
        let high = fcntl(descriptor, F_DUPFD_CLOEXEC, Int32(512))
        guard high >= 0 else { return descriptor }
        close(descriptor)
        return high
    }
    /// The child's first reply line, instead of a hello, when it ends and no check reached its route.
    static let unreached: JSONValue = .object(["trustsuite-testing": .string("unreached")])
    /// How the child's last stderr line, then, starts: the routes it did reach follow.
    static let reachedPrefix = "TrustSuiteTesting routes reached: "

    static let servedText: String? = ProcessInfo.processInfo.environment[routeVariable]
    static let served: IsolationRoute? = servedText.flatMap(IsolationRoute.init(encoded:))
    static var isWorker: Bool { servedText != nil }

    /// Whether the served route was claimed, the checks counted so far on
    /// each route, and the routes reached (for the account at exit).
    private struct Progress {
        var claimed = false
        var checks: [String: Int] = [:]
        var reached: [String] = []
        var watching = false
    }
    private static let progress = Mutex(Progress())

    /// The request a parent sends after a restart: answered without the implementation.
    static let ping: JSONValue = .object(["trustsuite-testing": .string("ping")])
    /// The output key of a reply that carries an error the implementation threw.
    static let thrownKey = "trustsuite-testing-thrown"

    /// This test binary, to run again; nil where it cannot be found (not Linux).
    static var executable: String? {
        #if os(Linux)
        try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        #else
        nil
        #endif
    }

    /// The `--filter` that selects the test of `testID` (`Module.Type/name(_:)/File.swift:12:6`):
    /// `/` and its source location, the one part free of characters that a
    /// regular expression reads otherwise (a `.` matches itself too), so it
    /// selects the same tests whether the filter is read as a regular
    /// expression or as text. Another test whose location merely starts
    /// with it (column 60 for column 6) runs in the child as well, and
    /// returns: only a check on the route named by ``routeVariable`` answers.
    static func filter(forTestID testID: String) -> String {
        testID.split(separator: "/").last.map { "/" + $0 } ?? testID
    }

    static func thrownError(in answer: SubjectAnswer) -> String? {
        guard answer.verdict == .unsupported else { return nil }
        return answer.output?[thrownKey]?.stringValue
    }

    /// Serves the parent with `answer` (never returning) if this check of
    /// `vectorID` at `place` is the first on the served route; waits until
    /// the child ends if another case serves it; returns at once on any
    /// other route.
    static func serve(
        place: Result<IsolationRoute, RouteError>?, vectorID: String, _ answer: (JSONValue) async throws -> SubjectAnswer
    ) async {
        watchForAnUnreachedRoute()
        guard case .success(let place) = place, let served else { return }
        let mine = progress.withLock { progress -> Bool? in
            var route = place
            route.occurrence = IsolationSessions.count(&progress.checks, place, vectorID)
            guard route == served else {
                if progress.reached.count < 8, !progress.reached.contains(route.description) {
                    progress.reached.append(route.description)
                }
                return nil
            }
            defer { progress.claimed = true }
            return !progress.claimed
        }
        switch mine {
        case nil: return
        case false?: await park()
        case true?: break
        }
        limitAddressSpace()
        let families = JSONValue.array(Family.allCases.map { .string($0.rawValue) })
        send(.object(["adapter": .string("TrustSuiteTesting"), "version": .string("1"), "families": families]))
        var requests = RequestReader(descriptor: channel.requests)
        while let line = requests.next() {
            guard let request = try? JSONDecoder().decode(JSONValue.self, from: Data(line.utf8)),
                let id = request["id"], let input = request["input"]
            else { exit(3) }
            var reply: [String: JSONValue] = ["id": id]
            if input == ping {
                reply["result"] = .string("unsupported")
            } else {
                do {
                    let given = try await answer(input)
                    reply.merge(given.replyFields) { _, given in given }
                } catch {
                    reply["result"] = .string("unsupported")
                    reply["output"] = .object([thrownKey: .string("\(error)")])
                }
            }
            send(line: boundedLine(reply))
        }
        exit(0)
    }

    /// Once per child: at exit, when no check reached the served route (the
    /// test does not call it the same way in a second run: a closure chosen
    /// at random, an argument that describes itself differently, code
    /// before `check` that fails here), a reply line that says so in place
    /// of the hello, and a stderr line naming the routes reached: the parent
    /// says why for every vector of the route.
    static func watchForAnUnreachedRoute() {
        let first = progress.withLock { progress in
            defer { progress.watching = true }
            return !progress.watching
        }
        guard first, isWorker else { return }
        atexit {
            let (claimed, reached) = IsolationWorker.progress.withLock { ($0.claimed, $0.reached) }
            guard !claimed else { return }
            let seen = reached.isEmpty ? "none" : reached.joined(separator: "; ")
            let line = "\n" + IsolationWorker.reachedPrefix + seen + "\n"
            FileHandle.standardError.write(Data(line.utf8))
            // One short write, whatever it gives: exit is under way.
            let reply = Array((IsolationWorker.unreached.jsonText + "\n").utf8)
            _ = reply.withUnsafeBytes { write(IsolationWorker.channel.replies, $0.baseAddress, $0.count) }
        }
    }

    /// The reply, or, when its line would be longer than a reply may be
    /// (``AdapterSubject/defaultMaxLineBytes``, which the parent reads), a
    /// reply that says so as the implementation's error: an over-long
    /// answer is the implementation's finding, not a crash (issue 61, item 7).
    static func boundedLine(_ reply: [String: JSONValue], limit: Int = AdapterSubject.defaultMaxLineBytes) -> String {
        let text = JSONValue.object(reply).jsonText
        let size = text.utf8.count
        guard size >= limit, let id = reply["id"] else { return text }
        let said = "the answer's JSON is \(size) bytes, over the \(limit >> 20) MiB a reply may hold (the adapter protocol's line limit)"
        return JSONValue.object(["id": id, "result": .string("unsupported"), "output": .object([thrownKey: .string(said)])]).jsonText
    }

    /// Waits until the child ends (its served case exits the process).
    private static func park() async -> Never {
        while true { try? await Task.sleep(for: .seconds(3600)) }
    }

    /// One reply line on the reply descriptor; the child ends when the parent
    /// is gone, and says so when the code under test closed the descriptor.
    private static func send(_ value: JSONValue) { send(line: value.jsonText) }

    private static func send(line: String) {
        let bytes = Array((line + "\n").utf8)
        var written = 0
        while written < bytes.count {
            let count = bytes[written...].withUnsafeBytes { write(channel.replies, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            if count < 0 && errno == EBADF { closedByTheCodeUnderTest("reply") }
            guard count > 0 else { exit(4) }
            written += count
        }
    }

    /// Caps the child's address space at what it holds now plus the
    /// parent's budget (`setrlimit(RLIMIT_AS)`, soft and hard limit alike,
    /// so the code under test cannot raise it again: issue 61, item 7): an
    /// allocation past it fails, which Swift reports as a crash the parent
    /// grades, before the machine's memory is gone.
    private static func limitAddressSpace() {
        #if os(Linux)
        guard let text = ProcessInfo.processInfo.environment[limitVariable], let budget = Int(text), budget > 0 else { return }
        let statm = (try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8)) ?? ""
        let pages = statm.split(separator: " ").first.flatMap { Int($0) } ?? 0
        let (held, overflow) = pages.multipliedReportingOverflow(by: max(sysconf(Int32(_SC_PAGESIZE)), 1))
        guard !overflow else { return }
        let resource = __rlimit_resource_t(RLIMIT_AS.rawValue)
        var limit = rlimit()
        guard getrlimit(resource, &limit) == 0 else { return }
        let (wanted, tooLarge) = held.addingReportingOverflow(budget)
        guard !tooLarge else { return }
        limit.rlim_cur = min(rlim_t(wanted), limit.rlim_max)
        limit.rlim_max = limit.rlim_cur
        _ = setrlimit(resource, &limit)
        #endif
    }

    /// The protocol's descriptor is gone: the code under test closed it.
    static func closedByTheCodeUnderTest(_ which: String) -> Never {
        let line = "\ncrashed: the code under test closed the isolated process's \(which) descriptor (TrustSuiteTesting's protocol)\n"
        FileHandle.standardError.write(Data(line.utf8))
        exit(5)
    }
}

/// Lines from a descriptor, without Foundation's buffering of stdin.
struct RequestReader {
    let descriptor: Int32
    private var buffer: [UInt8] = []
    /// One read's room, allocated once for the child's whole life.
    private var chunk = [UInt8](repeating: 0, count: 1 << 16)
    private var ended = false

    init(descriptor: Int32) { self.descriptor = descriptor }

    /// The next line without its newline; nil at the end of the input.
    mutating func next() -> String? {
        while true {
            if let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: buffer[..<newline], as: UTF8.self)
                buffer.removeSubrange(...newline)
                return line
            }
            if ended {
                guard !buffer.isEmpty else { return nil }
                defer { buffer.removeAll() }
                return String(decoding: buffer, as: UTF8.self)
            }
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            if count < 0 && errno == EBADF { IsolationWorker.closedByTheCodeUnderTest("request") }
            if count <= 0 {
                ended = true
            } else {
                buffer.append(contentsOf: chunk[..<count])
            }
        }
    }
}
