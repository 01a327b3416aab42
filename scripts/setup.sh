#!/usr/bin/env bash
# Installs the Debian 12 packages Parallax needs (build, tests, benchmarks, browser tests), the
# npm packages of the browser tests (package-lock.json), and builds the release preset into
# build/. Safe to run again: installed packages are skipped.
set -euo pipefail
cd "$(dirname "$0")/.."

PACKAGES=(
  build-essential cmake ninja-build pkg-config git ccache
  libopen-trace-format2-dev otf2-tools
  zlib1g-dev libpng-dev libfmt-dev nlohmann-json3-dev libcli11-dev libcpp-httplib-dev libpugixml-dev libxxhash-dev libzstd-dev
  libgtest-dev libgmock-dev libbenchmark-dev
  python3 time libxml2-utils
  python3-dev pybind11-dev python3-numpy python3-pandas python3-pytest python3-matplotlib
  python3-nbconvert python3-nbclient python3-ipykernel
  python3-venv python3-pip python3-build
  libopenmpi-dev openmpi-bin gfortran libpapi-dev libdw-dev
  chromium fonts-dejavu-core
  clang libclang-rt-14-dev libomp-dev
  debootstrap
)
# Node.js and npm run the browser tests; a newer Node.js already installed is kept.
command -v node >/dev/null && command -v npm >/dev/null || PACKAGES+=(nodejs npm)

missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}"
  SUDO=""
  if [ "$(id -u)" != 0 ]; then SUDO=sudo; fi
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

# playwright-core drives Debian's chromium in tests/e2e; versions pinned by package-lock.json.
npm ci --no-audit --no-fund --loglevel=error

# ccache (when present) makes rebuilds of unchanged files, in this tree or another clone, instant.
launcher=()
# Paths are hashed relative to the clone, so a fresh clone anywhere reuses the entries.
if command -v ccache >/dev/null; then
  launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache)
  export CCACHE_BASEDIR="$PWD" CCACHE_NOHASHDIR=1
fi
cmake --preset release -G Ninja "${launcher[@]}" >/dev/null
cmake --build --preset release -j "$(nproc)"
# `import parallax` for Debian's python3 of this user: a .pth file naming build/python.
if [ -d build/python/parallax ]; then
  site=$(/usr/bin/python3 -m site --user-site)
  mkdir -p "$site"
  echo "$PWD/build/python" > "$site/parallax.pth"
fi
echo "setup: built build/bin/parallax"
