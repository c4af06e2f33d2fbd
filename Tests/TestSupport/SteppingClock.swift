import Synchronization

/// A clock that moves only when it is slept on: each sleep returns at once
/// and advances it to the deadline. A component given it measures its
/// bounds on it, so a test asserts them exactly, whatever the load of the
/// machine (issue 50: no test compares wall-clock time to a bound).
public final class SteppingClock: Clock, Sendable {
    public struct Instant: InstantProtocol, Sendable {
        /// The time since the clock was made.
        public var offset: Duration
        public func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
        public func duration(to other: Instant) -> Duration { other.offset - offset }
        public static func < (left: Instant, right: Instant) -> Bool { left.offset < right.offset }
    }

    private struct State {
        var now = Duration.zero
        var sleeps: [Duration] = []
    }
    private let state = Mutex(State())

    public init() {}

    public var now: Instant { Instant(offset: state.withLock { $0.now }) }
    public var minimumResolution: Duration { .zero }

    /// Every sleep that moved the clock, in order.
    public var sleeps: [Duration] { state.withLock { $0.sleeps } }

    public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        try Task.checkCancellation()
        state.withLock { state in
            guard deadline.offset > state.now else { return }
            state.sleeps.append(deadline.offset - state.now)
            state.now = deadline.offset
        }
        await Task.yield()
    }
}
