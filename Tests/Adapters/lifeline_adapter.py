"""A hostile adapter (issue 52, item 4): a daemon of it attacks the
watchdog the runner put above it, then the adapter hangs on its first
request.

    python3 lifeline_adapter.py MODE MARKER READY_FILE

MODE is one of:

- hold-lifeline: a double-forked daemon with an empty environment opens
  the watchdog's lifeline for writing (/proc/WATCHDOG/fd/3), so the pipe
  never reads end of file, and keeps it open;
- kill-watchdog: on the adapter's first start only, a double-forked daemon
  with an empty environment SIGKILLs the watchdog (the adapter dies with
  it; the runner restarts it, and the restarted adapter does not do it
  again).

Every process carries MARKER in its command line and ignores SIGTERM,
SIGINT and SIGHUP. READY_FILE is created once the daemon has done its deed
(and, for hold-lifeline, once the first request was read).
"""

import json
import os
import signal
import sys
import time

MODE, MARKER, READY = sys.argv[1], sys.argv[2], sys.argv[3]
WATCHDOG = os.getppid()
DEED = {
    "hold-lifeline": (
        "import os, sys, time\n"
        "held = os.open('/proc/%d/fd/3' % int(sys.argv[1]), os.O_WRONLY)\n"
        "open(sys.argv[2], 'w').close()\n"
        "while True: time.sleep(60)\n"
    ),
    "kill-watchdog": (
        "import os, signal, sys, time\n"
        "time.sleep(0.5)\n"
        "os.kill(int(sys.argv[1]), signal.SIGKILL)\n"
        "open(sys.argv[2], 'w').close()\n"
        "while True: time.sleep(60)\n"
    ),
}[MODE]


def ignore_signals():
    for number in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
        signal.signal(number, signal.SIG_IGN)


def daemon(done):
    """fork, setsid, fork: the grandchild does the deed with an empty environment."""
    first = os.fork()
    if first == 0:
        os.setsid()
        if os.fork() == 0:
            os.execve(sys.executable, [sys.executable, "-c", DEED, str(WATCHDOG), done, MARKER], {})
        os._exit(0)
    os.waitpid(first, 0)


ignore_signals()
deed_done = READY + ".deed"
if MODE == "hold-lifeline":
    daemon(deed_done)
elif not os.path.exists(deed_done):
    daemon(deed_done)
print(json.dumps({"adapter": "lifeline", "version": "1", "families": ["cbor"]}), flush=True)
sys.stdin.readline()
while not os.path.exists(deed_done):
    time.sleep(0.02)
open(READY, "w").close()
while True:
    time.sleep(60)
