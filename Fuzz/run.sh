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
target="${1:?usage: Fuzz/run.sh TARGET SECONDS [libFuzzer flags]}"
seconds="${2:?usage: Fuzz/run.sh TARGET SECONDS [libFuzzer flags]}"
shift 2

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
