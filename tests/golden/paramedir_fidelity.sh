#!/usr/bin/env bash
# paramedir drop-in fidelity (issue 11): numbers Paraver writes in full, histogram errors,
# which empty outputs are written as 0-byte files and which are not written at all, -v.
set -euo pipefail
BIN=$(realpath "$1")
DATA=$(realpath "$2")
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
PARAMEDIR="$(dirname "$BIN")/paramedir"
ORACLES="$DATA/oracles/paramedir"
fail=0
check() {  # name, expected, actual
  if [[ "$2" != "$3" ]]; then echo "FAIL $1: expected [$2] got [$3]"; fail=1; else echo "ok $1"; fi
}
cd "$TMP"

# 1. An old-syntax cfg (ConfigFile.Version 3.4, no #ParaverCFG line) of pypop's useful cycles
# with ±DBL_MAX as 309 digits ending in zeros, a 1 KB run of 9s (beyond the double range) and a
# 1 KB run of zero decimals: the same table the real paramedir wrote for pypop/useful_cycles.cfg.
"$PARAMEDIR" -npr -tu "$DATA/epoch/epoch_2proc.prv.gz" "$DATA/cfg/parallax/old_syntax_full_width_numbers.cfg"
check full-width-numbers "$(md5sum < "$ORACLES/epoch_2proc/pypop__useful_cycles")" \
  "$(md5sum < old_syntax_full_width_numbers)"
rm old_syntax_full_width_numbers

# 2. A histogram key that cannot be read: exit status 1 with file, line and key; neither the
# table nor a timeline dump of the windows (paramedir's fallback) is written.
if "$PARAMEDIR" "$DATA/epoch/epoch_2proc.prv.gz" "$DATA/cfg/parallax/bad_histogram_delta.cfg" 2>err; then
  echo "FAIL a cfg whose histogram cannot be read was accepted"; fail=1
fi
check bad-histogram-message \
  "$DATA/cfg/parallax/bad_histogram_delta.cfg:134:19: error: histogram not read: Analyzer2D.Delta: expected a number, found '1e18x'" \
  "$(head -1 err)"
check bad-histogram-no-output "err" "$(ls)"
rm err

# 3. Empty outputs. A 3D histogram whose planes are all empty (bytes per MPI call on a trace
# without MPI) is a 0-byte file, as paramedir writes it; a cfg whose filtered event types are
# not in the trace writes no file at all (pypop tests for the file's existence).
"$PARAMEDIR" "$DATA/profet/test1.prv" "$DATA/cfg/bsc/mpi/analysis/other/3dc_p2p_size_bw_per_call.cfg" 2>/dev/null
check empty-3d-file "0" "$(stat -c %s 3dc_p2p_size_bw_per_call)"
check empty-3d-oracle "0" "$(stat -c %s "$ORACLES/profet_test1/bsc__mpi__analysis__other__3dc_p2p_size_bw_per_call")"
rm 3dc_p2p_size_bw_per_call
"$PARAMEDIR" "$DATA/epoch/epoch_4proc.prv.gz" "$DATA/cfg/bsc/General/views/io_calls.cfg" 2>err
check missing-events-no-file "err" "$(ls)"
check missing-events-message "1" "$(grep -c 'None of the events specified in the filter appear in the trace' err)"
rm err

# 4. Scripts probe the tool with -v / --version.
for flag in -v --version; do
  out=$("$PARAMEDIR" $flag)
  check "version$flag" "paramedir (Parallax" "${out:0:19}"
  check "version$flag-parallax" "$out" "$("$BIN" paramedir $flag)"
done

exit $fail
