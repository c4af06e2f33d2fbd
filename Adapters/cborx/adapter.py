#!/usr/bin/env python3
"""TrustSuite adapter for cborx (family cbor, all three modes)."""
import os
import sys
from importlib.metadata import version

import cborx

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from adapterlib import cbor_handler, serve  # noqa: E402

# spec/cbor.md nesting limits.
DEPTH = {"wellFormed": 64, "deterministic": 64, "ctap2": 4}


def no_tags(decoder, tag):
    """ctap2 allows no tag: the library's tag hook is where a caller refuses one."""
    raise ValueError(f"tag {tag.tag} in ctap2 mode")


def decode(data, mode):
    strict = mode != "wellFormed"
    cborx.loads(data, max_depth=DEPTH[mode], duplicate_keys="error", strict_utf8=True,
                allow_indefinite=not strict, canonical=strict,
                tag_hook=no_tags if mode == "ctap2" else None)


if __name__ == "__main__":
    serve("cborx", version("cborx"), {"cbor": cbor_handler({"wellFormed", "deterministic", "ctap2"}, decode)})
