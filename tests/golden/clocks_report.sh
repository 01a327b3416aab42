#!/usr/bin/env bash
# `parallax clocks` on the real traces: the backward messages by pair of tasks agree with an
# independent count (plain Python over the .prv text), qsort_beo3's report is the golden text
# below (its two physically backward messages, 1.4 -> 1.3, checked by hand: 84092-84070 = 22
# and 109086-109066 = 20), --correct leaves no physically backward message, and bad calls
# fail with a clear message.
set -euo pipefail
BIN=$1
DATA=$2
WORK=$(mktemp -d /tmp/parallax_clocks.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
fail=0

for trace in epoch/epoch_1proc.prv.gz epoch/epoch_2proc.prv.gz epoch/epoch_4proc.prv.gz \
             omp/omp2.prv.gz qsort_beo3/qsort_beo3.prv compss_cholesky/cholesky_autoparallel.prv \
             "profet/lulesh_7+1_with_uncores_sockets1+2.chop8.prv" profet/test1.prv; do
  if ! "$BIN" clocks --json "$DATA/$trace" | python3 -c '
import gzip, json, sys
path = sys.argv[1]
rep = json.load(sys.stdin)
opener = gzip.open if path.endswith(".gz") else open
pairs, msgs, phys, logi = {}, 0, 0, 0
with opener(path, "rt") as f:
    for line in f:
        x = line.rstrip("\n").split(":")
        if x[0] != "3" or len(x) != 15:
            continue
        msgs += 1
        ls, ps, lr, pr = int(x[5]), int(x[6]), int(x[11]), int(x[12])
        k = (x[2] + "." + x[3], x[8] + "." + x[9])
        p = pairs.setdefault(k, [0] * 7)
        p[0] += 1
        if pr < ps:
            phys += 1; p[1] += 1; p[2] = max(p[2], ps - pr); p[3] += ps - pr
        if lr < ls:
            logi += 1; p[4] += 1; p[5] = max(p[5], ls - lr); p[6] += ls - lr
want = sorted([k[0], k[1]] + v for k, v in pairs.items() if v[1] or v[4])
got = sorted([p["sender"], p["receiver"], p["messages"], p["physical"], p["physical_max"],
              p["physical_total"], p["logical"], p["logical_max"], p["logical_total"]]
             for p in rep["pairs"])
key = lambda r: [int(t) for t in r[0].split(".") + r[1].split(".")]
want.sort(key=key); got.sort(key=key)
ok = (rep["messages"], rep["physical"], rep["logical"]) == (msgs, phys, logi) and want == got
if not ok:
    print(path, (rep["messages"], rep["physical"], rep["logical"]), (msgs, phys, logi))
sys.exit(0 if ok else 1)
' "$DATA/$trace"; then echo "FAIL clocks $trace"; fail=1; else echo "ok clocks $trace"; fi
done

expected='messages 33; received before sent: 2 physical, 19 logical
   sender  receiver  messages  physical          max          total   logical          max          total
      1.1       1.2         3         0            0              0         2        18331          28780
      1.1       1.3         3         0            0              0         2        18221          21291
      1.2       1.1         3         0            0              0         2        46802          47038
      1.2       1.3         3         0            0              0         2          319            440
      1.2       1.4         3         0            0              0         2         1315           1403
      1.3       1.1         2         0            0              0         1         6828           6828
      1.3       1.2         3         0            0              0         2        14676          14744
      1.3       1.4         5         0            0              0         3        18412          25100
      1.4       1.3         5         2           22             42         3          174            441'
actual=$("$BIN" clocks "$DATA/qsort_beo3/qsort_beo3.prv" | tail -n +2)
if [[ $actual != "$expected" ]]; then
  echo "FAIL qsort_beo3 report"; diff <(echo "$expected") <(echo "$actual") || true; fail=1
else echo "ok qsort_beo3 report"; fi

# --correct: no physically backward message is left, the counts are kept.
for trace in qsort_beo3/qsort_beo3.prv epoch/epoch_4proc.prv.gz; do
  out=$WORK/$(basename "${trace%%.prv*}").clocks.prv
  "$BIN" clocks "$DATA/$trace" --correct -o "$out" >/dev/null
  read -r m p < <("$BIN" clocks --json "$out" | python3 -c 'import json,sys; r=json.load(sys.stdin); print(r["messages"], r["physical"])')
  read -r m0 _ < <("$BIN" clocks --json "$DATA/$trace" | python3 -c 'import json,sys; r=json.load(sys.stdin); print(r["messages"], r["physical"])')
  if [[ $p != 0 || $m != "$m0" ]]; then echo "FAIL correct $trace: $m messages, $p backward"; fail=1
  else echo "ok correct $trace"; fi
  for ext in pcf row; do  # the companions are copied when the input has them
    in_companion=$DATA/${trace%%.prv*}.$ext
    if [[ -e $in_companion ]] && ! cmp -s "$in_companion" "${out%.prv}.$ext"; then
      echo "FAIL correct $trace: .$ext not copied"; fail=1
    fi
  done
done

# Bad calls.
expect_fail() {  # name, expected text, command...
  local name=$1 text=$2
  shift 2
  if "$@" >"$WORK/out" 2>&1; then echo "FAIL $name: succeeded"; fail=1
  elif ! grep -q -- "$text" "$WORK/out"; then echo "FAIL $name: no '$text' in"; cat "$WORK/out"; fail=1
  else echo "ok $name"; fi
}
expect_fail "no -o" "needs -o" "$BIN" clocks "$DATA/qsort_beo3/qsort_beo3.prv" --correct
expect_fail "-o alone" "only used with --correct" "$BIN" clocks "$DATA/qsort_beo3/qsort_beo3.prv" -o "$WORK/x.prv"
expect_fail "existing output" "use --force" "$BIN" clocks "$DATA/qsort_beo3/qsort_beo3.prv" --correct -o "$WORK/qsort_beo3.clocks.prv"
printf '#Paraver (01/01/2024 at 10:00):100_ns:1(2):1:2(1:1,1:1)\n3:1:1:1:1:10:12:2:1:2:1:5\n' > "$WORK/bad.prv"
expect_fail "truncated comm" "bad.prv:2:" "$BIN" clocks "$WORK/bad.prv"
expect_fail "missing trace" "nope.prv" "$BIN" clocks "$WORK/nope.prv"
exit $fail
