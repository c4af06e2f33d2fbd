#!/usr/bin/env bash
# Builds the compiled adapters of Adapters/ (Go, C, Java, Rust) into
# .build-adapters/ (gitignored), offline, against Debian's packaged
# libraries only: Go in GOPATH mode over /usr/share/gocode, C against
# libcbor-dev, Java against /usr/share/java, Rust against Debian's crates
# in /usr/share/cargo/registry. The Go and C adapters report the installed
# Debian package's version. Called by .ci/run after the
# packages are installed; safe to run again (it rebuilds everything, ~10 s).
set -euo pipefail
cd "$(dirname "$0")/.."
out=.build-adapters
mkdir -p "$out/bin" "$out/gopath/src/trustsuite" "$out/java"

debver() { dpkg-query -W -f='${Version}' "$1"; }

# Go: the shared protocol package is linked into a private GOPATH entry;
# the libraries come from Debian's /usr/share/gocode (no module download).
ln -sfn "$PWD/Adapters/_golib" "$out/gopath/src/trustsuite/adapterlib"
gobuild() { # NAME DEBIAN-PACKAGE
  GO111MODULE=off GOFLAGS= GOPROXY=off GOPATH="$PWD/$out/gopath:/usr/share/gocode" GOCACHE="$PWD/$out/gocache" \
    go build -ldflags "-X main.version=$(debver "$2")" -o "$out/bin/$1" "./Adapters/$1"
}
gobuild fxamacker-cbor golang-github-fxamacker-cbor-dev
gobuild ugorji-codec golang-github-ugorji-go-codec-dev
gobuild duo-labs-webauthn golang-github-duo-labs-webauthn-dev

# C: libcbor from libcbor-dev.
cc -O2 -Wall -Wextra -Werror -DLIBCBOR_DEBIAN_VERSION="\"$(debver libcbor-dev)\"" \
  -o "$out/bin/libcbor" Adapters/libcbor/adapter.c -lcbor

# Java: jackson-dataformat-cbor and the jackson-core Debian pairs it with.
javacp=/usr/share/java/jackson-dataformat-cbor.jar:/usr/share/java/jackson-core.jar
javac -nowarn -Xlint:-options -d "$out/java" -cp "$javacp" Adapters/jackson-cbor/JacksonCborAdapter.java

# Rust: serde_cbor from Debian's crate registry (/usr/share/cargo/registry),
# cargo offline with that directory replacing crates.io.
mkdir -p "$out/cargo-home"
cat > "$out/cargo-home/config.toml" <<'TOML'
[source.crates-io]
replace-with = "debian"
[source.debian]
directory = "/usr/share/cargo/registry"
[net]
offline = true
TOML
CARGO_HOME="$PWD/$out/cargo-home" cargo build --quiet --release --offline \
  --manifest-path Adapters/serde-cbor/Cargo.toml --target-dir "$out/rust" </dev/null
