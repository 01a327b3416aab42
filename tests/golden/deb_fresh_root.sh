#!/usr/bin/env bash
# The .deb on a machine that has never seen Parallax: debootstrap makes a minimal Debian 12 root
# from the package mirror, apt-get installs CPack's .deb there (pulling its dependencies from
# the mirror, nothing from the host), and the installed programs run in that root: `parallax
# info` and a standard view on a bundled trace, `paramedir -v`, the man page; `apt-get remove`
# then leaves no program behind. Needs root (chroot) and debootstrap (scripts/setup.sh installs
# it); skipped, saying why, without them or when the mirror cannot be reached.
set -euo pipefail
BIN=$1
DATA=$2
BUILD=$(cd "$(dirname "$BIN")/.." && pwd)
if ldd "$BIN" | grep -q libasan; then echo "skipped: a sanitizer build"; exit 77; fi
if [ "$(id -u)" != 0 ]; then echo "skipped: chroot needs root"; exit 77; fi
if ! command -v debootstrap > /dev/null; then echo "skipped: debootstrap missing (apt-get install debootstrap)"; exit 77; fi
MIRROR=${PARALLAX_DEBIAN_MIRROR:-http://deb.debian.org/debian}
T=$(mktemp -d /tmp/parallax_deb_root.XXXXXX)
# Nothing is mounted in the root, so removing it removes only its own files.
trap 'rm -rf "$T"' EXIT
fail=0
check() { if eval "$2"; then echo "ok $1"; else echo "FAIL $1"; fail=1; fi; }

(cd "$BUILD" && cpack -G DEB -B "$T/pkg" > "$T/cpack.log" 2>&1) || { cat "$T/cpack.log"; exit 1; }
deb=$(ls "$T"/pkg/parallax_*.deb)
if ! debootstrap --variant=minbase bookworm "$T/root" "$MIRROR" > "$T/debootstrap.log" 2>&1; then
  echo "skipped: debootstrap could not make a Debian 12 root from $MIRROR:"; tail -3 "$T/debootstrap.log"; exit 77
fi
cp "$deb" "$T/root/tmp/parallax.deb"
cp /etc/resolv.conf "$T/root/etc/resolv.conf"
mkdir "$T/root/data"
cp "$DATA/epoch/epoch_1proc.prv.gz" "$DATA/epoch/epoch_1proc.pcf" "$DATA/epoch/epoch_1proc.row" "$T/root/data/"
in_root() { env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 chroot "$T/root" /bin/sh -c "$1"; }
check "the fresh root has no parallax before" "! in_root 'command -v parallax' > /dev/null"
if ! in_root 'apt-get update -q' > "$T/apt.log" 2>&1; then
  echo "skipped: apt-get update in the root failed:"; tail -3 "$T/apt.log"; exit 77
fi
if ! in_root 'DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends /tmp/parallax.deb' >> "$T/apt.log" 2>&1; then
  # The mirror failing on the way is not the package's fault.
  if grep -qE 'Failed to fetch|Temporary failure resolving|Could not connect|Connection timed out' "$T/apt.log"; then
    echo "skipped: the mirror failed while apt-get installed the dependencies:"; tail -3 "$T/apt.log"; exit 77
  fi
  echo "FAIL apt-get installs the .deb with its dependencies from the mirror"; tail -5 "$T/apt.log"; exit 1
fi
echo "ok apt-get installs the .deb with its dependencies from the mirror"
check "parallax info runs there on a bundled trace" \
  "in_root 'parallax info /data/epoch_1proc.prv.gz' | grep -q '^processes *1 appls, 1 tasks'"
check "a standard view analyses it there (mpi-profile has the MPI_Sendrecv column)" \
  "in_root 'parallax analyze /data/epoch_1proc.prv.gz --view mpi-profile' | grep -q 'MPI_Sendrecv'"
check "paramedir runs there" "in_root 'paramedir -v' | grep -q 'paramedir (Parallax'"
check "the man page is installed" "[ -f '$T/root/usr/share/man/man1/parallax.1' ] || [ -f '$T/root/usr/share/man/man1/parallax.1.gz' ]"
check "apt-get remove leaves no program behind" \
  "in_root 'apt-get remove -y -q parallax' >> '$T/apt.log' 2>&1 && [ ! -e '$T/root/usr/bin/parallax' ] && [ ! -e '$T/root/usr/bin/paramedir' ]"
exit $fail
