#!/usr/bin/env bash
# `parallax cut --between`, `filter --comm-*`, `sort`, `shift` and paramedir's -t/-tt/-ta from
# the command line, on small traces whose answers are worked out by hand (the same cases as
# tests/unit/tools/{cutter_between,filter_comms,sorter,shifter}_test.cc), and their errors.
set -euo pipefail
BIN=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
PARAMEDIR=$(dirname "$BIN")/paramedir
WORK=$(mktemp -d /tmp/parallax_trace_tools_more.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
cd "$WORK"
fail=0
expect() {  # name, expected text, actual text
  if [[ "$2" != "$3" ]]; then
    echo "FAIL $1"; diff <(printf '%s\n' "$2") <(printf '%s\n' "$3") | head -10; fail=1
  else echo "ok $1"; fi
}
expect_error() {  # name, text the error must contain, command...
  local name=$1 want=$2
  shift 2
  local out status=0
  out=$("$@" 2>&1) || status=$?
  if [[ $status -eq 0 || $out != *"$want"* ]]; then
    echo "FAIL $name (status $status): $out"; fail=1
  else echo "ok $name"; fi
}

cat > loop.prv <<'T'
#Paraver (01/01/2024 at 10:00):1000_ns:1(2):1:2(1:1,1:1)
1:1:1:1:1:0:1000:1
1:2:1:2:1:0:1000:1
2:1:1:1:1:100:1000:1
2:2:1:2:1:150:1000:1
2:1:1:1:1:200:1000:0
2:1:1:1:1:300:1000:1
2:2:1:2:1:350:1000:0
2:2:1:2:1:400:1000:1
2:1:1:1:1:500:1000:1
2:2:1:2:1:600:1000:1
T
# Occurrences 2..3 of 1000 (value != 0): [300, 600].
"$BIN" cut loop.prv --between 1000 --occurrences 2..3 -o between.prv
expect "cut --between 1000 --occurrences 2..3" \
'#CUTTER:300:300:600
1:1:1:1:1:0:300:1
1:2:1:2:1:0:300:1
2:1:1:1:1:0:1000:1
2:2:1:2:1:50:1000:0
2:2:1:2:1:100:1000:1
2:1:1:1:1:200:1000:1
2:2:1:2:1:300:1000:1
# Appending events with value 0
2:1:1:1:1:300:1000:0
2:2:1:2:1:300:1000:0' "$(sed 1d between.prv | sed -E 's/^#[0-9]+:CUTTER:ORIGINAL:"[^"]*":/#CUTTER:/')"
"$BIN" cut loop.prv --between 1000:0 --occurrences 1..1 --original-time -o closes.prv
expect "cut --between 1000:0 --original-time" '#CUTTER:0:200:350' \
  "$(sed -n 2p closes.prv | sed -E 's/^#[0-9]+:CUTTER:ORIGINAL:"[^"]*":/#CUTTER:/')"
expect_error "cut --between unknown type" "event type 999 never occurs" \
  "$BIN" cut loop.prv --between 999 -o x.prv
expect_error "cut --occurrences too far" "at most 3 times on a thread" \
  "$BIN" cut loop.prv --between 1000 --occurrences 2..9 -o x.prv
expect_error "cut --occurrences without --between" "--occurrences needs --between" \
  "$BIN" cut loop.prv --occurrences 2..9 -o x.prv
expect_error "cut --between with --from" "bad --between" \
  "$BIN" cut loop.prv --between 1000 --from 5 -o x.prv
[[ ! -e x.prv ]] || { echo "FAIL an error left x.prv"; fail=1; }

cat > comms.prv <<'T'
#Paraver (01/01/2024 at 10:00):100_ns:1(4):1:3(1:1,1:1,2:1)
1:1:1:1:1:0:100:1
3:1:1:1:1:10:11:2:1:2:1:12:13:64:5
3:2:1:2:1:20:21:1:1:1:1:22:23:8:5
3:1:1:1:1:30:31:4:1:3:2:32:33:1024:7
3:3:1:3:1:40:41:2:1:2:1:42:43:0:7
3:4:1:3:2:50:51:3:1:3:1:52:53:100:9
T
"$BIN" filter comms.prv --comm-partners 3.2 -o p.prv
expect "filter --comm-partners 3.2" \
'3:1:1:1:1:30:31:4:1:3:2:32:33:1024:7
3:4:1:3:2:50:51:3:1:3:1:52:53:100:9' "$(grep '^3:' p.prv)"
"$BIN" filter comms.prv --comm-tags 5,9 --min-comm-size 9 --max-comm-size 100 -o t.prv
expect "filter --comm-tags --min/max-comm-size" \
'3:1:1:1:1:10:11:2:1:2:1:12:13:64:5
3:4:1:3:2:50:51:3:1:3:1:52:53:100:9' "$(grep '^3:' t.prv)"
expect_error "filter bad --comm-partners" "bad --comm-partners" \
  "$BIN" filter comms.prv --comm-partners 0.1 -o y.prv

cat > shuffled.prv <<'T'
#Paraver (01/01/2024 at 10:00):100_ns:1(2):1:2(1:1,1:1)
2:2:1:2:1:30:5:1
1:1:1:1:1:0:50:1
3:2:1:2:1:20:21:1:1:1:1:25:26:8:3
2:1:1:1:1:20:5:2
1:2:1:2:1:0:100:1
1:1:1:1:1:50:100:2
T
"$BIN" sort shuffled.prv -o sorted.prv
expect "sort" \
'1:1:1:1:1:0:50:1
1:2:1:2:1:0:100:1
2:1:1:1:1:20:5:2
3:2:1:2:1:20:21:1:1:1:1:25:26:8:3
2:2:1:2:1:30:5:1
1:1:1:1:1:50:100:2' "$(sed 1d sorted.prv)"
expect_error "sort never replaces without --force" "exists" "$BIN" sort shuffled.prv -o sorted.prv
"$BIN" sort shuffled.prv -o sorted.prv --force

cat > two.prv <<'T'
#Paraver (01/01/2024 at 10:00):100_ns:1(3):1:2(1:1,2:1)
1:1:1:1:1:0:100:1
1:1:1:2:1:0:100:1
1:1:1:2:2:0:100:1
2:1:1:1:1:50:7:1
3:1:1:1:1:60:61:1:1:2:1:70:71:8:3
T
printf '30\n0\n0\n' > threads.txt
"$BIN" shift two.prv --offsets threads.txt --level thread -o shifted.prv
expected_shift='#Paraver (01/01/2024 at 10:00):130_ns:1(3):1:2(1:1,2:1)
1:1:1:2:1:0:100:1
1:1:1:2:2:0:100:1
1:1:1:1:1:30:130:1
2:1:1:1:1:80:7:1
3:1:1:1:1:90:91:1:1:2:1:70:71:8:3'
expect "shift --level thread" "$expected_shift" "$(cat shifted.prv)"
# paramedir's -t is the thread shifter, -tt the task shifter (paramedir's --thread-shifter and
# --task-shifter).
"$PARAMEDIR" two.prv -t threads.txt -o pshift.prv
expect "paramedir -t" "$expected_shift" "$(cat pshift.prv)"
printf '5\n20\n' > tasks.txt
"$PARAMEDIR" -tt tasks.txt two.prv -o ptasks.prv
expect "paramedir -tt" '1:1:1:1:1:5:105:1' "$(sed -n 2p ptasks.prv)"
# Chained in command-line order: shift, then cut (original time, 25..120: the message
# sent at 90 and received at 70 is inside; the open event 7 is closed at the last time, 130).
cat > cut.xml <<'X'
<?xml version='1.0'?>
<config>
<cutter>
  <tasks></tasks>
  <max_trace_size>0</max_trace_size>
  <by_time>1</by_time>
  <minimum_time>25</minimum_time>
  <maximum_time>120</maximum_time>
  <minimum_time_percentage>0</minimum_time_percentage>
  <maximum_time_percentage>100</maximum_time_percentage>
  <original_time>1</original_time>
  <break_states>0</break_states>
  <remove_first_states>0</remove_first_states>
  <remove_last_states>0</remove_last_states>
  <keep_events>0</keep_events>
</cutter>
</config>
X
"$PARAMEDIR" -t threads.txt -c two.prv cut.xml -o chain.prv
expect "paramedir -t then -c" \
'#CUTTER:0:25:120
1:1:1:2:1:0:100:1
1:1:1:2:2:0:100:1
1:1:1:1:1:30:130:1
2:1:1:1:1:80:7:1
3:1:1:1:1:90:91:1:1:2:1:70:71:8:3
# Appending events with value 0
2:1:1:1:1:130:7:0' "$(sed 1d chain.prv | sed -E 's/^#[0-9]+:CUTTER:ORIGINAL:"[^"]*":/#CUTTER:/')"
printf '5\nabc\n' > bad.txt
expect_error "shift bad offsets file" "bad.txt:2:1" "$BIN" shift two.prv --offsets bad.txt -o z.prv
expect_error "shift wrong count" "2 offsets for 3 threads" \
  "$BIN" shift two.prv --offsets tasks.txt --level thread -o z.prv
[[ ! -e z.prv ]] || { echo "FAIL an error left z.prv"; fail=1; }
exit $fail
