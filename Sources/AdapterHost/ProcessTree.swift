import CProcessControl
import Foundation
import Synchronization
import TrustSuiteSupport
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A snapshot of /proc, read by CProcessControl's reader (the one the
/// watchdog uses); nil where /proc cannot be read or does not show this
/// process's PID namespace (`trustsuite_proc_trusted`).
struct ProcTable {
    let entries: [trustsuite_proc_entry]

    init?() {
        var count = 0
        guard let raw = trustsuite_proc_scan(&count) else { return nil }
        defer { free(raw) }
        entries = Array(UnsafeBufferPointer(start: raw, count: count))
    }

    /// Whether `pid`'s chain of parents reaches `ancestor`.
    func descends(_ pid: pid_t, from ancestor: pid_t) -> Bool {
        entries.withUnsafeBufferPointer { trustsuite_proc_descends($0.baseAddress, $0.count, pid, ancestor) == 1 }
    }
}

/// The process groups of every adapter alive in this process, so a runner
/// stopped by a signal can take them down with it; and, once the runner
/// owns its whole tree (``stopOnSignals()``), the watch that kills an
/// adapter's orphans the moment its watchdog dies.
public final class ProcessGroups: Sendable {
    public static let shared = ProcessGroups()

    private struct State {
        var groups: Set<pid_t> = []
        /// Set by ``killAll()``: no adapter starts after it.
        var stopping = false
        /// Set by ``stopOnSignals()``.
        var ownsTree = false
        /// A pidfd of each group leader (a watchdog) the orphan watch waits on.
        var leaders: [pid_t: Int32] = [:]
        /// Each live group leader's token (``ChildProcess/tokenName``).
        var tokens: [pid_t: String] = [:]
        /// Whether the watch of a process that does not own its tree (a
        /// test process: ``watchForALibrary()``) has started.
        var libraryWatch = false
        /// The orphan watch's wake-up pipe (read end, write end), once started.
        var wake: (Int32, Int32)? = nil
        /// Folders of the run removed when a signal stops it (the hostile trust store).
        var folders: Set<String> = []
    }

    private let state = Mutex(State())

    func remove(_ pid: pid_t) {
        state.withLock { state in
            state.groups.remove(pid)
            state.tokens[pid] = nil
            if let handle = state.leaders.removeValue(forKey: pid) { close(handle) }
        }
    }

    /// Removes `folder` (and what is in it) if a signal stops the runner
    /// before ``forget(_:)``: a run's temporary files do not outlive it.
    func removeOnSignal(_ folder: String) { _ = state.withLock { $0.folders.insert(folder) } }

    func forget(_ folder: String) { _ = state.withLock { $0.folders.remove(folder) } }

    private static func poke(_ fd: Int32) {
        var byte: UInt8 = 0
        _ = write(fd, &byte, 1)
    }

    /// Runs `start` (a `posix_spawn`, returning its status and the pid it
    /// started) and records the new group, unless the runner is stopping:
    /// ECANCELED then. ``killAll()`` waits for a start under way, so what it
    /// started is found by its sweep, and the orphan watch never takes a
    /// watchdog just started for an orphan.
    func spawn(token: String, _ start: () -> (status: Int32, pid: pid_t)) -> Int32 {
        watchForALibrary()
        let (status, wake) = state.withLock { state -> (Int32, Int32?) in
            guard !state.stopping else { return (ECANCELED, nil) }
            let (status, pid) = start()
            guard status == 0 else { return (status, nil) }
            state.groups.insert(pid)
            state.tokens[pid] = token
            guard let wake = state.wake else { return (0, nil) }
            let handle = trustsuite_pidfd_open(pid)
            if handle >= 0 { state.leaders[pid] = handle }
            return (0, wake.1)
        }
        if let wake { Self.poke(wake) }
        return status
    }

    /// SIGKILLs every live adapter group, then every process this one
    /// started, wherever it moved: this process is the child subreaper of
    /// them all, so a daemon that left its group or session (`setsid`,
    /// `setpgid`, a double fork) is still below it, and so is everything
    /// below a killed watchdog. Repeats until none is alive (at most
    /// `TRUSTSUITE_RUNNER_SWEEP_MS`); no adapter starts afterwards. Where
    /// /proc does not show this PID namespace, the groups alone.
    public func killAll() {
        let live = state.withLock { state in
            state.stopping = true
            return state.groups
        }
        for pid in live { kill(-pid, SIGKILL) }
        if trustsuite_kill_descendants(TRUSTSUITE_RUNNER_SWEEP_MS, 0) < 0 {
            // No trusted /proc: at least every adapter's group.
            for pid in live { kill(-pid, SIGKILL) }
        }
    }

    /// Makes this process the owner of its whole tree (the `trustsuite`
    /// command, never a test process with children of its own):
    /// - on SIGINT, SIGTERM or SIGHUP, kill every adapter group and every
    ///   descendant, then exit with 128 + the signal number, as a shell
    ///   reports it (a handler of CProcessControl's signal pipe, so as PID 1
    ///   of a PID namespace the signal is not dropped);
    /// - when a watchdog dies before it could sweep (an adapter's daemon
    ///   killed it), kill at once the orphans it left to this subreaper
    ///   (`trustsuite_kill_orphans`), so they do not outlive a runner
    ///   SIGKILLed later;
    /// - at exit, however the command ends, kill every descendant left.
    ///
    /// Call it only where every child in a process group of its own is an
    /// adapter's: the command starts no other program once adapters run (the
    /// hostile trust store's `openssl rehash` runs before the first; a child
    /// of Foundation's `Process` may have a group of its own, and would be
    /// taken for an orphan).
    public func stopOnSignals() {
        let (start, watching) = state.withLock { state -> (Bool, Bool) in
            guard !state.ownsTree else { return (false, false) }
            state.ownsTree = true
            var ends: [Int32] = [-1, -1]
            if state.wake == nil, pipe(&ends) == 0 {
                for fd in ends { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
                _ = fcntl(ends[1], F_SETFL, O_NONBLOCK)
                state.wake = (ends[0], ends[1])
            }
            // An adapter started before: the library's watch runs, and now kills every orphan.
            return (true, state.libraryWatch)
        }
        guard start else { return }
        // Where /proc is not to be trusted, the one line saying so comes now.
        _ = trustsuite_proc_trusted()
        atexit { _ = trustsuite_kill_descendants(TRUSTSUITE_RUNNER_SWEEP_MS, 1) }
        let signals: [Int32] = [SIGINT, SIGTERM, SIGHUP]
        let signalPipe = signals.withUnsafeBufferPointer { trustsuite_signal_pipe($0.baseAddress, Int32($0.count)) }
        if signalPipe >= 0 {
            let thread = Thread { [self] in
                var byte: UInt8 = 0
                while read(signalPipe, &byte, 1) != 1 { if errno != EINTR { return } }
                killAll()
                // After the kill: no adapter reads from them any more.
                for folder in state.withLock({ $0.folders }) { try? FileManager.default.removeItem(atPath: folder) }
                exit(128 + Int32(byte))
            }
            thread.name = "trustsuite-signals"
            thread.start()
        }
        guard !watching else { return }
        let thread = Thread { [self] in watchLeaders() }
        thread.name = "trustsuite-orphan-watch"
        thread.start()
    }

    /// In a process that does not own its tree (a test process using the
    /// library, issue 61, item 4), the same guarantees, narrowed to what
    /// this project started: a daemon of an adapter that SIGKILLs its
    /// watchdog and is reparented here is killed when the watchdog ends, and
    /// at exit every process holding the token of an adapter still alive is
    /// killed. Only processes below this one that carry an adapter's token
    /// are signalled, never another child of the test process. Started on
    /// the first spawn; nothing once ``stopOnSignals()`` owns the tree.
    func watchForALibrary() {
        let start = state.withLock { state -> Bool in
            guard !state.ownsTree, !state.libraryWatch else { return false }
            state.libraryWatch = true
            var ends: [Int32] = [-1, -1]
            guard state.wake == nil, pipe(&ends) == 0 else { return false }
            for fd in ends { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
            _ = fcntl(ends[1], F_SETFL, O_NONBLOCK)
            state.wake = (ends[0], ends[1])
            return true
        }
        guard start else { return }
        atexit {
            let tokens = ProcessGroups.shared.state.withLock { Array($0.tokens.values) }
            ProcessGroups.killHolders(of: tokens)
        }
        let thread = Thread { [self] in watchLeaders() }
        thread.name = "trustsuite-orphan-watch"
        thread.start()
    }

    /// SIGKILLs every process below this one, not this one, that holds one
    /// of `tokens` in its environment or, with `leader`, descends from it;
    /// reaps those reparented here. Repeats while it finds any (a daemon may
    /// fork meanwhile), at most ``ChildProcess/sweepRounds`` scans. Where
    /// /proc does not show this PID namespace, nothing (no pid read there is signalled).
    static func killHolders(of tokens: [String], orBelow leader: pid_t? = nil) {
        guard !tokens.isEmpty || leader != nil else { return }
        let me = getpid()
        let marks = tokens.map { "\(ChildProcess.tokenName)=\($0)" }
        for _ in 0..<ChildProcess.sweepRounds {
            guard let table = ProcTable() else { return }
            let found = table.entries.filter { entry in
                entry.alive != 0 && entry.pid != me && table.descends(entry.pid, from: me)
                    && (leader.map { table.descends(entry.pid, from: $0) } ?? false
                        || marks.contains { trustsuite_proc_has_environment(entry.pid, $0) == 1 })
            }
            if found.isEmpty { return }
            for process in found { _ = trustsuite_signal_descendant(process.pid, SIGKILL) }
            let deadline = ContinuousClock.now + .milliseconds(500)
            for process in found {
                var raw: Int32 = 0
                while waitpid(process.pid, &raw, WNOHANG) == 0 && ContinuousClock.now < deadline { OffPool.pause(microseconds: 1_000) }
            }
        }
    }

    /// Waits on every leader's pidfd (and the wake-up pipe); when one ends,
    /// kills the orphans it left (nothing when its watchdog swept first):
    /// every orphan when this process owns its tree, else the holders of
    /// the ended leader's token.
    private func watchLeaders() {
        guard let wake = state.withLock({ $0.wake }) else { return }
        while true {
            let leaders = state.withLock { $0.leaders }
            var descriptors = [pollfd(fd: wake.0, events: Int16(POLLIN), revents: 0)]
            let watched = Array(leaders)
            descriptors += watched.map { pollfd(fd: $0.value, events: Int16(POLLIN), revents: 0) }
            guard poll(&descriptors, nfds_t(descriptors.count), 1000) > 0 else { continue }
            if descriptors[0].revents != 0 {
                var bytes = [UInt8](repeating: 0, count: 64)
                _ = read(wake.0, &bytes, bytes.count)
            }
            let ended = zip(watched, descriptors.dropFirst()).filter { $0.1.revents != 0 }.map { $0.0.key }
            guard !ended.isEmpty else { continue }
            // Under the lock: no watchdog starts (and looks like an orphan) meanwhile.
            let tokens = state.withLock { state -> [String] in
                for pid in ended { if let handle = state.leaders.removeValue(forKey: pid) { close(handle) } }
                guard state.ownsTree else { return ended.compactMap { state.tokens[$0] } }
                _ = Array(state.groups).withUnsafeBufferPointer { trustsuite_kill_orphans($0.baseAddress, $0.count) }
                return []
            }
            Self.killHolders(of: tokens)
        }
    }
}
