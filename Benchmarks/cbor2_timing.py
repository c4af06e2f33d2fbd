"""cbor2's side of compare.sh: one round of cbor2.loads (its C extension) on
each payload file, the same loop shape as the other peers (the mean over
about 0.25 s after one warm-up call; the script keeps the best round).
Prints "time cbor2 NAME NS_PER_DECODE" per file, or with --peak FILE
"peak cbor2 NAME KIB" after one decode."""
import os
import resource
import sys
import time

import cbor2

ROUND_SECONDS = 0.25


def decode(data):
    try:
        cbor2.loads(data)
    except Exception:
        pass  # refused payloads are timed as refusals


def nanoseconds(data):
    decode(data)  # warm up, untimed: a first call may fault pages in
    start = time.perf_counter()
    decode(data)  # size the batch between clock reads
    batch = 1 if time.perf_counter() - start > 10e-6 else 64
    calls = 0
    start = time.perf_counter()
    while True:
        for _ in range(batch):
            decode(data)
        calls += batch
        elapsed = time.perf_counter() - start
        if elapsed >= ROUND_SECONDS:
            return elapsed * 1e9 / calls


def main():
    if type(cbor2.loads).__name__ != "builtin_function_or_method":
        print("warning: cbor2 runs without its C extension", file=sys.stderr)
    if sys.argv[1:2] == ["--peak"]:
        with open(sys.argv[2], "rb") as f:
            decode(f.read())
        kib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        print(f"peak cbor2 {os.path.basename(sys.argv[2])} {kib}")
        return
    for path in sys.argv[1:]:
        with open(path, "rb") as f:
            data = f.read()
        print(f"time cbor2 {os.path.basename(path)} {nanoseconds(data):.1f}", flush=True)


if __name__ == "__main__":
    main()
