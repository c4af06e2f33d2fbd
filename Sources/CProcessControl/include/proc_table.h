#ifndef TRUSTSUITE_PROC_TABLE_H
#define TRUSTSUITE_PROC_TABLE_H

#include <stddef.h>
#include <sys/types.h>

/// The one /proc reader of the runner, the watchdog and the adapter host's
/// Swift code (issue 50 item 6), and the one way any of them signals a
/// process it did not start itself (issue 52 item 1).

/// One process as /proc/PID/stat shows it.
struct trustsuite_proc_entry {
    pid_t pid;
    pid_t ppid;
    pid_t pgrp;
    /// 0 for a zombie or a dead process.
    int alive;
};

/// 1 when /proc shows this process's own PID namespace, else 0. Under
/// `unshare --pid --fork` without a fresh /proc (some CI sandboxes and
/// containers), /proc lists the host's pids while kill(2) takes the
/// namespace's: a pid read there may name an unrelated process. /proc is
/// trusted when the pid /proc/self names is getpid() and the parent its
/// stat shows is getppid(). The first time it is 0 in a process, one line
/// says so on stderr. Cached after the first call.
int trustsuite_proc_trusted(void);

/// Every process /proc lists, sorted by pid, in an array to free(); NULL
/// where /proc cannot be read or is not trusted (trustsuite_proc_trusted).
struct trustsuite_proc_entry *trustsuite_proc_scan(size_t *count);

/// Whether `pid` descends from `ancestor` in `entries` (a scan): its chain
/// of parents reaches it.
int trustsuite_proc_descends(const struct trustsuite_proc_entry *entries, size_t count, pid_t pid, pid_t ancestor);

/// Whether /proc/PID/environ holds `entry` ("NAME=VALUE") exactly: 1, 0, or
/// -1 where it cannot be read.
int trustsuite_proc_has_environment(pid_t pid, const char *entry);

/// Sends `signal` to `pid` only if it is a live descendant of the caller in
/// this PID namespace, checked again after a pidfd was opened on it (so a
/// pid reused between a scan and the signal is not hit). 0 when sent;
/// -1 otherwise (errno: ESRCH gone or not a descendant, EPERM, ENOSYS).
int trustsuite_signal_descendant(pid_t pid, int signal);

/// A pidfd of `pid` (readable once it has ended), or -1.
int trustsuite_pidfd_open(pid_t pid);

#endif
