#!/usr/bin/env bash
# Installs each pin of Adapters/requirements-versions.txt into a folder of
# its own, .venv-versions/NAME-VERSION/ (pip install --target, with its
# dependencies), so that several releases of one library sit side by side
# without touching .venv-adapters. A folder is made under a temporary name
# and renamed when complete: a folder that exists is complete and is kept.
# Uses the adapters' virtual environment's pip (.ci/run makes it first).
set -euo pipefail
cd "$(dirname "$0")/.."
python=${TRUSTSUITE_ADAPTER_PYTHON:-.venv-adapters/bin/python}
mkdir -p .venv-versions
while read -r line; do
  line=${line%%#*}
  line=${line// /}
  [ -n "$line" ] || continue
  name=${line%%==*}
  version=${line#*==}
  folder=".venv-versions/$name-$version"
  [ -d "$folder" ] && continue
  echo "installing $name $version into $folder"
  rm -rf "$folder.partial"
  "$python" -m pip install -q --disable-pip-version-check --no-warn-script-location --no-warn-conflicts --target "$folder.partial" "$name==$version"
  mv "$folder.partial" "$folder"
done < Adapters/requirements-versions.txt
