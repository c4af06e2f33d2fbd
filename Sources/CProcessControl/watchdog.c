// The adapter watchdog and the descendant sweep (see include/watchdog.h).
#define _GNU_SOURCE
#include "watchdog.h"
#include "proc_table.h"

#include <errno.h>

#if defined(__linux__) && defined(__GLIBC__)
#include <dirent.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

int trustsuite_watchdog_available(void) { return 1; }

static long long now_ms(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (long long)now.tv_sec * 1000 + now.tv_nsec / 1000000;
}

/// The adapter (the watchdog's one child of its own) and, once it ended, its status.
static pid_t adapter_pid = 0;
static int adapter_ended = 0;
static int adapter_status = 0;

static void reap_children(void) {
    int status = 0;
    pid_t ended;
    while ((ended = waitpid(-1, &status, WNOHANG)) > 0) {
        if (adapter_pid > 0 && ended == adapter_pid) {
            adapter_ended = 1;
            adapter_status = status;
        }
    }
}

int trustsuite_kill_descendants(int milliseconds, int reap) {
    pid_t self = getpid();
    long long deadline = now_ms() + (milliseconds > 0 ? milliseconds : 0);
    for (;;) {
        size_t count = 0;
        struct trustsuite_proc_entry *entries = trustsuite_proc_scan(&count);
        if (entries == NULL) return -1;
        int alive = 0;
        for (size_t index = 0; index < count; index++) {
            if (!entries[index].alive || entries[index].pid == self) continue;
            if (!trustsuite_proc_descends(entries, count, entries[index].pid, self)) continue;
            // Checked again through a pidfd: never a pid reused meanwhile.
            if (trustsuite_signal_descendant(entries[index].pid, SIGKILL) == 0) alive += 1;
        }
        free(entries);
        if (reap) reap_children();
        // A killed parent's children are reparented to this subreaper and
        // found on the next scan; one forked meanwhile is too.
        if (alive == 0 || now_ms() >= deadline) return alive;
        usleep(TRUSTSUITE_SWEEP_PAUSE_MS * 1000);
    }
}

int trustsuite_kill_orphans(const pid_t *keep, size_t kept) {
    pid_t self = getpid();
    pid_t group = getpgrp();
    size_t count = 0;
    struct trustsuite_proc_entry *entries = trustsuite_proc_scan(&count);
    if (entries == NULL) return -1;
    int killed = 0;
    for (size_t index = 0; index < count; index++) {
        const struct trustsuite_proc_entry *entry = &entries[index];
        if (entry->ppid != self || !entry->alive || entry->pgrp == group) continue;
        int known = 0;
        for (size_t other = 0; other < kept && !known; other++) known = keep[other] == entry->pid;
        if (known) continue;
        // An orphan and everything below it.
        for (size_t below = 0; below < count; below++) {
            if (entries[below].alive && trustsuite_proc_descends(entries, count, entries[below].pid, entry->pid)) {
                if (trustsuite_signal_descendant(entries[below].pid, SIGKILL) == 0) killed += 1;
            }
        }
        if (trustsuite_signal_descendant(entry->pid, SIGKILL) == 0) killed += 1;
    }
    free(entries);
    return killed;
}

static void on_child(int number) { (void)number; }

/// Ends the watchdog as its adapter ended: the same exit status, or the
/// same signal (without a core dump).
static void end_like(int status) {
    if (WIFEXITED(status)) _exit(WEXITSTATUS(status));
    if (WIFSIGNALED(status)) {
        int number = WTERMSIG(status);
        struct rlimit none = {0, 0};
        setrlimit(RLIMIT_CORE, &none);
        prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
        signal(number, SIG_DFL);
        sigset_t only;
        sigemptyset(&only);
        sigaddset(&only, number);
        sigprocmask(SIG_UNBLOCK, &only, NULL);
        raise(number);
        _exit(128 + number);
    }
    _exit(1);
}

/// Without a trusted /proc (trustsuite_proc_trusted): the watchdog's
/// process group, the watchdog included (issue 52 item 1: no pid read from
/// /proc is signalled). Does not return.
static void kill_own_group(void) {
    kill(0, SIGKILL);
    _exit(137);
}

/// The watchdog's parent when it started.
static pid_t runner_pid = 0;

/// Everything below the watchdog, killed when the runner is gone or stops
/// the adapter; then the watchdog ends as its adapter did, or with 0.
static void sweep_and_end(void) {
    reap_children();
    if (trustsuite_proc_trusted() != 1) {
        // The runner, alive, kills the group once it has the status.
        if (adapter_ended && getppid() == runner_pid) end_like(adapter_status);
        kill_own_group();
    }
    trustsuite_kill_descendants(TRUSTSUITE_WATCHDOG_SWEEP_MS, 1);
    reap_children();
    if (adapter_ended) end_like(adapter_status);
    _exit(0);
}

static void run_watchdog(int argc, char **argv) {
    static const int passed_on[] = {SIGTERM, SIGINT, SIGHUP, SIGPIPE, SIGQUIT};
    int lifeline = TRUSTSUITE_WATCHDOG_FD;
    // The runner: the watchdog's parent from the start. When it dies, by
    // any signal, this process is reparented and getppid() changes, even if
    // a daemon holds the lifeline's write end open (it can open
    // /proc/WATCHDOG/fd/3 for writing): the pipe alone is not trusted to end.
    pid_t runner = getppid();
    runner_pid = runner;
    struct stat lifeline_stat;
    if (argc < 2 || fstat(lifeline, &lifeline_stat) != 0 || !S_ISFIFO(lifeline_stat.st_mode)) {
        dprintf(2, "trustsuite watchdog: no lifeline on descriptor %d, or no command\n", lifeline);
        _exit(127);
    }
    fcntl(lifeline, F_SETFD, FD_CLOEXEC);
    if (prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) != 0) {
        dprintf(2, "trustsuite watchdog: cannot become a subreaper: %s\n", strerror(errno));
        _exit(127);
    }
    // The group's signals are for the adapter: the watchdog stays until
    // the adapter ends (or SIGKILL).
    for (size_t index = 0; index < sizeof passed_on / sizeof passed_on[0]; index++) signal(passed_on[index], SIG_IGN);
    sigset_t child_only, original;
    sigemptyset(&child_only);
    sigaddset(&child_only, SIGCHLD);
    sigprocmask(SIG_BLOCK, &child_only, &original);
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = on_child;
    sigaction(SIGCHLD, &action, NULL);
    // The runner's death wakes the wait below at once (SIGCHLD is let in
    // there); the check of getppid() decides.
    prctl(PR_SET_PDEATHSIG, SIGCHLD, 0, 0, 0);
    if (getppid() != runner) sweep_and_end();

    pid_t self = getpid();
    pid_t adapter = fork();
    adapter_pid = adapter;
    if (adapter < 0) {
        dprintf(2, "trustsuite watchdog: cannot fork: %s\n", strerror(errno));
        _exit(127);
    }
    if (adapter == 0) {
        // The adapter dies with its watchdog, whatever kills that.
        prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0);
        if (getppid() != self) _exit(127);
        for (size_t index = 0; index < sizeof passed_on / sizeof passed_on[0]; index++) signal(passed_on[index], SIG_DFL);
        signal(SIGCHLD, SIG_DFL);
        sigprocmask(SIG_SETMASK, &original, NULL);
        execv(argv[1], argv + 1);
        dprintf(2, "trustsuite watchdog: cannot start %s: %s\n", argv[1], strerror(errno));
        _exit(127);
    }
    // The adapter's pipes are its own: the runner sees their end of file
    // when the adapter's side closes them.
    int null = open("/dev/null", O_RDWR | O_CLOEXEC);
    if (null >= 0) {
        dup2(null, 0);
        dup2(null, 1);
        dup2(null, 2);
        if (null > 2) close(null);
    }
    for (;;) {
        struct pollfd watched = {.fd = lifeline, .events = POLLIN, .revents = 0};
        struct timespec tick = {.tv_sec = TRUSTSUITE_WATCHDOG_TICK_MS / 1000, .tv_nsec = (TRUSTSUITE_WATCHDOG_TICK_MS % 1000) * 1000000L};
        // SIGCHLD is let in only while waiting here, so an ending adapter
        // wakes the wait at once.
        int ready = ppoll(&watched, 1, &tick, &original);
        if (ready > 0) {
            char bytes[64];
            ssize_t count = read(lifeline, bytes, sizeof bytes);
            if (count == 0 || (count < 0 && errno != EINTR && errno != EAGAIN)) {
                // The runner is gone, or stops the adapter: so is everything
                // below; the adapter's end is this one's.
                sweep_and_end();
            }
        }
        // The runner died while something else holds the lifeline open.
        if (getppid() != runner) sweep_and_end();
        reap_children();
        if (adapter_ended) {
            // Without a trusted /proc the runner kills the group once it
            // has the status (the group kill cannot spare the watchdog).
            if (trustsuite_proc_trusted() == 1) trustsuite_kill_descendants(TRUSTSUITE_WATCHDOG_SWEEP_MS, 1);
            end_like(adapter_status);
        }
    }
}

/// The watchdog's entry (see include/watchdog.h, "Entry point"): glibc calls
/// each constructor with main's arguments, before main.
__attribute__((constructor)) static void trustsuite_watchdog_entry(int argc, char **argv, char **envp) {
    (void)envp;
    if (getenv(TRUSTSUITE_WATCHDOG_ENV) == NULL) return;
    if (argc < 1 || argv == NULL || argv[0] == NULL || strcmp(argv[0], TRUSTSUITE_WATCHDOG_NAME) != 0) return;
    unsetenv(TRUSTSUITE_WATCHDOG_ENV);
    run_watchdog(argc, argv);
}

#else

int trustsuite_watchdog_available(void) { return 0; }

int trustsuite_kill_descendants(int milliseconds, int reap) {
    (void)milliseconds;
    (void)reap;
    errno = ENOSYS;
    return -1;
}

int trustsuite_kill_orphans(const pid_t *keep, size_t kept) {
    (void)keep;
    (void)kept;
    errno = ENOSYS;
    return -1;
}

#endif
