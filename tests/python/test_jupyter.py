"""Issue 38, Python in Jupyter: plot() helpers (matplotlib, headless), HTML display of traces,
windows, histograms, the POP table and the diagnosis, and Arrow / polars conversions. The
answers come from a tiny hand-written trace or from the command line."""

import json
import os
import struct
import subprocess
import sys
import types

import numpy as np
import pytest

import parallax

BIN = os.environ["PARALLAX_BIN"]
DATA = os.environ["PARALLAX_TEST_DATA"]
CFG = os.path.join(DATA, "cfg")
EPOCH2 = os.path.join(DATA, "epoch", "epoch_2proc.prv.gz")

# Three threads, the run ends at 1000 ns: thread 1.1.1 Running [0, 600) then state 3; thread
# 1.2.1 Running [0, 800) then state 3; thread 1.3.1 Running the whole time.
TRACE = """#Paraver (01/01/24 at 00:00):1000_ns:1(3):1:3(1:1,1:1,1:1)
1:1:1:1:1:0:600:1
1:1:1:1:1:600:1000:3
1:2:1:2:1:0:800:1
1:2:1:2:1:800:1000:3
1:3:1:3:1:0:1000:1
"""
PCF = """STATES
1    Running
3    Waiting a message
"""


@pytest.fixture
def tiny(tmp_path):
    (tmp_path / "t.prv").write_text(TRACE)
    (tmp_path / "t.pcf").write_text(PCF)
    return parallax.open(tmp_path / "t.prv")


def png_size(path):
    with open(path, "rb") as f:
        head = f.read(24)
    assert head[:8] == b"\x89PNG\r\n\x1a\n"
    return struct.unpack(">II", head[16:24])


# -- plots ------------------------------------------------------------------------------------

def test_window_matrix_is_the_time_weighted_mean_per_bin(tiny):
    # In State 1 is 1 while Running: in bins of 250 ns, thread 1 runs 100 of [500, 750).
    m, edges = tiny.window(function="In State", parameters=[1]).matrix(columns=4)
    assert edges.tolist() == [0, 250, 500, 750, 1000]
    np.testing.assert_allclose(m, [[1, 1, 0.4, 0], [1, 1, 1, 0.2], [1, 1, 1, 1]])
    # States name things: the value at each bin's middle (125, 375, 625, 875 ns).
    s, _ = tiny.window(function="State As Is").matrix(columns=4)
    np.testing.assert_array_equal(s, [[1, 1, 3, 3], [1, 1, 1, 3], [1, 1, 1, 1]])


def test_window_plot_is_an_image_of_rows_by_time(tiny, tmp_path):
    w = tiny.window(function="In State", parameters=[1])
    fig = w.plot(figsize=(8, 3))
    ax = fig.axes[0]
    assert ax.get_xlabel() == "time (us)" and ax.get_ylabel() == "thread"
    assert [t.get_text() for t in ax.get_yticklabels()] == w.object_names
    image = ax.get_images()[0].get_array()
    np.testing.assert_allclose(image[0, :3], [1, 1, 1])
    assert fig.axes[1].get_ylabel() == "In State (number)"  # the colour bar says the unit
    fig.savefig(tmp_path / "timeline.png", dpi=100)
    assert png_size(tmp_path / "timeline.png") == (800, 300)
    # A state window: a legend of the states seen instead of a colour bar.
    fig = tiny.window(function="State As Is").plot()
    assert len(fig.axes) == 1
    legend = {t.get_text() for t in fig.axes[0].get_legend().get_texts()}
    assert legend in ({"1", "3"}, {"Running", "Waiting a message"})  # codes, or their .pcf labels


def test_profile_plot_bars_are_the_histogram(tiny, tmp_path):
    h = tiny.analyze(os.path.join(CFG, "pypop/total_useful_computation.cfg"))[0]
    fig = h.plot()
    ax = fig.axes[0]
    assert ax.get_xlabel() == "Running (ns)"
    bars = {t.get_text(): p.get_width() for t, p in zip(ax.get_yticklabels(), ax.patches)}
    assert bars == {"THREAD 1.1.1": 600, "THREAD 1.2.1": 800, "THREAD 1.3.1": 1000}
    fig.savefig(tmp_path / "profile.png", dpi=50)
    assert png_size(tmp_path / "profile.png") == tuple(int(x * 50) for x in fig.get_size_inches())
    # A Pipit flat profile: bars of time.exc, largest at the top.
    fp = tiny.flat_profile()
    ax = parallax._plot.profile(fp, unit="ns").axes[0]
    assert ax.get_yticklabels()[-1].get_text() == fp["time.exc"].idxmax()
    assert ax.get_xlabel() == "time.exc (ns)"


def test_pop_plot_has_a_bar_per_efficiency_and_trace(tmp_path):
    p = parallax.pop([os.path.join(DATA, "epoch", f"epoch_{n}proc.prv.gz") for n in (1, 2)])
    fig = p.plot()
    ax = fig.axes[0]
    assert ax.get_xlabel() == "efficiency (%)"
    effs = [m for m in p.frame.index if p.units[m] == "%"]
    assert [t.get_text() for t in ax.get_yticklabels()] == effs
    widths = sorted(round(b.get_width(), 9) for b in ax.patches)
    assert widths == sorted(round(v, 9) for v in p.frame.loc[effs].to_numpy().ravel())
    fig.savefig(tmp_path / "pop.png")
    assert os.path.getsize(tmp_path / "pop.png") > 1000


def test_plots_need_no_display():
    # A fresh interpreter without DISPLAY and with no backend chosen: pyplot is never used.
    code = ("import parallax, sys; t = parallax.open(sys.argv[1]);"
            "t.window(function='State As Is').plot().savefig(sys.argv[2]);"
            "print('matplotlib.pyplot' in sys.modules)")
    env = dict(os.environ)
    env.pop("DISPLAY", None)
    env.pop("MPLBACKEND", None)
    out = subprocess.run([sys.executable, "-c", code, EPOCH2, os.devnull], env=env, check=True,
                         capture_output=True, text=True)
    assert out.stdout.strip() == "False"


# -- HTML ------------------------------------------------------------------------------------

def test_trace_html_has_its_numbers(tiny):
    html = tiny._repr_html_()
    for row in ("<th style=\"text-align:left\">tasks</th><td>3</td>",
                "<th style=\"text-align:left\">threads</th><td>3</td>",
                "<th style=\"text-align:left\">states</th><td>5</td>",
                "<th style=\"text-align:left\">duration</th><td>1000 ns</td>"):
        assert row in html


def test_window_html_summarises_each_object(tiny):
    html = tiny.window(function="In State", parameters=[1])._repr_html_()
    assert "values in <b>number</b>" in html
    # object, intervals, time, time-weighted mean
    assert "<th style=\"text-align:left\">THREAD 1.1.1</th><td>2</td><td>1000</td><td>0.6</td>" in html
    assert "<th style=\"text-align:left\">THREAD 1.2.1</th><td>2</td><td>1000</td><td>0.8</td>" in html
    assert "data:image/png;base64," in html
    states = parallax._display.window_html(tiny.window(function="State As Is"), image=False)
    assert "value held longest" in states and "<img" not in states


def test_histogram_pop_and_diagnosis_html(tiny):
    h = tiny.analyze(os.path.join(CFG, "pypop/total_useful_computation.cfg"))[0]
    html = h._repr_html_()
    assert "in <b>ns</b>" in html and "<td>600.0</td>" in html and "<td>800.0</td>" in html
    p = parallax.pop([EPOCH2])
    html = p._repr_html_()
    pe = p.frame.loc["Parallel efficiency"].iloc[0]
    assert "<td>%</td>" in html and "<td>us</td>" in html
    assert f"{pe:.6e}" in html or f"{pe:.6f}" in html
    d = parallax.open(EPOCH2).diagnose()
    cli = json.loads(subprocess.run([BIN, "diagnose", "--format", "json", EPOCH2], check=True,
                                    capture_output=True, text=True).stdout)
    html = d._repr_html_()
    assert f"critical path {parallax._display.number(cli['critical_path']['length_s'])} s" in html
    for p in cli["patterns"].values():
        assert f"<th style=\"text-align:left\">{p['name']}</th><td>{parallax._display.number(p['time_s'])}</td>" in html


# -- Arrow / polars --------------------------------------------------------------------------

def _installed(name):
    try:
        __import__(name)
        return True
    except ImportError:
        return False


@pytest.mark.skipif(_installed("pyarrow"), reason="pyarrow is installed")
def test_to_arrow_without_pyarrow_says_what_to_install(tiny):
    for what in (tiny.window(function="State As Is"), tiny.states(),
                 tiny.analyze(os.path.join(CFG, "pypop/total_useful_computation.cfg"))[0]):
        with pytest.raises(ImportError, match=r"to_arrow\(\) needs pyarrow.*pip install pyarrow"):
            what.to_arrow()


@pytest.mark.skipif(_installed("polars"), reason="polars is installed")
def test_to_polars_without_polars_says_what_to_install(tiny):
    with pytest.raises(ImportError, match=r"to_polars\(\) needs polars.*pip install polars"):
        tiny.window(function="State As Is").to_polars()


def test_to_arrow_hands_the_numpy_arrays_over_without_copies(tiny, monkeypatch):
    # A stand-in for pyarrow that records what it is given: the window's own arrays, not copies.
    given = {}
    fake = types.ModuleType("pyarrow")
    fake.array = lambda x, type=None: x
    fake.string = lambda: "string"

    class DictionaryArray:
        @staticmethod
        def from_arrays(codes, names):
            return ("dictionary", codes, names)

    class Table:
        @staticmethod
        def from_arrays(arrays, names):
            given.update(zip(names, arrays))
            t = types.SimpleNamespace(columns=given)
            t.replace_schema_metadata = lambda m: given.setdefault("meta", m) and t
            return t

    fake.DictionaryArray, fake.Table = DictionaryArray, Table
    monkeypatch.setitem(sys.modules, "pyarrow", fake)
    w = tiny.window(function="State As Is")
    w.to_arrow()
    assert given["begin"] is w.begin and given["value"] is w.value
    assert given["object"][1] is w.object and given["object"][2] == w.object_names
    assert given["meta"]["unit.value"] == "state"
