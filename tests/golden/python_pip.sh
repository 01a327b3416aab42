#!/usr/bin/env bash
# `pip install .` (pyproject.toml + the backend in packaging/python/) into fresh venvs builds the
# module for the interpreter that runs pip and imports from anywhere (docs/python.md, "Getting
# it"). Offline and with pip's build isolation (the backend needs nothing fetched): --no-index.
# The builds reuse this build folder (PARALLAX_CMAKE_BUILD_DIR), so only the module is compiled:
# 1. Debian's python3 (NumPy from the system: --system-site-packages): a wheel, an analysis;
# 2. another interpreter of another minor version, when one with its headers exists (pyenv's,
#    python3.X on the PATH): its own module beside the build's, and without NumPy there the
#    build and the import say so. The build folder's settings are restored afterwards.
# Skipped (77) without the Python module in this build (sanitizer builds) or without venv/pip.
set -euo pipefail
BIN=$(realpath "$1")
DATA=$(realpath "$2")
BUILD=$(cd "$(dirname "$BIN")/.." && pwd)
SRC=$(cd "$(dirname "$0")/../.." && pwd)
PY=/usr/bin/python3
[ -d "$BUILD/python/parallax" ] || { echo "skipped: this build has no Python module"; exit 77; }
"$PY" -c 'import venv, pip' 2>/dev/null || { echo "skipped: no venv or pip"; exit 77; }
T=$(mktemp -d)
old_extra=$(sed -n 's/^PARALLAX_PYTHON_EXTRA:STRING=//p' "$BUILD/CMakeCache.txt")
restore() {
  if [ "$(sed -n 's/^PARALLAX_PYTHON_EXTRA:STRING=//p' "$BUILD/CMakeCache.txt")" != "$old_extra" ]; then
    cmake -S "$SRC" -B "$BUILD" "-DPARALLAX_PYTHON_EXTRA=$old_extra" > /dev/null
  fi
  rm -rf "$T"
}
trap restore EXIT
fail=0
check() { if eval "$2"; then echo "ok $1"; else echo "FAIL $1"; fail=1; fi; }
before=$(cd "$SRC" && git status --porcelain 2>/dev/null || true)

"$PY" -m venv --system-site-packages "$T/venv"
(cd "$SRC" && PARALLAX_CMAKE_BUILD_DIR="$BUILD" PIP_NO_CACHE_DIR=1 \
  "$T/venv/bin/pip" install -v --no-index . > "$T/pip.log" 2>&1) || { cat "$T/pip.log"; exit 1; }
check "pip installs a wheel of parallax-traces, with build isolation, offline" \
  "grep -q 'Successfully installed parallax-traces' '$T/pip.log' && grep -q 'parallax: wrote parallax_traces-.*-cp3[0-9]*-cp3[0-9]*-linux_x86_64.whl' '$T/pip.log'"
check "the venv imports its own copy and analyses a trace with a standard view" "(cd '$T' && '$T/venv/bin/python' - '$DATA' '$T' <<'PY'
import os, sys, parallax
data, tmp = sys.argv[1], sys.argv[2]
assert parallax.__file__.startswith(os.path.join(tmp, 'venv')), parallax.__file__
t = parallax.open(os.path.join(data, 'epoch', 'epoch_4proc.prv.gz'))
h = t.analyze(view='mpi-profile')[0].to_pandas()
assert h.shape[0] == 4 and 'MPI_Sendrecv' in h.columns, h
PY
)"

# python -m build (Debian's python3-build): a wheel for this interpreter, and a source
# distribution of the tracked files with PKG-INFO.
if "$PY" -c 'import build' 2> /dev/null; then
  (cd "$T" && PARALLAX_CMAKE_BUILD_DIR="$BUILD" "$PY" -m build --wheel --outdir "$T/dist" "$SRC" > "$T/build.log" 2>&1 &&
    "$PY" -m build --sdist --outdir "$T/dist" "$SRC" >> "$T/build.log" 2>&1) || { tail -20 "$T/build.log"; exit 1; }
  check "python -m build makes a wheel holding the module and the package" \
    "'$PY' -c 'import sys, zipfile; n = zipfile.ZipFile(sys.argv[1]).namelist(); assert \"parallax/__init__.py\" in n and any(x.startswith(\"parallax/_parallax.cpython\") for x in n) and any(x.endswith(\".dist-info/RECORD\") for x in n), n' $T/dist/parallax_traces-*-cp3*.whl"
  tar tzf "$T"/dist/parallax_traces-*.tar.gz > "$T/sdist.txt"
  check "and a source distribution: the tracked files and PKG-INFO, no build folder" \
    "grep -q '^parallax_traces-[0-9.]*/PKG-INFO\$' '$T/sdist.txt' && grep -q '^parallax_traces-[0-9.]*/src/session/analyze.cc\$' '$T/sdist.txt' && ! grep -q '^parallax_traces-[0-9.]*/build/' '$T/sdist.txt' && [ \$(wc -l < '$T/sdist.txt') -eq \$(( \$(git -C '$SRC' ls-files | wc -l) + 1 )) ]"
else
  echo "ok (python -m build is not installed: apt-get install python3-build; not tried)"
fi

# Another interpreter: of another minor version, with its headers, >= 3.9.
own=$("$PY" -c 'import sys; print(sys.version_info[1])')
other=""
for p in $(ls "${PYENV_ROOT:-$HOME/.pyenv}"/versions/*/bin/python3 2>/dev/null) $(compgen -c python3. | sort -u); do
  p=$(command -v "$p" || true)
  [ -n "$p" ] || continue
  if "$p" - "$own" > /dev/null 2>&1 <<'PY'
import os, sys, sysconfig, venv, ensurepip
ok = sys.version_info[0] == 3 and 9 <= sys.version_info[1] != int(sys.argv[1])
sys.exit(0 if ok and os.path.exists(os.path.join(sysconfig.get_paths()["include"], "Python.h")) else 1)
PY
  then other=$p; break; fi
done
if [ -z "$other" ]; then
  echo "ok (no interpreter of another minor version with its headers here: that part is not tried)"
else
  v=$("$other" -c 'import sys; print(f"{sys.version_info[0]}.{sys.version_info[1]}")')
  "$other" -m venv "$T/venv2"
  (cd "$SRC" && PARALLAX_CMAKE_BUILD_DIR="$BUILD" PIP_NO_CACHE_DIR=1 \
    "$T/venv2/bin/pip" install -v --no-index --no-deps . > "$T/pip2.log" 2>&1) || { tail -30 "$T/pip2.log"; exit 1; }
  check "pip of Python $v ($other) builds a module for it beside the build's own" \
    "grep -q 'Successfully installed parallax-traces' '$T/pip2.log' && grep -q 'cp${v/./}-cp${v/./}-linux_x86_64.whl' '$T/pip2.log' && grep -q 'the compiled core is reused' '$T/pip2.log'"
  if "$T/venv2/bin/python" -c 'import numpy' 2> /dev/null; then
    check "Python $v imports it and reads a trace" \
      "(cd '$T' && '$T/venv2/bin/python' -c 'import parallax, sys; print(parallax.open(sys.argv[1]).window(\"State As Is\"))' '$DATA/epoch/epoch_1proc.prv.gz' > /dev/null)"
  else
    check "Python $v has no NumPy: the build says so" "grep -q 'NumPy is missing for' '$T/pip2.log'"
    check "and \`import parallax\` says so, naming the interpreter and the fix" \
      "(cd '$T' && ! '$T/venv2/bin/python' -c 'import parallax' 2> '$T/import.err') && grep -q 'parallax needs numpy, which .*python.* (Python [0-9.]*) cannot import' '$T/import.err' && grep -q 'pip install numpy' '$T/import.err'"
  fi
  check "the build's own module is untouched" "'$PY' -c 'import sys; sys.path.insert(0, \"$BUILD/python\"); import parallax' "
fi
after=$(cd "$SRC" && git status --porcelain 2>/dev/null || true)
check "pip leaves no file in the source tree (its output is under the ignored build/)" "[ \"\$before\" = \"\$after\" ] || { diff <(echo \"\$before\") <(echo \"\$after\"); false; }"
exit $fail
