#!/usr/bin/env bash
# A fuzzing campaign over the libFuzzer harnesses of Fuzz/Sources that
# carries over from one campaign to the next through git.
#
#   Fuzz/campaign.sh [--seconds N] [--jobs J] [--no-build | --build-only] [--no-merge]
#                    [--out DIR | --in-tree] [--bin DIR] [HARNESS…]
#
# Builds every harness once (fuzzer + address sanitizer, release), then runs
# each named harness (default: all) for N seconds (default 600) with J
# parallel libFuzzer workers (-fork=J; default: the number of cores),
# starting from the committed corpus (Fuzz/Corpus/<harness>/) and the
# working corpus of earlier runs on this machine (Fuzz/.build/campaign/).
# At the end of each harness's run its new inputs are minimized into a copy
# of the committed corpus (-merge=1: the committed inputs all stay, a new
# one is added only when it reaches coverage they do not), and one line is
# appended to campaign-log.tsv: date, harness, wall seconds, workers, CPU
# seconds (user + system of every worker), executions, cov, ft, corpus size
# after the merge, crashes. Each crash is minimized (-minimize_crash) into
# FailCases/<harness>/, and the raw artifact kept in
# Fuzz/.build/campaign-crashes/<harness>/.
# Where the results go: by default into DIR (--out; default
# Fuzz/.build/campaign-results, which git ignores): DIR/Corpus/<harness>/,
# DIR/FailCases/<harness>/, DIR/campaign-log.tsv — nothing tracked changes,
# and the end of the run says what to copy. --in-tree writes them into the
# tracked Fuzz/Corpus/, Fuzz/FailCases/ and Fuzz/campaign-log.tsv instead
# (a campaign whose results are to be committed; commit a crash with its fix).
# --build-only builds and stops; --no-build runs what the last build left;
# --no-merge merges nothing and writes no log line; --bin DIR runs the
# binaries in DIR (a copy of a build, so that a rebuild can go on meanwhile;
# implies --no-build); --help prints this. Run it under `nice -n 19` beside
# other work.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
seconds=600
jobs="$(nproc 2>/dev/null || echo 2)"
build=1
merge=1
bin=""
out=""
in_tree=0
harnesses=()
while [ $# -gt 0 ]; do
  case "$1" in
    --seconds) seconds="${2:?--seconds needs a number}"; shift 2 ;;
    --jobs) jobs="${2:?--jobs needs a number}"; shift 2 ;;
    --no-build) build=0; shift ;;
    --build-only) build=2; shift ;;
    --no-merge) merge=0; shift ;;
    --bin) bin="${2:?--bin needs a folder}"; build=0; shift 2 ;;
    --out) out="${2:?--out needs a folder}"; shift 2 ;;
    --in-tree) in_tree=1; shift ;;
    -h|--help) awk 'NR > 1 { if (!/^#/) exit; sub(/^# ?/, ""); print }' "$0"; exit 0 ;;
    -*) echo "campaign.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
    *) harnesses+=("$1"); shift ;;
  esac
done
case "$seconds$jobs" in *[!0-9]*) echo "campaign.sh: --seconds and --jobs take whole numbers" >&2; exit 2 ;; esac
[ "$in_tree" = 1 ] && [ -n "$out" ] && { echo "campaign.sh: give --out DIR or --in-tree, not both" >&2; exit 2; }
# Where merged corpora, minimized crashes and the log line go.
if [ "$in_tree" = 1 ]; then
  results="$here"
else
  results="${out:-$here/.build/campaign-results}"
fi
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
[ -n "${bin:-}" ] || bin="$(fuzz_swift_build --package-path "$here" -c release --show-bin-path)"
timer=()
[ -x /usr/bin/time ] && timer=(/usr/bin/time -f '%U %S' -o cpu.txt)
export SWIFT_BACKTRACE=enable=no

summary=()
for name in "${harnesses[@]}"; do
  corpus="$here/.build/campaign/$name"
  crashes="$here/.build/campaign-crashes/$name"
  logs="$here/.build/campaign-logs/$name"
  merged="$results/Corpus/$name"
  failcases="$results/FailCases/$name"
  mkdir -p "$corpus" "$crashes" "$logs" "$failcases"
  # Outside the tree the merge starts from a copy of the committed corpus,
  # so that what it adds is what a commit would add.
  if [ "$in_tree" = 0 ] && [ "$merge" = 1 ]; then
    mkdir -p "$merged"
    cp -R "$here/Corpus/$name/." "$merged/" 2>/dev/null || true
  fi
  harness_options "$here" "$name"
  echo "== $name: ${seconds}s, $jobs workers ${libfuzzer_flags[*]##*/}"
  set +e
  rm -f "$logs/cpu.txt"
  touch "$logs/started"
  started=$(date +%s)
  (cd "$logs" && ASAN_OPTIONS="$asan_options" "${timer[@]}" "$bin/$name" "$corpus" "$here/Corpus/$name" "${libfuzzer_flags[@]}" \
    -fork="$jobs" -ignore_crashes=1 -max_total_time="$seconds" -artifact_prefix="$crashes/" \
    -print_final_stats=1 >"$logs/run.log" 2>&1)
  set -e
  wall=$(( $(date +%s) - started ))
  # Every crash artifact, minimized, becomes a regression input; `found`
  # counts this run's.
  found=0
  for artifact in "$crashes"/crash-* "$crashes"/leak-* "$crashes"/timeout-* "$crashes"/oom-*; do
    [ -e "$artifact" ] || continue
    [ "$artifact" -nt "$logs/started" ] && found=$((found + 1))
    minimized="$failcases/$(basename "$artifact")"
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
  if [ "$merge" = 1 ]; then
    # Minimize the run's new inputs into the committed corpus (which keeps
    # every input it holds: they are the seeds the replay tests read).
    ASAN_OPTIONS="$asan_options" "$bin/$name" "${libfuzzer_flags[@]}" -merge=1 "$merged" "$corpus" \
      >"$logs/merge.log" 2>&1 || echo "   merge failed (see $logs/merge.log)"
    committed="$(find "$merged" -type f | wc -l | tr -d ' ')"
    [ -f "$results/campaign-log.tsv" ] || printf 'date\tharness\twall-s\tworkers\tcpu-s\texecutions\tcov\tft\tcorpus\tcrashes\n' >"$results/campaign-log.tsv"
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$(date -u +%Y-%m-%dT%H:%MZ)" "$name" "$wall" "$jobs" "${cpu:-?}" \
      "${execs:-?}" "${cov:-?}" "${ft:-?}" "$committed" "$found" >>"$results/campaign-log.tsv"
  fi
  summary+=("$(printf '%-24s %12s %8s %7s %7s %8s %7s %8s' "$name" "${execs:-?}" "${rate:-?}" "${cov:-?}" "${ft:-?}" "$size" "$found" "${cpu:-?}")")
done

echo
printf '%-24s %12s %8s %7s %7s %8s %7s %8s\n' harness executions exec/s cov ft corpus crashes cpu-s
for line in "${summary[@]}"; do echo "$line"; done
echo "(working corpora: $here/.build/campaign/; merged into $results/Corpus/<harness>/; log: $results/campaign-log.tsv; crash inputs: $results/FailCases/<harness>/)"
if [ "$in_tree" = 0 ]; then
  echo "(nothing tracked changed: to commit the results, copy $results/Corpus/<harness>/ and $results/FailCases/<harness>/"
  echo " into Fuzz/Corpus/ and Fuzz/FailCases/ and add the log lines to Fuzz/campaign-log.tsv, or run again with --in-tree)"
fi
