#ifndef TRUSTSUITE_PROCESS_CONTROL_H
#define TRUSTSUITE_PROCESS_CONTROL_H

/// Makes the calling process a child subreaper (Linux prctl
/// PR_SET_CHILD_SUBREAPER): orphaned descendants are reparented to it
/// instead of init. Returns 0, or -1 with errno set (also where unsupported).
int trustsuite_become_child_subreaper(void);

#include <spawn.h>

/// Adds to `actions` the closing, in the child, of every descriptor from
/// `lowest` up: an adapter must not inherit what other threads of the
/// runner have open without close-on-exec (a `Foundation.Pipe` of another
/// process, whose reader would then wait for end of file as long as the
/// adapter lives). Returns 0, or an error number (ENOSYS where the C
/// library has no such action).
int trustsuite_spawn_close_from(posix_spawn_file_actions_t *actions, int lowest);

/// Installs, for each of `signals`, a handler that writes the signal's
/// number (one byte) to a pipe, and returns the pipe's read end
/// (close-on-exec), or -1 with errno set. A handler rather than SIG_IGN
/// with a Dispatch source: as PID 1 of a PID namespace a process gets no
/// signal whose action is the default or ignore (the kernel drops it, and
/// SIGTERM to the runner was swallowed, issue 52 item 1); one with a
/// handler it gets.
int trustsuite_signal_pipe(const int *signals, int count);

#endif
