import Foundation
import Synchronization

/// Runs an async oracle to completion on the calling thread (libFuzzer's):
/// a task executor whose jobs the caller runs itself, until the task has
/// finished and no job is left. Nothing of the verification outlives the
/// entry point, so LeakSanitizer and libFuzzer's per-input malloc/free
/// balance see every allocation freed (a detached task on Swift's pool
/// released its memory on a pool thread after the entry had returned).
final class InlineExecutor: TaskExecutor, Sendable {
    private struct Queue {
        var jobs: [UnownedJob] = []
        var finished = false
    }
    private let queue = Mutex(Queue())
    /// Signalled once per job queued and once when the task finishes.
    private let wake = DispatchSemaphore(value: 0)

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.withLock { $0.jobs.append(job) }
        wake.signal()
    }

    private func finish() {
        queue.withLock { $0.finished = true }
        wake.signal()
    }

    /// Runs jobs until the task has finished and none is queued.
    private func drain() {
        while true {
            wake.wait()
            let next = queue.withLock { queue -> UnownedJob?? in
                if !queue.jobs.isEmpty { return queue.jobs.removeFirst() }
                return queue.finished ? .some(nil) : nil
            }
            switch next {
            case .some(.some(let job)): job.runSynchronously(on: asUnownedTaskExecutor())
            case .some(.none): return
            case .none: continue
            }
        }
    }

    /// `body`'s result, computed on this thread (jobs a body sends to an
    /// executor of its own run there, and this thread waits for them).
    static func run<T: Sendable>(_ body: @escaping @Sendable () async -> T) -> T? {
        let executor = InlineExecutor()
        let result = Box<T>()
        do {
            let task = Task(executorPreference: executor) {
                let value = await body()
                result.value.withLock { $0 = value }
                executor.finish()
            }
            executor.drain()
            _ = task
        }
        return result.value.withLock { $0 }
    }

    /// The result, written by the task and read after it has finished.
    private final class Box<T: Sendable>: Sendable {
        let value = Mutex<T?>(nil)
    }
}
