#!/usr/bin/env bash
# The text, paramedir and convert commands on real data, checked by hand once and pinned here.
set -euo pipefail
BIN=$(realpath "$1")
DATA=$(realpath "$2")
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
fail=0
check() {  # name, expected, actual
  if [[ "$2" != "$3" ]]; then echo "FAIL $1: expected [$2] got [$3]"; fail=1; else echo "ok $1"; fi
}

# Text view: MPI call on thread 1.2.1 of epoch_2proc around MPI_Init (values and labels from the .pcf).
json=$("$BIN" text "$DATA/epoch/epoch_2proc.prv.gz" --cfg "$DATA/cfg/bsc/mpi/views/MPI_call.cfg" \
       --object "THREAD 1.2.1" --from 386000000 --to 387100000 --json 2>/dev/null)
got=$(python3 -c 'import json,sys; j=json.loads(sys.argv[1]); print(" ".join("%d-%d=%g:%s" % (i["begin"], i["end"], i["value"], i["label"]) for i in j["intervals"]))' "$json")
check text-intervals "0-386470249=0:Outside MPI 386470249-386489930=31:MPI_Init 386489930-386558498=0:Outside MPI 386558498-387043229=22:MPI_Comm_dup 387043229-387054519=0:Outside MPI 387054519-387120990=20:MPI_Comm_size" "$got"
got=$(python3 -c 'import json,sys; j=json.loads(sys.argv[1]); e=j["events"][0]; print(e["time"], e["type_label"], e["value_label"], len(j["comms"]))' "$json")
check text-first-event "386470249 MPI Other MPI_Init 0" "$got"

# Text view with a thread function and a bad object.
got=$("$BIN" text "$DATA/epoch/epoch_1proc.prv.gz" --thread-function "State As Is" --object "THREAD 1.1.1" --to 3650894 --json | python3 -c 'import json,sys; print([(i["end"], i["label"]) for i in json.load(sys.stdin)["intervals"]])')
check text-states "[(3650343, 'Running'), (3650894, 'Others')]" "$got"
if "$BIN" text "$DATA/epoch/epoch_1proc.prv.gz" --object "THREAD 1.9.1" 2>"$TMP/err"; then echo "FAIL bad object accepted"; fail=1; fi
check text-bad-object "error: object 'THREAD 1.9.1' does not exist in this trace" "$(head -1 "$TMP/err")"

# paramedir: the output is named after the cfg, an existing file is not replaced, a rejected
# cfg gives exit status 1 with the reason.
cd "$TMP"
"$BIN" paramedir -tu "$DATA/epoch/epoch_1proc.prv.gz" "$DATA/cfg/bsc/General/views/state_as_is.cfg"
check paramedir-output "$(python3 -c 'import gzip,sys; print(gzip.open(sys.argv[1],"rt").read(), end="")' "$DATA/oracles/paramedir/epoch_1proc/bsc__General__views__state_as_is.csv.gz" | md5sum)" "$(md5sum < state_as_is.csv)"
if "$BIN" paramedir -tu "$DATA/epoch/epoch_1proc.prv.gz" "$DATA/cfg/bsc/General/views/state_as_is.cfg" 2>err; then
  echo "FAIL paramedir replaced an existing file"; fail=1
fi
check paramedir-no-overwrite "state_as_is.csv: error: output file exists" "$(head -1 err)"
printf '#ParaverCFG\nConfigFile.Version: 3.4\nwindow_name bad\nwindow_type single\nwindow_selected_functions { 1, { {thread, No Such Function} } }\n' > bad.cfg
if "$BIN" paramedir "$DATA/epoch/epoch_1proc.prv.gz" bad.cfg 2>err; then
  echo "FAIL paramedir accepted a cfg with an unknown function"; fail=1
fi
check paramedir-unsupported "bad.cfg:5:43: error: unsupported: No Such Function at line 5" "$(head -1 err)"

# convert: a canonical copy loads to the same counts.
"$BIN" convert "$DATA/epoch/epoch_2proc.prv.gz" -o "$TMP/copy.prv"
a=$("$BIN" info --json "$DATA/epoch/epoch_2proc.prv.gz" | python3 -c 'import json,sys; j=json.load(sys.stdin); print(j["states"], j["event_pairs"], j["comms"], j["trace_end"])')
b=$("$BIN" info --json "$TMP/copy.prv" | python3 -c 'import json,sys; j=json.load(sys.stdin); print(j["states"], j["event_pairs"], j["comms"], j["trace_end"])')
check convert-counts "$a" "$b"
cmp -s "$DATA/epoch/epoch_2proc.pcf" "$TMP/copy.pcf" && echo "ok convert-pcf-identical" || { echo "FAIL pcf differs"; fail=1; }
exit $fail
