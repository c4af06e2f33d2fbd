#!/bin/sh
# Runs the pyattest adapter under libfaketime (Debian's faketime package):
# pyattest validates certificates at the wall clock, and every real App
# Attest certificate has expired, so the adapter sets the clock to each
# vector's validationTime by rewriting libfaketime's timestamp file before
# each verification (FAKETIME_NO_CACHE: read on every call). Without
# libfaketime the adapter falls back to handing pyattest the time itself.
set -eu
lib=$(ls /usr/lib/*/faketime/libfaketime.so.1 2>/dev/null | head -n 1)
if [ -z "$lib" ]; then
  echo "faketime.sh: libfaketime not found (apt-get install faketime)" >&2
  exit 1
fi
clock=$(mktemp "${TMPDIR:-/tmp}/trustsuite-faketime.XXXXXX")
trap 'rm -f "$clock"' EXIT INT TERM
echo "2000-01-01 00:00:00" > "$clock"
here=$(dirname "$0")
LD_PRELOAD="$lib" FAKETIME_TIMESTAMP_FILE="$clock" FAKETIME_NO_CACHE=1 TZ=UTC "$here/../../.venv-adapters/bin/python" "$here/adapter.py" "$@"
