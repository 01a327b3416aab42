#!/usr/bin/env python3
"""Time to get the State As Is intervals of a generated trace as NumPy arrays from Python,
next to the time the command line's paramedir mode spends evaluating and dumping the same
window (both in-process, after one load). Prints seconds, intervals/s and the ratio (goal:
Python within 1.5x of the command line's evaluation).

Usage: PYTHONPATH=build/python python3 bench/python_window_bench.py [BUILD_DIR] [SIZE]
(default: build 100M; the trace is generated into bench/out/ when absent)."""

import os
import resource
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
build = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "build")
size = sys.argv[2] if len(sys.argv) > 2 else "100M"
sys.path.insert(0, os.path.join(build, "python"))
import parallax  # noqa: E402

out = os.path.join(ROOT, "bench", "out", f"synth_{size}_s1")
trace = out + ".prv"
if not os.path.exists(trace):
    subprocess.run([os.path.join(build, "bin", "parallax-gen"), "--size", size, "--out", out],
                   check=True, stderr=subprocess.DEVNULL)
cfg = os.path.join(ROOT, "tests", "data", "cfg", "bsc", "General", "views", "state_as_is.cfg")

t0 = time.perf_counter()
t = parallax.open(trace)
load = time.perf_counter() - t0


def best(f, runs=3):
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        r = f()
        times.append(time.perf_counter() - t0)
    return min(times), r


py_s, w = best(lambda: t.window(cfg=cfg))
cli_s, dump = best(lambda: t.paramedir(cfg, trace_units=True))
n = len(w)
assert n == dump[0]["content"].count("\n")
rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
mib = os.path.getsize(trace) / 2**20
print(f"trace {size}: {mib:.0f} MiB, loaded in {load:.2f} s; {n} State As Is intervals")
print(f"{'python arrays':<22}{py_s:8.3f} s {n / py_s / 1e6:8.1f} M intervals/s")
print(f"{'paramedir dump (C++)':<22}{cli_s:8.3f} s {n / cli_s / 1e6:8.1f} M intervals/s")
print(f"ratio python / paramedir: {py_s / cli_s:.2f} (goal <= 1.5); peak RSS {rss:.0f} MiB")
