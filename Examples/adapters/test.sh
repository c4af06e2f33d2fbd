#!/usr/bin/env bash
# Runs the three quick-start adapters (Python, Go, Node) with a `trustsuite`
# binary, each with the one command of its README line in docs/adopting.md,
# gated on its expected.json: exit 0 when every finding is listed and no
# entry is stale. CI runs it with the release archive's binary
# (scripts/test-release.sh).
#
#   Examples/adapters/test.sh [TRUSTSUITE]     # default: trustsuite on PATH
# PYTHON: a Python with cbor2 (default: the checkout's .venv-adapters/bin/python).
# The Go example is built offline in GOPATH mode against Debian's
# golang-github-fxamacker-cbor-dev (/usr/share/gocode), as Adapters/build.sh does;
# the Node one finds Debian's node-cbor under /usr/share/nodejs.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
trustsuite=${1:-trustsuite}
case "$trustsuite" in */*) trustsuite=$(cd "$(dirname "$trustsuite")" && pwd)/$(basename "$trustsuite") ;; esac
python=${PYTHON:-$root/.venv-adapters/bin/python}
case "$python" in /*) ;; */*) python=$PWD/$python ;; esac
status=0

grade() { # NAME FOLDER ADAPTER-COMMAND
  echo "== quick start: $1"
  if (cd "$2" && "$trustsuite" run --adapter "$3" --expected expected.json > "$work/$1.txt" 2>&1); then
    tail -n 2 "$work/$1.txt"
  else
    echo "quick start $1 failed:" >&2
    tail -n 30 "$work/$1.txt" >&2
    status=1
  fi
}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

grade python "$here/python" "$python adapter.py"

GO111MODULE=off GOFLAGS= GOPROXY=off GOPATH="$work/gopath:/usr/share/gocode" GOCACHE="$work/gocache" \
  go build -ldflags "-X main.version=$(dpkg-query -W -f='${Version}' golang-github-fxamacker-cbor-dev 2>/dev/null || echo unknown)" \
  -o "$work/go-adapter" "$here/go/main.go"
grade go "$here/go" "$work/go-adapter"

grade node "$here/node" "NODE_PATH=/usr/share/nodejs node adapter.js"
exit $status
