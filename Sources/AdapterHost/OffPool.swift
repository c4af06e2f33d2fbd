import Foundation
import Synchronization

/// Blocking work of the adapter host — spawning, waiting for a process
/// group to end, for a pipe to drain, for a write into a full pipe — run
/// off the Swift concurrency pool (issue 42): an actor that waited there in
/// `usleep` loops held one of the pool's two threads on this machine for
/// seconds, and every other task of the process (the probe's timers, other
/// tests) stalled behind it. Not on Dispatch either: on Linux its worker
/// threads are the pool's.
///
/// Each session has one long-lived ``Worker`` per kind of wait (issue 50:
/// a new thread for every step made two per adapter case): one for the
/// process (spawn, exit status, stop), one for the pipes (a write, the
/// stderr drain). Two kinds, so a stop never queues behind a write that
/// waits for the adapter to read; per session, so one adapter that never
/// reads holds no other adapter's steps.
package enum OffPool {
    /// The worker that starts every adapter (and every process the tests
    /// tie to their own life, `TiedProcess`), never finished, so its thread
    /// lives as long as the process: the parent-death signal fires when the
    /// thread that spawned a child exits, and Dispatch's worker threads do
    /// exit when idle.
    package static let spawner = Worker(name: "trustsuite-spawner")

    /// The most stack a waiting thread needs.
    static let stackSize = 512 * 1024
    /// The mark in the thread dictionary of every worker thread (a
    /// thread's name is cut to 15 bytes on Linux: not a reliable mark).
    static let mark = "trustsuite.adapter-host.off-pool"

    /// The host's blocking pauses: on a worker's thread, and elsewhere.
    private static let pauses = Mutex((onWorkers: 0, elsewhere: 0))

    /// How many of the host's blocking pauses ran on a thread that is not
    /// a worker's: a test reads it before and after stopping adapters.
    package static var pausesElsewhere: Int { pauses.withLock { $0.elsewhere } }

    /// How many ran on a worker's thread (the waits the pool did not pay for).
    package static var pausesOnWorkers: Int { pauses.withLock { $0.onWorkers } }

    /// The host's one blocking pause: `usleep`, counted by where it happens.
    static func pause(microseconds: UInt32) {
        let onWorker = Thread.current.threadDictionary[mark] != nil
        pauses.withLock { if onWorker { $0.onWorkers += 1 } else { $0.elsewhere += 1 } }
        usleep(microseconds)
    }

    /// A thread that runs the blocking steps given to it one at a time, in
    /// order, until ``finish()``: it starts with the first step and ends
    /// once finished and idle (a step given later starts it again).
    package final class Worker: Sendable {
        private struct State {
            var jobs: [@Sendable () -> Void] = []
            var started = false
            var finished = false
            var threads = 0
        }
        private let name: String
        private let state = Mutex(State())
        private let wake = DispatchSemaphore(value: 0)

        init(name: String) { self.name = name }

        /// How many threads the worker started (one, unless it was finished and given work again).
        var threadsStarted: Int { state.withLock { $0.threads } }

        /// Runs `body` on the worker's thread and returns its result.
        func run<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
            await withCheckedContinuation { continuation in
                enqueue { continuation.resume(returning: body()) }
            }
        }

        /// Runs `body` on the worker's thread and returns its result, or throws its error.
        func run<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
            try await withCheckedThrowingContinuation { continuation in
                enqueue { continuation.resume(with: Result { try body() }) }
            }
        }

        /// Runs `body` on the worker's thread while the calling thread waits
        /// for it: for synchronous callers, whose body is not `Sendable` (the
        /// spawner's `posix_spawn` takes the caller's C pointers).
        package func runAndWait<T>(_ body: @escaping () throws -> T) throws -> T {
            // Handed to one thread and back; the semaphore orders the
            // worker's write of `result` before the read below.
            nonisolated(unsafe) let body = body
            nonisolated(unsafe) var result: Result<T, any Error> = .failure(CancellationError())
            let done = DispatchSemaphore(value: 0)
            enqueue {
                result = Result { try body() }
                done.signal()
            }
            done.wait()
            return try result.get()
        }

        /// Ends the thread once the steps given so far have run.
        func finish() {
            state.withLock { $0.finished = true }
            wake.signal()
        }

        private func enqueue(_ job: @escaping @Sendable () -> Void) {
            let start = state.withLock { state -> Bool in
                state.jobs.append(job)
                guard !state.started else { return false }
                state.started = true
                state.threads += 1
                return true
            }
            if start {
                let thread = Thread { [self] in loop() }
                thread.name = name
                thread.stackSize = OffPool.stackSize
                thread.start()
            }
            wake.signal()
        }

        private func loop() {
            Thread.current.threadDictionary[OffPool.mark] = true
            while true {
                wake.wait()
                let next = state.withLock { state -> (@Sendable () -> Void)?? in
                    if !state.jobs.isEmpty { return state.jobs.removeFirst() }
                    guard state.finished else { return nil }
                    // A step given after this starts a thread anew.
                    (state.started, state.finished) = (false, false)
                    return .some(nil)
                }
                switch next {
                case .some(.some(let job)): job()
                case .some(.none): return
                case .none: continue
                }
            }
        }
    }
}
