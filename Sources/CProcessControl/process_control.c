#include "process_control.h"
#include <errno.h>
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
