"""A hostile adapter (issue 44, item 8): it starts every kind of process that
tries to outlive its runner, then hangs on its first request.

    python3 escaping_adapter.py MARKER READY_FILE

Each process it starts carries MARKER in its command line, so a test can
find what is left of the run in /proc:

- a classic daemon: fork, setsid, fork again (a new session and group,
  reparented away from the adapter);
- a child that moves to a process group of its own (setpgid);
- a plain background child that stays in the adapter's group;
- a double-forked daemon that also clears its environment, so it carries no
  token the runner gave the adapter.

Every one of them, and the adapter itself, ignores SIGTERM, SIGINT and
SIGHUP. Once all four are running and the first request has been read,
READY_FILE is created and the adapter never answers.
"""

import json
import os
import signal
import subprocess
import sys
import time

MARKER, READY = sys.argv[1], sys.argv[2]
SLEEPER = [
    sys.executable,
    "-c",
    "import signal, time\n"
    "for s in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP): signal.signal(s, signal.SIG_IGN)\n"
    "while True: time.sleep(60)\n",
    MARKER,
]


def ignore_signals():
    for number in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
        signal.signal(number, signal.SIG_IGN)


def double_fork(environment):
    """fork, setsid, fork: the grandchild runs SLEEPER in a session of its own."""
    first = os.fork()
    if first == 0:
        os.setsid()
        if os.fork() == 0:
            os.execve(sys.executable, SLEEPER, environment)
        os._exit(0)
    os.waitpid(first, 0)


ignore_signals()
double_fork(dict(os.environ))
double_fork({})
subprocess.Popen(SLEEPER, preexec_fn=lambda: os.setpgid(0, 0))
subprocess.Popen(SLEEPER)
print(json.dumps({"adapter": "escaping", "version": "1", "families": ["cbor"]}), flush=True)
sys.stdin.readline()
open(READY, "w").close()
while True:
    time.sleep(60)
