#!/usr/bin/env bash
# `parallax report` (docs/report.md) from the command line: HTML is one file with every image
# inline and nothing to fetch; Markdown links its images and cfgs in NAME_files/ beside it,
# every link to a file that exists; a trace that cannot be loaded, an existing output or the
# trace as its own output leave nothing behind. (tests/e2e/report_test.mjs opens the reports in
# Chromium and checks every number against the commands.)
set -euo pipefail
BIN=$1
DATA=$2
WORK=$(mktemp -d /tmp/parallax_report.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
fail=0
check() { if eval "$2"; then echo "ok $1"; else echo "FAIL $1"; fail=1; fi; }
E=$DATA/epoch
"$BIN" report "$E/epoch_4proc.prv.gz" -o "$WORK/r.html" > "$WORK/out.txt"
check "HTML: one file, its images inline, no src or href to anything else" \
  "[ \$(ls '$WORK' | wc -l) = 2 ] && grep -c 'src=\"data:image/png;base64,' '$WORK/r.html' | grep -qx 3 && ! grep -Eq '(src|href)=\"(https?:|//|[a-z_./]+\\.(png|css|js))' '$WORK/r.html'"
check "HTML: the POP table, the chart, three timelines, wait states, structure" \
  "grep -q '<h2 id=\"pop\">' '$WORK/r.html' && grep -q '<svg' '$WORK/r.html' && grep -q 'id=\"useful_ipc\"' '$WORK/r.html' && grep -q 'id=\"diagnosis\"' '$WORK/r.html' && grep -q 'id=\"structure\"' '$WORK/r.html'"
"$BIN" report "$E/epoch_1proc.prv.gz" "$E/epoch_2proc.prv.gz" -o "$WORK/s.md" > /dev/null
check "Markdown of a series: every image and cfg it links is in s_files/" \
  "python3 -c 'import re,sys,os; t=open(sys.argv[1]).read(); links=re.findall(r\"\\]\\((s_files/[^)]+)\\)\", t); assert len(links) == 4, links; assert all(os.path.isfile(os.path.join(sys.argv[2], l)) for l in links)' '$WORK/s.md' '$WORK' && ls '$WORK/s_files' | grep -qx mpi_call.cfg && grep -q '| Parallel efficiency |' '$WORK/s.md'"
set +e
"$BIN" report "$DATA/bigdft_headeronly/bigdft.extrae.128.small.clustered.codeblocks.fused.prv" -o "$WORK/bad.md" 2> "$WORK/err"; rc=$?
check "a trace that cannot be loaded: an error, no report, no files ($rc)" "[ $rc = 1 ] && grep -q 'error' '$WORK/err' && [ ! -e '$WORK/bad.md' ] && [ ! -e '$WORK/bad_files' ]"
"$BIN" report "$E/epoch_4proc.prv.gz" -o "$WORK/r.html" 2> "$WORK/err"; rc=$?
check "an existing report is not replaced without --force ($rc)" "[ $rc = 1 ] && grep -q 'exists' '$WORK/err'"
"$BIN" report "$E/epoch_1proc.prv.gz" "$E/epoch_2proc.prv.gz" -o "$WORK/s.md" --force > /dev/null; rc=$?
check "--force replaces a Markdown report and its files ($rc)" "[ $rc = 0 ] && [ -f '$WORK/s_files/pop.png' ]"
cp "$E/epoch_1proc.prv.gz" "$WORK/t.prv.gz"
"$BIN" report "$WORK/t.prv.gz" -o "$WORK/t.prv.gz" --force 2> "$WORK/err"; rc=$?
check "the trace as its own report is refused ($rc)" "[ $rc = 1 ] && grep -q 'would replace its trace' '$WORK/err' && cmp -s '$WORK/t.prv.gz' '$E/epoch_1proc.prv.gz'"
"$BIN" report "$E/epoch_4proc.prv.gz" -o "$WORK/w.html" --width 10 2> "$WORK/err"; rc=$?
check "a width out of range ($rc)" "[ $rc = 1 ] && grep -q 'not between 400 and 4000' '$WORK/err' && [ ! -e '$WORK/w.html' ]"
set -e
exit $fail
