#!/usr/bin/env bash
# `parallax compare` on pairs of generated traces with known injected changes (bench/trace_gen.cc:
# the same seed, so the same random draws, and one change): identical runs compare to zero
# everywhere; one extra iteration is the top row, in B only, with its duration; task 3's OpenMP
# work 20% slower is the top row by rank (its computation, up by 10-20%: the serial parts are
# unchanged); the halo messages twice as large put a waiting call on top by call. The epoch
# scaling series compares by call (no loop: said), per-rank statistics beside; different
# programs and unmatched ranks are refused with what did not match.
set -euo pipefail
BIN=$1
DATA=$2
GEN=$(dirname "$BIN")/parallax-gen
WORK=$(mktemp -d /tmp/parallax_compare.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
fail=0
check() { if eval "$2"; then echo "ok $1"; else echo "FAIL $1"; fail=1; fi; }
gen() { "$GEN" --iterations "$1" --tasks 4 --threads 2 --seed 7 --out "$WORK/$2" "${@:3}" > /dev/null 2>&1; }
gen 20 a
gen 21 extra
gen 20 slow --slow-task 2 --slow-factor 1.2
gen 20 big --message-scale 2
field() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))" "$@"; }

"$BIN" compare "$WORK/a.prv" "$WORK/a.prv" --format json --no-pop > "$WORK/same.json"
check "identical runs: every difference is 0" \
  "[ \"\$(field '$WORK/same.json' 'max(abs(r[\"diff_s\"]) for r in d[\"rows\"])')\" = 0.0 ] && [ \"\$(field '$WORK/same.json' 'len(d[\"rows\"])')\" = 20 ]"

"$BIN" compare "$WORK/a.prv" "$WORK/extra.prv" --format json --no-pop > "$WORK/extra.json"
check "one extra iteration is the top row, in B only" \
  "[ \"\$(field '$WORK/extra.json' 'd[\"by\"], d[\"rows\"][0][\"unit\"], d[\"rows\"][0][\"a_s\"], d[\"rows\"][0][\"b_s\"] == d[\"rows\"][0][\"diff_s\"] > 0')\" = \"('iteration', '21', None, True)\" ]"
check "the 20 common iterations are equal but the last (which B's 21st follows)" \
  "[ \"\$(field '$WORK/extra.json' 'sum(1 for r in d[\"rows\"] if r[\"a_s\"] is not None and r[\"diff_s\"] != 0)')\" -le 1 ]"

"$BIN" compare "$WORK/a.prv" "$WORK/slow.prv" --by rank --format json --no-pop > "$WORK/slow.json"
check "a task 20% slower: its computation is the top row by rank, up by 10-20%" \
  "[ \"\$(field '$WORK/slow.json' 'd[\"rows\"][0][\"unit\"], 1.10 < d[\"rows\"][0][\"ratio\"] <= 1.2')\" = \"('1.3 computation', True)\" ]"

"$BIN" compare "$WORK/a.prv" "$WORK/big.prv" --by call --format json > "$WORK/big.json"
check "messages twice as large: MPI_Waitall on top by call, computation unchanged" \
  "[ \"\$(field '$WORK/big.json' 'd[\"rows\"][0][\"unit\"], d[\"rows\"][0][\"diff_s\"] > 0, [r[\"diff_s\"] for r in d[\"rows\"] if r[\"unit\"] == \"computation\"]')\" = \"('MPI_Waitall', True, [0.0])\" ]"
check "the POP factors of both, side by side" \
  "[ \"\$(field '$WORK/big.json' '[(f[\"a\"] is not None, f[\"b\"] is not None) for f in d[\"pop\"] if f[\"key\"] == \"parallel_efficiency\"]')\" = '[(True, True)]' ]"

E=$DATA/epoch
"$BIN" compare "$E/epoch_1proc.prv.gz" "$E/epoch_2proc.prv.gz" --format json --no-pop > "$WORK/epoch.json"
check "epoch 1 -> 2 ranks: by call (no loop, said), computation per rank about halved" \
  "[ \"\$(field '$WORK/epoch.json' 'd[\"by\"], \"not by iteration\" in d[\"notes\"][0], [0.45 < r[\"ratio\"] < 0.55 and r[\"b_ranks\"][\"ranks\"] == 2 for r in d[\"rows\"] if r[\"unit\"] == \"computation\"]')\" = \"('call', True, [True])\" ]"
"$BIN" compare "$E/epoch_1proc.prv.gz" "$E/epoch_2proc.prv.gz" --format csv --no-pop > "$WORK/epoch.csv"
check "csv: a header and one line per row" \
  "head -1 '$WORK/epoch.csv' | grep -q '^by,unit,a_s,b_s,diff_s,ratio' && [ \$((\$(wc -l < '$WORK/epoch.csv') - 1)) = \$(field '$WORK/epoch.json' 'len(d[\"rows\"])') ]"

# Difference windows: a cfg's window on both runs over aligned time (A - B, A / B).
C=$DATA/cfg/bsc
"$BIN" compare "$WORK/a.prv" "$WORK/a.prv" --no-pop --format json --cfg "$C/mpi/analysis/mpi_stats.cfg" > "$WORK/wsame.json"
check "identical runs: every object's A - B is 0 and every histogram cell equal" \
  "[ \"\$(field '$WORK/wsame.json' '[len(w[\"objects\"]) for w in d[\"windows\"]], max(abs(o[\"diff_mean\"]) + o[\"differs_share\"] for o in d[\"windows\"][0][\"objects\"]), all(h[\"a\"] == h[\"b\"] for h in d[\"windows\"][0][\"histograms\"]), \"20 iterations\" in d[\"windows\"][0][\"alignment\"], [u[\"diff_mean\"] for u in d[\"windows\"][0][\"iterations\"]] == [0.0] * 20')\" = '([8], 0.0, True, True, True)' ]"
"$BIN" compare "$WORK/a.prv" "$WORK/slow.prv" --no-pop --format json --cfg "$C/General/views/useful_duration.cfg" \
  --iteration 5 --diff-image "$WORK/d.png" --ratio-image "$WORK/r.svg" > "$WORK/wslow.json"
check "a task 20% slower: its two threads' useful bursts are the most below B's in iteration 5 (A / B < 0.85)" \
  "[ \"\$(field '$WORK/wslow.json' 'sorted((o[\"diff_mean\"], o[\"name\"]) for o in d[\"windows\"][0][\"objects\"])[0][1][:10], [o[\"ratio\"] < 0.85 for o in d[\"windows\"][0][\"objects\"] if o[\"name\"].startswith(\"THREAD 1.3\")]')\" = \"('THREAD 1.3', [True, True])\" ]"
check "iteration 5 of A is compared with iteration 5 of B" \
  "[ \"\$(field '$WORK/wslow.json' 'd[\"windows\"][0][\"to\"] - d[\"windows\"][0][\"from\"] < d[\"windows\"][0][\"b_to\"] - d[\"windows\"][0][\"b_from\"]')\" = True ]"
"$BIN" compare "$WORK/a.prv" "$WORK/slow.prv" --no-pop --format json --cfg "$C/General/views/useful_duration.cfg" > "$WORK/wall.json"
check "per iteration of the whole run, the objects' mean: iteration 5's is --iteration 5's, in A and in B" \
  "[ \"\$(python3 -c 'import json,sys; w=json.load(open(sys.argv[1]))[\"windows\"][0]; k=json.load(open(sys.argv[2]))[\"windows\"][0]; u=w[\"iterations\"][4]; m=lambda s: sum(o[s] for o in k[\"objects\"]) / len(k[\"objects\"]); print(len(w[\"iterations\"]), u[\"unit\"], abs(u[\"a_mean\"] / m(\"a_mean\") - 1) < 1e-9, abs(u[\"b_mean\"] / m(\"b_mean\") - 1) < 1e-9)' '$WORK/wall.json' '$WORK/wslow.json')\" = '20 5 True True' ]"
check "the images: A - B as PNG, A / B as SVG" \
  "head -c 8 '$WORK/d.png' | od -An -tx1 | grep -q '89 50 4e 47' && grep -q '<svg' '$WORK/r.svg'"
"$GEN" --iterations 20 --tasks 8 --threads 2 --seed 7 --out "$WORK/eight" > /dev/null 2>&1
sed -e 's/^window_level thread/window_level appl/' -e '/^window_object/d' "$C/General/views/useful_duration.cfg" > "$WORK/appl.cfg"
"$BIN" compare "$WORK/a.prv" "$WORK/eight.prv" --no-pop --format json --cfg "$WORK/appl.cfg" > "$WORK/wappl.json"
check "4 and 8 ranks compare with an application-level window (one object)" \
  "[ \"\$(field '$WORK/wappl.json' 'd[\"windows\"][0][\"level\"], len(d[\"windows\"][0][\"objects\"])')\" = \"('APPL', 1)\" ]"

set +e
"$BIN" compare "$WORK/a.prv" "$WORK/eight.prv" --no-pop --cfg "$C/General/views/useful_duration.cfg" > /dev/null 2> "$WORK/err"; rc=$?
check "a thread window on 8 and 16 threads is refused, with the application-level hint ($rc)" \
  "[ $rc = 1 ] && grep -q '8 THREAD objects in A and 16' '$WORK/err' && grep -q 'application level' '$WORK/err'"
"$BIN" compare "$WORK/a.prv" "$WORK/slow.prv" --no-pop --cfg "$C/General/views/useful_duration.cfg" --iteration 21 > /dev/null 2> "$WORK/err"; rc=$?
check "an iteration not in both runs is refused ($rc)" "[ $rc = 1 ] && grep -q 'iteration 21 is not in both runs' '$WORK/err'"
"$BIN" compare "$WORK/a.prv" "$WORK/slow.prv" --no-pop --iteration 2 > /dev/null 2> "$WORK/err"; rc=$?
check "--iteration without --cfg says what it is for ($rc)" "[ $rc = 1 ] && grep -q 'hint: give the cfg' '$WORK/err'"
"$BIN" compare "$WORK/a.prv" "$WORK/slow.prv" --no-pop --cfg "$C/General/views/useful_duration.cfg" --diff-image "$WORK/d.png" > /dev/null 2> "$WORK/err"; rc=$?
check "an existing image is not replaced without --force ($rc)" "[ $rc = 1 ] && grep -q 'exists' '$WORK/err'"
"$BIN" compare "$E/epoch_1proc.prv.gz" "$WORK/a.prv" --no-pop > /dev/null 2> "$WORK/err"; rc=$?
check "different programs are refused, saying why ($rc)" "[ $rc = 1 ] && grep -q 'different programs' '$WORK/err'"
"$BIN" compare "$E/epoch_2proc.prv.gz" "$E/epoch_4proc.prv.gz" --by rank --no-pop > /dev/null 2> "$WORK/err"; rc=$?
check "--by rank with 2 and 4 ranks is refused with a hint ($rc)" "[ $rc = 1 ] && grep -q 'hint: compare --by iteration' '$WORK/err'"
"$BIN" compare "$E/epoch_2proc.prv.gz" "$E/epoch_4proc.prv.gz" --by iteration --no-pop > /dev/null 2> "$WORK/err"; rc=$?
check "--by iteration without a loop is refused ($rc)" "[ $rc = 1 ] && grep -q 'has no iterations' '$WORK/err'"
"$BIN" compare "$WORK/a.prv" "$WORK/a.prv" --by nothing > /dev/null 2>&1; rc=$?
check "a bad --by is a usage error ($rc)" "[ $rc != 0 ] && [ $rc != 1 ]"
set -e
exit $fail
