"""Python semantic functions are called once per batch of intervals (docs/python.md, "Functions
of your own"): on the real traces of tests/data, a Python function equal to a built-in one
gives the built-in's arrays, in batches of many intervals; the same function registered as
stateful (called one interval at a time) gives the same arrays; an exception in the middle of
the trace, a result of the wrong length, shape or dtype fail the request with parallax.Error
naming the function, and the trace stays usable. A C plug-in's thread function is batched the
same way (tests/plugins/batch_plugin.c)."""

import ctypes
import os

import numpy as np
import pytest

import parallax

DATA = os.environ["PARALLAX_TEST_DATA"]
BATCH_PLUGIN = os.path.join(os.path.dirname(os.environ["PARALLAX_BIN"]), "..", "plugins", "libbatch_plugin.so")
TRACES = [os.path.join(DATA, "epoch", "epoch_4proc.prv.gz"), os.path.join(DATA, "omp", "omp2.prv.gz")]
BATCH_MAX = 1024  # src/semantic/rows.h, BatchSize::kMax

CALLS = {}  # function name -> sizes of the batches it was called with


def counted(name, fn):
    CALLS[name] = []

    def call(*args):
        CALLS[name].append(len(args[1]))  # every kind's second argument has one entry per interval
        return fn(*args)
    return call


def state(rec, prev):
    return np.where(rec["kind"] == 1, rec["state"], 0).astype(float)


parallax.register_function("Batch state", "thread", counted("Batch state", state), info="state")
parallax.register_function("Batch state 1 by 1", "thread", counted("Batch state 1 by 1", state),
                           info="state", stateful=True)
parallax.register_function("Batch sign", "compose",
                           counted("Batch sign", lambda v, b, e: (v > 0).astype(np.int8)))
parallax.register_function("Batch product", "derived", counted("Batch product", lambda a, b: a * b))


def cfg(*windows):
    out = ["#ParaverCFG", "ConfigFile.Version: 3.4", f"ConfigFile.NumWindows: {len(windows)}"]
    for w in windows:
        out += w
    return "\n".join(out) + "\n"


def thread_window(name, fn, compose="As Is"):
    return [f"window_name {name}", "window_type single", "window_level thread",
            f"window_selected_functions {{ 1, {{ {{thread, {fn}}} }} }}",
            f"window_compose_functions {{ 1, {{ {{compose_thread, {compose}}} }} }}"]


def derived(fn):
    return cfg(thread_window("s", "State As Is"), thread_window("e", "Last Evt Val"),
               ["window_name d", "window_type composed", "window_identifiers 1 2",
                f"window_operation {fn}"])


def same(w, want):
    assert len(w) == len(want) > 1000
    for name in ("object", "begin", "end", "value"):
        np.testing.assert_array_equal(getattr(w, name), getattr(want, name), err_msg=name)


def batched(name, intervals):
    sizes = CALLS.pop(name)
    CALLS[name] = []
    assert sum(sizes) >= intervals  # every interval computed (a batch may read a little ahead)
    assert max(sizes) == BATCH_MAX and len(sizes) < intervals / 20
    return sizes


@pytest.fixture(scope="module", params=TRACES, ids=os.path.basename)
def trace(request):
    return parallax.open(request.param)


def test_thread_function_in_batches_equals_the_builtin_and_one_by_one(trace):
    want = trace.window(function="State As Is")
    same(trace.window(function="Batch state"), want)
    batched("Batch state", len(want))
    same(trace.window(function="Batch state 1 by 1"), want)
    assert set(CALLS["Batch state 1 by 1"]) == {1}
    # a portion: the rows start in the middle of the trace
    end = trace.info()["trace_end"]
    part = trace.window(function="State As Is", from_=end // 3, to=end // 2)
    np.testing.assert_array_equal(trace.window(function="Batch state", from_=end // 3, to=end // 2).value,
                                  part.value)


def test_compose_function_in_batches_equals_the_builtin(trace):
    want = trace.window(cfg_text=cfg(thread_window("s", "State As Is", "Sign")))
    same(trace.window(cfg_text=cfg(thread_window("s", "State As Is", "Batch sign"))), want)
    batched("Batch sign", len(want))


def test_derived_function_in_batches_equals_the_builtin(trace):
    want = trace.window(cfg_text=derived("product"))
    same(trace.window(cfg_text=derived("Batch product")), want)
    batched("Batch product", len(want))


def test_errors_in_a_batch_fail_the_request_and_name_the_function(trace):
    end = trace.info()["trace_end"]

    def late_failure(v, b, e):
        if (b > end // 2).any():
            raise ValueError("past the middle")
        return v
    parallax.register_function(f"Fails late {end}", "compose", late_failure)
    parallax.register_function(f"Bad dtype {end}", "compose", lambda v, b, e: v.astype(str))
    parallax.register_function(f"Bad complex {end}", "compose", lambda v, b, e: v + 1j)
    parallax.register_function(f"Bad shape {end}", "compose", lambda v, b, e: np.stack([v, v]))
    parallax.register_function(f"Bad length {end}", "compose", lambda v, b, e: v[:-1])
    parallax.register_function(f"Bad scalar {end}", "compose", lambda v, b, e: 1.0)
    parallax.register_function(f"Bad none {end}", "compose", lambda v, b, e: None)
    t = parallax.open(trace.info()["path"])
    cases = [
        ("Fails late", r"Python function 'Fails late \d+' raised ValueError: past the middle "
                       r"\(\S*test_batched_functions.py, line \d+, in late_failure\)\n"),
        ("Bad dtype", r"'Bad dtype \d+' returned an array of dtype <U\d+ \(expected a NumPy array of bool"),
        ("Bad complex", r"'Bad complex \d+' returned an array of dtype complex128"),
        ("Bad shape", r"'Bad shape \d+' returned \d+ values of shape \(2, 16\) for 16 intervals"),
        ("Bad length", r"'Bad length \d+' returned 15 values of shape \(15,\) for 16 intervals"),
        ("Bad scalar", r"'Bad scalar \d+' returned 1 values of shape \(\) for 16 intervals"),
        ("Bad none", r"'Bad none \d+' returned a NoneType"),
    ]
    for name, message in cases:
        with pytest.raises(parallax.Error, match=message) as e:
            t.window(cfg_text=cfg(thread_window("x", "State As Is", f"{name} {end}")))
        assert "user-defined function" in e.value.hint
    # the trace is still usable
    assert len(t.window(function="State As Is")) == len(trace.window(function="State As Is"))


def test_plugin_thread_function_in_batches_equals_the_builtin():
    parallax.load_plugin(BATCH_PLUGIN)
    stats = (ctypes.c_size_t * 3)()
    ctypes.CDLL(BATCH_PLUGIN).plugin_batch_stats(stats)
    assert list(stats) == [0, 0, 0]
    t = parallax.open(TRACES[1])
    want = t.window(function="State As Is")
    same(t.window(function="Plugin state"), want)
    ctypes.CDLL(BATCH_PLUGIN).plugin_batch_stats(stats)
    calls, intervals, largest = stats
    # records reach the kernel converted 64 at a time (src/plugin/plugin_loader.cc)
    assert largest == 64 and intervals >= len(want) and calls < intervals / 20
