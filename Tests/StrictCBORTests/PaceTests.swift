import Synchronization
import Testing
import TestSupport

/// CPU-bound suites do not starve the others (issue 50): a task scheduled
/// while the heaviest sweep runs starts within one pace of that sweep's
/// iterations, not after the whole sweep. Shown on a thread of the test's
/// own, where nothing else runs, so the count is exact: a task scheduled
/// there can start only when the sweep gives the thread back. Counted in
/// iterations, never timed.
@Suite struct PaceTests {
    /// The iteration the sweep had reached when the scheduled task started.
    final class Mark: Sendable {
        let seen = Mutex(0)
        let startedAt = Mutex<Int?>(nil)
        let probe = Mutex<Task<Void, Never>?>(nil)
    }

    @Test(.timeLimit(.minutes(10))) func aTaskScheduledDuringTheHeaviestSweepStartsWithinAPace() async {
        let executor = DedicatedThreadExecutor(name: "trustsuite-pace")
        // The sweep's own loop over its first thousand mutants (the whole sweep runs in its own test).
        let inputs = Array(FrozenDecoderDifferentialTests.inputs(of: "mutants").prefix(1_000))
        let scheduledAt = 100
        let mark = Mark()
        let pace = Pace { count in
            mark.seen.withLock { $0 = count }
            guard count == scheduledAt else { return }
            let probe = Task(executorPreference: executor) {
                mark.startedAt.withLock { $0 = mark.seen.withLock { $0 } }
            }
            mark.probe.withLock { $0 = probe }
        }
        let differences = await withTaskExecutorPreference(executor) {
            await FrozenDecoderDifferentialTests.differences(in: inputs, pace: pace)
        }
        await mark.probe.withLock { $0 }?.value
        #expect(differences.isEmpty)
        #expect(pace.iterations == inputs.count && inputs.count >= 10 * scheduledAt)
        let startedAt = mark.startedAt.withLock { $0 }
        #expect(startedAt != nil, "the scheduled task never started")
        #expect(
            (startedAt ?? .max) - scheduledAt <= pace.every,
            "scheduled at iteration \(scheduledAt), started at \(startedAt.map(String.init) ?? "none") of \(inputs.count)")
    }
}
