import CProcessControl
import Foundation
import Synchronization
import TrustSuiteSupport
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A command run by `/bin/bash -c` (else `/bin/sh -c`) in a process group of its own, with its
/// three standard streams on pipes.
///
/// Nothing it starts outlives it, whatever group or session a descendant
/// moves to: the runner is a child subreaper (`PR_SET_CHILD_SUBREAPER`, so
/// orphaned descendants become its children, not init's), every descendant
/// inherits a token in its environment (`TRUSTSUITE_ADAPTER_TOKEN`), and
/// stopping kills every process holding the token or descending from the
/// leader.
///
/// On Linux the leader is a watchdog (`CProcessControl/watchdog.c`, this
/// program run again): the shell's parent and the subreaper of everything
/// the adapter starts, holding a pipe from the runner. When the runner dies,
/// by any signal SIGKILL included, the pipe ends and the watchdog SIGKILLs
/// every process below it (issue 44, item 8). When the shell ends, the
/// watchdog kills what is left below it and ends the same way (its status
/// is the adapter's). Where the watchdog cannot run, the shell gets
/// `PR_SET_PDEATHSIG` = SIGKILL (through `setpriv`, from a thread that
/// lives as long as the runner), kept by the adapter when the shell execs
/// it (a lone simple command, or `exec …`).
///
/// The child starts with an empty signal mask and default signal actions
/// (whatever the runner blocks or ignores is not inherited). Stopping it
/// signals the whole group — the shell, the adapter and anything they
/// started — first with SIGTERM, then with SIGKILL after a grace period,
/// and reaps the leader, so nothing the command started outlives the run.
final class ChildProcess: @unchecked Sendable {
    let pid: pid_t
    /// The value of ``tokenName`` in every descendant's environment.
    let token: String
    static let tokenName = "TRUSTSUITE_ADAPTER_TOKEN"

    /// Orphaned descendants become this process's children (once, on first use).
    static let becomeSubreaper: Void = { _ = trustsuite_become_child_subreaper() }()

    /// bash where present (it execs a lone simple command, so the adapter
    /// itself keeps the parent-death signal; dash forks it), else /bin/sh.
    static let shell: String = access("/bin/bash", X_OK) == 0 ? "/bin/bash" : "/bin/sh"

    /// util-linux's `setpriv` (Essential on Debian), which sets the
    /// parent-death signal and execs the shell; nil where it is missing.
    static let setpriv: String? = ["/usr/bin/setpriv", "/bin/setpriv"].first { access($0, X_OK) == 0 }

    /// Whether adapters start under the watchdog (Linux, with /proc).
    static let watchdog: Bool = trustsuite_watchdog_available() == 1 && access("/proc/self/exe", X_OK) == 0
    /// Our end of the watchdog's lifeline (-1 without one, or once closed):
    /// the watchdog kills the adapter's processes when it reads its end.
    private var lifelineFD: Int32 = -1
    /// Our end of the child's stdin (-1 once closed).
    private var inputFD: Int32
    private let lock = NSLock()
    private var status: Int32?
    private let readers: [PipeReader]

    /// Starts `command`; `onStdout` / `onStderr` get each chunk read, then an
    /// empty chunk at end of file. Both are called on reader threads.
    /// `environment` sets (or replaces) variables of the inherited environment.
    init(
        command: String, environment overrides: [String: String] = [:], onStdout: @escaping @Sendable (ArraySlice<UInt8>) -> Void,
        onStderr: @escaping @Sendable (ArraySlice<UInt8>) -> Void
    ) throws {
        // A dead adapter must surface as a write error, not kill the runner.
        signal(SIGPIPE, SIG_IGN)
        var stdinPipe: [Int32] = [-1, -1], stdoutPipe: [Int32] = [-1, -1], stderrPipe: [Int32] = [-1, -1]
        var lifeline: [Int32] = [-1, -1]
        guard Self.makePipe(&stdinPipe), Self.makePipe(&stdoutPipe), Self.makePipe(&stderrPipe),
            !Self.watchdog || Self.makePipe(&lifeline)
        else {
            let reason = String(cString: strerror(errno))
            for fd in stdinPipe + stdoutPipe + stderrPipe + lifeline where fd >= 0 { close(fd) }
            throw AdapterError("cannot create a pipe: \(reason)")
        }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, stdinPipe[0], 0)
        posix_spawn_file_actions_adddup2(&actions, stdoutPipe[1], 1)
        posix_spawn_file_actions_adddup2(&actions, stderrPipe[1], 2)
        if lifeline[0] >= 0 { posix_spawn_file_actions_adddup2(&actions, lifeline[0], TRUSTSUITE_WATCHDOG_FD) }
        // Nothing else of the runner's: descriptors other threads opened
        // without close-on-exec (a test's `Foundation.Pipe`) would keep
        // their readers from ever seeing end of file while the adapter lives.
        _ = trustsuite_spawn_close_from(&actions, TRUSTSUITE_WATCHDOG_FD + 1)

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var emptyMask = sigset_t()
        sigemptyset(&emptyMask)
        posix_spawnattr_setsigmask(&attributes, &emptyMask)
        var defaults = sigset_t()
        sigfillset(&defaults)
        sigdelset(&defaults, SIGKILL)
        sigdelset(&defaults, SIGSTOP)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        Self.becomeSubreaper
        let token = "\(getpid())-\(UInt64.random(in: 0...UInt64.max))"
        var child: pid_t = 0
        let shell = [Self.shell, "-c", command]
        let arguments =
            Self.watchdog
            ? [TRUSTSUITE_WATCHDOG_NAME] + shell : Self.setpriv.map { [$0, "--pdeathsig", "KILL", "--"] + shell } ?? shell
        let argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var environment: [UnsafeMutablePointer<CChar>?] = []
        var index = 0
        while let entry = environ[index] {
            let name = String(cString: entry).prefix { $0 != "=" }
            if name != Self.tokenName && overrides[String(name)] == nil { environment.append(strdup(entry)) }
            index += 1
        }
        environment += overrides.sorted { $0.key < $1.key }.map { strdup("\($0.key)=\($0.value)") }
        environment += [strdup("\(Self.tokenName)=\(token)")]
        if Self.watchdog { environment.append(strdup("\(TRUSTSUITE_WATCHDOG_ENV)=\(TRUSTSUITE_WATCHDOG_FD)")) }
        environment.append(nil)
        defer { for pointer in environment { free(pointer) } }
        let program = Self.watchdog ? "/proc/self/exe" : arguments[0]
        // Never once the runner is stopping on a signal (``ProcessGroups``).
        let spawned = ProcessGroups.shared.spawn(token: token) {
            // The status is the spawn's result; the worker never throws it.
            let status =
                (try? OffPool.spawner.runAndWait {
                    posix_spawn(&child, program, &actions, &attributes, argv, environment)
                }) ?? -1
            return (status, child)
        }
        close(stdinPipe[0])
        close(stdoutPipe[1])
        close(stderrPipe[1])
        if lifeline[0] >= 0 { close(lifeline[0]) }
        guard spawned == 0 else {
            close(stdinPipe[1]); close(stdoutPipe[0]); close(stderrPipe[0])
            if lifeline[1] >= 0 { close(lifeline[1]) }
            let reason = spawned == ECANCELED ? "the run is stopping" : String(cString: strerror(spawned))
            throw AdapterError("cannot start `\(command)`: \(reason)")
        }
        pid = child
        self.token = token
        inputFD = stdinPipe[1]
        lifelineFD = lifeline[1]
        readers = [PipeReader(fd: stdoutPipe[0], sink: onStdout), PipeReader(fd: stderrPipe[0], sink: onStderr)]
        for reader in readers { reader.start() }
    }

    /// A pipe whose ends are closed in any other program this process starts.
    private static func makePipe(_ ends: inout [Int32]) -> Bool {
        guard pipe(&ends) == 0 else { return false }
        for fd in ends { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        return true
    }

    deinit {
        _ = stop(grace: .milliseconds(100))
    }

    /// Writes all of `bytes` to the child's stdin.
    func write(_ bytes: [UInt8]) throws {
        let fd = lock.withLock { inputFD }
        guard fd >= 0 else { throw AdapterError("the adapter's input is closed") }
        guard writeAll(fd, bytes) else {
            throw AdapterError("cannot write to the adapter: \(String(cString: strerror(errno)))")
        }
    }

    /// Closes the child's stdin (it sees end of file).
    func closeInput() {
        lock.withLock {
            if inputFD >= 0 { close(inputFD); inputFD = -1 }
        }
    }

    /// The wait status once the child has exited, waiting at most `limit`.
    func exitStatus(within limit: Duration) -> Int32? {
        let deadline = ContinuousClock.now + limit
        while true {
            if let status = reap(blocking: false) { return status }
            if ContinuousClock.now >= deadline { return nil }
            OffPool.pause(microseconds: 5_000)
        }
    }

    /// Stops the child and everything in its process group: stdin closed,
    /// SIGTERM to the group, SIGKILL to the group after `grace`, leader
    /// reaped. Returns the leader's wait status. Safe to call repeatedly.
    @discardableResult
    func stop(grace: Duration = .seconds(1)) -> Int32 {
        closeInput()
        if reap(blocking: false) == nil {
            kill(-pid, SIGTERM)
            _ = exitStatus(within: grace)
        }
        // The watchdog, told by its lifeline's end, SIGKILLs everything below
        // it (a daemon without the token whose parents are gone included)
        // and ends as the adapter did; it is waited for before its group is
        // killed, which would orphan what is below it to this process.
        let lifeline = lock.withLock {
            defer { lifelineFD = -1 }
            return lifelineFD
        }
        if lifeline >= 0 {
            close(lifeline)
            _ = exitStatus(within: .seconds(2))
        }
        // The leader may be gone while members of its group live on
        // (`sh -c 'sleeper & exec adapter'`): the group is killed regardless.
        kill(-pid, SIGKILL)
        let status = reap(blocking: true) ?? 0
        killDescendants()
        // SIGKILL is delivered at once but a process takes a moment to die.
        let deadline = ContinuousClock.now + .seconds(2)
        while Self.groupHasLiveMembers(pid) && ContinuousClock.now < deadline { OffPool.pause(microseconds: 2_000) }
        ProcessGroups.shared.remove(pid)
        // Read what the group wrote before it died, so none of it can reach a
        // later process's capture.
        for reader in readers { reader.finish() }
        let readDeadline = ContinuousClock.now + .seconds(1)
        while !readers.allSatisfy({ $0.isEnded }) && ContinuousClock.now < readDeadline { OffPool.pause(microseconds: 2_000) }
        return status
    }

    /// Waits until the child's stderr has been read up to what is in the
    /// pipe now (a reply on stdout follows the stderr lines written before it).
    func settleStderr(within limit: Duration = .milliseconds(200)) {
        let deadline = ContinuousClock.now + limit
        while !readers[1].drained() && ContinuousClock.now < deadline { OffPool.pause(microseconds: 500) }
    }

    /// SIGKILLs every descendant of this process that carries this child's
    /// token or descends from its leader — daemons that left the group with
    /// `setsid` or `setpgid` — and reaps those that were reparented to this
    /// process. Repeats while it finds any (a daemon may fork again
    /// meanwhile). Where /proc does not show this PID namespace it does
    /// nothing (`trustsuite_proc_trusted`): the group kill and the watchdog
    /// are all there is, and no pid read there is signalled.
    func killDescendants() { ProcessGroups.killHolders(of: [token], orBelow: pid) }

    /// Most scans of one ``killDescendants()``.
    static let sweepRounds = 20

    /// Whether a process of group `group` is alive (not a zombie), from
    /// /proc; without a trusted /proc, the group's zombies that are this
    /// process's children are reaped and the kernel asked.
    static func groupHasLiveMembers(_ group: pid_t) -> Bool {
        guard let table = ProcTable() else {
            var raw: Int32 = 0
            while waitpid(-group, &raw, WNOHANG) > 0 {}
            return kill(-group, 0) == 0
        }
        return table.entries.contains { $0.alive != 0 && $0.pgrp == group }
    }

    /// Waits for the leader when `blocking`; nil while it runs.
    private func reap(blocking: Bool) -> Int32? {
        lock.withLock {
            if let status { return status }
            var raw: Int32 = 0
            while true {
                let result = waitpid(pid, &raw, blocking ? 0 : WNOHANG)
                if result == pid { status = raw; return raw }
                if result == 0 { return nil }
                if errno == EINTR { continue }
                // ECHILD: reaped elsewhere; record an unknown status.
                status = -1
                return -1
            }
        }
    }

    /// "exited with status 3", "was killed by signal 11 (SIGSEGV)".
    static func describe(status: Int32) -> String {
        if status == -1 { return "exited (status unknown)" }
        let signal = status & 0x7f
        if signal == 0 { return "exited with status \((status >> 8) & 0xff)" }
        let name = signalNames[signal].map { " (\($0))" } ?? ""
        return "was killed by signal \(signal)\(name)"
    }

    static let signalNames: [Int32: String] = [
        SIGHUP: "SIGHUP", SIGINT: "SIGINT", SIGQUIT: "SIGQUIT", SIGILL: "SIGILL", SIGTRAP: "SIGTRAP",
        SIGABRT: "SIGABRT", SIGBUS: "SIGBUS", SIGFPE: "SIGFPE", SIGKILL: "SIGKILL", SIGSEGV: "SIGSEGV",
        SIGPIPE: "SIGPIPE", SIGALRM: "SIGALRM", SIGTERM: "SIGTERM",
    ]
}

/// Reads one pipe on a thread of its own until end of file or `finish()`,
/// polling so that a pipe held open by an escaped grandchild never pins it.
private final class PipeReader: @unchecked Sendable {
    private let fd: Int32
    private let sink: @Sendable (ArraySlice<UInt8>) -> Void
    private let lock = NSLock()
    private var finished = false
    private var busy = false
    private var ended = false

    init(fd: Int32, sink: @escaping @Sendable (ArraySlice<UInt8>) -> Void) {
        self.fd = fd
        self.sink = sink
    }

    func start() {
        let thread = Thread { [self] in loop() }
        thread.name = "trustsuite-adapter-pipe"
        thread.start()
    }

    func finish() { lock.withLock { finished = true } }

    var isEnded: Bool { lock.withLock { ended } }

    /// Nothing waiting in the pipe and no chunk on its way to the sink.
    func drained() -> Bool {
        lock.withLock {
            if ended { return true }
            if busy { return false }
            var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            return poll(&descriptor, 1, 0) <= 0 || descriptor.revents & Int16(POLLIN) == 0
        }
    }

    private func loop() {
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        defer {
            lock.withLock {
                ended = true; close(fd)
            }
        }
        while true {
            var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&descriptor, 1, 100)
            if ready == 0 {
                if lock.withLock({ finished }) { sink([]); return }
                continue
            }
            if ready < 0 {
                if errno == EINTR { continue }
                sink([])
                return
            }
            lock.withLock { busy = true }
            let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { lock.withLock { busy = false }; continue }
            if count <= 0 { sink([]); lock.withLock { busy = false }; return }
            sink(buffer[0..<count])
            lock.withLock { busy = false }
        }
    }
}
