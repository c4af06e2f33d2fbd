import Foundation
import Synchronization
import Testing
import TestSupport

/// `Waiting` (TestSupport): a wait ends on its condition, on the event that
/// makes the condition hopeless, or on the test's cancellation — never on
/// a wall-clock deadline of its own — and what is left is killed.
@Suite struct WaitingTests {
    @Test func aWaitEndsWhenItsConditionHolds() async {
        let polls = Counter()
        let held = await Waiting.until { polls.next() >= 3 }
        #expect(held && polls.value == 3)
    }

    @Test func aHopelessWaitEndsOnItsEventAndSaysSo() async {
        let polls = Counter()
        let held = await Waiting.until({ false }, unless: { polls.next() >= 2 })
        #expect(!held && polls.value == 2)
    }

    /// Cancellation (what a test's `.timeLimit` does to a hang) ends a wait
    /// whose condition never holds, and the wait says it did not hold.
    @Test func aCancelledWaitEnds() async {
        let task = Task { await Waiting.until { false } }
        task.cancel()
        #expect(await task.value == false)
    }

    /// A process that never ends is left for the caller to kill: `gone`
    /// returns it and kills it when the wait is cancelled.
    @Test func whatIsLeftIsKilledAndReturned() async throws {
        let marker = "waiting-test-\(UUID().uuidString)"
        let sleeper = Process()
        sleeper.executableURL = URL(fileURLWithPath: "/bin/bash")
        sleeper.arguments = ["-c", "exec -a \(marker) sleep 600"]
        try TiedProcess.run(sleeper)
        await Waiting.until { !Processes.mentioning(marker).isEmpty }
        let task = Task { await Waiting.gone(marker) }
        task.cancel()
        let left = await task.value
        #expect(left.count == 1, "\(left)")
        await Waiting.exit(of: sleeper)
        #expect(!sleeper.isRunning && Processes.mentioning(marker).isEmpty)
    }

    final class Counter: Sendable {
        private let count = Mutex(0)
        var value: Int { count.withLock { $0 } }
        func next() -> Int {
            count.withLock {
                $0 += 1
                return $0
            }
        }
    }
}
