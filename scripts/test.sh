#!/usr/bin/env bash
# Sets up Parallax and runs every test: the release build's unit, golden, Python and browser
# tests, the same tests built with AddressSanitizer and UndefinedBehaviorSanitizer, then a
# short run of every fuzz target.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
ctest --preset release -j "$(nproc)"
launcher=()
if command -v ccache >/dev/null; then
  launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache)
  export CCACHE_BASEDIR="$PWD" CCACHE_NOHASHDIR=1
fi
cmake --preset asan-ubsan -G Ninja "${launcher[@]}" >/dev/null
cmake --build --preset asan-ubsan -j "$(nproc)"
# Timing-precision checks (clock synchronisation) are meaningless when sanitizers slow every
# call tenfold; the tests still check correctness there.
PARALLAX_TIMING_UNRELIABLE=1 ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
  ctest --preset asan-ubsan -j "$(nproc)"
# Fuzz targets (tests/fuzz, clang libFuzzer + ASan/UBSan): each runs briefly on its seed
# corpus; a crash fails the run. scripts/fuzz.sh runs them for hours.
bash scripts/fuzz.sh --ci --time 20
echo "test: all tests passed"
