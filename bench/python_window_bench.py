#!/usr/bin/env python3
"""Time to get the State As Is intervals of a generated trace as NumPy arrays from Python,
next to the time the command line's paramedir mode spends evaluating and dumping the same
window (both in-process, after one load), and to the core's evaluation alone (walking every row,
keeping nothing: parallax-eval-bench). Prints seconds, intervals/s and the ratios (goal: Python
within 1.5x of the command line's evaluation).

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

import numpy as np  # noqa: E402


def py_state(records, previous):
    """State As Is written in Python (docs/python.md, "Functions of your own")."""
    return np.where(records["kind"] == 1, records["state"], 0).astype(float)


parallax.register_function("Bench state", "thread", py_state, info="state")

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
fn_s, fw = best(lambda: t.window(function="Bench state"), runs=1)
assert (fw.value == t.window(function="State As Is").value).all()
n = len(w)
assert n == dump[0]["content"].count("\n")
rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def eval_only():
    """The core's evaluation alone (parallax-eval-bench: every row walked, nothing kept), in a
    separate process; its State As Is line."""
    run = subprocess.run([os.path.join(build, "bin", "parallax-eval-bench"), trace],
                         check=True, capture_output=True, text=True).stdout
    line = next(l for l in run.splitlines() if l.startswith("State As Is"))
    return float(line.split()[-2])


core_s = min(eval_only() for _ in range(2))
mib = os.path.getsize(trace) / 2**20
print(f"trace {size}: {mib:.0f} MiB, loaded in {load:.2f} s; {n} State As Is intervals")
print(f"{'python arrays':<22}{py_s:8.3f} s {n / py_s / 1e6:8.1f} M intervals/s")
print(f"{'paramedir dump (C++)':<22}{cli_s:8.3f} s {n / cli_s / 1e6:8.1f} M intervals/s")
print(f"{'a Python function':<22}{fn_s:8.3f} s {n / fn_s / 1e6:8.1f} M intervals/s "
      "(State As Is as a Python thread function, batched)")
print(f"{'evaluation only (C++)':<22}{core_s:8.3f} s {n / core_s / 1e6:8.1f} M intervals/s")
print(f"ratio python / paramedir: {py_s / cli_s:.2f} (goal <= 1.5); python / evaluation only: "
      f"{py_s / core_s:.2f}; peak RSS {rss:.0f} MiB")
