import Foundation
import Synchronization

/// Blocking work of the adapter host — spawning, waiting for a process
/// group to end, for a pipe to drain, for a write into a full pipe — run
/// each on a thread of its own, never on the Swift concurrency pool (issue
/// 42): an actor that waited there in `usleep` loops held one of the pool's
/// two threads on this machine for seconds, and every other task of the
/// process (the probe's timers, other tests) stalled behind it. Not on
/// Dispatch either: on Linux its worker threads are the pool's.
enum OffPool {
    /// The most stack a waiting thread needs.
    private static let stackSize = 512 * 1024
    /// The mark in the thread dictionary of every thread `run` starts (a
    /// thread's name is cut to 15 bytes on Linux: not a reliable mark).
    static let mark = "trustsuite.adapter-host.off-pool"

    private static let pauses = Mutex(0)

    /// How many of the host's blocking pauses ran on a thread that is not
    /// one of `run`'s: a test reads it before and after stopping adapters.
    package static var pausesElsewhere: Int { pauses.withLock { $0 } }

    /// The host's one blocking pause: `usleep`, counted when it happens on a
    /// thread that `run` did not start (the pool, or the caller's own).
    static func pause(microseconds: UInt32) {
        if Thread.current.threadDictionary[mark] == nil { pauses.withLock { $0 += 1 } }
        usleep(microseconds)
    }

    static func run<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            let thread = Thread {
                Thread.current.threadDictionary[mark] = true
                continuation.resume(returning: body())
            }
            thread.stackSize = stackSize
            thread.start()
        }
    }

    static func run<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            let thread = Thread {
                Thread.current.threadDictionary[mark] = true
                continuation.resume(with: Result { try body() })
            }
            thread.stackSize = stackSize
            thread.start()
        }
    }
}
