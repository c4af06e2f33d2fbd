import Foundation

/// Runs an async oracle to completion on the calling thread (libFuzzer's):
/// a task executor whose jobs the caller runs itself, until the task has
/// finished and no job is left. Nothing of the verification outlives the
/// entry point, so LeakSanitizer and libFuzzer's per-input malloc/free
/// balance see every allocation freed (a detached task on Swift's pool
/// released its memory on a pool thread after the entry had returned).
final class InlineExecutor: TaskExecutor, @unchecked Sendable {
    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []
    private var finished = false

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.lock()
        jobs.append(job)
        condition.signal()
        condition.unlock()
    }

    private func finish() {
        condition.lock()
        finished = true
        condition.signal()
        condition.unlock()
    }

    /// Runs jobs until the task has finished and none is queued.
    private func drain() {
        while true {
            condition.lock()
            while jobs.isEmpty && !finished { condition.wait() }
            if jobs.isEmpty {
                condition.unlock()
                return
            }
            let job = jobs.removeFirst()
            condition.unlock()
            job.runSynchronously(on: asUnownedTaskExecutor())
        }
    }

    /// `body`'s result, computed on this thread (jobs a body sends to an
    /// executor of its own run there, and this thread waits for them).
    static func run<T: Sendable>(_ body: @escaping @Sendable () async -> T) -> T? {
        let executor = InlineExecutor()
        let result = Box<T>()
        do {
            let task = Task(executorPreference: executor) {
                result.value = await body()
                executor.finish()
            }
            executor.drain()
            _ = task
        }
        return result.value
    }

    /// The result, written by the task and read after it has finished.
    private final class Box<T>: @unchecked Sendable {
        var value: T?
    }
}
