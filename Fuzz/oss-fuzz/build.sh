#!/bin/bash -eu
# OSS-Fuzz / ClusterFuzzLite build script for TrustSuite's libFuzzer harnesses.
#
# Inside OSS-Fuzz's base-builder-swift image: SRC, OUT and WORK are set and
# `precompile_swift` provides SWIFTFLAGS. Outside (this script also runs on a
# plain machine with the Swift toolchain): set OUT (and optionally SRC, WORK)
# to local folders, e.g.
#   OUT=/tmp/out SRC=$PWD/.. WORK=/tmp/work Fuzz/oss-fuzz/build.sh
# For each harness of Fuzz/Sources it puts into $OUT: the binary <name>,
# <name>.dict, <name>.options and <name>_seed_corpus.zip, and beside them
# known-disagreements.json, which the differential oracles read.
# TRUSTSUITE_FUZZ_CONFIGURATION=debug builds the harnesses unoptimized
# (default release, as OSS-Fuzz and the campaigns run them): CI's smoke runs
# of 2 s take it, a build of 172 s here against 353 s (docs/ci.md).
case "${1:-}" in
  -h|--help) awk 'NR > 1 { if (!/^#/) exit; sub(/^# ?/, ""); print }' "$0"; exit 0 ;;
esac
: "${OUT:?set OUT to the folder that receives the harnesses}"
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
fuzz="$(dirname "$here")"
WORK="${WORK:-$fuzz/.build/oss-fuzz-work}"
mkdir -p "$OUT" "$WORK"
# The build's intermediate files go to WORK, apart from Fuzz/.build, where a
# running campaign's binaries must not be relinked under it.
# TRUSTSUITE_FUZZ_SCRATCH reuses another build folder of the same flags
# (Fuzz/.build after campaign.sh --build-only) instead of building again.
scratch="${TRUSTSUITE_FUZZ_SCRATCH:-$WORK/swift-build}"
configuration="${TRUSTSUITE_FUZZ_CONFIGURATION:-release}"
case "$configuration" in
  debug|release) ;;
  *) echo "build.sh: TRUSTSUITE_FUZZ_CONFIGURATION is debug or release, not $configuration" >&2; exit 2 ;;
esac

if command -v precompile_swift >/dev/null 2>&1 || [ -f /usr/local/bin/precompile_swift ]; then
  # shellcheck disable=SC1091
  . precompile_swift
fi
# OSS-Fuzz's flags when present; the verified local recipe otherwise.
flags="${SWIFTFLAGS:---sanitize=fuzzer --sanitize=address -Xswiftc -sanitize=fuzzer,address}"
# libcbor (FuzzCBORDifferential's second decoder) is a shared library that
# OSS-Fuzz's runner image lacks: it is copied to $OUT/lib below, and under
# OSS-Fuzz the binaries look there first.
[ -n "${SWIFTFLAGS:-}" ] && flags="$flags -Xlinker -rpath=\$ORIGIN/lib"

# Shared helpers of the fuzz scripts (options files, build plan).
. "$fuzz/options.sh"
refresh_build_plan "$fuzz"
# Every harness in one build: Fuzz/'s only products are the harnesses (the
# TrustSuite dependency's executables are not built). One product at a time
# cost a plan and a link each: 22 x about 9 s after the first, debug
# (2026-12-04: 390 s in all, against 168 s in one build).
# shellcheck disable=SC2086
fuzz_swift_build --package-path "$fuzz" --scratch-path "$scratch" -c "$configuration" $flags
bin="$(fuzz_swift_build --package-path "$fuzz" --scratch-path "$scratch" -c "$configuration" --show-bin-path)"

for folder in "$fuzz"/Sources/Fuzz*; do
  name="$(basename "$folder")"
  cp "$bin/$name" "$OUT/$name"
  options="$fuzz/Options/$name.options"
  cp "$options" "$OUT/$name.options"
  dict="$(harness_dictionary "$fuzz" "$name")"
  [ -n "$dict" ] && cp "$fuzz/Dictionaries/$dict" "$OUT/$name.dict"
  # The options file names the dictionary as OSS-Fuzz ships it: <name>.dict.
  sed -i -E "s/^dict *= *.*/dict = $name.dict/" "$OUT/$name.options"
  rm -f "$OUT/${name}_seed_corpus.zip"
  (cd "$fuzz/Corpus/$name" && zip -q -j "$OUT/${name}_seed_corpus.zip" ./*)
done
cp "$fuzz/known-disagreements.json" "$OUT/known-disagreements.json"
mkdir -p "$OUT/lib"
libcbor="$(ldd "$OUT/FuzzCBORDifferential" | sed -nE 's/.*libcbor[^ ]* => ([^ ]+) .*/\1/p' | head -1)"
[ -n "$libcbor" ] && cp -L "$libcbor" "$OUT/lib/"
echo "built $(ls "$fuzz"/Sources | grep -c '^Fuzz') harnesses into $OUT"
