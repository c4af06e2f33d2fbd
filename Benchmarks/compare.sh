#!/usr/bin/env bash
# Side by side, in one run on this machine, on the same payload files:
#   StrictCBOR (release): its structural pass, CBORDecoder(mode: .wellFormed)
#     .validate (every check of decode, the same errors, no result: what Valid
#     does); .decode (that pass and its result: the tape and its storage);
#     and that decode plus reading every value through the view;
#   fxamacker/cbor 2.4 (Debian's golang-github-fxamacker-cbor-dev, Debian's
#     Go, GOMAXPROCS=1): cbor.Valid and cbor.Unmarshal into interface{};
#   libcbor 0.8 (Debian's libcbor-dev): cbor_load (the item tree) and the
#     streaming lexer (cbor_stream_decode, empty callbacks);
#   cbor2 6.3 (its C extension): cbor2.loads.
# Every decoder runs one round (about 0.25 s per payload) per pass, passes
# interleaved, best round kept; then ns per item and ratios, peak resident
# memory per decoder after one full decode of maps-1m.cbor, and (unless
# --cbor-only) assertion and attestation verification against their raw
# ECDSA checks, `openssl speed`, StrictCBOR's peak decoding 10 MB.
# Not run by .ci/run.
# Usage: Benchmarks/compare.sh [--passes N] [--cbor-only] [--no-build] [--runner]
#   --no-build: use the release binaries built before (on a shared machine,
#   build them first under its build lock); --runner: also vectors per second
#   through the runner, in process and through `trustsuite adapter`.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
runner=no
verification=yes
build=yes
passes=5
while [ $# -gt 0 ]; do
    case "$1" in
        --runner) runner=yes ;;
        --cbor-only) verification=no ;;
        --no-build) build=no ;;
        --passes) passes=$2; shift ;;
        -h|--help) sed -n '2,21p' "$0"; exit 0 ;;
        *) echo "compare.sh: unknown argument $1" >&2; exit 2 ;;
    esac
    shift
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

echo "== building (release) and preparing the peers"
venv="$here/.venv-compare"
[ -x "$venv/bin/python" ] || python3 -m venv "$venv"
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check -r "$here/requirements.txt"
if [ "$build" = yes ]; then
    swift build -c release --package-path "$here" --product cbor-timing >"$work/build.log" 2>&1 \
        || { cat "$work/build.log"; exit 1; }
fi
if [ "$build" = yes ] && [ "$verification" = yes ]; then
    swift build -c release --package-path "$here" --product compare-timing >"$work/build.log" 2>&1 \
        || { cat "$work/build.log"; exit 1; }
fi
bin="$here/.build/release"
# Go in GOPATH mode over Debian's /usr/share/gocode: no module download.
(cd "$here/peers/go" && GO111MODULE=off GOFLAGS= GOPROXY=off GOPATH=/usr/share/gocode GOCACHE="$work/gocache" \
    go build -o "$work/cbor-go" .)
cc -O2 -Wall -Wextra -Werror -o "$work/cbor-c" "$here/peers/c/cbor-c.c" -lcbor

payloads=()
for name in attestation.cbor ints-1k.cbor ints-100k.cbor ints-1m.cbor ints-10m.cbor maps-1m.cbor bytes-1m.cbor \
            hostile-count.cbor nesting-10m.cbor; do
    payloads+=("$here/Payloads/$name")
done
# Apple's 2024 sample attestation object (5,637 bytes), when the external vectors are beside the project.
external=${TRUSTSUITE_EXTERNAL_VECTORS:-$root/../shared/vectors}
sample="$external/app-attest/apple-docs/validation_guide_2024_ios18.json"
if [ -f "$sample" ]; then
    "$venv/bin/python" -c 'import base64, json, sys; sys.stdout.buffer.write(base64.b64decode(json.load(open(sys.argv[1]))["attestationObject_b64"]))' \
        "$sample" >"$work/apple-sample-2024.cbor"
    payloads=("$work/apple-sample-2024.cbor" "${payloads[@]}")
else
    echo "(no external vectors at $external: Apple's sample attestation is left out)"
fi

echo "== $passes interleaved passes (one round of each decoder on each payload per pass; load: $(cut -d' ' -f1-3 /proc/loadavg))"
"$bin/cbor-timing" items "${payloads[@]}" >"$work/results.txt"
for pass in $(seq "$passes"); do
    echo "   pass $pass"
    "$bin/cbor-timing" round "${payloads[@]}" >>"$work/results.txt"
    GOMAXPROCS=1 "$work/cbor-go" round "${payloads[@]}" >>"$work/results.txt"
    "$work/cbor-c" round "${payloads[@]}" >>"$work/results.txt"
    "$venv/bin/python" "$here/cbor2_timing.py" "${payloads[@]}" >>"$work/results.txt"
done
peak="$here/Payloads/maps-1m.cbor"
{
    "$bin/cbor-timing" peak "$peak"
    GOMAXPROCS=1 "$work/cbor-go" peak "$peak"
    "$work/cbor-c" peak "$peak"
    "$venv/bin/python" "$here/cbor2_timing.py" --peak "$peak"
    "$bin/cbor-timing" memory "$here/Payloads/ints-10m.cbor"
} >>"$work/results.txt"

echo
echo "== ns per item, best of $passes passes (items: every data item, containers and tags included; a refused payload counts 1)"
awk -v passes="$passes" '
    $1 == "items" { size[$2] = $3; items[$2] = $4; order[++n] = $2 }
    $1 == "time" { key = $2 SUBSEP $3; if (!(key in best) || $4 < best[key]) best[key] = $4 }
    $1 == "peak" { peak[$2] = $4 }
    $1 == "memory" { memory = sprintf("StrictCBOR decoding and reading %s: runtime %.1f MB, with the input read %.1f MB, peak %.1f MB: the decoder'"'"'s own %.1f MB", $2, $3 / 1024, $4 / 1024, $5 / 1024, ($5 - $4) / 1024) }
    function cell(d, p) { return ((d SUBSEP p) in best) ? sprintf("%.2f", best[d, p] / items[p]) : "-" }
    function ratio(a, b, p) { return ((a SUBSEP p) in best && (b SUBSEP p) in best) ? sprintf("%.2fx", best[a, p] / best[b, p]) : "-" }
    END {
        split("strictcbor-validate strictcbor-decode fxamacker-valid libcbor-lexer strictcbor-read fxamacker-unmarshal libcbor-load cbor2", d, " ")
        printf "%-24s %10s %9s", "payload", "bytes", "items"
        for (i = 1; i <= 8; i++) printf " %19s", d[i]
        printf " %14s %12s %12s\n", "valid/validate", "valid/decode", "unmarsh/read"
        for (i = 1; i <= n; i++) {
            p = order[i]
            printf "%-24s %10d %9d", p, size[p], items[p]
            for (j = 1; j <= 8; j++) printf " %19s", cell(d[j], p)
            printf " %14s %12s %12s\n", ratio("fxamacker-valid", "strictcbor-validate", p), ratio("fxamacker-valid", "strictcbor-decode", p),
                ratio("fxamacker-unmarshal", "strictcbor-read", p)
        }
        print ""
        print "per decode (µs), payloads under 16 KB:"
        for (i = 1; i <= n; i++) {
            p = order[i]
            if (size[p] >= 16384) continue
            printf "  %-24s", p
            for (j = 1; j <= 8; j++) if ((d[j] SUBSEP p) in best) printf " %s %.3f", d[j], best[d[j], p] / 1000
            printf "\n"
        }
        print ""
        print "ratios > 1: StrictCBOR ahead (fxamacker time / StrictCBOR time)"
        printf "peak resident after one full decode of maps-1m.cbor (KiB):"
        for (k in peak) printf " %s %d;", k, peak[k]
        printf "\n"
        print memory
    }' "$work/results.txt"

[ "$verification" = yes ] || exit 0
echo
echo "== verification against its raw checks; openssl speed; StrictCBOR peak decoding 10 MB"
{
    "$bin/compare-timing" signatures
    "$bin/compare-timing" peak ints-10m.cbor
    "$bin/compare-timing" peak nesting-10m.cbor
    "$bin/compare-timing" peak attestation.cbor
    openssl speed -seconds 1 ecdsap256 ecdsap384 2>/dev/null \
        | awk '/bits ecdsa \(nistp(256|384)\)/ { gsub(/[()]/, "", $4); print "openssl " $4 " " 1e9 / $7 }'
    if [ "$runner" = yes ]; then
        swift build -c release --package-path "$root" --product trustsuite >"$work/build-root.log" 2>&1 \
            || { cat "$work/build-root.log"; exit 1; }
        "$bin/compare-timing" runner "$(swift build -c release --package-path "$root" --show-bin-path)/trustsuite adapter"
    fi
} | tee "$work/verification.txt"
echo
awk '
    function us(ns) { return sprintf("%.2f µs", ns / 1000) }
    $1 == "sig" { sig[$2] = $3 }
    $1 == "raw" { raw[$2] = $3 }
    $1 == "peak" { peak[$2] = $4; verdict[$2] = $5 }
    $1 == "openssl" { ossl[$2] = $3 }
    $1 == "runner" { run[$2] = $3 / $4 }
    END {
        printf "assertion verification:   %s; raw ECDSA P-256: %s; ratio raw/full %.3f (target >= 0.95)\n", us(sig["assertion"]), us(raw["assertion"]), raw["assertion"] / sig["assertion"]
        printf "attestation verification: %s; its raw signature checks: %s; ratio %.3f (target >= 0.9)\n", us(sig["attestation"]), us(raw["attestation"]), raw["attestation"] / sig["attestation"]
        printf "receipt verification:     %s\n", us(sig["receipt"])
        printf "openssl speed verify:     P-256 %s, P-384 %s (swift-crypto raw P-256 here: %s)\n", us(ossl["nistp256"]), us(ossl["nistp384"]), us(raw["assertion"])
        for (p in peak) printf "peak resident decoding %s: %.1f MB (%s)\n", p, peak[p] / 1024, verdict[p]
        for (r in run) printf "runner %s: %.0f vectors/s\n", r, run[r]
    }' "$work/verification.txt"
