#!/usr/bin/env python3
"""The smallest TrustSuite adapter, in Python: cbor2 on the cbor family.

One JSON line introduces the adapter; then each request line gets one reply
line with the same id: "valid", "invalid" (with the library's error) or
"unsupported". Grade it with the downloaded binary (docs/adopting.md):

    trustsuite run --adapter 'python3 adapter.py' --expected expected.json
"""
import json
import sys
from importlib.metadata import version

import cbor2

print(json.dumps({"adapter": "cbor2-quickstart", "version": version("cbor2"), "families": ["cbor"]}), flush=True)
for line in sys.stdin:
    request = json.loads(line)
    vector = request["input"]
    if vector.get("mode", "wellFormed") != "wellFormed" or vector.get("tagValidity"):
        reply = {"result": "unsupported"}  # cbor2 has no deterministic or CTAP2 decoding mode
    else:
        try:
            cbor2.loads(bytes.fromhex(vector["cborHex"]))
            reply = {"result": "valid"}
        except Exception as error:  # the library's refusal, whatever its kind
            reply = {"result": "invalid", "error": f"{type(error).__name__}: {error}"[:300]}
    print(json.dumps({"id": request["id"], **reply}), flush=True)
