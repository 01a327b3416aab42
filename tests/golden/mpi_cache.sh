#!/usr/bin/env bash
# `mpirun -np N parallax-mpi paramedir` and the trace cache (docs/scale.md): the ranks open the
# trace together, rank 0 writing the cache when there is none and each rank checking only its
# share of the checksum blocks. A cache damaged in a block that only one rank checks (the
# first block: rank 0's; the last: another rank's) is noticed once, rebuilt once, and the output
# is still that of `parallax paramedir` without a cache; afterwards the cache is valid again.
# A generated trace whose cache has 2 checksum blocks of 16 MiB; 2 and 3 ranks (oversubscribed).
set -euo pipefail
BIN=$1
DATA=$2
BIN_DIR=$(dirname "$BIN")
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT
CFG=$DATA/cfg/bsc/General/analysis/2dh_useful_duration.cfg
# A cache of compact records (PARALLAX_COMPACT=on, the golden_compact run) is about 4 times
# smaller than a plain one: its trace is 4 times larger.
size=24M
[[ ${PARALLAX_COMPACT:-} == on ]] && size=96M
"$BIN_DIR/parallax-gen" --size "$size" --out "$OUT/gen" >/dev/null 2>&1
TRACE=$OUT/gen.prv
export PARALLAX_CACHE=on PARALLAX_CACHE_DIR=$OUT/cache
MPI_PASS="PARALLAX_CACHE PARALLAX_CACHE_DIR"
for v in PARALLAX_COMPACT PARALLAX_COMPACT_RESIDENT; do [[ -n ${!v:-} ]] && MPI_PASS+=" $v"; done
source "$(dirname "${BASH_SOURCE[0]}")/lib/parallax_mpi.bash"
mkdir -p "$OUT/single"
(cd "$OUT/single" && PARALLAX_CACHE=off "$BIN" paramedir "$TRACE" "$CFG")
[[ -s $OUT/single/2dh_useful_duration ]] || { echo "FAIL: the single run wrote nothing"; exit 1; }

run() {  # name, ranks: runs, checks the output, the cache's state and the rebuild notices
  local name=$1 n=$2 want_notices=$3
  mkdir -p "$OUT/$name"
  (cd "$OUT/$name" && mpi "$n" "$BIN_DIR/parallax-mpi" paramedir "$TRACE" "$CFG" >/dev/null 2>"$OUT/$name.err") ||
    { echo "FAIL $name: exited non-zero"; cat "$OUT/$name.err"; exit 1; }
  diff -r "$OUT/single" "$OUT/$name" >/dev/null ||
    { echo "FAIL $name: the output differs from the single process'"; exit 1; }
  local notices
  notices=$(grep -c "checksum mismatch (corrupted); rebuilding it" "$OUT/$name.err" || true)
  [[ $notices == "$want_notices" ]] ||
    { echo "FAIL $name: $notices rebuild notices, expected $want_notices"; cat "$OUT/$name.err"; exit 1; }
  if grep -v "checksum mismatch" "$OUT/$name.err" | grep -q .; then
    echo "FAIL $name: unexpected messages"; cat "$OUT/$name.err"; exit 1
  fi
  "$BIN" cache info "$TRACE" | grep -q "up to date" || { echo "FAIL $name: the cache is not valid afterwards"; exit 1; }
}

corrupt() {  # byte offset from the start (>= 0) or from the end (< 0): flips its bits
  local file
  file=$(ls "$OUT"/cache/*.pxc)
  python3 - "$file" "$1" <<'EOF'
import sys
path, at = sys.argv[1], int(sys.argv[2])
with open(path, "r+b") as f:
    f.seek(at, 0 if at >= 0 else 2)
    pos = f.tell()
    b = f.read(1)
    f.seek(pos)
    f.write(bytes([b[0] ^ 0xFF]))
EOF
}

run build 2 0  # no cache yet: rank 0 writes it, silently
size=$(stat -c %s "$OUT"/cache/*.pxc)
(( size > 16 * 1048576 + 56 )) || { echo "FAIL: the cache has one checksum block only ($size bytes)"; exit 1; }
run reopen 2 0
for n in $(mpi_ranks 2 3); do
  corrupt -1000  # in the last block: not rank 0's
  run "last-block-np$n" "$n" 1
  corrupt 4096  # in the first block: rank 0's (with 3 ranks, rank 1's)
  run "first-block-np$n" "$n" 1
done
echo "ok: the damaged cache was rebuilt once with 2 and 3 ranks, outputs identical"
