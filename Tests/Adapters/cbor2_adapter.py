#!/usr/bin/env python3
"""TrustSuite adapter for the Python `cbor2` decoder (family `cbor`).

Speaks the JSON-lines adapter protocol of spec/vectors.md:
    trustsuite run --only --fixtures Fixtures/cbor --adapter 'python3 Tests/Adapters/cbor2_adapter.py'
Modes map to cbor2's own switches (duplicate keys refused; deterministic modes
refuse indefinite lengths and use the nesting limits of spec/cbor.md). cbor2
does not check shortest-form encoding or key order, so the scorecard shows
where it is more lenient than the strict reference.
"""
import json
import sys

import cbor2

LIMITS = {"wellFormed": 64, "deterministic": 64, "ctap2": 4}


def decode(hex_input, mode):
    data = bytes.fromhex(hex_input)
    cbor2.loads(
        data,
        max_depth=LIMITS.get(mode, 64),
        allow_indefinite=(mode == "wellFormed"),
        allow_duplicate_keys=False,
    )


def main():
    print(json.dumps({"adapter": "cbor2", "version": getattr(cbor2, "__version__", "6"), "families": ["cbor"]}), flush=True)
    for line in sys.stdin:
        request = json.loads(line)
        reply = {"id": request["id"]}
        if request.get("family") != "cbor":
            reply["result"] = "unsupported"
        else:
            try:
                decode(request["input"]["cborHex"], request["input"].get("mode", "wellFormed"))
                reply["result"] = "valid"
            except Exception as error:  # any rejection is a verdict
                reply["result"] = "invalid"
                reply["error"] = f"{type(error).__name__}: {error}"
        print(json.dumps(reply), flush=True)


if __name__ == "__main__":
    main()
