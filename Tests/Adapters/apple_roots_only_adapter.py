"""A test adapter that ignores the anchors a vector gives and trusts only
Apple's roots: it forwards every request to the reference (`trustsuite
adapter`, the binary named by its first argument) without trustAnchorsPem
and receiptTrustAnchorsPem. It should pass every real-root vector and refuse
every anchors-removed one, while refusing the suite's valid test-CA vectors.
Plain Python."""
import json
import subprocess
import sys

reference = subprocess.Popen([sys.argv[1], "adapter"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
hello = json.loads(reference.stdout.readline())
hello["adapter"] = "apple-roots-only"
print(json.dumps(hello), flush=True)
for line in sys.stdin:
    request = json.loads(line)
    for key in ("trustAnchorsPem", "receiptTrustAnchorsPem"):
        request.get("input", {}).pop(key, None)
    reference.stdin.write(json.dumps(request) + "\n")
    reference.stdin.flush()
    print(reference.stdout.readline().rstrip("\n"), flush=True)
