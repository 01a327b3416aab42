"""Issue 38, Python: units said by windows, histograms and frames; a damaged trace warns once per
kind of damage with its numbers; pypop's statistics of a two-application trace have one row per
rank of the MPI application. The answers are worked out by hand from tiny traces written here."""

import gzip
import os
import warnings

import numpy as np
import pytest

import parallax
from parallax import pypop

DATA = os.environ["PARALLAX_TEST_DATA"]
CFG = os.path.join(DATA, "cfg")
EPOCH2 = os.path.join(DATA, "epoch", "epoch_2proc.prv.gz")

# Two applications on one node of 3 cpus, times in ns, the run ends at 1000:
#   appl 1 (MPI), task 1: Running [0, 600), waiting (state 3) [600, 1000); in MPI from 600;
#                         1200 instructions and 600 cycles counted at 600
#   appl 1, task 2:       Running [0, 800), waiting [800, 1000); in MPI from 800;
#                         1600 instructions, 800 cycles counted at 800
#   appl 2 (a helper), task 1: Running [0, 1000), no MPI; 5000 instructions, 2000 cycles.
TWO_APPLS = """#Paraver (01/01/24 at 00:00):1000_ns:1(3):2:2(1:1,1:1),1(1:1)
1:1:1:1:1:0:600:1
1:1:1:1:1:600:1000:3
1:2:1:2:1:0:800:1
1:2:1:2:1:800:1000:3
1:3:2:1:1:0:1000:1
2:1:1:1:1:600:42000050:1200:42000059:600:50000001:1
2:1:1:1:1:1000:50000001:0
2:2:1:2:1:800:42000050:1600:42000059:800:50000001:3
2:2:1:2:1:1000:50000001:0
2:3:2:1:1:1000:42000050:5000:42000059:2000
"""
# The .row names the threads as Extrae does not: the statistics must not read the labels.
TWO_APPLS_ROW = """LEVEL THREAD SIZE 3
rank0.main
rank1.main
helper.main
"""


TWO_APPLS_PCF = """STATES
0    Idle
1    Running
3    Waiting a message
"""


@pytest.fixture
def two_appls(tmp_path):
    (tmp_path / "two.prv").write_text(TWO_APPLS)
    (tmp_path / "two.row").write_text(TWO_APPLS_ROW)
    (tmp_path / "two.pcf").write_text(TWO_APPLS_PCF)
    return tmp_path / "two.prv"


def cfg_text(path, **replace):
    with open(path) as f:
        text = f.read()
    for old, new in replace.items():
        assert old in text
        text = text.replace(old, new)
    return text


# -- units ------------------------------------------------------------------------------------

def test_window_values_say_their_unit(two_appls):
    t = parallax.open(two_appls)
    w = t.window(function="State As Is")
    assert w.unit == "state" and w.time_unit == "ns"
    df = w.to_pandas()
    assert df.attrs["unit"] == "state"
    assert df.attrs["units"] == {"begin": "ns", "end": "ns", "duration": "ns", "value": "state"}
    # State Record Dur. in a window of microseconds (the cfg's window_units): the first
    # Running of thread 1.1.1 lasts 600 ns, shown as 0.6 us.
    d = t.window(cfg=os.path.join(CFG, "bsc/General/views/state_duration.cfg"))
    assert d.unit == "us"
    first = d.to_pandas().query("object == 'THREAD 1.1.1' and begin == 0").value
    assert first.tolist() == [pytest.approx(0.6)]
    # A function the core declares without a unit ("In State": 1 or 0) says so.
    assert t.window(function="In State", parameters=[1]).unit == "number"
    assert "values in state" in repr(w)


def test_bandwidth_and_sizes_say_their_unit(tmp_path):
    t = parallax.open(EPOCH2)
    # The cfg calls its windows "Send bandwidth (MB/s)" and evaluates them in microseconds:
    # bytes per microsecond are MB/s.
    bw = t.window(cfg=os.path.join(CFG, "bsc/mpi/views/point2point/sr_bandwidth.cfg"),
                  window="Send bandwidth (MB/s)")
    assert bw.unit == "MB/sec"
    assert t.window(function="Last Send Size").unit == "bytes"


def test_histogram_statistics_say_their_unit(two_appls):
    t = parallax.open(two_appls)
    cfg = os.path.join(CFG, "pypop/total_useful_computation.cfg")
    h = t.analyze(cfg)[0]
    assert h.unit == "ns" and h.frame.attrs["unit"] == "ns"
    assert h.frame["Running"].tolist() == [600, 800, 1000]
    # The same cfg in microseconds: the values and the unit change together.
    us = t.analyze(cfg_text=cfg_text(cfg, **{"window_units Nanoseconds": "window_units Microseconds"}))[0]
    assert us.unit == "us"
    assert us.frame["Running"].tolist() == pytest.approx([0.6, 0.8, 1.0])
    # Counts and shares: one Running burst per thread, 60 %, 80 %, 100 % of the window.
    n = t.analyze(cfg_text=cfg_text(cfg, **{"Statistic: Time": "Statistic: # Bursts"}))[0]
    assert n.unit == "count" and n.frame["Running"].tolist() == [1, 1, 1]
    p = t.analyze(cfg_text=cfg_text(cfg, **{"Statistic: Time": "Statistic: % Window Time"}))[0]
    assert p.unit == "%" and p.frame["Running"].tolist() == pytest.approx([60, 80, 100])


def test_pop_table_and_pipit_frames_say_their_units():
    p = parallax.pop([EPOCH2])
    assert p.units["Parallel efficiency"] == "%"
    assert p.units["Runtime (us)"] == "us"
    assert p.units["Average frequency (GHz)"] == "GHz"
    assert p.frame.attrs["units"]["Speedup"] == "x"


def test_pipit_frames_say_their_units(two_appls):
    t = parallax.open(two_appls)
    fp = t.flat_profile(metrics=["time.exc", "count"], per_process=True)
    assert fp.attrs["units"] == {"time.exc": "ns", "count": "count"}
    assert fp.loc[("Computation", 0), "time.exc"] == 600  # task 1.1 ran [0, 600)
    assert t.time_profile(num_bins=2).attrs["unit"] == "ns"
    assert t.time_profile(num_bins=2, normalized=True).attrs["units"]["Computation"] == "fraction"
    assert t.comm_by_process(output="count").attrs["unit"] == "count"
    assert t.idle_time().attrs["units"]["Idle Time"] == "ns"
    li = t.load_imbalance()
    assert li.attrs["units"]["time.exc.imbalance"] == "ratio" and li.attrs["units"]["time.exc.mean"] == "ns"
    # plot() reads the unit from attrs when not given.
    ax = parallax._plot.profile(t.flat_profile()).axes[0]
    assert ax.get_xlabel() == "time.exc (ns)"


# -- damage -----------------------------------------------------------------------------------

def load_warnings(path, **kw):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        t = parallax.open(path, **kw)
    return t, [w.message for w in caught if issubclass(w.category, parallax.LoadWarning)]


def test_a_cut_prv_warns_once_with_what_was_lost(tmp_path):
    # The first 800 000 bytes of epoch_2proc's 1 594 251: the cut falls inside a line, so the
    # loader reports both a missing final newline and an incomplete last line: one warning.
    with gzip.open(EPOCH2, "rb") as f:
        whole = f.read()
    (tmp_path / "cut.prv").write_bytes(whole[:800_000])
    complete_lines = whole[:800_000].count(b"\n") - 1  # header excluded
    t, ws = load_warnings(tmp_path / "cut.prv")
    assert len(ws) == 1, [str(w) for w in ws]
    w = ws[0]
    assert w.kind == "cut_short" and w.count == 2
    info = t.info()
    # Independently: the last complete record line read is the latest time of the file.
    last_line = whole[:800_000].rsplit(b"\n", 2)[-2].decode()
    assert info["last_time"] >= int(last_line.split(":")[5])
    assert w.end_time == 11528373565 and w.last_time == info["last_time"] < w.end_time
    assert w.missing_share == pytest.approx(1 - info["last_time"] / 11528373565)
    assert f"{w.missing_share:.1%}" in str(w) and "1 incomplete line skipped" in str(w)
    assert f"{info['records']} records read" in str(w)
    assert complete_lines > 0 and "cut.prv:" in str(w)


def test_a_cut_gz_and_skipped_records_warn_with_their_counts(tmp_path):
    with open(EPOCH2, "rb") as f:
        (tmp_path / "cut.prv.gz").write_bytes(f.read(60_000))
    _, ws = load_warnings(tmp_path / "cut.prv.gz")
    assert [w.kind for w in ws] == ["cut_short"]
    assert "compressed input cut short" in str(ws[0]) and "% of the run's time is missing" in str(ws[0])
    # Three records with a negative time and one of an unknown type: two kinds, two warnings,
    # each with its count; the good records are all kept.
    lines = TWO_APPLS.splitlines()
    bad = lines + ["1:1:1:1:1:-5:10:1", "2:1:1:1:1:-1:7:7", "1:1:1:1:1:-9:10:1", "9:1:1:1:1:1"]
    (tmp_path / "bad.prv").write_text("\n".join(bad) + "\n")
    t, ws = load_warnings(tmp_path / "bad.prv")
    kinds = {w.kind: w for w in ws}
    assert sorted(kinds) == ["negative_time", "unknown_record_type"]
    assert kinds["negative_time"].count == 3 and ": 3 (first: " in str(kinds["negative_time"])
    assert kinds["unknown_record_type"].count == 1
    assert t.info()["states"] == 5
    # A clean trace warns nothing.
    (tmp_path / "good.prv").write_text(TWO_APPLS)
    assert load_warnings(tmp_path / "good.prv")[1] == []


def test_damage_warns_again_from_the_cache(tmp_path):
    with gzip.open(EPOCH2, "rb") as f:
        (tmp_path / "cut.prv").write_bytes(f.read(700_001))
    first = [str(w) for w in load_warnings(tmp_path / "cut.prv", cache=True, cache_dir=tmp_path / "c")[1]]
    again = [str(w) for w in load_warnings(tmp_path / "cut.prv", cache=True, cache_dir=tmp_path / "c")[1]]
    assert len(first) == 1 and again == first


# -- pypop of two applications ----------------------------------------------------------------

def test_pypop_statistics_of_two_applications_are_the_mpi_ranks(two_appls):
    t = parallax.open(two_appls)
    assert pypop.mpi_application(t) == 1
    s = pypop.statistics(t, os.path.join(CFG, "pypop"))
    assert list(s.index) == [(1, 1), (2, 1)]  # the helper process is not a rank
    assert s["Total Runtime"].tolist() == [1000, 1000]
    assert s["Serial Useful Computation"].tolist() == [600, 800]
    assert s["Useful Instructions"].tolist() == [1200, 1600]
    assert s["Useful Cycles"].tolist() == [600, 800]
    assert s["IPC"].tolist() == [2, 2]
    m = pypop.mpi_metrics({2: s}).loc[2]
    assert m["Parallel Efficiency"] == pytest.approx(0.7)       # (600 + 800) / 2 / 1000
    assert m["MPI Load Balance"] == pytest.approx(0.875)        # 700 / 800
    assert m["MPI Communication Efficiency"] == pytest.approx(0.8)
    assert m["Number of Processes"] == 2
    # The helper on its own, when asked for.
    h = pypop.statistics(t, os.path.join(CFG, "pypop"), appl=2)
    assert list(h.index) == [(1, 1)] and h["Useful Instructions"].tolist() == [5000]
    with pytest.raises(ValueError, match="applications are"):
        pypop.statistics(t, os.path.join(CFG, "pypop"), appl=3)


def test_pypop_asks_which_application_when_none_has_mpi(tmp_path):
    body = TWO_APPLS.replace(":50000001:1\n", "\n").replace(":50000001:3\n", "\n")
    body = "\n".join(line for line in body.splitlines() if "50000001" not in line)
    (tmp_path / "nompi.prv").write_text(body + "\n")
    t = parallax.open(tmp_path / "nompi.prv")
    with pytest.raises(ValueError, match="none has MPI calls"):
        pypop.statistics(t, os.path.join(CFG, "pypop"))
