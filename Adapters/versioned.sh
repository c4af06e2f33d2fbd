#!/bin/sh
# Runs a Python adapter on one earlier release of its library:
# `versioned.sh NAME VERSION ADAPTER.py` with only .venv-versions/NAME-VERSION/
# on the module path (python -S: the virtual environment's site-packages,
# which hold the newest release, are left out), so the adapter imports that
# release and its hello reports that version (importlib.metadata).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
folder="$here/../.venv-versions/$1-$2"
if [ ! -d "$folder" ]; then
  echo "versioned.sh: $folder is missing: run Adapters/install-versions.sh" >&2
  exit 1
fi
PYTHONPATH="$folder" exec "$here/../.venv-adapters/bin/python" -S "$here/$3"
