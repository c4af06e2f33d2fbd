#!/usr/bin/env bash
# A fuzzing campaign over the libFuzzer harnesses of Fuzz/Sources.
#
#   Fuzz/campaign.sh [--seconds N] [--jobs J] [--no-build | --build-only] [HARNESS…]
#
# Builds every harness once (fuzzer + address sanitizer, release), then runs
# each named harness (default: all) for N seconds (default 600) with J
# parallel libFuzzer workers (-fork=J; default: the number of cores). New
# inputs are merged into a campaign corpus outside git,
# Fuzz/.build/campaign/<harness>/, which later campaigns start from together
# with the committed seeds (Fuzz/Corpus/<harness>/). Each crash is minimized
# (-minimize_crash) into Fuzz/FailCases/<harness>/ — commit it with the fix —
# and the raw artifact kept in Fuzz/.build/campaign-crashes/<harness>/.
# Prints, per harness: executions, exec/s, cov, ft, corpus size, crashes,
# and the CPU seconds its workers used (user + system, from /usr/bin/time
# when present). --build-only builds and stops; --no-build runs what the
# last build left.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
seconds=600
jobs="$(nproc 2>/dev/null || echo 2)"
build=1
harnesses=()
while [ $# -gt 0 ]; do
  case "$1" in
    --seconds) seconds="${2:?--seconds needs a number}"; shift 2 ;;
    --jobs) jobs="${2:?--jobs needs a number}"; shift 2 ;;
    --no-build) build=0; shift ;;
    --build-only) build=2; shift ;;
    -h|--help) sed -n '2,18p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) echo "campaign.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
    *) harnesses+=("$1"); shift ;;
  esac
done
case "$seconds$jobs" in *[!0-9]*) echo "campaign.sh: --seconds and --jobs take whole numbers" >&2; exit 2 ;; esac
if [ ${#harnesses[@]} -eq 0 ]; then
  for folder in "$here"/Sources/Fuzz*; do harnesses+=("$(basename "$folder")"); done
fi
for name in "${harnesses[@]}"; do
  [ -d "$here/Sources/$name" ] || { echo "campaign.sh: no harness $name (folders of Fuzz/Sources)" >&2; exit 2; }
done

# Shared helpers of the fuzz scripts (options files, build plan).
. "$here/options.sh"
mkdir -p "$here/.build"
if [ "$build" != 0 ]; then
  echo "== building ${#harnesses[@]} harnesses (fuzzer + address sanitizer)"
  refresh_build_plan "$here"
  # One product at a time: a plain `swift build` would also link the
  # package's own executables with libFuzzer's main.
  for name in "${harnesses[@]}"; do
    fuzz_swift_build --package-path "$here" -c release --product "$name" \
      --sanitize=fuzzer --sanitize=address -Xswiftc -sanitize=fuzzer,address >>"$here/.build/campaign-build.log" 2>&1 \
      || { tail -40 "$here/.build/campaign-build.log"; exit 1; }
  done
fi
[ "$build" = 2 ] && { echo "== built: $(fuzz_swift_build --package-path "$here" -c release --show-bin-path)"; exit 0; }
bin="$(fuzz_swift_build --package-path "$here" -c release --show-bin-path)"
timer=()
[ -x /usr/bin/time ] && timer=(/usr/bin/time -f '%U %S' -o cpu.txt)
export SWIFT_BACKTRACE=enable=no

summary=()
for name in "${harnesses[@]}"; do
  corpus="$here/.build/campaign/$name"
  crashes="$here/.build/campaign-crashes/$name"
  logs="$here/.build/campaign-logs/$name"
  mkdir -p "$corpus" "$crashes" "$logs" "$here/FailCases/$name"
  harness_options "$here" "$name"
  echo "== $name: ${seconds}s, $jobs workers ${libfuzzer_flags[*]##*/}"
  set +e
  rm -f "$logs/cpu.txt"
  (cd "$logs" && ASAN_OPTIONS="$asan_options" "${timer[@]}" "$bin/$name" "$corpus" "$here/Corpus/$name" "${libfuzzer_flags[@]}" \
    -fork="$jobs" -ignore_crashes=1 -max_total_time="$seconds" -artifact_prefix="$crashes/" \
    -print_final_stats=1 >"$logs/run.log" 2>&1)
  set -e
  # Every crash artifact, minimized, becomes a regression input.
  found=0
  for artifact in "$crashes"/crash-* "$crashes"/leak-* "$crashes"/timeout-* "$crashes"/oom-*; do
    [ -e "$artifact" ] || continue
    found=$((found + 1))
    minimized="$here/FailCases/$name/$(basename "$artifact")"
    [ -e "$minimized" ] && continue
    ASAN_OPTIONS="$asan_options" "$bin/$name" "${libfuzzer_flags[@]}" -minimize_crash=1 -max_total_time=30 \
      -exact_artifact_path="$minimized" "$artifact" >"$logs/minimize.log" 2>&1 \
      || cp "$artifact" "$minimized"
    [ -s "$minimized" ] || cp "$artifact" "$minimized"
  done
  last="$(grep -E '#[0-9]+' "$logs/run.log" | tail -1)"
  execs="$(echo "$last" | sed -nE 's/^#([0-9]+).*/\1/p')"
  cov="$(echo "$last" | sed -nE 's/.*cov: ([0-9]+).*/\1/p')"
  ft="$(echo "$last" | sed -nE 's/.*ft: ([0-9]+).*/\1/p')"
  rate="$(echo "$last" | sed -nE 's/.*exec\/s: ([0-9]+).*/\1/p')"
  size="$(find "$corpus" -type f | wc -l | tr -d ' ')"
  cpu="$(awk '/^[0-9.]+ [0-9.]+$/ {printf "%.0f", $1 + $2}' "$logs/cpu.txt" 2>/dev/null || true)"
  summary+=("$(printf '%-24s %12s %8s %7s %7s %8s %7s %8s' "$name" "${execs:-?}" "${rate:-?}" "${cov:-?}" "${ft:-?}" "$size" "$found" "${cpu:-?}")")
done

echo
printf '%-24s %12s %8s %7s %7s %8s %7s %8s\n' harness executions exec/s cov ft corpus crashes cpu-s
for line in "${summary[@]}"; do echo "$line"; done
echo "(campaign corpora: $here/.build/campaign/; crash inputs: Fuzz/FailCases/<harness>/)"
