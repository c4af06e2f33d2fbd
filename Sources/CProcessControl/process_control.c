#define _GNU_SOURCE
#include "process_control.h"
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>
#if defined(__linux__)
#include <sys/prctl.h>
#endif

int trustsuite_become_child_subreaper(void) {
#if defined(__linux__)
    return prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
#else
    errno = ENOSYS;
    return -1;
#endif
}

int trustsuite_spawn_close_from(posix_spawn_file_actions_t *actions, int lowest) {
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 34))
    return posix_spawn_file_actions_addclosefrom_np(actions, lowest);
#else
    (void)actions;
    (void)lowest;
    return ENOSYS;
#endif
}

static int signal_pipe_write = -1;

static void on_stop_signal(int number) {
    int saved = errno;
    unsigned char byte = (unsigned char)number;
    if (signal_pipe_write >= 0) (void)!write(signal_pipe_write, &byte, 1);
    errno = saved;
}

int trustsuite_signal_pipe(const int *signals, int count) {
    int ends[2];
    if (pipe(ends) != 0) return -1;
    for (int index = 0; index < 2; index++) fcntl(ends[index], F_SETFD, FD_CLOEXEC);
    fcntl(ends[1], F_SETFL, O_NONBLOCK);
    signal_pipe_write = ends[1];
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = on_stop_signal;
    action.sa_flags = SA_RESTART;
    sigemptyset(&action.sa_mask);
    for (int index = 0; index < count; index++) {
        if (sigaction(signals[index], &action, NULL) != 0) return -1;
    }
    return ends[0];
}
