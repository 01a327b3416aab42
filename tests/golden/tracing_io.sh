#!/usr/bin/env bash
# libparallax-io.so records the POSIX I/O calls of a program as Extrae does (tracing/README.md,
# "POSIX I/O and dynamic memory"): tests/tracing/io_files.c writes three files with known
# sizes through open/creat/openat, write/writev/pwrite, fsync/fdatasync, reads them back with
# read/pread/readv/preadv and lseek, and makes one failing read. The merged trace is read with
# `parallax text` and BSC's I/O cfgs (General/views/io_*.cfg): exactly the program's 24 calls,
# with their values, descriptors, sizes asked and bytes returned, each inside state 12 (I/O);
# none of the library's own writes (its .pxt file, the merge) and none of printf's; errno kept.
# PXT_IO=0 keeps the library loaded and silent.
# Skipped (77) without the library, gcc or the BSC cfgs.
set -euo pipefail
BIN=$(realpath "$1")
DATA=$(realpath "$2")
BUILD=$(cd "$(dirname "$BIN")/.." && pwd)
SRC=$(cd "$(dirname "$0")/../tracing" && pwd)
LIB=$BUILD/lib/libparallax-io.so
CFG=$DATA/cfg/bsc/General/views
[ -f "$LIB" ] || { echo "skipped: $LIB not built"; exit 77; }
command -v gcc >/dev/null || { echo "skipped: no gcc"; exit 77; }
[ -f "$CFG/io_read_call.cfg" ] || { echo "skipped: no BSC I/O cfgs in $DATA"; exit 77; }
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT
. "$(dirname "$0")/lib/tracing.bash"  # check, preload, events, values
PRELOAD=$(preload "$LIB")

gcc -O1 -g "$SRC/io_files.c" -o "$OUT/io_files"
mkdir "$OUT/files"
out=$(PXT_COUNTERS=none PXT_VERBOSE=0 PXT_OUTPUT_DIR=$OUT PXT_OUTPUT_NAME=io LD_PRELOAD="$PRELOAD" "$OUT/io_files" "$OUT/files")
check "program output (errno kept)" "$out" "wrote 1000 2000 3000 read 1000 0 100 2000 3000 bad -1 EBADF"
PRV=$OUT/io.prv
"$BIN" info "$PRV" > "$OUT/info.txt"
check "trace loads without diagnostics" "$(grep -c 'diagnostics (0 kinds)' "$OUT/info.txt")" "1"

# The calls in program order (Extrae's values: 11 open, 2 write, 8 writev, 6 pwrite, 1 read,
# 5 pread, 7 readv, 9 preadv; ours: 100 openat, 101 creat, 102 close, 103 lseek, 104 fsync,
# 105 fdatasync): 24 calls, each followed by 0 at its exit, nothing else.
calls=$(events "$PRV" 40000004)
expected=""
for v in 11 2 104 102 101 8 102 100 6 105 102 11 1 1 103 5 102 11 7 102 11 9 102 1; do
  expected+="40000004=$v 40000004=0 "
done
check "I/O calls (40000004), in order" "$calls" "${expected% }"
check "calls recorded" "$(grep -o '40000004=[1-9][0-9]*' <<<"$calls" | wc -l)" "24"
# Sizes asked (40000011) and bytes returned (40001011), data calls only; the failing read
# returns -1.
check "I/O size (40000011)" "$(events "$PRV" 40000011)" \
  "40000011=1000 40000011=2000 40000011=3000 40000011=4096 40000011=4096 40000011=100 40000011=2048 40000011=4096 40000011=10"
check "bytes returned (40001011)" "$(events "$PRV" 40001011)" \
  "40001011=1000 40001011=2000 40001011=3000 40001011=1000 40001011=0 40001011=100 40001011=2000 40001011=3000 40001011=-1"
# Descriptors (40000010): the program's files all get the lowest free descriptor D (each is
# closed before the next opens; 3 unless the caller left more open); the failing read names -1.
# The library's own file never shows.
D=$(events "$PRV" 40000010 | tr ' ' '\n' | head -1 | cut -d= -f2)
check "descriptors (40000010)" "$(events "$PRV" 40000010 | tr ' ' '\n' | LC_ALL=C sort | uniq -c | awk '{print $2 "x" $1}' | tr '\n' ' ')" \
  "40000010=-1x1 40000010=${D}x23 "
# Each call is one interval of state 12 (I/O).
check "I/O state intervals" "$("$BIN" text "$PRV" --thread-function "State As Is" --json | python3 -c '
import json, sys
print(sum(1 for iv in json.load(sys.stdin)["intervals"] if iv["value"] == 12))')" "24"
# BSC's cfgs: read() and write() calls, and the bytes asked by each (composed windows).
check "read() calls (io_read_call.cfg)" "$(values "$PRV" "$CFG/io_read_call.cfg" | wc -w)" "3"
check "write() calls (io_write_call.cfg)" "$(values "$PRV" "$CFG/io_write_call.cfg" | wc -w)" "1"
check "read sizes (io_read_size.cfg)" "$(values "$PRV" "$CFG/io_read_size.cfg")" "4096 4096 10"
check "write size (io_write_size.cfg)" "$(values "$PRV" "$CFG/io_write_size.cfg")" "1000"
check ".pcf labels" "$(grep -c -E '^(1|2|11|100|101|102) +(read|write|open|openat|creat|close)\(\)$' "$OUT/io.pcf")" "6"

# Small buffers (4 KiB): 300 more writes make the library flush its buffer to its .pxt file
# (writev) during the run; none of those writes is recorded: still one writev, and every
# descriptor is the program's.
PXT_BUFFER_SIZE=4096 PXT_COUNTERS=none PXT_VERBOSE=0 PXT_OUTPUT_DIR=$OUT PXT_OUTPUT_NAME=small \
  LD_PRELOAD="$PRELOAD" "$OUT/io_files" "$OUT/files" 300 >/dev/null
calls=$(events "$OUT/small.prv" 40000004 | tr ' ' '\n' | grep -v '=0$' | LC_ALL=C sort | uniq -c | awk '{print $2 "x" $1}' | tr '\n' ' ')
check "small buffers: calls by value" "$calls" \
  "40000004=1x3 40000004=100x1 40000004=101x1 40000004=102x7 40000004=103x1 40000004=104x1 40000004=105x1 40000004=11x5 40000004=2x301 40000004=5x1 40000004=6x1 40000004=7x1 40000004=8x1 40000004=9x1 "
check "small buffers: flushes during the run (40000003 = 1)" \
  "$([ "$(events "$OUT/small.prv" 40000003 | grep -o '40000003=1' | wc -l)" -ge 2 ] && echo yes)" "yes"
check "small buffers: descriptors" "$(events "$OUT/small.prv" 40000010 | tr ' ' '\n' | LC_ALL=C sort -u | tr '\n' ' ')" \
  "40000010=-1 40000010=$D "

# PXT_IO=0: loaded and silent: the program runs as before and, having recorded nothing,
# leaves no trace.
out=$(PXT_IO=0 PXT_COUNTERS=none PXT_VERBOSE=0 PXT_OUTPUT_DIR=$OUT PXT_OUTPUT_NAME=off LD_PRELOAD="$PRELOAD" \
  "$OUT/io_files" "$OUT/files")
check "PXT_IO=0: program output" "$out" "wrote 1000 2000 3000 read 1000 0 100 2000 3000 bad -1 EBADF"
check "PXT_IO=0: no trace (no .prv, no process file)" \
  "$([ -e "$OUT/off.prv" ] && echo prv; ls -A "$OUT/off.pxt.d" 2>/dev/null | wc -l)" "0"

exit $fail
