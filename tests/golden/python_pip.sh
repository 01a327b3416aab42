#!/usr/bin/env bash
# `pip install .` (pyproject.toml + setup.py) into a fresh venv builds the module for the
# interpreter that runs pip and imports from anywhere (docs/python.md, "Getting it"). Offline:
# --no-build-isolation --no-index, NumPy from the system (--system-site-packages); the build
# reuses this build folder (PARALLAX_CMAKE_BUILD_DIR), so only the module is built.
# Skipped (77) without the Python module in this build (sanitizer builds) or without venv/pip.
set -euo pipefail
BIN=$(realpath "$1")
DATA=$(realpath "$2")
BUILD=$(cd "$(dirname "$BIN")/.." && pwd)
SRC=$(cd "$(dirname "$0")/../.." && pwd)
PY=/usr/bin/python3
[ -d "$BUILD/python/parallax" ] || { echo "skipped: this build has no Python module"; exit 77; }
"$PY" -c 'import setuptools, wheel, venv, pip' 2>/dev/null || { echo "skipped: no venv, pip, setuptools or wheel"; exit 77; }
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail=0
check() { if eval "$2"; then echo "ok $1"; else echo "FAIL $1"; fail=1; fi; }

"$PY" -m venv --system-site-packages "$T/venv"
before=$(cd "$SRC" && git status --porcelain 2>/dev/null || true)
# pip builds in the source tree: its setuptools output goes under build/python-package.
(cd "$SRC" && PARALLAX_CMAKE_BUILD_DIR="$BUILD" PIP_NO_CACHE_DIR=1 \
  "$T/venv/bin/pip" install --no-build-isolation --no-index . > "$T/pip.log" 2>&1) || { cat "$T/pip.log"; exit 1; }
check "pip installs a wheel of parallax-traces" "grep -q 'Successfully installed parallax-traces' '$T/pip.log'"
check "the venv imports its own copy and analyses a trace with a standard view" "(cd '$T' && '$T/venv/bin/python' - '$DATA' '$T' <<'PY'
import os, sys, parallax
data, tmp = sys.argv[1], sys.argv[2]
assert parallax.__file__.startswith(os.path.join(tmp, 'venv')), parallax.__file__
t = parallax.open(os.path.join(data, 'epoch', 'epoch_4proc.prv.gz'))
h = t.analyze(view='mpi-profile')[0].to_pandas()
assert h.shape[0] == 4 and 'MPI_Sendrecv' in h.columns, h
PY
)"
after=$(cd "$SRC" && git status --porcelain 2>/dev/null || true)
check "pip leaves no file in the source tree (its output is under the ignored build/ and egg-info)" "[ \"\$before\" = \"\$after\" ]"
exit $fail
