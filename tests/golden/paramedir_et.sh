#!/usr/bin/env bash
# paramedir -et REFERENCE (--event-translator): event values renumbered to what the reference
# trace's .pcf calls them, worked by hand on tiny traces; chained with -g; errors.
set -euo pipefail
BIN=$(realpath "$1")
PARAMEDIR=$(dirname "$BIN")/paramedir
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
# shellcheck source=lib/check.bash
source "$(dirname "${BASH_SOURCE[0]}")/lib/check.bash"
cd "$TMP"
labels() { awk '/^[0-9]/ { $1 = $1; print }' "$1" | paste -sd'|'; }

# The reference calls 3 MPI_Send and 7 MPI_Isend; the input calls 3 MPI_Isend, 4 MPI_Recv and
# 5 MPI_Send. So 3 -> 7 and 5 -> 3; 4 is unknown to the reference and free there: it stays.
cat >ref.prv <<'T'
#Paraver (01/01/2024 at 00:00):100_ns:1(1):1:1(1:1)
1:1:1:1:1:0:100:1
T
printf 'STATES\n1    Running\n\nEVENT_TYPE\n0    50000001    MPI Point-to-point\nVALUES\n3   MPI_Send\n7   MPI_Isend\n' >ref.pcf
cat >in.prv <<'T'
#Paraver (02/01/2024 at 00:00):800_ns:1(1):1:1(1:1)
1:1:1:1:1:0:150:1
2:1:1:1:1:100:50000001:3:60000000:5
4:1:1:1:1:120:1:4:4:11:0
2:1:1:1:1:150:50000001:0
2:1:1:1:1:200:50000001:5
2:1:1:1:1:250:50000001:4
1:1:1:1:1:150:800:2
T
printf 'STATES\n1    Running\n2    Not created\n\nEVENT_TYPE\n0    50000001    MPI Point-to-point\nVALUES\n3   MPI_Isend\n4   MPI_Recv\n5   MPI_Send\n\nEVENT_TYPE\n0    60000000    Loop\n' >in.pcf
"$PARAMEDIR" -et ref.prv in.prv -o out.prv >/dev/null 2>err
# The type-4 global operation is copied as read, in its place (as Paraver's translator does).
check body '#Paraver (02/01/2024 at 00:00):800_ns:1(1):1:1(1:1)
1:1:1:1:1:0:150:1
2:1:1:1:1:100:50000001:7:60000000:5
4:1:1:1:1:120:1:4:4:11:0
2:1:1:1:1:150:50000001:0
2:1:1:1:1:200:50000001:3
2:1:1:1:1:250:50000001:4
1:1:1:1:1:150:800:2' "$(cat out.prv)"
check note "paramedir: warning: 2 event values translated (type 50000001: 3 -> 7 (MPI_Isend); type 50000001: 5 -> 3 (MPI_Send)), 2 event lines rewritten" "$(cat err)"
# The .pcf: the reference's, the input's extra state, value 4 and type 60000000.
check pcf "1 Running|2 Not created|0 50000001 MPI Point-to-point|3 MPI_Send|7 MPI_Isend|0 50000001 MPI Point-to-point|4 MPI_Recv|0 60000000 Loop" "$(labels out.pcf)"
# A value the reference uses for another label moves above every value in use: the input's
# 7 "MPI_Wait" becomes 8.
printf 'EVENT_TYPE\n0    50000001    MPI Point-to-point\nVALUES\n7   MPI_Wait\n' >in.pcf
"$PARAMEDIR" --event-translator ref.prv in.prv -o moved.prv >/dev/null 2>&1
check moved "2:1:1:1:1:100:50000001:3:60000000:5" "$(sed -n 3p moved.prv)"
printf '2:1:1:1:1:300:50000001:7\n' >>in.prv
"$PARAMEDIR" --event-translator ref.prv in.prv -o moved2.prv >/dev/null 2>&1
check moved-7 "2:1:1:1:1:300:50000001:8" "$(tail -1 moved2.prv)"
# Chained: translate, then the event-driven cut on the translated trace.
"$PARAMEDIR" -et ref.prv -g 50000001 in.prv -o chain.prv >/dev/null 2>&1
check chain "2:1:1:1:1:200:50000001:8" "$(grep '^2:' chain.prv | tail -2 | head -1)"
# Errors: a malformed global operation (located), no .pcf; nothing written.
sed 's/^4:1:1:1:1:120:/4:1:1:1:1:12x:/' in.prv >bad4.prv
cp in.pcf bad4.pcf
refused bad-globalop "paramedir: bad4.prv:4:13: error: bad time: expected ':' or the end of the line" \
  "$PARAMEDIR" -et ref.prv bad4.prv -o z.prv
rm ref.pcf
refused no-pcf "paramedir: ref.prv: error: the reference trace has no .pcf (ref.pcf)" "$PARAMEDIR" -et ref.prv in.prv -o z.prv
check nothing-left "" "$(ls z.* 2>/dev/null || true)"
exit $fail
