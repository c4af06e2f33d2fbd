#ifndef TRUSTSUITE_WATCHDOG_H
#define TRUSTSUITE_WATCHDOG_H

/// The watchdog (issue 44, item 8): a small process between the runner and
/// an adapter, the adapter's parent and the child subreaper of everything
/// the adapter starts. It holds the read end of a pipe (the lifeline) whose
/// write end only the runner holds. When the adapter ends, or the lifeline
/// reads end of file because the runner died (even by SIGKILL), it SIGKILLs
/// every process below it, then exits: with the adapter's own status (or by
/// the same signal) when the adapter ended.
///
/// It is started by executing this very program (/proc/self/exe) named
/// TRUSTSUITE_WATCHDOG_NAME (argv[0]), with TRUSTSUITE_WATCHDOG_ENV set in
/// the environment and the lifeline, a pipe, on TRUSTSUITE_WATCHDOG_FD;
/// argv[1…] is the adapter's command (a path and its arguments). A
/// constructor in this library takes over such a process before the
/// program's main runs.
#define TRUSTSUITE_WATCHDOG_NAME "trustsuite-watchdog"
#define TRUSTSUITE_WATCHDOG_ENV "TRUSTSUITE_WATCHDOG_LIFELINE"
#define TRUSTSUITE_WATCHDOG_FD 3

/// 1 where the watchdog can run (Linux with glibc), else 0. Calling it
/// also keeps the object that holds the watchdog's entry in the program.
int trustsuite_watchdog_available(void);

/// SIGKILLs every live descendant of the calling process, scanning /proc
/// again until none is left or `milliseconds` have passed; with `reap`,
/// reaps the caller's exited children as it goes. Returns the number of
/// descendants still alive at the end (0 on success), or -1 where /proc
/// cannot be read.
int trustsuite_kill_descendants(int milliseconds, int reap);

#endif
