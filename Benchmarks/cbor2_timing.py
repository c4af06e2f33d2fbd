"""cbor2's side of compare.sh: times cbor2.loads on each payload file with
the same shape of loop as compare-timing (best of 5 rounds of about 0.3 s)
and prints "cbor2 NAME BYTES NS_PER_DECODE" per file."""
import os
import sys
import time

import cbor2


def nanoseconds(body, rounds=5, round_seconds=0.3):
    calls = 1
    while True:
        start = time.perf_counter()
        for _ in range(calls):
            body()
        elapsed = time.perf_counter() - start
        if elapsed >= round_seconds / 4 or calls >= 1 << 24:
            calls = max(1, int(calls * round_seconds / max(elapsed, 1e-9)))
            break
        calls *= 4
    best = float("inf")
    for _ in range(rounds):
        start = time.perf_counter()
        for _ in range(calls):
            body()
        best = min(best, (time.perf_counter() - start) / calls)
    return best * 1e9


def main():
    if type(cbor2.loads).__name__ != "builtin_function_or_method":
        print("warning: cbor2 runs without its C extension", file=sys.stderr)
    for path in sys.argv[1:]:
        with open(path, "rb") as f:
            data = f.read()
        name = os.path.basename(path)

        def decode():
            try:
                cbor2.loads(data)
            except Exception:
                pass  # the hostile payload: cbor2 refuses it too

        print(f"cbor2 {name} {len(data)} {nanoseconds(decode)}", flush=True)


if __name__ == "__main__":
    main()
