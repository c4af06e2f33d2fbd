#!/usr/bin/env python3
"""TrustSuite adapter for python-fido2's CTAP2 CBOR codec (family cbor, ctap2 mode)."""
import os
import sys
from importlib.metadata import version

from fido2 import cbor

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from adapterlib import cbor_handler, serve  # noqa: E402


def decode(data, mode):
    cbor.decode(data)  # raises on anything after the first item


if __name__ == "__main__":
    serve("fido2", version("fido2"), {"cbor": cbor_handler({"ctap2"}, decode)})
