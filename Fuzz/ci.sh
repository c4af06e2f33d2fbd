#!/usr/bin/env bash
# The fuzz step of CI (.ci/run), also runnable by hand:
#
#   Fuzz/ci.sh [--seconds N] [--jobs J] [--seeds K] [--out DIR] [--no-build | --build-only] [--debug]
#
# 1. Builds every harness instrumented (fuzzer + address sanitizer) through
#    Fuzz/oss-fuzz/build.sh, with OUT, SRC and WORK set to local folders, as
#    OSS-Fuzz would run it (default OUT: Fuzz/.build/ci-out).
# 2. Checks that OUT holds, for every harness folder of Fuzz/Sources, the
#    binary, <name>.dict, <name>.options, <name>_seed_corpus.zip, and the
#    known-disagreements file the differential oracles read.
# 3. Runs each harness N seconds (default 30) from its seed corpus (unzipped
#    from OUT), J at a time (default 2): fails on a crash, an oracle report,
#    a leak or timeout, or a binary that does not say "Loaded 1 modules"
#    (one not instrumented for coverage would fuzz blind).
# --no-build skips step 1 and checks and runs what OUT already holds;
# --build-only does steps 1 and 2 and runs nothing (.ci/run builds beside
# `swift test`, then runs).
# --seeds K starts each harness from K seeds of its corpus (the first K by
# name) instead of all: a short run then spends its seconds fuzzing, not
# replaying (`swift test` replays every seed through every oracle). The
# seeds K, the corpus folder and the harness's files are as OSS-Fuzz has them.
# --debug builds the harnesses unoptimized (TRUSTSUITE_FUZZ_CONFIGURATION=
# debug for build.sh): half the build time, about a third of the speed;
# what .ci/run uses for its 2 s runs. Campaigns and OSS-Fuzz build release.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
seconds=30
jobs=2
out="$here/.build/ci-out"
build=1
run=1
seeds=0
while [ $# -gt 0 ]; do
  case "$1" in
    --seconds) seconds="${2:?--seconds needs a number}"; shift 2 ;;
    --jobs) jobs="${2:?--jobs needs a number}"; shift 2 ;;
    --out) out="${2:?--out needs a folder}"; shift 2 ;;
    --no-build) build=0; shift ;;
    --build-only) run=0; shift ;;
    --seeds) seeds="${2:?--seeds needs a number}"; shift 2 ;;
    --debug) export TRUSTSUITE_FUZZ_CONFIGURATION=debug; shift ;;
    -h|--help) awk 'NR > 1 { if (!/^#/) exit; sub(/^# ?/, ""); print }' "$0"; exit 0 ;;
    *) echo "ci.sh: unknown argument $1 (see --help)" >&2; exit 2 ;;
  esac
done
case "$seconds$jobs$seeds" in *[!0-9]*) echo "ci.sh: --seconds, --jobs and --seeds take whole numbers" >&2; exit 2 ;; esac
[ "$build" = 1 ] || [ "$run" = 1 ] || { echo "ci.sh: --no-build and --build-only together do nothing" >&2; exit 2; }
. "$here/options.sh"

work="$here/.build/ci-work"
# build.sh's WORK (the Swift build) is kept between runs; logs and corpora are not.
rm -rf "$work"
mkdir -p "$out" "$work" "$here/.build/ci-build"
started=$(date +%s)
if [ "$build" = 1 ]; then
  rm -rf "$out"
  mkdir -p "$out"
  echo "== building the harnesses into $out (Fuzz/oss-fuzz/build.sh)"
  OUT="$out" SRC="$(dirname "$here")/.." WORK="$here/.build/ci-build" "$here/oss-fuzz/build.sh" >"$work/build.log" 2>&1 \
    || { tail -40 "$work/build.log"; echo "ci.sh: the fuzz build failed" >&2; exit 1; }
  echo "   built in $(( $(date +%s) - started )) s"
fi

harnesses=()
for folder in "$here"/Sources/Fuzz*; do harnesses+=("$(basename "$folder")"); done
missing=0
[ -f "$out/known-disagreements.json" ] || { echo "missing: $out/known-disagreements.json"; missing=1; }
for name in "${harnesses[@]}"; do
  for file in "$name" "$name.dict" "$name.options" "${name}_seed_corpus.zip"; do
    [ -s "$out/$file" ] || { echo "missing: $out/$file"; missing=1; }
  done
done
[ "$missing" = 0 ] || { echo "ci.sh: build.sh did not produce every harness and its files" >&2; exit 1; }
echo "== $out holds ${#harnesses[@]} harnesses, each with .dict, .options and a seed corpus"
[ "$run" = 1 ] || exit 0

export SWIFT_BACKTRACE=enable=no
run_one() {
  local name="$1" corpus="$work/corpus/$1" log="$work/$1.log" status
  mkdir -p "$corpus" "$work/crashes/$1"
  if [ "$seeds" -gt 0 ]; then
    python3 - "$out/${name}_seed_corpus.zip" "$corpus" "$seeds" <<'PY'
import os, sys, zipfile
archive, folder, count = sys.argv[1], sys.argv[2], int(sys.argv[3])
with zipfile.ZipFile(archive) as zipped:
    names = sorted(n for n in zipped.namelist() if not n.endswith("/"))[:count]
    for name in names:
        with open(os.path.join(folder, os.path.basename(name)), "wb") as seed:
            seed.write(zipped.read(name))
PY
  else
    python3 -m zipfile -e "$out/${name}_seed_corpus.zip" "$corpus"
  fi
  harness_options "$here" "$name"
  set +e
  ASAN_OPTIONS="$asan_options" "$out/$name" "$corpus" "${libfuzzer_flags[@]}" -max_total_time="$seconds" \
    -artifact_prefix="$work/crashes/$name/" -print_final_stats=1 >"$log" 2>&1
  status=$?
  set -e
  local verdict=ok
  grep -q "Loaded 1 modules" "$log" || verdict="no 'Loaded 1 modules' (not instrumented)"
  [ "$status" = 0 ] || verdict="exit $status (crash or oracle report; see $log)"
  local last
  last="$(grep -E '^#[0-9]+' "$log" | tail -1 || true)"
  printf '%-28s %-8s %s\n' "$name" "$([ "$verdict" = ok ] && echo ok || echo FAILED)" \
    "$(echo "$last" | sed -nE 's/^#([0-9]+).*cov: ([0-9]+).*/\1 runs, cov \2/p') ${verdict#ok}"
  [ "$verdict" = ok ]
}

echo "== running each harness ${seconds}s from $([ "$seeds" -gt 0 ] && echo "$seeds seeds of its corpus" || echo "its seed corpus"), $jobs at a time"
failed=0
pids=()
names=()
for name in "${harnesses[@]}"; do
  run_one "$name" &
  pids+=($!)
  names+=("$name")
  if [ ${#pids[@]} -ge "$jobs" ]; then
    wait "${pids[0]}" || failed=$((failed + 1))
    pids=("${pids[@]:1}")
    names=("${names[@]:1}")
  fi
done
for pid in "${pids[@]}"; do wait "$pid" || failed=$((failed + 1)); done
echo "   fuzz step took $(( $(date +%s) - started )) s"
if [ "$failed" -gt 0 ]; then
  for log in "$work"/*.log; do
    grep -q "ERROR: libFuzzer\|==ERROR\|oracle:" "$log" 2>/dev/null && { echo "--- $log"; grep -m5 "oracle:\|ERROR" "$log"; }
  done
  echo "ci.sh: $failed harness(es) failed" >&2
  exit 1
fi
echo "== every harness ran clean"
