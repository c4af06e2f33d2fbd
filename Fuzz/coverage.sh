#!/usr/bin/env bash
# Line coverage of the reference sources reached by a harness's corpus.
#
#   Fuzz/coverage.sh HARNESS [CORPUS_DIR…]
#
# Builds the harnesses with source-based coverage (a separate build folder,
# Fuzz/.build-coverage), replays the corpora (default: the committed seeds
# and the campaign corpus, Fuzz/Corpus/HARNESS and Fuzz/.build/campaign/HARNESS)
# once with -runs=0, and prints llvm-cov's line coverage per source file of
# Sources/ (the verifiers, parsers and models), so one can see which spec
# steps a campaign reaches.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
name="${1:?usage: Fuzz/coverage.sh HARNESS [CORPUS_DIR…]}"
shift
[ -d "$here/Sources/$name" ] || { echo "coverage.sh: no harness $name (folders of Fuzz/Sources)" >&2; exit 2; }
corpora=("$@")
if [ ${#corpora[@]} -eq 0 ]; then
  corpora=("$here/Corpus/$name")
  [ -d "$here/.build/campaign/$name" ] && corpora+=("$here/.build/campaign/$name")
fi
scratch="$here/.build-coverage"
mkdir -p "$scratch"
. "$here/options.sh"
refresh_build_plan "$here"
fuzz_swift_build --package-path "$here" --scratch-path "$scratch" -c release --product "$name" \
  --sanitize=fuzzer -Xswiftc -sanitize=fuzzer \
  -Xswiftc -profile-generate -Xswiftc -profile-coverage-mapping >"$scratch/build.log" 2>&1 \
  || { tail -30 "$scratch/build.log"; exit 1; }
binary="$(fuzz_swift_build --package-path "$here" --scratch-path "$scratch" -c release --show-bin-path)/$name"
profiles="$scratch/profiles/$name"
rm -rf "$profiles" && mkdir -p "$profiles"
export SWIFT_BACKTRACE=enable=no
LLVM_PROFILE_FILE="$profiles/%p.profraw" "$binary" -runs=0 "${corpora[@]}" >"$profiles/replay.log" 2>&1 || true
toolchain="$(dirname "$(command -v swift)")"
"$toolchain/llvm-profdata" merge -sparse "$profiles"/*.profraw -o "$profiles/merged.profdata"
root="$(cd "$here/.." && pwd)"
"$toolchain/llvm-cov" report "$binary" -instr-profile="$profiles/merged.profdata" \
  -ignore-filename-regex='(\.build|checkouts|/Fuzz/)' "$root/Sources" \
  | sed "s#$root/##"
