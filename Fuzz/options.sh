# Shared by the fuzz scripts (run.sh, campaign.sh, coverage.sh,
# oss-fuzz/build.sh), so they build and run a harness the same way.
# It is sourced (`. Fuzz/options.sh`), not run: run on its own it prints
# this and exits (0 with --help, 2 otherwise).
if [ "${BASH_SOURCE[0]:-$0}" = "$0" ]; then
  awk 'NR > 0 { if (!/^#/) exit; sub(/^# ?/, ""); print }' "$0"
  case "${1:-}" in -h|--help) exit 0 ;; *) exit 2 ;; esac
fi

# SwiftPM keeps the build plan of a path dependency until a manifest
# changes, so a new source file in FuzzTargets would be left out of a build
# of Fuzz/: touching Fuzz/Package.swift makes it plan again.
refresh_build_plan() {
  touch "$1/Package.swift"
}

# swift build for Fuzz/: the manifest lists the folders of Sources/, so its
# cached evaluation (keyed on the manifest's text, not on the folders) can
# miss a new harness ("no product named …"); it is evaluated afresh instead.
# SWIFT_DETERMINISTIC_HASHING: SwiftPM keeps some flags in sets (the
# sanitizers, a dependency's defines), and a set's order changes from one
# process to the next, so the build plan of one harness could order
# `-sanitize=address -sanitize=fuzzer` the other way round from the last
# one's; every module whose command changed was compiled again (on a fresh
# clone, the second harness compiled them all: 255-285 s of CI's fuzz step).
# Fixed hashing makes every harness's plan the same, byte for byte.
# TRUSTSUITE_LIBCBOR=1 builds the libcbor oracle of FuzzCBORDifferential in
# (Package.swift; Debian's libcbor-dev).
fuzz_swift_build() {
  TRUSTSUITE_LIBCBOR=1 SWIFT_DETERMINISTIC_HASHING=1 swift build --manifest-cache none "$@"
}

# The dictionary (a file of Fuzz/Dictionaries/) named by a harness's options
# file, Fuzz/Options/<harness>.options; empty when it names none.
# Usage: harness_dictionary DIR NAME
harness_dictionary() {
  sed -nE 's/^dict *= *([^ ]+) *$/\1/p' "$1/Options/$2.options" 2>/dev/null | head -1
}

# Reads a harness's OSS-Fuzz style options file:
#   [libfuzzer] key = value  → -key=value (dict names a file of Dictionaries/)
#   [asan]      key = value  → ASAN_OPTIONS
# Usage: harness_options DIR NAME   (sets libfuzzer_flags and asan_options)
harness_options() {
  local fuzz="$1" name="$2" section="" key value line
  libfuzzer_flags=()
  asan_options="${ASAN_OPTIONS:-}"
  [ -f "$fuzz/Options/$name.options" ] || return 0
  local dict
  dict="$(harness_dictionary "$fuzz" "$name")"
  [ -n "$dict" ] && libfuzzer_flags+=("-dict=$fuzz/Dictionaries/$dict")
  while IFS= read -r line || [ -n "$line" ]; do
    line="${line%%#*}"
    case "$line" in
      \[*\]) section="${line//[\[\] ]/}"; continue ;;
      *=*) ;;
      *) continue ;;
    esac
    key="$(echo "${line%%=*}" | tr -d ' ')"
    value="$(echo "${line#*=}" | sed 's/^ *//; s/ *$//')"
    case "$section:$key" in
      libfuzzer:dict) ;;
      libfuzzer:*) libfuzzer_flags+=("-$key=$value") ;;
      asan:*) asan_options="${asan_options:+$asan_options:}$key=$value" ;;
    esac
  done <"$fuzz/Options/$name.options"
}
