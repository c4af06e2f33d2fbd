// The /proc reader (see include/proc_table.h).
#define _GNU_SOURCE
#include "proc_table.h"

#include <errno.h>
#include <stdlib.h>

#if defined(__linux__)
#include <dirent.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

/// Most parents followed up a chain (a chain longer than any real one is a loop).
enum { max_chain = 4096 };

/// Parent, group and state of process `name` from /proc/NAME/stat ("pid
/// (comm) state ppid pgrp …": comm may hold spaces and parentheses, so the
/// fields are read after its last ')').
static int read_stat(const char *name, struct trustsuite_proc_entry *entry) {
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
    int parent = 0, group = 0;
    if (sscanf(close_paren + 2, "%c %d %d", &state, &parent, &group) != 3) return -1;
    entry->ppid = parent;
    entry->pgrp = group;
    entry->alive = state != 'Z' && state != 'X' && state != 'x';
    return 0;
}

static int read_pid_stat(pid_t pid, struct trustsuite_proc_entry *entry) {
    char name[24];
    snprintf(name, sizeof name, "%d", (int)pid);
    entry->pid = pid;
    return read_stat(name, entry);
}

static int trusted = -1;
static pthread_once_t trusted_once = PTHREAD_ONCE_INIT;

static void check_trusted(void) {
    char target[32] = {0};
    ssize_t count = readlink("/proc/self", target, sizeof target - 1);
    pid_t self = getpid();
    long shown = count > 0 ? strtol(target, NULL, 10) : -1;
    struct trustsuite_proc_entry entry = {0};
    int ok = shown == (long)self && read_pid_stat(self, &entry) == 0 && entry.ppid == getppid();
    trusted = ok ? 1 : 0;
    if (!ok && count > 0) {
        dprintf(2,
                "trustsuite: /proc shows another PID namespace than this process's (pid %d here, %ld in /proc): "
                "no process is signalled by a pid read there; adapters are stopped by their process group and "
                "their watchdog only, so a daemon that leaves its group may outlive the run\n",
                (int)self, shown);
    }
}

int trustsuite_proc_trusted(void) {
    pthread_once(&trusted_once, check_trusted);
    return trusted;
}

static int by_pid(const void *a, const void *b) {
    pid_t x = ((const struct trustsuite_proc_entry *)a)->pid, y = ((const struct trustsuite_proc_entry *)b)->pid;
    return (x > y) - (x < y);
}

struct trustsuite_proc_entry *trustsuite_proc_scan(size_t *count) {
    if (trustsuite_proc_trusted() != 1) return NULL;
    DIR *proc = opendir("/proc");
    if (proc == NULL) return NULL;
    size_t capacity = 256, used = 0;
    struct trustsuite_proc_entry *entries = malloc(capacity * sizeof *entries);
    struct dirent *item;
    while (entries != NULL && (item = readdir(proc)) != NULL) {
        const char *name = item->d_name;
        if (name[0] < '1' || name[0] > '9') continue;
        char *end = NULL;
        long pid = strtol(name, &end, 10);
        if (end == NULL || *end != 0 || pid <= 0) continue;
        struct trustsuite_proc_entry entry = {.pid = (pid_t)pid};
        if (read_stat(name, &entry) != 0) continue;
        if (used == capacity) {
            struct trustsuite_proc_entry *bigger = realloc(entries, capacity * 2 * sizeof *entries);
            if (bigger == NULL) break;
            entries = bigger;
            capacity *= 2;
        }
        entries[used++] = entry;
    }
    closedir(proc);
    if (entries == NULL) return NULL;
    qsort(entries, used, sizeof *entries, by_pid);
    *count = used;
    return entries;
}

int trustsuite_proc_descends(const struct trustsuite_proc_entry *entries, size_t count, pid_t pid, pid_t ancestor) {
    for (size_t depth = 0; depth < count && pid > 1; depth++) {
        struct trustsuite_proc_entry key = {.pid = pid};
        const struct trustsuite_proc_entry *found = bsearch(&key, entries, count, sizeof *entries, by_pid);
        if (found == NULL) return 0;
        if (found->ppid == ancestor) return 1;
        pid = found->ppid;
    }
    return 0;
}

int trustsuite_proc_has_environment(pid_t pid, const char *entry) {
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/environ", (int)pid);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return -1;
    size_t length = strlen(entry);
    // One NUL-separated entry at a time; only the start of each is compared.
    char buffer[4096];
    size_t matched = 0;
    int at_start = 1, found = 0;
    ssize_t count;
    while (!found && (count = read(fd, buffer, sizeof buffer)) > 0) {
        for (ssize_t index = 0; index < count && !found; index++) {
            char byte = buffer[index];
            if (byte == 0) {
                if (at_start && matched == length) found = 1;
                matched = 0;
                at_start = 1;
            } else if (at_start && matched < length && byte == entry[matched]) {
                matched += 1;
            } else {
                at_start = 0;
            }
        }
    }
    close(fd);
    return found;
}

int trustsuite_pidfd_open(pid_t pid) {
#if defined(SYS_pidfd_open)
    return (int)syscall(SYS_pidfd_open, pid, 0);
#else
    (void)pid;
    errno = ENOSYS;
    return -1;
#endif
}

/// Whether `pid` is alive and descends from `ancestor`, read afresh.
static int live_descendant(pid_t pid, pid_t ancestor) {
    struct trustsuite_proc_entry entry = {0};
    if (read_pid_stat(pid, &entry) != 0 || !entry.alive) return 0;
    for (int depth = 0; depth < max_chain; depth++) {
        if (entry.ppid == ancestor) return 1;
        if (entry.ppid <= 1 || read_pid_stat(entry.ppid, &entry) != 0) return 0;
    }
    return 0;
}

int trustsuite_signal_descendant(pid_t pid, int signal) {
    pid_t self = getpid();
    if (pid <= 1 || pid == self || trustsuite_proc_trusted() != 1) {
        errno = ESRCH;
        return -1;
    }
#if defined(SYS_pidfd_open) && defined(SYS_pidfd_send_signal)
    int handle = trustsuite_pidfd_open(pid);
    if (handle < 0) return -1;
    // The pidfd holds one process: if `pid` was reused before it was
    // opened, the check below is of the new process, and the signal too.
    int result = -1;
    if (live_descendant(pid, self)) {
        result = (int)syscall(SYS_pidfd_send_signal, handle, signal, NULL, 0);
    } else {
        errno = ESRCH;
    }
    int saved = errno;
    close(handle);
    errno = saved;
    return result;
#else
    if (!live_descendant(pid, self)) {
        errno = ESRCH;
        return -1;
    }
    return kill(pid, signal);
#endif
}

#else

int trustsuite_proc_trusted(void) { return 0; }

struct trustsuite_proc_entry *trustsuite_proc_scan(size_t *count) {
    (void)count;
    errno = ENOSYS;
    return NULL;
}

int trustsuite_proc_descends(const struct trustsuite_proc_entry *entries, size_t count, pid_t pid, pid_t ancestor) {
    (void)entries;
    (void)count;
    (void)pid;
    (void)ancestor;
    return 0;
}

int trustsuite_proc_has_environment(pid_t pid, const char *entry) {
    (void)pid;
    (void)entry;
    return -1;
}

int trustsuite_signal_descendant(pid_t pid, int signal) {
    (void)pid;
    (void)signal;
    errno = ENOSYS;
    return -1;
}

int trustsuite_pidfd_open(pid_t pid) {
    (void)pid;
    errno = ENOSYS;
    return -1;
}

#endif
