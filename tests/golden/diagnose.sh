#!/usr/bin/env bash
# `parallax diagnose` on the real epoch traces: each rank's time in MPI and its Late Sender time
# agree with an independent reading of the .prv text (plain Python below: calls from the
# 5000000x events, each message's receive charged to the receiver's call that ends where it
# completed, the latest sender once per call); the waiting never exceeds the time in MPI; the
# critical path tiles its span; a portion reports no more than the whole; a trace without MPI
# events gives an empty diagnosis with a note and exit 0; bad calls fail with a message.
set -euo pipefail
BIN=$1
DATA=$2
WORK=$(mktemp -d /tmp/parallax_diagnose.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
fail=0

for n in 1 2 4; do
  trace="$DATA/epoch/epoch_${n}proc.prv.gz"
  "$BIN" diagnose "$trace" --format json > "$WORK/d.json"
  if ! python3 - "$trace" "$WORK/d.json" <<'PY'
import bisect, gzip, json, sys
path, d = sys.argv[1], json.load(open(sys.argv[2]))
calls, opened, comms = {}, {}, []
with gzip.open(path, "rt") as f:
    for line in f:
        x = line.rstrip("\n").split(":")
        if x[0] == "2":
            task, t = x[2] + "." + x[3], int(x[5])
            for ty, v in zip(x[6::2], x[7::2]):
                if 50000001 <= int(ty) <= 50000005:
                    if int(v) != 0:
                        opened[task] = (t, int(v))
                    elif task in opened:
                        e, val = opened.pop(task)
                        calls.setdefault(task, []).append((e, t, val))
        elif x[0] == "3":
            comms.append((x[2] + "." + x[3], int(x[5]), x[8] + "." + x[9], int(x[12])))
bad = []
scale = 1e-9
for task, cs in calls.items():
    cs.sort()
    mpi = sum(b - a for a, b, _ in cs) * scale
    if abs(mpi - d["mpi_s"][task]) > 1e-9:
        bad.append(f"{task}: MPI time {mpi} != {d['mpi_s'][task]}")
# Late Sender: receive-completing calls (Recv 2, Wait 5, Waitall 6, Sendrecv 41/42, Waitany 59,
# Waitsome 60); the send entry is the entry of the sender's call holding the logical send.
done = {2, 5, 6, 41, 42, 59, 60}
charged = {}
def holding(cs, t, at_start):
    i = bisect.bisect_right([c[0] for c in cs], t)
    cand = [c for c in cs[max(0, i - 3):i] if c[0] <= t <= c[1]]
    if not cand: return None
    return sorted(cand, key=lambda c: (c[0] == t) if at_start else (c[1] == t))[-1]
for s, ls, r, pr in comms:
    sc = holding(calls.get(s, []), ls, True)
    rc = holding(calls.get(r, []), pr, False)
    if rc is None or rc[2] not in done: continue
    entry = sc[0] if sc else ls
    w = max(0, min(entry, rc[1]) - rc[0])
    key = (r, rc[0])
    charged[key] = max(charged.get(key, 0), w)
for task in d["ranks"]:
    mine = sum(w for (r, _), w in charged.items() if r == task) * scale
    got = d["patterns"]["late_sender"]["by_rank"][task]
    if abs(mine - got) > 1e-9:
        bad.append(f"{task}: late sender {mine} != {got}")
    waited = sum(p["by_rank"][task] for p in d["patterns"].values())
    if waited > d["mpi_s"][task] + 1e-12:
        bad.append(f"{task}: waits {waited} s exceed MPI time {d['mpi_s'][task]} s")
cp = d["critical_path"]
if abs(cp["length_s"] - (cp["end_s"] - cp["begin_s"])) > 1e-9 or \
   abs(sum(cp["by_rank_s"].values()) - cp["length_s"]) > 1e-9 or \
   abs(sum(cp["by_activity_s"].values()) - cp["length_s"]) > 1e-9:
    bad.append(f"critical path does not tile its span: {cp['length_s']} {cp['begin_s']} {cp['end_s']}")
for b in bad: print("diagnose:", path, b)
sys.exit(1 if bad else 0)
PY
  then fail=1; fi
done

# A portion: no pattern's time grows, and the path is clipped to it.
"$BIN" diagnose "$DATA/epoch/epoch_4proc.prv.gz" --format json --from 40% --to 60% > "$WORK/part.json"
"$BIN" diagnose "$DATA/epoch/epoch_4proc.prv.gz" --format json > "$WORK/all.json"
python3 - "$WORK/part.json" "$WORK/all.json" <<'PY' || fail=1
import json, sys
part, whole = (json.load(open(p)) for p in sys.argv[1:3])
bad = [k for k in whole["patterns"] if part["patterns"][k]["time_s"] > whole["patterns"][k]["time_s"] + 1e-12]
span = part["end_s"] - part["begin_s"]
if bad or abs(part["critical_path"]["length_s"] - span) > 1e-9 * max(1, span):
    print("diagnose: portion", bad, part["critical_path"]["length_s"], span); sys.exit(1)
PY

# `parallax pop` shows where the time in MPI goes: each pattern's share of processes x runtime,
# the same numbers as the diagnosis.
"$BIN" pop "$DATA/epoch/epoch_4proc.prv.gz" --format json > "$WORK/pop.json"
python3 - "$WORK/pop.json" "$WORK/all.json" <<'PY' || fail=1
import json, sys
pop, d = (json.load(open(p)) for p in sys.argv[1:3])
runtime = next(l for l in pop["raw"] if l["key"] == "runtime_us")["values"][0]
lines = {l["key"]: l["values"][0] for l in pop["waiting"]}
bad = []
for key, p in d["patterns"].items():
    want = 100 * p["time_s"] * 1e6 / (4 * runtime)
    if abs(lines[key] - want) > 1e-9:
        bad.append((key, lines[key], want))
rest = sum(d["mpi_s"].values()) - sum(p["time_s"] for p in d["patterns"].values())
if abs(lines["mpi_not_waiting"] - 100 * rest * 1e6 / (4 * runtime)) > 1e-9:
    bad.append(("mpi_not_waiting", lines["mpi_not_waiting"]))
if bad: print("diagnose: pop waiting lines", bad); sys.exit(1)
PY

# No MPI events: an empty MPI diagnosis, a note, exit 0; omp2 (Extrae, OpenMP, 2 threads) has
# parallel regions: its worker is idle while the master runs outside them.
out=$("$BIN" diagnose "$DATA/omp/omp2.prv.gz" --format json)
echo "$out" | python3 -c '
import json, sys
d = json.load(sys.stdin)
assert d["ranks"] == [] and d["patterns"]["late_sender"]["count"] == 0, d
assert any("no MPI call events" in n for n in d["notes"]), d["notes"]
omp = d["openmp"]
assert omp["threads"] == ["1.1.1", "1.1.2"], omp
idle = omp["patterns"]["omp_idle_threads"]["by_thread"]
assert idle["1.1.1"] == 0 and idle["1.1.2"] > 0, idle' || { echo "diagnose: no-MPI trace"; fail=1; }
printf '#Paraver (01/01/26 at 00:00):100_ns:1(1):1:1(1:1)\n1:1:1:1:1:0:100:1\n' > "$WORK/plain.prv"
"$BIN" diagnose "$WORK/plain.prv" | grep -q "nothing to diagnose" || { echo "diagnose: no MPI, no OpenMP text"; fail=1; }

# Bad calls.
if "$BIN" diagnose "$WORK/missing.prv" 2> "$WORK/err"; then echo "diagnose: missing file accepted"; fail=1; fi
grep -q "missing.prv" "$WORK/err" || { echo "diagnose: error does not name the file"; cat "$WORK/err"; fail=1; }
if "$BIN" diagnose "$DATA/epoch/epoch_2proc.prv.gz" --from 60% --to 40% 2> "$WORK/err"; then
  echo "diagnose: empty range accepted"; fail=1
fi
exit $fail
