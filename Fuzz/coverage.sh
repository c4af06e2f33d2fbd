#!/usr/bin/env bash
# Line coverage of the reference sources reached by fuzz corpora.
#
#   Fuzz/coverage.sh HARNESS [CORPUS_DIR…]
#   Fuzz/coverage.sh --all [--out FILE] [--no-build]
#
# Builds the harnesses with source-based coverage (a separate build folder,
# Fuzz/.build-coverage), replays corpora once with -runs=0, and prints
# llvm-cov's line coverage per source file of Sources/ (the verifiers,
# parsers and models), so one can see which spec steps a campaign reaches.
# With HARNESS: that harness's corpora (default: the committed corpus and the
# campaign's working corpus, Fuzz/Corpus/HARNESS and Fuzz/.build/campaign/HARNESS).
# With --all: every harness replays its committed corpus (Fuzz/Corpus/) and
# the profiles are merged, so the table is what all committed corpora reach
# together; it is written as a Markdown table to FILE (default
# Fuzz/coverage.md) and printed. --no-build replays with what the last
# coverage build left.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/.." && pwd)"
usage="usage: Fuzz/coverage.sh HARNESS [CORPUS_DIR…] | --all [--out FILE] [--no-build]"
case "${1:-}" in
  -h|--help) awk 'NR > 1 { if (!/^#/) exit; sub(/^# ?/, ""); print }' "$0"; exit 0 ;;
esac
all=0
build=1
table="$here/coverage.md"
names=()
corpora=()
if [ "${1:-}" = "--all" ]; then
  all=1
  shift
  while [ $# -gt 0 ]; do
    case "$1" in
      --out) table="${2:?--out needs a file}"; shift 2 ;;
      --no-build) build=0; shift ;;
      -h|--help) awk 'NR > 1 { if (!/^#/) exit; sub(/^# ?/, ""); print }' "$0"; exit 0 ;;
      *) echo "$usage" >&2; exit 2 ;;
    esac
  done
  for folder in "$here"/Sources/Fuzz*; do names+=("$(basename "$folder")"); done
else
  name="${1:?$usage}"
  shift
  [ -d "$here/Sources/$name" ] || { echo "coverage.sh: no harness $name (folders of Fuzz/Sources)" >&2; exit 2; }
  names=("$name")
  corpora=("$@")
  if [ ${#corpora[@]} -eq 0 ]; then
    corpora=("$here/Corpus/$name")
    [ -d "$here/.build/campaign/$name" ] && corpora+=("$here/.build/campaign/$name")
  fi
fi
scratch="$here/.build-coverage"
mkdir -p "$scratch"
. "$here/options.sh"
refresh_build_plan "$here"
for name in "${names[@]}"; do
  [ "$build" = 1 ] || break
  fuzz_swift_build --package-path "$here" --scratch-path "$scratch" -c release --product "$name" \
    --sanitize=fuzzer -Xswiftc -sanitize=fuzzer \
    -Xswiftc -profile-generate -Xswiftc -profile-coverage-mapping >"$scratch/build.log" 2>&1 \
    || { tail -30 "$scratch/build.log"; exit 1; }
done
bin="$scratch/release"
[ "$build" = 1 ] && bin="$(fuzz_swift_build --package-path "$here" --scratch-path "$scratch" -c release --show-bin-path)"
export SWIFT_BACKTRACE=enable=no
toolchain="$(dirname "$(command -v swift)")"
objects=()
profiles="$scratch/profiles"
rm -rf "$profiles" && mkdir -p "$profiles"
for name in "${names[@]}"; do
  mkdir -p "$profiles/$name"
  [ $all = 1 ] && corpora=("$here/Corpus/$name")
  # max_len as the harness is fuzzed (a longer seed would be read whole).
  harness_options "$here" "$name"
  flags=()
  for flag in "${libfuzzer_flags[@]}"; do case "$flag" in -max_len=*) flags+=("$flag") ;; esac; done
  LLVM_PROFILE_FILE="$profiles/$name/%p.profraw" "$bin/$name" -runs=0 "${flags[@]}" "${corpora[@]}" \
    >"$profiles/$name/replay.log" 2>&1 || true
  # llvm-cov takes the first binary as is, each further one after -object.
  if [ ${#objects[@]} -eq 0 ]; then objects+=("$bin/$name"); else objects+=(-object "$bin/$name"); fi
done
"$toolchain/llvm-profdata" merge -sparse "$profiles"/*/*.profraw -o "$profiles/merged.profdata"
report() {
  "$toolchain/llvm-cov" report "${objects[@]}" -instr-profile="$profiles/merged.profdata" \
    -ignore-filename-regex='(\.build|checkouts|/Fuzz/)' "$root/Sources" | sed "s#$root/##"
}
if [ $all = 0 ]; then
  report
  exit 0
fi
# llvm-cov's columns: Filename, Regions, Missed, Cover, Functions, Missed,
# Executed, Lines, Missed Lines, Cover, (Branches…). Lines are columns 8–10.
{
  echo "# Line coverage of Sources/ reached by every committed fuzz corpus"
  echo
  echo "Written by \`Fuzz/coverage.sh --all\` ($(date -u +%Y-%m-%d)): each of the ${#names[@]} harnesses of"
  echo "\`Fuzz/Sources\` replays its committed corpus (\`Fuzz/Corpus/<harness>/\`, -runs=0) in a"
  echo "coverage build; the profiles are merged, so a line counts when any harness reaches it."
  echo
  echo "| file | lines | missed | line coverage |"
  echo "|---|---:|---:|---:|"
  # llvm-cov names files relative to the common folder (Sources/).
  report | awk '$1 ~ /\.swift$/ && NF >= 10 { f = $1; sub(/^Sources\//, "", f); printf "| Sources/%s | %s | %s | %s |\n", f, $8, $9, $10 }' | sort
  report | awk '$1 == "TOTAL" && NF >= 10 { printf "| **total** | %s | %s | %s |\n", $8, $9, $10 }'
} >"$table"
cat "$table"
