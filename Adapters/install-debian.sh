#!/usr/bin/env bash
# Installs the Debian packages of Adapters/debian-packages.txt that are
# missing or at another version than pinned (apt-get update only when
# something is to be installed), plus a JDK, Node.js and cargo when absent.
set -euo pipefail
cd "$(dirname "$0")/.."
wanted=()
while read -r line; do
  line=${line%%#*}
  line=${line// /}
  [ -n "$line" ] || continue
  name=${line%%=*}
  have=$(dpkg-query -W -f='${Version}' "$name" 2>/dev/null || true)
  if [ "$line" = "$name" ]; then
    [ -n "$have" ] || wanted+=("$name")
  elif [ "$have" != "${line#*=}" ]; then
    wanted+=("$line")
  fi
done < Adapters/debian-packages.txt
command -v javac >/dev/null 2>&1 || wanted+=(default-jdk-headless)
command -v node >/dev/null 2>&1 || wanted+=(nodejs)
command -v cargo >/dev/null 2>&1 || wanted+=(cargo)
if [ ${#wanted[@]} -gt 0 ]; then
  echo "installing for the adapters: ${wanted[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -q
  apt-get install -y -q --allow-downgrades "${wanted[@]}"
fi
