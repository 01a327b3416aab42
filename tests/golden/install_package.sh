#!/usr/bin/env bash
# Installing Parallax like a tool (docs/install.md): `cmake --install` into a prefix gives
# programs that run, man pages and a bash completion generated from the command's help, the
# tracing library with a CMake package (find_package(ParallaxTracing)) and a pkg-config file
# that build and link a program which then writes a trace; CPack's .deb (with the programs'
# library dependencies) installs with dpkg into a separate root and runs there; the .tar.gz holds
# the same programs.
set -euo pipefail
BIN=$1
DATA=$2
BUILD=$(cd "$(dirname "$BIN")/.." && pwd)
T=$(mktemp -d /tmp/parallax_install.XXXXXX)
trap 'rm -rf "$T"' EXIT
fail=0
check() { if eval "$2"; then echo "ok $1"; else echo "FAIL $1"; fail=1; fi; }
export PARALLAX_CACHE=off
# Packaging is checked on the release build; a sanitizer build's programs need its runtime.
if ldd "$BIN" | grep -q libasan; then echo "skipped: a sanitizer build"; exit 77; fi

cmake --install "$BUILD" --prefix "$T/inst" > "$T/install.log"
check "installed programs run: parallax info, paramedir -v" \
  "'$T/inst/bin/parallax' info '$DATA/epoch/epoch_1proc.prv.gz' | grep -q '^processes *1 appls, 1 tasks' && '$T/inst/bin/paramedir' -v | grep -q 'paramedir (Parallax'"
check "a man page per subcommand, from the help" \
  "grep -q '^.TH PARALLAX 1' '$T/inst/share/man/man1/parallax.1' && [ \$(ls '$T/inst/share/man/man1' | wc -l) -eq \$(( \$('$BIN' --help | sed -n '/^Subcommands:/,\$p' | grep -c '^  [a-z]') + 1 )) ] && grep -q 'baseline(EXPR)' '$T/inst/share/man/man1/parallax-check.1'"
check "the standard views are installed as files, each the cfg \`parallax views NAME\` prints" \
  "[ \$(ls '$T/inst/share/parallax/views'/*.cfg | wc -l) -eq \$('$T/inst/bin/parallax' views --json | grep -c '\"name\"') ] && '$T/inst/bin/parallax' views mpi-profile | cmp -s - '$T/inst/share/parallax/views/mpi-profile.cfg'"
complete_words() {  # words... -> what the completion offers for the last one
  bash -c 'source "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _parallax; echo "${COMPREPLY[*]}"' _ \
    "$T/inst/share/bash-completion/completions/parallax" "$@"
}
check "bash completion: subcommands, then their options" \
  "[ \"\$(complete_words parallax co)\" = 'convert compare' ] && [ \"\$(complete_words parallax check --ju)\" = '--junit' ]"

# The tracing library from the installed tree.
mkdir "$T/user"
cat > "$T/user/main.c" <<'C'
#include <parallax/trace.h>
int main(void) {
  PXT_START();
  PXT_NAME_EVENT_TYPE(1000, "Step");
  for (int i = 1; i <= 5; ++i) PXT_EVENT(1000, i);
  PXT_STOP();
  return 0;
}
C
cat > "$T/user/CMakeLists.txt" <<'CM'
cmake_minimum_required(VERSION 3.16)
project(user C)
find_package(ParallaxTracing 0.1 REQUIRED)
add_executable(traced main.c)
target_link_libraries(traced ParallaxTracing::parallax-trace)
CM
# A sanitizer build's library needs its runtime in the program too.
SAN=""
if ldd "$T/inst/lib/libparallax-trace.so" | grep -q libasan; then SAN="-fsanitize=address,undefined"; fi
export ASAN_OPTIONS="${ASAN_OPTIONS:-}:detect_leaks=0"
cmake -S "$T/user" -B "$T/user/b" -DCMAKE_PREFIX_PATH="$T/inst" -DCMAKE_C_FLAGS="$SAN" -DCMAKE_EXE_LINKER_FLAGS="$SAN" \
  > "$T/user.log" 2>&1 && cmake --build "$T/user/b" >> "$T/user.log" 2>&1 || cat "$T/user.log"
(cd "$T/user" && PXT_VERBOSE=0 ./b/traced)
check "find_package(ParallaxTracing): a program built against it writes a trace" "[ \$(grep -c ':1000:' '$T/user/traced.prv') = 5 ]"
flags=$(PKG_CONFIG_PATH="$T/inst/lib/pkgconfig" pkg-config --cflags --libs parallax-tracing)
cc $SAN "$T/user/main.c" $flags -o "$T/user/t2"
(cd "$T/user" && LD_LIBRARY_PATH="$T/inst/lib" PXT_OUTPUT_NAME=t2 PXT_VERBOSE=0 ./t2)
check "pkg-config parallax-tracing: the same, with the flags it gives" "[ \$(grep -c ':1000:' '$T/user/t2.prv') = 5 ]"
if [ -f "$T/inst/lib/libparallax-mpi.so" ]; then
  check "the LD_PRELOAD libraries find libparallax-trace beside them" "readelf -d '$T/inst/lib/libparallax-mpi.so' | grep -q 'RUNPATH.*\\\$ORIGIN'"
fi

# Packages.
(cd "$BUILD" && cpack -G DEB -B "$T/pkg" > "$T/cpack.log" 2>&1 && cpack -G TGZ -B "$T/pkg" >> "$T/cpack.log" 2>&1) || cat "$T/cpack.log"
deb=$(ls "$T"/pkg/parallax_*.deb)
dpkg-deb -I "$deb" > "$T/deb-info.txt"
dpkg-deb -c "$deb" > "$T/deb-files.txt"
tar tzf "$(ls "$T"/pkg/parallax-*.tar.gz)" > "$T/tgz-files.txt"
check "the .deb depends on the libraries the programs link" "grep -q '^ Depends:.*libfmt9.*libpng16' '$T/deb-info.txt' && grep -q './usr/bin/parallax\$' '$T/deb-files.txt'"
mkdir -p "$T/root/var/lib/dpkg/info" "$T/root/var/lib/dpkg/updates"
touch "$T/root/var/lib/dpkg/status"
dpkg --root="$T/root" --force-depends --force-script-chrootless --force-not-root -i "$deb" > "$T/dpkg.log" 2>&1 || true
check "dpkg installs it (a separate root; the libraries are the host's) and it runs" \
  "dpkg --root='$T/root' -l parallax | grep -q '^ii  parallax' && '$T/root/usr/bin/parallax' info '$DATA/epoch/epoch_1proc.prv.gz' | grep -q '^processes *1 appls'"
check "the .tar.gz holds the programs, libraries and docs" \
  "grep -q 'bin/parallax\$' '$T/tgz-files.txt' && grep -q 'share/doc/parallax/check.md\$' '$T/tgz-files.txt'"
exit $fail
