#!/usr/bin/env bash
# Builds a `trustsuite` that runs where Swift is not installed (issue 51):
# the Swift standard library, Foundation and Dispatch linked statically
# (`--static-swift-stdlib`), packed with the vector files it runs by default
# (Fixtures/), the schemas and the licences, as
#   .build/dist/trustsuite-VERSION-linux-ARCH.tar.gz  and  ….tar.gz.sha256
# It lists every shared library the binary still needs (ldd, into
# SHARED-LIBRARIES.txt inside the archive) and fails if one is Swift's.
#
#   scripts/release.sh                          # a release build (docs/ci.md: its cost)
#   scripts/release.sh --configuration debug    # the same from the debug build's
#                                               # products: only the link is redone (CI)
#   scripts/release.sh --out DIR --version V
#
# Then scripts/test-release.sh ARCHIVE runs the archive's binary as a user
# without Swift would (docs/adopting.md, README "Install without Swift").
set -euo pipefail
cd "$(dirname "$0")/.."

configuration=release
out=.build/dist
version=
while [ $# -gt 0 ]; do
  case "$1" in
    --configuration | -c) configuration=${2:?--configuration needs release or debug}; shift 2 ;;
    --out) out=${2:?--out needs a folder}; shift 2 ;;
    --version) version=${2:?--version needs a value}; shift 2 ;;
    -h | --help) sed -n '2,17p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "release.sh: unknown argument $1 (see --help)" >&2; exit 2 ;;
  esac
done
case "$configuration" in release | debug) ;; *) echo "release.sh: --configuration is release or debug" >&2; exit 2 ;; esac
[ "$(uname -s)" = Linux ] || { echo "release.sh: builds the Linux binary; run it on Linux" >&2; exit 2; }

if [ -z "$version" ]; then
  version=$(git describe --tags --always --dirty 2>/dev/null || echo unversioned)
fi
arch=$(uname -m)
name="trustsuite-$version-linux-$arch"

# The debug products were compiled against the shared Foundation, whose
# module names only libFoundation for the linker: the static link then needs
# Foundation's own static dependencies named (a release build compiles with
# --static-swift-stdlib from the start, and its modules name them).
extra=()
if [ "$configuration" = debug ]; then
  extra=(-Xlinker --start-group)
  for library in CoreFoundation _FoundationCollections _FoundationCShims _FoundationICU dispatch BlocksRuntime; do
    extra+=(-Xlinker "-l$library")
  done
  extra+=(-Xlinker --end-group)
fi
started=$SECONDS
swift build -c "$configuration" --product trustsuite --static-swift-stdlib "${extra[@]}"
echo "release.sh: swift build -c $configuration --static-swift-stdlib took $((SECONDS - started)) s"
binary="$(swift build -c "$configuration" --show-bin-path --static-swift-stdlib "${extra[@]}")/trustsuite"

stage="$out/$name"
rm -rf "$stage" "$out/$name.tar.gz" "$out/$name.tar.gz.sha256"
mkdir -p "$stage"
cp "$binary" "$stage/trustsuite"
strip "$stage/trustsuite"
# The vectors `run`, `list` and `matrix` read by default: found beside the binary.
mkdir -p "$stage/Fixtures"
for entry in Fixtures/*; do
  case "$entry" in *.swift) ;; *) cp -R "$entry" "$stage/Fixtures/" ;; esac
done
cp -R schemas "$stage/schemas"
cp LICENSE "$stage/LICENSE"

# Every shared library the binary still needs, as the dynamic loader resolves them.
ldd "$stage/trustsuite" | sed 's/ (0x[0-9a-f]*)$//' | sed 's/^[[:space:]]*//' > "$stage/SHARED-LIBRARIES.txt"
echo "release.sh: shared libraries of trustsuite:"
sed 's/^/  /' "$stage/SHARED-LIBRARIES.txt"
if grep -Ei 'not found|libswift|libFoundation|lib_Foundation|libdispatch|libBlocksRuntime|libXCTest|libTesting' \
  "$stage/SHARED-LIBRARIES.txt"; then
  echo "release.sh: the binary still needs a Swift runtime library (above)" >&2
  exit 1
fi

cat > "$stage/README.txt" <<TEXT
trustsuite $version ($arch Linux), built with --static-swift-stdlib: no Swift
toolchain or runtime is needed. Shared libraries it still needs:
SHARED-LIBRARIES.txt (glibc's libc and libm, libstdc++, libgcc_s, zlib). The vector files are
in Fixtures/ (CC0-1.0 but for Fixtures/real/, see Fixtures/LICENSE), found
beside the binary. Start: ./trustsuite --help; docs/adopting.md and
docs/probe.md of the repository.
TEXT

# The debug products' binary is large (150 MB stripped): CI packs it fast (gzip -1).
level=9
if [ "$configuration" = debug ]; then level=1; fi
tar -C "$out" -cf - "$name" | gzip "-$level" > "$out/$name.tar.gz"
(cd "$out" && sha256sum "$name.tar.gz" > "$name.tar.gz.sha256")
echo "release.sh: $out/$name.tar.gz ($(du -h "$out/$name.tar.gz" | cut -f1)), SHA-256 in $out/$name.tar.gz.sha256"
echo "$out/$name.tar.gz" > "$out/latest"
