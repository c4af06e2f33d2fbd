#!/usr/bin/env python3
"""Writes the seed corpora of the harnesses added for issue 13 from Fixtures/.

    python3 Fuzz/make-seeds.py            (run from the checkout; needs cbor2:
                                           .venv-adapters/bin/python Fuzz/make-seeds.py)

Each seed is named by the SHA-1 of its bytes, as libFuzzer names corpus
files, so running it again changes nothing unless the fixtures changed.
"""
import base64
import glob
import hashlib
import json
import os
import sys

import cbor2

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CORPUS = os.path.join(ROOT, "Fuzz", "Corpus")


def tests(pattern):
    for path in sorted(glob.glob(os.path.join(ROOT, "Fixtures", pattern))):
        with open(path) as handle:
            document = json.load(handle)
        for group in document.get("testGroups", []):
            for test in group.get("tests", []):
                yield path, document, test


def write(harness, seeds, limit=400):
    folder = os.path.join(CORPUS, harness)
    os.makedirs(folder, exist_ok=True)
    unique = {}
    for seed in seeds:
        unique.setdefault(hashlib.sha1(seed).hexdigest(), seed)
    for name, seed in sorted(unique.items())[:limit]:
        with open(os.path.join(folder, name), "wb") as handle:
            handle.write(seed)
    print(f"{harness}: {min(len(unique), limit)} seeds")


def cbor_inputs():
    for _, _, test in tests("cbor/*.json"):
        text = test.get("input", {}).get("cborHex")
        if text is not None:
            yield bytes.fromhex(text)


def cbor_field(pattern, input_key, field):
    """`field` of the CBOR map held (base64) in each test's `input_key`, when
    it decodes to a map with that byte string."""
    for _, _, test in tests(pattern):
        try:
            obj = cbor2.loads(base64.b64decode(test["input"][input_key]))
            data = obj.get(field) if isinstance(obj, dict) else None
        except Exception:
            data = None
        if isinstance(data, bytes):
            yield data


def auth_data():
    """authData of every attestation that decodes, and of every assertion."""
    yield from cbor_field("app-attest/attestation.json", "attestationObject", "authData")
    yield from cbor_field("app-attest/assertion.json", "assertion", "authenticatorData")


def cose_keys():
    """The bytes after the credential id (the COSE key and what follows)."""
    for data in auth_data():
        if len(data) > 55 and data[32] & 0x40:
            length = int.from_bytes(data[53:55], "big")
            rest = data[55 + length:]
            if rest:
                yield rest


def cose_variants():
    """Each distinct key, and its map with one entry left out (shapes the
    parser must refuse)."""
    seen = set()
    for rest in cose_keys():
        try:
            key = cbor2.loads(rest)
        except Exception:
            continue
        if not isinstance(key, dict):
            continue
        encoded = cbor2.dumps(key, canonical=True)
        if encoded in seen:
            continue
        seen.add(encoded)
        yield encoded
        for label in key:
            yield cbor2.dumps({k: v for k, v in key.items() if k != label}, canonical=True)


def attestation_objects():
    for _, _, test in tests("app-attest/attestation.json"):
        yield base64.b64decode(test["input"]["attestationObject"])


def attestation_auth_data():
    for data in auth_data():
        if len(data) > 55 and data[32] & 0x40:
            yield data


def devicecheck_bodies():
    for _, _, test in tests("app-attest/devicecheck.json"):
        for step in test.get("input", {}).get("steps", []):
            if "request" in step:
                yield json.dumps(step["request"], sort_keys=True).encode()


def vector_files():
    """Every fixture file cut to one test, and to its first group."""
    for path in sorted(glob.glob(os.path.join(ROOT, "Fixtures", "*", "*.json"))):
        with open(path) as handle:
            document = json.load(handle)
        groups = document.get("testGroups", [])
        for group in groups[:6]:
            for test in group.get("tests", [])[:3]:
                single = dict(document, testGroups=[dict(group, tests=[test])], numberOfTests=1)
                yield json.dumps(single, sort_keys=True).encode()


def main():
    cbor = list(cbor_inputs())
    write("FuzzCBORDeterministic", cbor)
    write("FuzzCBORCTAP2", cbor)
    write("FuzzAuthenticatorData", list(auth_data()))
    write("FuzzCOSEKey", list(cose_keys()) + list(cose_variants()))
    write("FuzzDeviceCheck", list(devicecheck_bodies()))
    write("FuzzAttestationVerify", list(attestation_objects()))
    write("FuzzAttestationResigned", list(attestation_auth_data()))
    write("FuzzVectorFile", list(vector_files()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
