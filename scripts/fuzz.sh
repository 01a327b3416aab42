#!/usr/bin/env bash
# Builds the libFuzzer targets (CMake preset `fuzz`) and runs them.
#
#   scripts/fuzz.sh [--time SECONDS] [TARGET...]   long run, default 7200 s per target
#   scripts/fuzz.sh --ci                           every target for 30 s on its seed corpus
#   --no-build                                     run the targets as they are in build-fuzz/bin
#                                                  (several runs at once, or sources being edited)
#
# TARGET is a name of tests/fuzz/<name>_fuzz.cc (prv, pcf, row, ...); no name means all of
# them, one after the other. A long run keeps what it learns in build-fuzz/corpus/<name> (the
# seeds in tests/fuzz/corpus/<name> are only read); a crash leaves its input in
# build-fuzz/artifacts/<name>/ and makes the script exit non-zero. Summary lines
# "fuzz: <name> <seconds> s <executions> executions <status>" go to stdout and to
# build-fuzz/fuzz-log.tsv.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
time_each=7200
ci=0
no_build=0
targets=()
while [ $# -gt 0 ]; do
  case "$1" in
    --ci) ci=1; time_each=30 ;;
    --no-build) no_build=1 ;;
    --time)
      time_each="${2:-}"
      if ! [[ "$time_each" =~ ^[0-9]+$ ]]; then echo "fuzz.sh: --time needs a number of seconds" >&2; exit 2; fi
      shift ;;
    -h|--help) sed -n '2,14p' "$0"; exit 0 ;;
    -*) echo "fuzz.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
    *) targets+=("$1") ;;
  esac
  shift
done
if [ ${#targets[@]} -eq 0 ]; then
  for f in "$root"/tests/fuzz/*_fuzz.cc; do
    n=$(basename "$f" _fuzz.cc)
    targets+=("$n")
  done
fi
for t in "${targets[@]}"; do
  if [ ! -f "$root/tests/fuzz/${t}_fuzz.cc" ]; then
    echo "fuzz.sh: no target '$t' (expected tests/fuzz/${t}_fuzz.cc)" >&2
    exit 2
  fi
done

cd "$root"
if [ $no_build -eq 1 ]; then
  for t in "${targets[@]}"; do
    if [ ! -x "$root/build-fuzz/bin/${t}_fuzz" ]; then
      echo "fuzz.sh: --no-build but build-fuzz/bin/${t}_fuzz is not built" >&2
      exit 2
    fi
  done
fi
launcher=()
if command -v ccache >/dev/null; then
  launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache)
  export CCACHE_BASEDIR="$PWD" CCACHE_NOHASHDIR=1
fi
if [ $no_build -eq 0 ]; then
  cmake --preset fuzz -G Ninja "${launcher[@]}" >/dev/null
  build_targets=()
  for t in "${targets[@]}"; do build_targets+=("${t}_fuzz"); done
  nice cmake --build --preset fuzz -j"${FUZZ_BUILD_JOBS:-2}" --target "${build_targets[@]}"
fi

out="$root/build-fuzz"
status=0
# Not in the short --ci run: otf2, because libotf2 3.0.2 reserves memory in proportion to the
# location count a damaged anchor file announces (13 GB for a 145-byte input, found within a
# few dozen executions) and works on it for over 80 s under ASan before Parallax can report the
# file: the run would stop there every time (docs/security.md). Long runs include it.
ci_skip=" otf2 "
for t in "${targets[@]}"; do
  if [ $ci -eq 1 ] && [[ "$ci_skip" == *" $t "* ]]; then
    echo "fuzz: $t skipped in --ci (see scripts/fuzz.sh and docs/security.md)"
    continue
  fi
  seeds="$root/tests/fuzz/corpus/$t"
  if [ $ci -eq 1 ]; then
    work=$(mktemp -d)
  else
    work="$out/corpus/$t"
  fi
  mkdir -p "$work" "$out/artifacts/$t"
  dict=()
  if [ -f "$root/tests/fuzz/$t.dict" ]; then dict=(-dict="$root/tests/fuzz/$t.dict"); fi
  log="$out/artifacts/$t/last-run.log"
  # Long otf2 runs fork a child per job and go on after an out-of-memory: libotf2 reserves what
  # a damaged file announces (above). Every such input is then run again, and the run only
  # passes if the allocation was made inside libotf2.
  # A reservation too large to map at all (32 GB on this 24 GB machine) would stop ASan before
  # libFuzzer's malloc limit sees it; with allocator_may_return_null libotf2 gets NULL, as a
  # release build would, and reports the file.
  fork=()
  env_otf2=()
  if [ $ci -eq 0 ] && [ "$t" = otf2 ]; then
    fork=(-fork=1 -ignore_ooms=1)
    env_otf2=(env "ASAN_OPTIONS=allocator_may_return_null=1${ASAN_OPTIONS:+:$ASAN_OPTIONS}")
  fi
  marker=$(mktemp)
  started=$SECONDS
  set +e
  "${env_otf2[@]}" "$out/bin/${t}_fuzz" "$work" "$seeds" "${dict[@]}" "${fork[@]}" -max_total_time="$time_each" \
    -timeout=60 -rss_limit_mb=2560 -max_len=16384 -print_final_stats=1 \
    -artifact_prefix="$out/artifacts/$t/" >"$log" 2>&1
  rc=$?
  set -e
  elapsed=$((SECONDS - started))
  if [ $ci -eq 1 ]; then rm -rf "$work"; fi
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  if [ ${#fork[@]} -gt 0 ]; then execs=$(sed -n 's/^#\([0-9]*\): .*/\1/p' "$log" | tail -1); fi
  if [ ${#fork[@]} -gt 0 ] && [ $rc -ne 0 ]; then
    # Fork mode exits non-zero when a job ran out of memory, even with -ignore_ooms; without
    # a crash or a timeout the out-of-memory inputs are checked below instead.
    counts=$(sed -n 's|.*oom/timeout/crash: [0-9]*/\([0-9]*\)/\([0-9]*\).*|\1 \2|p' "$log" | tail -1)
    if [ "$counts" = "0 0" ]; then rc=0; fi
  fi
  result=ok
  if [ $rc -ne 0 ]; then
    result="CRASH (exit $rc; see $log)"
    status=1
    grep -m1 -E "ERROR|==[0-9]+==|deadly signal|Test unit written" "$log" >&2 || true
  elif [ ${#fork[@]} -gt 0 ]; then
    ooms=0
    while IFS= read -r input; do
      ooms=$((ooms + 1))
      # The frame below the allocator's must be libotf2's.
      where=$("${env_otf2[@]}" "$out/bin/${t}_fuzz" -rss_limit_mb=2560 "$input" 2>&1 |
        sed -n '/ in \(malloc\|calloc\|realloc\|operator new\)/{n;p;q}')
      if [[ "$where" != *libopen-trace-format2* ]]; then
        result="CRASH (out of memory outside libotf2: $input)"
        status=1
      fi
    done < <(find "$out/artifacts/$t" -name 'oom-*' -newer "$marker")
    if [ $status -eq 0 ]; then result="ok ($ooms out-of-memory inputs, all inside libotf2)"; fi
  fi
  rm -f "$marker"
  line="fuzz: $t ${elapsed} s ${execs:-?} executions ${result}"
  echo "$line"
  printf '%s\t%s\t%s\t%s\t%s\n' "$(date -u +%FT%TZ)" "$t" "$elapsed" "${execs:-?}" "$result" >>"$out/fuzz-log.tsv"
done
exit $status
