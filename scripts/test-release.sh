#!/usr/bin/env bash
# Runs the binary of a release archive (scripts/release.sh) the way a user
# without Swift does (issue 51, item 3), and fails on the first step that
# goes wrong:
#   - the archive matches its SHA-256 file; `ldd` names no Swift library;
#   - with no Swift on PATH or the library path (and, where `unshare` can,
#     the toolchain's folder hidden under an empty tmpfs), from a folder
#     with no Fixtures/ of its own: `--help`, `list` (the vectors beside
#     the binary), `verify attestation` on Apple's real sample of
#     Fixtures/real/, `probe appattest` against `trustsuite serve
#     appattest`, and `run --adapter` with the Python, Go and Node quick
#     starts of Examples/adapters/ against their expected failures
#     (Examples/adapters/test.sh).
#
#   scripts/test-release.sh [ARCHIVE]     # default: the last one release.sh wrote
# PYTHON names a Python with cbor2 (default: .venv-adapters/bin/python).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
# A relative PYTHON names a path from the checkout's root.
if [ -n "${PYTHON:-}" ]; then
  case "$PYTHON" in /*) ;; */*) PYTHON=$root/$PYTHON ;; esac
  export PYTHON
fi
archive=${1:-$(cat .build/dist/latest 2>/dev/null || true)}
[ -n "$archive" ] && [ -f "$archive" ] || { echo "test-release.sh: no archive (run scripts/release.sh first)" >&2; exit 2; }
archive=$(cd "$(dirname "$archive")" && pwd)/$(basename "$archive")

work=$(mktemp -d)
server=
cleanup() {
  if [ -n "$server" ]; then kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT
step() { echo "test-release: $*"; }

step "checksum"
(cd "$(dirname "$archive")" && sha256sum --check --status "$(basename "$archive").sha256")
tar -C "$work" -xzf "$archive"
bin=$(echo "$work"/trustsuite-*/trustsuite)
[ -x "$bin" ] || { echo "test-release.sh: no trustsuite in the archive" >&2; exit 1; }

step "ldd names no Swift library"
libraries=$(ldd "$bin")
echo "$libraries" | sed 's/^/  /'
if echo "$libraries" | grep -Ei 'not found|libswift|libFoundation|lib_Foundation|libdispatch|libBlocksRuntime'; then
  echo "test-release.sh: the binary needs a Swift library" >&2
  exit 1
fi

# No Swift anywhere the binary could look: a PATH without the toolchain, no
# LD_LIBRARY_PATH, and where possible the toolchain's folder itself hidden.
toolchain=
if command -v swift >/dev/null 2>&1; then toolchain=$(dirname "$(dirname "$(readlink -f "$(command -v swift)")")"); fi
clean_path=/usr/local/bin:/usr/bin:/bin
hide=()
if [ -n "$toolchain" ] && [ "$(id -u)" = 0 ] && unshare --mount true 2>/dev/null; then
  hide=(unshare --mount --propagation private)
  step "the toolchain ($toolchain) is hidden under an empty tmpfs for every run below"
else
  step "the toolchain stays on disk (no unshare as root here); PATH and LD_LIBRARY_PATH hold no Swift"
fi
# $ts: the archive's binary behind a wrapper that runs it in that clean
# environment (adapters it starts inherit it: their commands name what they need).
ts=$work/trustsuite
if [ ${#hide[@]} -gt 0 ]; then
  cat > "$ts" <<SH
#!/bin/sh
exec unshare --mount --propagation private sh -c 'mount -t tmpfs tmpfs "\$0" && exec env -i PATH="$clean_path" HOME="\$HOME" "\$@"' "$toolchain" "$bin" "\$@"
SH
else
  cat > "$ts" <<SH
#!/bin/sh
exec env -i PATH="$clean_path" HOME="\$HOME" "$bin" "\$@"
SH
fi
chmod +x "$ts"
mkdir -p "$work/run" && cd "$work/run"

step "--help"
"$ts" --help > help.txt
grep -q "USAGE: trustsuite" help.txt
step "list (the vectors beside the binary)"
"$ts" list --files > list.txt
head -n 3 list.txt
grep -q "^    $(dirname "$bin")/Fixtures/cbor/strict-decoding.json" list.txt

step "verify attestation on Apple's real sample (Fixtures/real/attestation.json)"
python3 - "$root/Fixtures/real/attestation.json" <<'PY' > sample.env
import json, sys
data = json.load(open(sys.argv[1]))
vector = next(t for g in data["testGroups"] for t in g["tests"] if t["id"].endswith("apple-2024-ios18::baseline"))
i = vector["input"]
open("attestation.b64", "w").write(i["attestationObject"])
for key in ("keyId", "clientDataHash", "appId", "environment", "validationTime"):
    print(f"{key}={i[key]}")
PY
# shellcheck disable=SC1091
. ./sample.env
"$ts" verify attestation attestation.b64 --key-id "$keyId" --client-data-hash "$clientDataHash" \
  --app-id "$appId" --environment "$environment" --time "$validationTime" > verify.txt
head -n 1 verify.txt
grep -q '^valid: attestation verified' verify.txt

step "probe appattest against serve appattest"
app=ABCDE12345.org.example.app
"$ts" device init --state device --app-id "$app" --environment development >/dev/null
"$ts" device ca --state device --attestation > attestation-root.pem
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
cat > probe.json <<JSON
{
  "appId": "$app", "environment": "development", "baseURL": "http://127.0.0.1:$port",
  "challenge": { "method": "POST", "path": "/appattest/challenge", "pointer": "/challenge", "encoding": "base64" },
  "attest": { "method": "POST", "path": "/appattest/attest",
              "body": { "keyId": "{keyId:base64}", "attestation": "{attestationObject:base64}", "challenge": "{challenge}" },
              "accepted": [200, 201, 204], "refused": [400, 401, 403, 409, 422],
              "acceptedWhen": { "pointer": "/status", "equals": "attested" } },
  "assert": { "method": "POST", "path": "/appattest/assert",
              "body": { "keyId": "{keyId:base64}", "assertion": "{assertion:base64}", "clientData": "{clientData:base64}" },
              "accepted": [200], "refused": [400, 401, 403, 404, 409, 422] },
  "clientData": "{\"challenge\":\"{challenge}\"}",
  "clientDataHash": "sha256"
}
JSON
"$ts" serve appattest --port "$port" --app-id "$app" --environment development --anchor attestation-root.pem > server.log 2>&1 &
server=$!
"$ts" probe appattest --config probe.json --state device --wait-ready 30 > probe.txt
tail -n 1 probe.txt
grep -q '^PASS' probe.txt
kill "$server" && wait "$server" 2>/dev/null || true
server=

step "run --adapter: the quick starts of Examples/adapters/"
"$root/Examples/adapters/test.sh" "$ts"
step "all passed"
