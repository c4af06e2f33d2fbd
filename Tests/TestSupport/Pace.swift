import Synchronization

/// The pace of a long CPU-bound loop in a test — a property run, a sweep of
/// vectors, a replay of a corpus: ``step()`` counts one iteration and
/// yields every `every` of them, so a task the loop's thread owes (another
/// test, a probe's timer, a server's reply) starts within `every`
/// iterations instead of after the whole loop (issue 50: the concurrency
/// pool has one thread per core, two on CI, and a loop that never
/// suspends holds its thread to the end).
public final class Pace: Sendable {
    /// Iterations between two yields: small enough that a task waits for a
    /// few milliseconds of a loop, large enough that yielding costs nothing
    /// next to the iterations.
    public static let defaultEvery = 8

    public let every: Int
    private let state: Mutex<(iterations: Int, observer: (@Sendable (Int) -> Void)?)>

    /// `observer`, when given, is called with the count at each iteration
    /// (the pace's test uses it to schedule a task mid-loop).
    public init(every: Int = Pace.defaultEvery, observer: (@Sendable (Int) -> Void)? = nil) {
        self.every = max(every, 1)
        state = Mutex((0, observer))
    }

    /// The iterations counted so far.
    public var iterations: Int { state.withLock { $0.iterations } }

    /// Counts one iteration; yields after every `every`.
    public func step() async {
        let (count, observer) = state.withLock { state in
            state.iterations += 1
            return (state.iterations, state.observer)
        }
        observer?(count)
        if count % every == 0 { await Task.yield() }
    }
}
