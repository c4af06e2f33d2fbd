#!/usr/bin/env python3
"""Writes the benchmark payloads of this folder; run from anywhere.

- attestation.cbor: the attestation object of the committed vector
  attestation-baseline::production (Fixtures/app-attest/attestation.json).
- ints-1k/100k/1m/10m.cbor: an array of arrays of small integers (0-23, one
  byte each), inner arrays of at most 10,000 items (under the decoder's
  container limit), filling the named size.
- nesting-10m.cbor: 10 MiB of 0x81 (arrays nested ten million deep), then 0x00:
  a hostile input every strict decoder must refuse early.
- maps-1m.cbor: about 1 MB of small maps (an array of arrays of 10,000 maps,
  each of three pairs: keys 1, "id", -2; small integer and short text values).
- bytes-1m.cbor: 1 MiB of 1 KiB byte strings (1,023 of them in one array).
- hostile-count.cbor: fxamacker/cbor's 10-byte hostile input, an array that
  declares 0x000042fa42fa42fa items with seven bytes after its head.
The output is deterministic: running it again gives the same bytes.
"""
import base64, json, os

here = os.path.dirname(os.path.abspath(__file__))
root = os.path.dirname(os.path.dirname(here))


def head(major, n):
    if n < 24:
        return bytes([major << 5 | n])
    for info, width in ((24, 1), (25, 2), (26, 4), (27, 8)):
        if n < 1 << (8 * width):
            return bytes([major << 5 | info]) + n.to_bytes(width, "big")
    raise ValueError(n)


def small_ints(size):
    inner = min(10_000, max(1, size - 6))
    count = max(1, round(size / (inner + 3)))
    arrays = []
    for a in range(count):
        arrays.append(head(4, inner) + bytes((a + i) % 24 for i in range(inner)))
    return head(4, count) + b"".join(arrays)


def small_maps(size):
    def one(i):
        return (head(5, 3) + head(0, 1) + head(0, i % 24) + head(3, 2) + b"id" + head(3, 3)
                + bytes(chr(97 + i % 26), "ascii") * 3 + head(1, 1) + head(0, (i * 7) % 24))
    maps, total = [], 0
    while total < size:
        m = one(len(maps))
        maps.append(m)
        total += len(m)
    out = []
    for start in range(0, len(maps), 10_000):
        chunk = maps[start:start + 10_000]
        out.append(head(4, len(chunk)) + b"".join(chunk))
    return head(4, len(out)) + b"".join(out)


def byte_strings(size):
    count = size // (1024 + 3)
    return head(4, count) + b"".join(head(2, 1024) + bytes((i + j) % 256 for j in range(1024)) for i in range(count))


def attestation():
    with open(os.path.join(root, "Fixtures/app-attest/attestation.json")) as f:
        vectors = json.load(f)
    for group in vectors["testGroups"]:
        for test in group["tests"]:
            if test["id"] == "attestation-baseline::production":
                return base64.b64decode(test["input"]["attestationObject"])
    raise SystemExit("attestation-baseline::production not found")


payloads = {
    "attestation.cbor": attestation(),
    "ints-1k.cbor": small_ints(1_000),
    "ints-100k.cbor": small_ints(100_000),
    "ints-1m.cbor": small_ints(1_000_000),
    "ints-10m.cbor": small_ints(10_000_000),
    "nesting-10m.cbor": b"\x81" * (10 * 1024 * 1024) + b"\x00",
    "maps-1m.cbor": small_maps(1_000_000),
    "bytes-1m.cbor": byte_strings(1024 * 1024),
    "hostile-count.cbor": bytes.fromhex("9b000042fa42fa42fa42"),
}
for name, data in payloads.items():
    with open(os.path.join(here, name), "wb") as f:
        f.write(data)
    print(f"{name}: {len(data)} bytes")
