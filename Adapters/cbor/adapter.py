#!/usr/bin/env python3
"""TrustSuite adapter for the `cbor` package (family cbor, wellFormed mode)."""
import os
import sys
from importlib.metadata import version

import cbor

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from adapterlib import cbor_handler, serve  # noqa: E402


def decode(data, mode):
    # `loads` decodes the first item and does not say where it ended, so
    # trailing bytes go unnoticed; `load` on a stream reports the position
    # but loops forever on a truncated stream (1.0.0's C extension).
    cbor.loads(data)


if __name__ == "__main__":
    serve("cbor", version("cbor"), {"cbor": cbor_handler({"wellFormed"}, decode)})
