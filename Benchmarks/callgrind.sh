#!/usr/bin/env bash
# Instructions per item of StrictCBOR's structural pass (validate), decode and full read, from
# callgrind (valgrind --tool=callgrind): stable on a loaded machine, where
# wall-clock figures move by 20%. Each figure is the difference between two
# runs of the cbor-timing driver (N1 and N2 decodes of the same payload), so
# process start-up and file reading cancel out, divided by (N2 - N1) and by
# the payload's items (every data item; a refused payload counts 1).
# Usage: Benchmarks/callgrind.sh [CBOR-TIMING-BINARY]   (default: the release build)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
bin=${1:-$here/.build/release/cbor-timing}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
command -v valgrind >/dev/null || { echo "callgrind.sh: needs valgrind (apt-get install valgrind)" >&2; exit 1; }

payloads=("$here/Payloads/attestation.cbor")
external=${TRUSTSUITE_EXTERNAL_VECTORS:-$root/../shared/vectors}
sample="$external/app-attest/apple-docs/validation_guide_2024_ios18.json"
if [ -f "$sample" ]; then
    python3 -c 'import base64, json, sys; sys.stdout.buffer.write(base64.b64decode(json.load(open(sys.argv[1]))["attestationObject_b64"]))' \
        "$sample" >"$work/apple-sample-2024.cbor"
    payloads=("$work/apple-sample-2024.cbor" "${payloads[@]}")
fi
payloads+=("$here/Payloads/ints-1m.cbor" "$here/Payloads/maps-1m.cbor" "$here/Payloads/bytes-1m.cbor"
           "$here/Payloads/hostile-count.cbor")

instructions() { # FILE N MODE
    valgrind --tool=callgrind --callgrind-out-file=/dev/null "$bin" loop "$1" "$2" "$3" 2>&1 >/dev/null \
        | awk '/Collected :/ { print $4 }'
}

printf "%-24s %9s %15s %14s %14s %17s %14s %14s\n" payload items "validate Ir/item" "decode Ir/item" "read Ir/item" \
    "validate Ir/decode" "decode Ir/decode" "read Ir/decode"
for file in "${payloads[@]}"; do
    size=$(stat -c %s "$file")
    items=$("$bin" items "$file" | awk '{ print $4 }')
    if [ "$size" -lt 65536 ]; then low=20; high=220; else low=1; high=3; fi
    row=()
    for mode in validate decode read; do
        a=$(instructions "$file" "$low" "$mode")
        b=$(instructions "$file" "$high" "$mode")
        row+=("$(( (b - a) / (high - low) ))")
    done
    awk -v p="$(basename "$file")" -v n="$items" -v validate="${row[0]}" -v decode="${row[1]}" -v read="${row[2]}" 'BEGIN {
        printf "%-24s %9d %15.1f %14.1f %14.1f %17d %14d %14d\n", p, n, validate / n, decode / n, read / n, validate, decode, read }'
done
