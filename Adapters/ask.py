#!/usr/bin/env python3
"""Asks one adapter of adapters.json about one input and prints its reply:
the reproduction command of docs/findings.md.

    Adapters/ask.py NAME VECTOR-ID          # a vector of Fixtures/, its input as the runner sends it
    Adapters/ask.py NAME cbor HEX [MODE]    # any cbor input (mode wellFormed by default)

--hostile-trust-store (anywhere) runs the adapter as `trustsuite run
--hostile-trust-store` does: SSL_CERT_FILE and SSL_CERT_DIR point at a
temporary store of every test root the fixtures name, removed afterwards.

The adapter runs as the matrix runs it (its command, in Adapters/); the
reply line is printed as the adapter wrote it, or, when the adapter died
without replying, {"result": "crash"} with its exit status (negative: the
signal) and last stderr line."""
import glob
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))


def vector(identifier):
    """The vector's family and input (group defaults merged under it)."""
    for path in sorted(glob.glob(os.path.join(HERE, "..", "Fixtures", "**", "*.json"), recursive=True)):
        with open(path) as handle:
            data = json.load(handle)
        for group in data.get("testGroups", []):
            for test in group.get("tests", []):
                if test.get("id") == identifier:
                    return data["family"], {**group.get("defaults", {}), **test["input"]}
    sys.exit(f"no vector {identifier} in Fixtures/")


def hostile_trust_store(folder):
    """Writes the fixtures' test roots (trustAnchorsPem, receiptTrustAnchorsPem)
    into folder as a bundle and one file each; returns the environment."""
    roots = []
    for path in sorted(glob.glob(os.path.join(HERE, "..", "Fixtures", "**", "*.json"), recursive=True)):
        with open(path) as handle:
            data = json.load(handle)
        for group in data.get("testGroups", []):
            for test in group.get("tests", []):
                inp = {**group.get("defaults", {}), **test.get("input", {})}
                for key in ("trustAnchorsPem", "receiptTrustAnchorsPem"):
                    for pem in inp.get(key, []) if isinstance(inp, dict) else []:
                        if pem not in roots:
                            roots.append(pem)
    certs = os.path.join(folder, "certs")
    os.makedirs(certs)
    with open(os.path.join(folder, "bundle.pem"), "w") as handle:
        handle.write("".join(pem if pem.endswith("\n") else pem + "\n" for pem in roots))
    for index, pem in enumerate(roots):
        with open(os.path.join(certs, f"trustsuite-root-{index + 1}.pem"), "w") as handle:
            handle.write(pem)
    subprocess.run(["openssl", "rehash", certs], capture_output=True)
    return {**os.environ, "SSL_CERT_FILE": os.path.join(folder, "bundle.pem"), "SSL_CERT_DIR": certs}


def main(argv):
    hostile = "--hostile-trust-store" in argv
    argv = [argument for argument in argv if argument != "--hostile-trust-store"]
    if len(argv) < 3:
        sys.exit(__doc__)
    with open(os.path.join(HERE, "adapters.json")) as handle:
        entries = {entry["name"]: entry for entry in json.load(handle)["adapters"]}
    if argv[1] not in entries:
        sys.exit(f"no adapter {argv[1]} in adapters.json")
    if argv[2] == "cbor":
        family, inp = "cbor", {"cborHex": argv[3], "mode": argv[4] if len(argv) > 4 else "wellFormed"}
    else:
        family, inp = vector(argv[2])
    request = json.dumps({"id": "1", "family": family, "input": inp})
    with tempfile.TemporaryDirectory(prefix="trustsuite-trust-store-") as folder:
        environment = hostile_trust_store(folder) if hostile else None
        done = subprocess.run(["bash", "-c", "exec " + entries[argv[1]]["command"]], cwd=HERE, input=request + "\n",
                              capture_output=True, text=True, timeout=60, env=environment)
    lines = done.stdout.splitlines()
    if len(lines) > 1:
        print(lines[1])
    else:  # the adapter died on this input: its exit status and last stderr line
        last = (done.stderr.strip().splitlines() or [""])[-1]
        print(json.dumps({"id": "1", "result": "crash", "exitStatus": done.returncode, "stderr": last[:300]}))


if __name__ == "__main__":
    main(sys.argv)
