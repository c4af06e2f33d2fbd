import Foundation

/// Waiting in a test for something another process does: a file appears,
/// a process ends, a marker leaves `/proc`. There is no deadline here: a
/// loaded 2-core machine may take minutes for what an idle one does in a
/// second, and a test that gave up after N seconds failed there (a CI run
/// failed with the runner's adapter "never" started after 60 s).
///
/// A wait ends on its condition; on `unless`, the event that makes the
/// condition unreachable (the process that was to do it has ended); or on
/// the test's cancellation, which is how its `.timeLimit` ends a real hang.
/// It never throws: after a cancelled wait the test's own expectations say
/// what was missing, and its cleanup (killing what is left) still runs.
public enum Waiting {
    /// How often the condition is read: cheap next to what it waits for.
    public static let poll: Duration = .milliseconds(20)

    /// Polls until `condition` holds, `unless` does or the task is
    /// cancelled; returns whether `condition` held at the end.
    @discardableResult
    public static func until(_ condition: () -> Bool, unless: () -> Bool = { false }) async -> Bool {
        while !condition() {
            if unless() || Task.isCancelled { return condition() }
            do { try await Task.sleep(for: poll) } catch { return condition() }
        }
        return true
    }

    /// Polls until `process` has ended (or the test is cancelled).
    public static func exit(of process: Process) async {
        await until { !process.isRunning }
    }

    /// What is left of the processes whose command line mentions `marker`
    /// once they are gone (or the test is cancelled): each left is killed
    /// with SIGKILL, so a failing test leaves nothing running, and returned
    /// for the test to report.
    public static func gone(_ marker: String) async -> [String] {
        await until { Processes.mentioning(marker).isEmpty }
        let left = Processes.mentioning(marker)
        for line in left { if let pid = Int32(line.prefix { $0 != ":" }) { kill(pid, SIGKILL) } }
        return left
    }

    /// ``gone(_:)`` once `process` has ended.
    public static func survivors(of marker: String, after process: Process) async -> [String] {
        await exit(of: process)
        return await gone(marker)
    }
}
