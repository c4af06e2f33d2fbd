import Foundation
import Synchronization
import Testing
import TrustSuiteSupport
import VectorContract

#if canImport(Glibc)
import Glibc
#endif

/// The child's side of ``Isolation/process``: this test binary, run again
/// by a parent's `check` with ``testVariable`` naming the parent's test.
/// The first case of that test to reach `check` answers the parent's
/// vectors over the adapter protocol (docs/vectors.md), one JSON line each,
/// with that case's implementation, until the parent closes its input; every
/// other `check` of the child waits and never runs an implementation.
enum IsolationWorker {
    /// The Swift Testing id of the test a child serves.
    static let testVariable = "TRUSTSUITE_TESTING_WORKER"
    /// The bytes of address space the child may add (``Isolation/addressSpaceLimit``).
    static let limitVariable = "TRUSTSUITE_TESTING_ADDRESS_SPACE"
    /// Where the child writes its replies (set up by the parent's command).
    static let replyDescriptor: Int32 = 9

    static let servedTest: String? = ProcessInfo.processInfo.environment[testVariable]
    static var isWorker: Bool { servedTest != nil }
    private static let claimed = Mutex(false)

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
    /// waits: only the test named by ``testVariable`` answers.
    static func filter(forTestID testID: String) -> String {
        testID.split(separator: "/").last.map { "/" + $0 } ?? testID
    }

    static func thrownError(in answer: SubjectAnswer) -> String? {
        guard answer.verdict == .unsupported else { return nil }
        return answer.output?[thrownKey]?.stringValue
    }

    /// Serves the parent with `answer` if this is the first `check` of the
    /// served test; otherwise waits until the child ends.
    static func serveOrPark(_ answer: (JSONValue) async throws -> SubjectAnswer) async -> Never {
        let mine =
            Test.current.map { String(describing: $0.id) } == servedTest
            && claimed.withLock { taken in
                defer { taken = true }
                return !taken
            }
        if !mine { await park() }
        limitAddressSpace()
        let families = JSONValue.array(Family.allCases.map { .string($0.rawValue) })
        send(.object(["adapter": .string("TrustSuiteTesting"), "version": .string("1"), "families": families]))
        while let line = readLine(strippingNewline: true) {
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
            send(.object(reply))
        }
        exit(0)
    }

    /// Waits until the child ends (its served case exits the process).
    private static func park() async -> Never {
        while true { try? await Task.sleep(for: .seconds(3600)) }
    }

    /// One reply line on ``replyDescriptor``; the child ends when the parent is gone.
    private static func send(_ value: JSONValue) {
        let bytes = Array((value.jsonText + "\n").utf8)
        var written = 0
        while written < bytes.count {
            let count = bytes[written...].withUnsafeBytes { write(replyDescriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
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
}
