#!/usr/bin/env bash
# libparallax-io.so with PXT_MALLOC=1 records dynamic memory as Extrae does (tracing/README.md,
# "POSIX I/O and dynamic memory"): tests/tracing/mem_calls.c makes malloc(1000),
# calloc(10, 300), realloc(.., 5000), posix_memalign(64, 4096), aligned_alloc(64, 640) and four
# frees, then N malloc(24)/free pairs. The merged trace, read with `parallax text` and BSC's
# cfgs (General/views/dynamic_memory_*.cfg), holds exactly those calls (Extrae's values 1
# malloc, 2 free, 3 realloc, 4 calloc, 5 posix_memalign; ours 100 aligned_alloc), their sizes,
# and pointers that match (what malloc returned is what realloc and free got); none of the
# library's own allocations, also with 4 KiB buffers that flush during the run. Without
# PXT_MALLOC nothing of it is recorded.
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
[ -f "$CFG/dynamic_memory_call.cfg" ] || { echo "skipped: no BSC memory cfgs in $DATA"; exit 77; }
# Under AddressSanitizer the sanitizer owns malloc: nothing to interpose.
if ldd "$BUILD/bin/pxt_example_threads" 2>/dev/null | grep -q libasan; then
  echo "skipped: AddressSanitizer build (the sanitizer replaces malloc)"; exit 77
fi
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT
. "$(dirname "$0")/lib/tracing.bash"  # check, preload, events, values
run() {  # name extra-pairs [env...]
  local name=$1 extra=$2
  shift 2
  env "$@" PXT_COUNTERS=none PXT_VERBOSE=0 PXT_OUTPUT_DIR=$OUT PXT_OUTPUT_NAME=$name LD_PRELOAD="$LIB" \
    "$OUT/mem_calls" "$extra"
}

gcc -O0 -g "$SRC/mem_calls.c" -o "$OUT/mem_calls"
check "program output" "$(run mem 2 PXT_MALLOC=1)" "allocated rc 0 extra 2"
PRV=$OUT/mem.prv
"$BIN" info "$PRV" > "$OUT/info.txt"
check "trace loads without diagnostics" "$(grep -c 'diagnostics (0 kinds)' "$OUT/info.txt")" "1"
# The calls, in order (each followed by 0 at its exit): 9 + 2 pairs.
expected=""
for v in 1 4 3 5 100 2 2 2 2 1 2 1 2; do expected+="40000040=$v 40000040=0 "; done
check "dynamic memory calls (40000040)" "$(events "$PRV" 40000040)" "${expected% }"
check "sizes asked (40000041)" "$(events "$PRV" 40000041)" \
  "40000041=1000 40000041=3000 40000041=5000 40000041=4096 40000041=640 40000041=24 40000041=24"
# Pointers: realloc got malloc's block; the frees got calloc's, realloc's, posix_memalign's
# and aligned_alloc's; each pair frees what it allocated.
events "$PRV" 40000042 40000043 | tr ' ' '\n' | cut -d= -f2 > "$OUT/ptr"
mapfile -t P < "$OUT/ptr"
check "pointer events (5 out, 1 in, 4 frees, 2 x (out, in))" "${#P[@]}" "14"
check "realloc got malloc's block" "${P[2]}" "${P[0]}"
check "frees got calloc, realloc, posix_memalign, aligned_alloc blocks" \
  "${P[6]} ${P[7]} ${P[8]} ${P[9]}" "${P[1]} ${P[3]} ${P[4]} ${P[5]}"
check "each pair frees its block" "${P[11]} ${P[13]}" "${P[10]} ${P[12]}"
# BSC's cfgs.
check "calls (dynamic_memory_call.cfg)" "$(values "$PRV" "$CFG/dynamic_memory_call.cfg")" "1 4 3 5 100 2 2 2 2 1 2 1 2"
check "requested sizes (dynamic_memory_call_requested_size.cfg)" \
  "$(values "$PRV" "$CFG/dynamic_memory_call_requested_size.cfg")" "1000 3000 5000 24 24"
check ".pcf labels" "$(grep -c -E '^(1|2|3|4|5|100) +(malloc|free|realloc|calloc|posix_memalign|aligned_alloc)\(\)$' "$OUT/mem.pcf")" "6"

# 4 KiB buffers and 400 pairs: the library flushes during the run (its allocations and writes
# stay out): 9 + 800 calls exactly.
run small 400 PXT_MALLOC=1 PXT_BUFFER_SIZE=4096 >/dev/null
check "small buffers: calls" "$(events "$OUT/small.prv" 40000040 | grep -o '40000040=[1-9][0-9]*' | wc -l)" "809"
check "small buffers: flushes during the run" \
  "$([ "$(events "$OUT/small.prv" 40000003 | grep -o '40000003=1' | wc -l)" -ge 2 ] && echo yes)" "yes"

# Without PXT_MALLOC: no memory record (the I/O of the program, its write, still is).
run off 2 >/dev/null
check "without PXT_MALLOC: no memory record" "$(events "$OUT/off.prv" 40000040 | wc -w)" "0"
check "without PXT_MALLOC: the write is recorded" "$(events "$OUT/off.prv" 40000004)" "40000004=2 40000004=0"

exit $fail
