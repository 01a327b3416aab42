#!/bin/bash
# Writes tests/fuzz/cfg.dict, the libFuzzer dictionary of the cfg target: every function name of
# the descriptor table (from `parallax functions --json`), the cfg keys the reader knows (the
# window and histogram key tables of src/cfg), level, slot and statistic names.
# Usage: tests/fuzz/make_cfg_dict.sh build/bin/parallax > tests/fuzz/cfg.dict
set -euo pipefail
bin=${1:-build/bin/parallax}
src=$(cd "$(dirname "$0")/../.." && pwd)
quote() { sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/.*/"&"/'; }
{
  "$bin" functions --json | python3 -c 'import json,sys; [print(f["name"]) for f in json.load(sys.stdin)]'
  grep -ho '{"window_[a-z_0-9]*"' "$src/src/cfg/cfg_reader.cc" | tr -d '{"'
  grep -ho '"Analyzer[23]D\.[A-Za-z_0-9]*:"' "$src/src/cfg/cfg_histogram_keys.cc" | tr -d '"'
  grep -ho '"[^"]*"' "$src/src/cfg/histogram_spec.h" | tr -d '"' | grep -v '^$'
  printf '%s\n' "#ParaverCFG" "ConfigFile.Version: 3.4" "ConfigFile.NumWindows:" "< NEW ANALYZER2D >" \
    "ConfigFile.BeginDescription" "ConfigFile.EndDescription" "CFG4D_ENABLED" "cfg4d" \
    single composed thread task appl workload cpu node system \
    compose_thread compose_task compose_appl compose_workload compose_cpu compose_node compose_system \
    topcompose1 topcompose2 from_obj to_obj tag_msg size_msg bw_msg evt_type evt_value \
    evt_type_label evt_value_label True False true false All None "[x,y]" "{ 1, { " " } }" \
    Nanoseconds Microseconds Milliseconds Seconds Alltrace Allwindow Region \
    1e30 -1e30 6e28 nan inf 4294967295 18446744073709551616 0.000000001
} | awk '!seen[$0]++' | quote
