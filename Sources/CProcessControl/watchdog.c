// The adapter watchdog and the descendant sweep (see include/watchdog.h).
#define _GNU_SOURCE
#include "watchdog.h"

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

struct proc_entry {
    pid_t pid;
    pid_t ppid;
    int alive;
};

static int by_pid(const void *a, const void *b) {
    pid_t x = ((const struct proc_entry *)a)->pid, y = ((const struct proc_entry *)b)->pid;
    return (x > y) - (x < y);
}

/// Parent and state of process `name` from /proc/NAME/stat ("pid (comm)
/// state ppid …": comm may hold spaces and parentheses, so the fields are
/// read after its last ')').
static int read_stat(const char *name, pid_t *ppid, int *alive) {
    char path[64];
    if (snprintf(path, sizeof path, "/proc/%s/stat", name) >= (int)sizeof path) return -1;
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return -1;
    char buffer[1024];
    ssize_t count = read(fd, buffer, sizeof buffer - 1);
    close(fd);
    if (count <= 0) return -1;
    buffer[count] = 0;
    char *close_paren = strrchr(buffer, ')');
    if (close_paren == NULL || close_paren[1] != ' ') return -1;
    char state = 0;
    int parent = 0;
    if (sscanf(close_paren + 2, "%c %d", &state, &parent) != 2) return -1;
    *ppid = parent;
    *alive = state != 'Z' && state != 'X' && state != 'x';
    return 0;
}

/// Every process in /proc, sorted by pid; NULL when /proc cannot be read.
static struct proc_entry *scan(size_t *count) {
    DIR *proc = opendir("/proc");
    if (proc == NULL) return NULL;
    size_t capacity = 256, used = 0;
    struct proc_entry *entries = malloc(capacity * sizeof *entries);
    struct dirent *entry;
    while (entries != NULL && (entry = readdir(proc)) != NULL) {
        const char *name = entry->d_name;
        if (name[0] < '1' || name[0] > '9') continue;
        char *end = NULL;
        long pid = strtol(name, &end, 10);
        if (end == NULL || *end != 0 || pid <= 0) continue;
        pid_t ppid = 0;
        int alive = 0;
        if (read_stat(name, &ppid, &alive) != 0) continue;
        if (used == capacity) {
            struct proc_entry *bigger = realloc(entries, capacity * 2 * sizeof *entries);
            if (bigger == NULL) break;
            entries = bigger;
            capacity *= 2;
        }
        entries[used].pid = (pid_t)pid;
        entries[used].ppid = ppid;
        entries[used].alive = alive;
        used += 1;
    }
    closedir(proc);
    if (entries == NULL) return NULL;
    qsort(entries, used, sizeof *entries, by_pid);
    *count = used;
    return entries;
}

/// Whether `pid` descends from `ancestor` (its chain of parents reaches it).
static int descends(const struct proc_entry *entries, size_t count, pid_t pid, pid_t ancestor) {
    for (size_t depth = 0; depth < count && pid > 1; depth++) {
        struct proc_entry key = {.pid = pid};
        const struct proc_entry *found = bsearch(&key, entries, count, sizeof *entries, by_pid);
        if (found == NULL) return 0;
        if (found->ppid == ancestor) return 1;
        pid = found->ppid;
    }
    return 0;
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
        struct proc_entry *entries = scan(&count);
        if (entries == NULL) return -1;
        int alive = 0;
        for (size_t index = 0; index < count; index++) {
            if (!entries[index].alive || entries[index].pid == self) continue;
            if (!descends(entries, count, entries[index].pid, self)) continue;
            kill(entries[index].pid, SIGKILL);
            alive += 1;
        }
        free(entries);
        if (reap) reap_children();
        // A killed parent's children are reparented to this subreaper and
        // found on the next scan; one forked meanwhile is too.
        if (alive == 0 || now_ms() >= deadline) return alive;
        usleep(2000);
    }
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

static void run_watchdog(int argc, char **argv) {
    static const int passed_on[] = {SIGTERM, SIGINT, SIGHUP, SIGPIPE, SIGQUIT};
    int lifeline = TRUSTSUITE_WATCHDOG_FD;
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
        struct timespec tick = {.tv_sec = 1, .tv_nsec = 0};
        // SIGCHLD is let in only while waiting here, so an ending adapter
        // wakes the wait at once.
        int ready = ppoll(&watched, 1, &tick, &original);
        if (ready > 0) {
            char bytes[64];
            ssize_t count = read(lifeline, bytes, sizeof bytes);
            if (count == 0 || (count < 0 && errno != EINTR && errno != EAGAIN)) {
                // The runner is gone, or stops the adapter: so is everything
                // below; the adapter's end is this one's.
                trustsuite_kill_descendants(10000, 1);
                reap_children();
                if (adapter_ended) end_like(adapter_status);
                _exit(0);
            }
        }
        reap_children();
        if (adapter_ended) {
            trustsuite_kill_descendants(10000, 1);
            end_like(adapter_status);
        }
    }
}

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

#endif
