#!/usr/bin/env python3
"""TrustSuite adapter for cbor2 (family cbor, all three modes)."""
import os
import sys
from importlib.metadata import version

import cbor2

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from adapterlib import cbor_handler, serve  # noqa: E402

# spec/cbor.md nesting limits.
DEPTH = {"wellFormed": 64, "deterministic": 64, "ctap2": 4}


def _accepts(keyword, value):
    """Whether this release's `loads` takes `keyword` (max_depth and the
    allow_* switches came in 6.x; earlier releases, graded side by side
    through Adapters/versioned.sh, refuse them with TypeError)."""
    try:
        cbor2.loads(b"\x00", **{keyword: value})
        return True
    except TypeError:
        return False


KEYWORDS = {k for k, v in (("max_depth", 64), ("allow_indefinite", True), ("allow_duplicate_keys", True)) if _accepts(k, v)}


def decode(data, mode):
    strict = mode != "wellFormed"
    options = {"max_depth": DEPTH[mode], "allow_indefinite": not strict, "allow_duplicate_keys": not strict}
    value = cbor2.loads(data, **{k: v for k, v in options.items() if k in KEYWORDS})
    if strict:
        # cbor2 has no strict decoding mode; its canonical encoder is the one
        # option that speaks about deterministic form: the input must be
        # exactly what it would write.
        if cbor2.dumps(value, canonical=True) != data:
            raise ValueError("not in canonical form (cbor2 would encode the value differently)")
        if mode == "ctap2" and "CBORTag" in repr(type(value)):
            raise ValueError("tag in ctap2 mode")


if __name__ == "__main__":
    serve("cbor2", version("cbor2"), {"cbor": cbor_handler({"wellFormed", "deterministic", "ctap2"}, decode)})
