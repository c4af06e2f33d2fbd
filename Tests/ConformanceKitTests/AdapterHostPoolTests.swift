@testable import AdapterHost
import ConformanceKit
import VectorContract
import Foundation
import Testing
import TestSupport

/// The adapter host never blocks the Swift concurrency pool (issue 42): an
/// adapter that ignores SIGTERM keeps `stop` waiting a whole grace period,
/// and four such stops at once held both pool threads of a 2-core machine
/// for seconds when the session actor waited in `usleep` loops, so every
/// other task of the process (a probe's timers, other tests) stalled.
@Suite struct AdapterHostPoolTests {
    /// Says hello, then ignores SIGTERM and never answers.
    static let stubborn =
        "sh -c 'trap \"\" TERM; echo \"{\\\"adapter\\\":\\\"stubborn\\\",\\\"version\\\":\\\"1\\\",\\\"families\\\":[\\\"cbor\\\"]}\"; "
        + "while :; do sleep 1; done'"

    @Test(.timeLimit(.minutes(10))) func stoppingStubbornAdaptersLeavesThePoolFree() async throws {
        var subjects: [AdapterSubject] = []
        for _ in 0..<4 { subjects.append(try await AdapterSubject.launch(command: Self.stubborn, timeout: .seconds(5))) }
        let all = subjects
        // Counted, not timed: every blocking pause of the host names its
        // thread, and none may be the pool's (a timed check is at the mercy
        // of whatever else a parallel test run puts on 2 cores).
        let before = OffPool.pausesElsewhere
        let waited = OffPool.pausesOnWorkers
        await withTaskGroup(of: Void.self) { group in
            for subject in all { group.addTask { await subject.stop() } }
        }
        // The stops did wait for the adapters that ignore SIGTERM (5 ms
        // pauses through the grace period): what the pool must not pay for.
        #expect(OffPool.pausesOnWorkers - waited >= 4, "\(OffPool.pausesOnWorkers - waited) pauses on the workers")
        #expect(OffPool.pausesElsewhere == before, "the host paused \(OffPool.pausesElsewhere - before) times on the pool")
    }

    /// One long-lived worker per kind of wait, not a thread per step (issue
    /// 50): forty cases, each a write, a stderr drain and a reply, then a
    /// stop, start two threads in all.
    @Test(.timeLimit(.minutes(10))) func aSessionKeepsOneWorkerPerKindOfWait() async throws {
        let (path, marker) = try ToyAdapter.install()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let subject = try await AdapterSubject.launch(command: "exec python3 \(path) \(marker)", timeout: .seconds(20))
        let report = await Runner(subject: subject).run((1...40).map { ToyAdapter.vector($0, "02", .valid) })
        await subject.stop()
        #expect(report.cases.allSatisfy { $0.grade == .pass }, "\(report.cases.map(\.message))")
        #expect(await subject.workerThreads() == 2)
    }
}

/// An adapter inherits nothing the runner has open beyond its pipes and the
/// watchdog's lifeline: a pipe another thread made without close-on-exec
/// (as `Foundation.Pipe` does) leaked into adapters, and a test reading a
/// finished process's output then waited for end of file as long as the
/// adapter lived (a full `swift test` hung that way).
@Suite struct AdapterDescriptorTests {
    /// Says hello with the descriptors it holds as its version.
    static let listing =
        "sh -c 'echo \"{\\\"adapter\\\":\\\"fds\\\",\\\"version\\\":\\\"$(ls /proc/self/fd | tr \"\\n\" \" \")\\\","
        + "\\\"families\\\":[\\\"cbor\\\"]}\"; while :; do sleep 1; done'"

    @Test func anAdapterInheritsNoStrayDescriptor() async throws {
        var ends: [Int32] = [-1, -1]
        try #require(pipe(&ends) == 0)
        defer { for end in ends { close(end) } }
        let subject = try await AdapterSubject.launch(command: Self.listing, timeout: .seconds(5))
        let held = Set(subject.version.split(separator: " ").compactMap { Int32($0) })
        await subject.stop()
        #expect(held.isSuperset(of: [0, 1, 2]), "\(held.sorted())")
        #expect(held.isDisjoint(with: ends), "the adapter holds \(held.sorted()), among them the stray pipe \(ends)")
    }
}
