#!/usr/bin/env bash
# Build the libFuzzer harnesses instrumented (fuzzer + address sanitizer) and
# run one of them.
#   Fuzz/run.sh TARGET SECONDS [extra libFuzzer flags]
#   Fuzz/run.sh FuzzCBOR 600
# New corpus entries go to Fuzz/.build/corpus/TARGET (the committed seeds in
# Fuzz/Corpus/TARGET are read, not written); crashes go to Fuzz/.build/crashes/.
# Commit a crash as Fuzz/FailCases/TARGET/<name> so `swift test` replays it.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
usage="usage: Fuzz/run.sh TARGET SECONDS [libFuzzer flags] (see --help)"
case "${1:-}" in
  -h|--help) awk 'NR > 1 { if (!/^#/) exit; sub(/^# ?/, ""); print }' "$0"; exit 0 ;;
esac
[ $# -ge 2 ] || { echo "$usage" >&2; exit 2; }
target="$1"
seconds="$2"
shift 2
case "$seconds" in ''|*[!0-9]*) echo "run.sh: SECONDS must be a whole number, got '$seconds'" >&2; exit 2 ;; esac
[ -d "$here/Sources/$target" ] || { echo "run.sh: no harness $target (folders of Fuzz/Sources)" >&2; exit 2; }

# Shared helpers of the fuzz scripts.
. "$here/options.sh"
refresh_build_plan "$here"
fuzz_swift_build --package-path "$here" -c release --product "$target" \
  --sanitize=fuzzer --sanitize=address -Xswiftc -sanitize=fuzzer,address

binary="$here/.build/release/$target"
work="$here/.build/corpus/$target"
crashes="$here/.build/crashes/$target"
mkdir -p "$work" "$crashes"
# Flags and ASan options from the harness's options file.
harness_options "$here" "$target"
export ASAN_OPTIONS="$asan_options"

export SWIFT_BACKTRACE=enable=no
exec "$binary" "$work" "$here/Corpus/$target" "${libfuzzer_flags[@]}" \
  -max_total_time="$seconds" -artifact_prefix="$crashes/" -print_final_stats=1 "$@"
