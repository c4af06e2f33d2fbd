# Reads a harness's OSS-Fuzz style options file, Fuzz/Options/<harness>.options
# (sourced by run.sh and campaign.sh, so both run a harness the same way):
#   [libfuzzer] key = value  → -key=value (dict names a file of Dictionaries/)
#   [asan]      key = value  → ASAN_OPTIONS
# Usage: harness_options DIR NAME   (sets the arrays/strings below)
harness_options() {
  local fuzz="$1" name="$2" section="" key value line
  libfuzzer_flags=()
  asan_options="${ASAN_OPTIONS:-}"
  [ -f "$fuzz/Options/$name.options" ] || return 0
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
      libfuzzer:dict) libfuzzer_flags+=("-dict=$fuzz/Dictionaries/$value") ;;
      libfuzzer:*) libfuzzer_flags+=("-$key=$value") ;;
      asan:*) asan_options="${asan_options:+$asan_options:}$key=$value" ;;
    esac
  done <"$fuzz/Options/$name.options"
}
