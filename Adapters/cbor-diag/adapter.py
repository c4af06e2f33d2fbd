#!/usr/bin/env python3
"""TrustSuite adapter for cbor-diag (family cbor, wellFormed mode, with its
diagnostic notation as the output)."""
import os
import sys
from importlib.metadata import version

import cbor_diag

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from adapterlib import cbor_handler, serve  # noqa: E402


def decode(data, mode):
    return cbor_diag.cbor2diag(data)


if __name__ == "__main__":
    serve("cbor-diag", version("cbor-diag"), {"cbor": cbor_handler({"wellFormed"}, decode)})
