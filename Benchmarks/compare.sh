#!/usr/bin/env bash
# Side by side, in one run on this machine:
#   StrictCBOR (CBORDecoder(mode: .wellFormed).decode, release build) against
#   cbor2 (Python with its C extension, in a virtual environment made here)
#   on the same payload files; assertion and attestation verification against
#   the raw ECDSA verifications they must do; `openssl speed` for ECDSA P-256
#   and P-384 verification; peak resident memory decoding 10 MB.
# Usage: Benchmarks/compare.sh [--runner]   (--runner: also vectors per second
#   through the runner, in process and through `trustsuite adapter`)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
runner=no
for argument in "$@"; do
    case "$argument" in
        --runner) runner=yes ;;
        -h|--help) sed -n '2,10p' "$0"; exit 0 ;;
        *) echo "compare.sh: unknown argument $argument" >&2; exit 2 ;;
    esac
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

echo "== building (release) and preparing cbor2"
venv="$here/.venv-compare"
[ -x "$venv/bin/python" ] || python3 -m venv "$venv"
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check -r "$here/requirements.txt"
swift build -c release --package-path "$here" --product compare-timing >"$work/build.log" 2>&1 \
    || { cat "$work/build.log"; exit 1; }
timing="$(swift build -c release --package-path "$here" --show-bin-path)/compare-timing"

payloads=()
for name in attestation.cbor ints-1k.cbor ints-100k.cbor ints-1m.cbor ints-10m.cbor nesting-10m.cbor; do
    payloads+=("$here/Payloads/$name")
done
# Apple's 2024 sample attestation object, when the external vectors are beside the project.
external=${TRUSTSUITE_EXTERNAL_VECTORS:-$root/../shared/vectors}
sample="$external/app-attest/apple-docs/validation_guide_2024_ios18.json"
if [ -f "$sample" ]; then
    "$venv/bin/python" -c 'import base64, json, sys; sys.stdout.buffer.write(base64.b64decode(json.load(open(sys.argv[1]))["attestationObject_b64"]))' \
        "$sample" >"$work/apple-sample-2024.cbor"
    payloads=("$work/apple-sample-2024.cbor" "${payloads[@]}")
else
    echo "(no external vectors at $external: Apple's sample attestation is left out)"
fi

echo "== timing (best of 5 rounds of 0.3 s each side)"
{
    "$timing" cbor "${payloads[@]}"
    "$venv/bin/python" "$here/cbor2_timing.py" "${payloads[@]}"
    "$timing" signatures
    "$timing" peak ints-10m.cbor
    "$timing" peak nesting-10m.cbor
    "$timing" peak attestation.cbor
    openssl speed -seconds 1 ecdsap256 ecdsap384 2>/dev/null \
        | awk '/bits ecdsa \(nistp(256|384)\)/ { gsub(/[()]/, "", $4); print "openssl " $4 " " 1e9 / $7 }'
    if [ "$runner" = yes ]; then
        swift build -c release --package-path "$root" --product trustsuite >"$work/build-root.log" 2>&1 \
            || { cat "$work/build-root.log"; exit 1; }
        "$timing" runner "$(swift build -c release --package-path "$root" --show-bin-path)/trustsuite adapter"
    fi
} | tee "$work/results.txt"

echo
echo "== ratios"
awk '
    function us(ns) { return sprintf("%.2f µs", ns / 1000) }
    $1 == "cbor" { strict[$2] = $4; size[$2] = $3; order[++n] = $2 }
    $1 == "cbor-walk" { walk[$2] = $4 }
    $1 == "cbor2" { py[$2] = $4 }
    $1 == "sig" { sig[$2] = $3 }
    $1 == "raw" { raw[$2] = $3 }
    $1 == "peak" { peak[$2] = $4; verdict[$2] = $5 }
    $1 == "openssl" { ossl[$2] = $3 }
    $1 == "runner" { run[$2] = $3 / $4 }
    END {
        printf "%-22s %10s %12s %12s %9s %14s\n", "payload", "bytes", "StrictCBOR", "cbor2", "speed-up", "decode+walk"
        for (i = 1; i <= n; i++) {
            p = order[i]
            printf "%-22s %10d %12s %12s %8.2fx %14s\n", p, size[p], us(strict[p]), us(py[p]), py[p] / strict[p], (p in walk) ? us(walk[p]) : "(rejected)"
        }
        print ""
        print "decode time per byte (linearity): "
        for (i = 1; i <= n; i++) if (order[i] ~ /^ints-/) printf "  %-14s %.2f ns/byte\n", order[i], strict[order[i]] / size[order[i]]
        print ""
        printf "assertion verification:   %s; raw ECDSA P-256: %s; ratio raw/full %.3f (target >= 0.85)\n", us(sig["assertion"]), us(raw["assertion"]), raw["assertion"] / sig["assertion"]
        printf "attestation verification: %s; its raw signature checks: %s; ratio %.3f (target >= 0.8)\n", us(sig["attestation"]), us(raw["attestation"]), raw["attestation"] / sig["attestation"]
        printf "receipt verification:     %s\n", us(sig["receipt"])
        printf "openssl speed verify:     P-256 %s, P-384 %s (swift-crypto raw P-256 here: %s)\n", us(ossl["nistp256"]), us(ossl["nistp384"]), us(raw["assertion"])
        for (p in peak) printf "peak resident decoding %s: %.1f MB (%s)\n", p, peak[p] / 1024, verdict[p]
        for (r in run) printf "runner %s: %.0f vectors/s\n", r, run[r]
    }' "$work/results.txt"
