"""User-defined semantic functions from Python (docs/plugins.md, docs/python.md): the example
plug-in and Python callables, used from cfgs on a small trace whose values are worked out by
hand (the same trace as tests/golden/plugins.sh)."""

import os

import numpy as np
import pytest

import parallax

BIN = os.environ["PARALLAX_BIN"]
PLUGINS = os.path.join(os.path.dirname(BIN), "..", "plugins")
EXAMPLE = os.path.join(PLUGINS, "libparallax_example.so")

# THREAD 1.1.1: states 1 [0,100), 2 [100,300), 1 [300,1000); events 10:3 at 150, 10:5 at 400, 20:9 at 700
# THREAD 1.1.2: states 3 [0,500), 1 [500,1000); event 10:4 at 200
PRV = """#Paraver (01/01/2024 at 00:00):1000_ns:1(2):1:1(2:1)
1:1:1:1:1:0:100:1
1:2:1:1:2:0:500:3
1:1:1:1:1:100:300:2
2:1:1:1:1:150:10:3
2:2:1:1:2:200:10:4
1:1:1:1:1:300:1000:1
2:1:1:1:1:400:10:5
1:2:1:1:2:500:1000:1
2:1:1:1:1:700:20:9
"""


def cfg(*windows):
    """A cfg of windows given as lists of lines."""
    out = ["#ParaverCFG", "ConfigFile.Version: 3.4", f"ConfigFile.NumWindows: {len(windows)}"]
    for w in windows:
        out += w
    return "\n".join(out) + "\n"


def compose_window(name, fn):
    return [f"window_name {name}", "window_type single", "window_level thread",
            "window_selected_functions { 1, { {thread, State As Is} } }",
            f"window_compose_functions {{ 1, {{ {{compose_thread, {fn}}} }} }}"]


def intervals(w, obj=0):
    m = w.object == obj
    return [(int(b), int(e), float(v)) for b, e, v in zip(w.begin[m], w.end[m], w.value[m])]


@pytest.fixture(scope="module")
def prv(tmp_path_factory):
    p = tmp_path_factory.mktemp("plugins") / "t.prv"
    p.write_text(PRV)
    return p


def test_plugin_listed_and_used(prv):
    parallax.load_plugin(EXAMPLE)
    names = {f["name"]: f for f in parallax.functions()}
    assert names["Value squared"]["group"] == "compose"
    assert names["Value squared"]["origin"].endswith("libparallax_example.so")
    assert names["Weighted sum"]["params"] == ["weight a", "weight b"]
    t = parallax.open(prv)
    w = t.window(cfg_text=cfg(compose_window("sq", "Value squared")))
    assert intervals(w, 0) == [(0, 100, 1.0), (100, 300, 4.0), (300, 1000, 1.0)]
    assert intervals(w, 1) == [(0, 500, 9.0), (500, 1000, 1.0)]
    w = t.window(function="Events so far")
    assert intervals(w, 0) == [(0, 150, 0.0), (150, 400, 1.0), (400, 700, 2.0), (700, 1000, 3.0)]
    # loading it again is a duplicate name
    with pytest.raises(parallax.Error, match="already has this name"):
        parallax.load_plugin(EXAMPLE)


def test_python_compose_and_derived(prv):
    parallax.register_function("Py times k", "compose", lambda v, b, e, k: v * k[0],
                               params=[("k", [3])], info="none", doc="x times k")
    parallax.register_function("Py duration", "compose", lambda v, b, e: (e - b).astype(float))
    parallax.register_function("Py max", "derived", lambda a, b: np.maximum(a, b))
    assert any(f["name"] == "Py times k" and f["origin"] == "python" for f in parallax.functions())
    t = parallax.open(prv)
    w = t.window(cfg_text=cfg(compose_window("k", "Py times k")))
    assert intervals(w, 0) == [(0, 100, 3.0), (100, 300, 6.0), (300, 1000, 3.0)]
    w = t.window(cfg_text=cfg(compose_window("d", "Py duration")))
    assert intervals(w, 1) == [(0, 500, 500.0), (500, 1000, 500.0)]
    # max(3 × state, duration) on thread 1.1.2: max(9, 500), max(3, 500)
    text = cfg(compose_window("k", "Py times k"), compose_window("d", "Py duration"),
               ["window_name m", "window_type composed", "window_identifiers 1 2",
                "window_operation Py max"])
    w = t.window(cfg_text=text)
    assert intervals(w, 1) == [(0, 500, 500.0), (500, 1000, 500.0)]


def test_python_thread_function(prv):
    # The value of the last event of type 10, 0 before the first one.
    def last10(rec, prev):
        is10 = (rec["kind"] == 3) & (rec["event_type"] == 10)
        return np.where(is10, rec["event_value"], np.where(rec["kind"] == 0, 0.0, prev))
    parallax.register_function("Py last 10", "thread", last10, records="events", stateful=True,
                               info="event value")
    t = parallax.open(prv)
    w = t.window(function="Py last 10")
    assert w.info_type == "event value"
    assert intervals(w, 0) == [(0, 150, 0.0), (150, 400, 3.0), (400, 700, 5.0), (700, 1000, 5.0)]


def test_python_exception_is_an_error_of_the_request(prv):
    def boom(v, b, e):
        raise ZeroDivisionError("no way")
    parallax.register_function("Py boom", "compose", boom)
    parallax.register_function("Py short", "compose", lambda v, b, e: np.zeros(len(v) + 1))
    t = parallax.open(prv)
    with pytest.raises(parallax.Error, match=r"Python function 'Py boom' raised ZeroDivisionError: no way"):
        t.window(cfg_text=cfg(compose_window("b", "Py boom")))
    # one batch per thread: 3 intervals and the trailing one on thread 1.1.1, 2 and 1 on 1.1.2
    with pytest.raises(parallax.Error, match=r"'Py short' returned (5 values of shape \(5,\) for 4|"
                                             r"4 values of shape \(4,\) for 3) intervals"):
        t.window(cfg_text=cfg(compose_window("s", "Py short")))
    # the trace is still usable
    assert len(t.window(function="State As Is")) == 5


def test_bad_registrations():
    with pytest.raises(parallax.Error, match="a built-in function has this name"):
        parallax.register_function("As Is", "compose", lambda v, b, e: v)
    with pytest.raises(parallax.Error, match="unknown kind 'histogram'"):
        parallax.register_function("Py bad kind", "histogram", lambda v: v)
    with pytest.raises(parallax.Error, match="cannot contain braces"):
        parallax.register_function("Py {bad}", "compose", lambda v, b, e: v)
    with pytest.raises(ValueError, match="unknown record kind"):
        parallax.register_function("Py bad records", "thread", lambda r, p: p, records="flags")
    with pytest.raises(parallax.Error, match="invalid ELF header"):
        parallax.load_plugin(__file__)


def test_window_level(prv):
    # State As Is added over the task's two threads: 1+3, 2+3, 1+3, 1+1.
    t = parallax.open(prv)
    w = t.window(function="State As Is", level="task")
    assert w.level == "TASK" and w.object_names == ["TASK 1.1"]
    assert intervals(w, 0) == [(0, 100, 4.0), (100, 300, 5.0), (300, 500, 4.0), (500, 1000, 2.0)]
    assert len(t.window(function="State As Is", level="THREAD").object_names) == 2
    with pytest.raises(parallax.Error, match="unknown level 'rank'"):
        t.window(function="State As Is", level="rank")
