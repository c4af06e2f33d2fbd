"""A test adapter with the bug issue 25 saw in real verifiers: it walks the
attestation object's CBOR by indexing without checking lengths, so a
truncated object raises IndexError, which nothing catches: the process dies
before any check. Everything that walks is accepted. Plain Python, no
packages."""
import base64
import json
import sys


def item(data, i):
    head = data[i]
    major, info = head >> 5, head & 31
    i += 1
    if info < 24:
        value = info
    elif info in (24, 25, 26, 27):
        width = 1 << (info - 24)
        value = 0
        for k in range(width):
            value = value << 8 | data[i + k]
        i += width
    else:
        value = 0
    if major in (2, 3):
        if value:
            data[i + value - 1]  # IndexError when the string runs past the end
        i += value
    elif major == 4:
        for _ in range(value):
            i = item(data, i)
    elif major == 5:
        for _ in range(2 * value):
            i = item(data, i)
    elif major == 6:
        i = item(data, i)
    return i


print(json.dumps({"adapter": "naive-cbor", "version": "1", "families": ["app-attest-attestation"]}), flush=True)
for line in sys.stdin:
    request = json.loads(line)
    item(base64.b64decode(request["input"]["attestationObject"]), 0)
    print(json.dumps({"id": request.get("id"), "result": "valid"}), flush=True)
