import Foundation

/// A task executor with one thread of its own, outside Swift's cooperative
/// pool. The pool has one thread per core (two here), and tests that wait
/// synchronously (a child process, a blocking socket) hold those threads
/// while they wait: an in-process server or a long actor-heavy property
/// run on the pool then stalls behind them, and a deadline measured on the
/// wall clock fails although nothing is wrong (seen on CI's loaded
/// machine). Work given this executor as its preference
/// (`Task(executorPreference:)`, `withTaskExecutorPreference`) runs on its
/// thread, as do the structured child tasks and the default actors it uses.
public final class DedicatedThreadExecutor: TaskExecutor, @unchecked Sendable {
    /// One thread for the whole test process: servers and property runs are
    /// mostly waiting, and share it.
    public static let shared = DedicatedThreadExecutor(name: "trustsuite-tests")

    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []

    /// A new executor with a thread of its own, alive for the rest of the
    /// process (a test that must know every job of its thread makes one).
    public init(name: String) {
        let thread = Thread { [self] in run() }
        thread.name = name
        thread.start()
    }

    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.lock()
        jobs.append(job)
        condition.signal()
        condition.unlock()
    }

    /// Runs the jobs in the order they came, for the life of the process.
    private func run() {
        while true {
            condition.lock()
            while jobs.isEmpty { condition.wait() }
            let batch = jobs
            jobs.removeAll(keepingCapacity: true)
            condition.unlock()
            for job in batch { job.runSynchronously(on: asUnownedTaskExecutor()) }
        }
    }
}
