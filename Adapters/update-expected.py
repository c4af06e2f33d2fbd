#!/usr/bin/env python3
"""Writes an adapter's expected.json (spec/vectors.md, "Expected failures")
from a `trustsuite run --json` report of that adapter: every finding (graded
fail, wrongReason or error, as `run --expected` counts them), with the runner's one-line account of it as the reason.

    trustsuite run --adapter 'cd Adapters && exec COMMAND' --json r.json
    Adapters/update-expected.py r.json > Adapters/NAME/expected.json

Review the diff before committing: a vector that leaves the file is a
library that now behaves, one that enters is a new failure."""
import json
import sys

report = json.load(open(sys.argv[1]))
expected = {case["id"]: case.get("message", case["grade"])[:200]
            for case in report["cases"] if case["grade"] in ("fail", "wrongReason", "error")}
print(json.dumps(dict(sorted(expected.items())), indent=1, ensure_ascii=False))
