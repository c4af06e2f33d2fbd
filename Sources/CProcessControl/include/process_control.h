#ifndef TRUSTSUITE_PROCESS_CONTROL_H
#define TRUSTSUITE_PROCESS_CONTROL_H

/// Makes the calling process a child subreaper (Linux prctl
/// PR_SET_CHILD_SUBREAPER): orphaned descendants are reparented to it
/// instead of init. Returns 0, or -1 with errno set (also where unsupported).
int trustsuite_become_child_subreaper(void);

#endif
