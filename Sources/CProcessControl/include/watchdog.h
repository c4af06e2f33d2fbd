#ifndef TRUSTSUITE_WATCHDOG_H
#define TRUSTSUITE_WATCHDOG_H

#include <stddef.h>
#include <sys/types.h>

/// The watchdog (issue 44, item 8): a small process between the runner and
/// an adapter, the adapter's parent and the child subreaper of everything
/// the adapter starts. It holds the read end of a pipe (the lifeline) whose
/// write end only the runner holds. When the adapter ends, when the
/// lifeline reads end of file, or when the runner dies (even by SIGKILL;
/// seen as a change of getppid(), so a daemon holding the lifeline open
/// through /proc/WATCHDOG/fd/3 does not keep it waiting, issue 52 item 4),
/// it SIGKILLs every process below it, then exits: with the adapter's own
/// status (or by the same signal) when the adapter ended. Where /proc does
/// not show this PID namespace (trustsuite_proc_trusted), it kills its own
/// process group instead, never a pid read from /proc.
///
/// Entry point. The watchdog has no main of its own: it is this very
/// program run again. The runner executes /proc/self/exe with argv[0] =
/// TRUSTSUITE_WATCHDOG_NAME, TRUSTSUITE_WATCHDOG_ENV set in the
/// environment and the lifeline, a pipe, on TRUSTSUITE_WATCHDOG_FD; argv[1…]
/// is the adapter's command (a path and its arguments). A constructor in
/// watchdog.c (`trustsuite_watchdog_entry`, `__attribute__((constructor))`,
/// which glibc calls with main's argc, argv and envp) sees both marks, takes
/// such a process over before the program's main runs and never returns to
/// it; in any other process it returns at once. The object holding it stays
/// in the program because trustsuite_watchdog_available is called.
#define TRUSTSUITE_WATCHDOG_NAME "trustsuite-watchdog"
#define TRUSTSUITE_WATCHDOG_ENV "TRUSTSUITE_WATCHDOG_LIFELINE"
#define TRUSTSUITE_WATCHDOG_FD 3

/// The watchdog's limits. How often its wait wakes to check its parent and
/// its adapter without a signal (ms).
#define TRUSTSUITE_WATCHDOG_TICK_MS 1000
/// How long the watchdog sweeps what is below it before it exits (ms).
#define TRUSTSUITE_WATCHDOG_SWEEP_MS 10000
/// How long the runner sweeps its descendants on a signal or at its end (ms).
#define TRUSTSUITE_RUNNER_SWEEP_MS 5000
/// The pause between two scans of a sweep (ms).
#define TRUSTSUITE_SWEEP_PAUSE_MS 2

/// 1 where the watchdog can run (Linux with glibc), else 0. Calling it
/// also keeps the object that holds the watchdog's entry in the program.
int trustsuite_watchdog_available(void);

/// SIGKILLs every live descendant of the calling process, scanning /proc
/// again until none is left or `milliseconds` have passed; with `reap`,
/// reaps the caller's exited children as it goes. Each pid is checked again
/// as a descendant through a pidfd before it is signalled. Returns the
/// number of descendants still alive at the end (0 on success), or -1 where
/// /proc cannot be read or is not trusted (trustsuite_proc_trusted).
int trustsuite_kill_descendants(int milliseconds, int reap);

/// SIGKILLs the caller's orphans and everything below them: its live
/// children that are not in `keep` (the watchdogs it started) and not in
/// its own process group (a program it ran itself), which a subreaper gets
/// when a watchdog dies before it could sweep (an adapter's daemon killed
/// it, issue 52 item 4). Returns how many it killed, or -1 where /proc
/// cannot be read or is not trusted.
int trustsuite_kill_orphans(const pid_t *keep, size_t kept);

#endif
