#!/usr/bin/env python3
"""Writes the seed corpora of the harnesses added for issue 13 from Fixtures/.

    python3 Fuzz/make-seeds.py [HARNESS…]  (run from the checkout; needs cbor2:
                                           .venv-adapters/bin/python Fuzz/make-seeds.py)

Without names it writes every harness below; with names, only those.
FuzzCBORDifferential also takes the CBOR working group's vectors from the
external vectors (TRUSTSUITE_EXTERNAL_VECTORS, default ../shared/vectors).

Each seed is named by the SHA-1 of its bytes, as libFuzzer names corpus
files, so running it again changes nothing unless the fixtures changed.
"""
import base64
import glob
import hashlib
import json
import os
import sys

# --help before cbor2 is imported: usage must print where cbor2 is missing.
if __name__ == "__main__" and any(arg in ("-h", "--help") for arg in sys.argv[1:]):
    print(__doc__.strip())
    sys.exit(0)

import cbor2  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CORPUS = os.path.join(ROOT, "Fuzz", "Corpus")


def tests(pattern):
    for path in sorted(glob.glob(os.path.join(ROOT, "Fixtures", pattern))):
        with open(path) as handle:
            document = json.load(handle)
        for group in document.get("testGroups", []):
            for test in group.get("tests", []):
                yield path, document, test


def write_corpus(harness, seeds, limit=400):
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


def cbor_wg_inputs():
    """The `encoded` bytes of every test of the CBOR working group's
    containers (cbor-wg/**/*.cbor: one map {title, tests: [{encoded, …}]})."""
    vectors = os.environ.get("TRUSTSUITE_EXTERNAL_VECTORS") or os.path.join(ROOT, "..", "shared", "vectors")
    for path in sorted(glob.glob(os.path.join(vectors, "cbor-wg", "**", "*.cbor"), recursive=True)):
        with open(path, "rb") as handle:
            data = handle.read()
        try:
            # good.cbor nests about 500 levels, past cbor2's default bound.
            container = cbor2.loads(data, max_depth=2048)
        except TypeError:
            container = cbor2.loads(data)
        for test in container.get("tests", []):
            if isinstance(test.get("encoded"), bytes):
                yield test["encoded"]


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


def assertions():
    for _, _, test in tests("app-attest/assertion*.json"):
        text = test["input"].get("assertion")
        if text:
            yield base64.b64decode(text)


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


def certificates():
    """The DER certificates (x5c) of every attestation object that decodes."""
    for data in attestation_objects():
        try:
            chain = cbor2.loads(data).get("attStmt", {}).get("x5c", [])
        except Exception:
            continue
        for der in chain if isinstance(chain, list) else []:
            if isinstance(der, bytes):
                yield der


NONCE_OID = bytes.fromhex("06092a864886f763640802")


def nonce_extension_values():
    """The value of the nonce extension (OCTET STRING after the OID and an
    optional critical flag) in every certificate, and each cut short."""
    for der in certificates():
        at = der.find(NONCE_OID)
        if at < 0:
            continue
        at += len(NONCE_OID)
        if der[at:at + 2] == b"\x01\x01":
            at += 3
        if der[at] != 0x04 or der[at + 1] >= 0x80:
            continue
        value = der[at + 2:at + 2 + der[at + 1]]
        yield value
        yield value[:-1]


def receipts():
    for _, _, test in tests("app-attest/receipt.json"):
        yield base64.b64decode(test["input"]["receipt"])
    for data in attestation_objects():
        try:
            receipt = cbor2.loads(data).get("attStmt", {}).get("receipt")
        except Exception:
            continue
        if isinstance(receipt, bytes) and receipt:
            yield receipt


def adapter_outputs():
    """What an adapter might write: a chunk-size byte, then reply lines for
    request ids 2, 3 and 4 built from the fixtures' expectations."""
    replies = []
    for path, document, test in tests("*/*.json"):
        reply = {"result": test.get("result", "valid")}
        if test.get("error"):
            reply["error"] = test["error"]
        if isinstance(test.get("output"), dict):
            reply["output"] = test["output"]
        replies.append(reply)
    for index, reply in enumerate(replies[::40][:60]):
        lines = [json.dumps(dict(reply, id=str(2 + (index + k) % 3)), sort_keys=True) for k in range(3)]
        yield bytes([index % 256]) + ("\n".join(lines) + "\n").encode()
    yield b"\x05" + b'{"id":"3","result":"maybe"}\n'
    yield b"\x00" + b"not json\n" + b"x" * 60 + b"\n"


def trace_inputs(pattern):
    for _, _, test in tests(pattern):
        yield json.dumps(test["input"], sort_keys=True).encode()


def p256_triples():
    """Public key (65 bytes), signature length, DER signature, message: the
    nonce each assertion fixture's signature covers."""
    for _, _, test in tests("app-attest/assertion.json"):
        source = test["input"]
        try:
            key = base64.b64decode(source["publicKey"])
            assertion = cbor2.loads(base64.b64decode(source["assertion"]))
            client = base64.b64decode(source["clientData"])
        except Exception:
            continue
        signature = assertion.get("signature") if isinstance(assertion, dict) else None
        data = assertion.get("authenticatorData") if isinstance(assertion, dict) else None
        if len(key) != 65 or not isinstance(signature, bytes) or not isinstance(data, bytes) or len(signature) > 255:
            continue
        nonce = hashlib.sha256(data + hashlib.sha256(client).digest()).digest()
        yield key + bytes([len(signature)]) + signature + nonce


def main():
    only = set(sys.argv[1:])
    unknown = sorted(name for name in only if not os.path.isdir(os.path.join(ROOT, "Fuzz", "Sources", name)))
    if unknown:
        print("make-seeds.py: no harness %s (folders of Fuzz/Sources; see --help)" % ", ".join(unknown), file=sys.stderr)
        return 2

    def write(harness, seeds, limit=400):
        if not only or harness in only:
            write_corpus(harness, seeds, limit)

    cbor = list(cbor_inputs())
    write("FuzzCBORDeterministic", cbor)
    write("FuzzCBORCTAP2", cbor)
    # Every fixture and working-group input within the harness's max_len
    # (Fuzz/Options/FuzzCBORDifferential.options).
    write("FuzzCBORDifferential", [seed for seed in cbor + list(cbor_wg_inputs()) if len(seed) <= 16384], limit=3000)
    write("FuzzAuthenticatorData", list(auth_data()))
    write("FuzzCOSEKey", list(cose_keys()) + list(cose_variants()))
    write("FuzzDeviceCheck", list(devicecheck_bodies()))
    write("FuzzAttestationVerify", list(attestation_objects()))
    # Only with its name given: the committed corpus also holds inputs found by campaigns.
    if "FuzzAssertion" in only:
        write("FuzzAssertion", list(assertions()))
    write("FuzzAttestationResigned", list(attestation_auth_data()))
    write("FuzzVectorFile", list(vector_files()))
    write("FuzzAttestationStructured", list(attestation_objects()))
    write("FuzzNonceExtension", list(nonce_extension_values()))
    write("FuzzReceiptVerify", list(receipts()))
    write("FuzzAdapterReply", list(adapter_outputs()))
    write("FuzzKeychainFlow", list(trace_inputs("keychain-flow/*.json")))
    write("FuzzLARight", list(trace_inputs("la-right/*.json")))
    write("FuzzP256Differential", list(p256_triples()))
    write("FuzzX509Differential", list(certificates()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
