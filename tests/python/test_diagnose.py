"""The diagnosis in Python equals `parallax diagnose --format json`, and its DataFrames add up:
instances per pattern and rank sum to the pattern's per-rank times, the critical path's
segments tile its length. Run by ctest as python.pytest."""

import json
import os
import subprocess

import pytest

import parallax

BIN = os.environ["PARALLAX_BIN"]
DATA = os.environ["PARALLAX_TEST_DATA"]
EPOCH4 = os.path.join(DATA, "epoch", "epoch_4proc.prv.gz")


@pytest.fixture(scope="module")
def diagnosis():
    return parallax.open(EPOCH4).diagnose()


def test_summary_equals_the_command_line(diagnosis):
    cli = json.loads(subprocess.run([BIN, "diagnose", EPOCH4, "--format", "json"], check=True,
                                    capture_output=True, text=True).stdout)
    for key, p in cli["patterns"].items():
        assert diagnosis.summary["patterns"][key]["time_s"] == pytest.approx(p["time_s"], abs=1e-12)
        assert diagnosis.summary["patterns"][key]["count"] == p["count"]
    assert diagnosis.summary["critical_path"]["length_s"] == pytest.approx(
        cli["critical_path"]["length_s"], abs=1e-12)
    assert "Late Sender" in str(diagnosis)


def test_instances_add_up_to_the_patterns(diagnosis):
    inst = diagnosis.instances()
    assert set(inst.columns) >= {"pattern", "rank", "call", "begin_s", "wait_s", "culprit_rank"}
    sums = inst.groupby(["pattern", "rank"])["wait_s"].sum()
    for key, p in diagnosis.summary["patterns"].items():
        assert len(inst[inst.pattern == key]) == p["count"]
        for rank, t in p["by_rank"].items():
            assert sums.get((key, rank), 0.0) == pytest.approx(t, abs=1e-9)
    late = inst[inst.pattern == "late_sender"]
    assert (late.culprit_rank != late["rank"]).all()
    roots = diagnosis.root_causes()
    assert list(roots.columns) == ["rank", "activity", "phase", "short_term_s", "long_term_s"]
    assert roots.long_term_s.is_monotonic_decreasing
    assert roots.long_term_s.sum() <= inst.wait_s.sum() + 1e-9
    pats = diagnosis.patterns()
    assert list(pats.key)[:2] == ["late_sender", "late_receiver"]


def test_critical_path_tiles_its_length(diagnosis):
    cp = diagnosis.critical_path()
    length = diagnosis.summary["critical_path"]["length_s"]
    assert (cp.end_s - cp.begin_s).sum() == pytest.approx(length, abs=1e-9)
    assert (cp.begin_s.iloc[1:].values == cp.end_s.iloc[:-1].values).all()
    assert diagnosis.activities().path_s.sum() == pytest.approx(length, abs=1e-9)
    # The performance impact accounts for every rank-second of the path's span.
    impact = diagnosis.impact()
    totals = diagnosis.summary["critical_path"]["performance_impact"]
    assert impact.impact_s.sum() + totals["unattributed_s"] == pytest.approx(totals["total_s"], abs=1e-9)
    assert totals["total_s"] == pytest.approx(len(diagnosis.ranks) * length, abs=1e-9)
    assert impact.impact_s.is_monotonic_decreasing
    assert (impact.intra_impact_s + impact.inter_impact_s - impact.imbalance_impact_s).abs().max() < 1e-12
    by_rank = diagnosis.by_rank()
    assert list(by_rank.index) == diagnosis.ranks
    assert by_rank.critical_path_s.sum() == pytest.approx(length, abs=1e-9)
    assert (by_rank.late_sender_s <= by_rank.mpi_s + 1e-12).all()


def test_portion_and_errors():
    t = parallax.open(EPOCH4)
    end = t.info()["end_time"]
    part = t.diagnose(from_=end // 4, to=end // 2)
    assert part.summary["end_s"] - part.summary["begin_s"] == pytest.approx(end / 4 * 1e-9, rel=1e-6)
    with pytest.raises(parallax.Error):
        t.diagnose(from_=end // 2, to=end // 4)


def test_semantic_functions_follow_the_diagnosis():
    """The diagnosis functions of the descriptor table, evaluated as windows: "MPI Wait Time"
    gives every instance's waiting from its call's entry, "MPI Wait Pattern" its pattern, and
    the integral of "On Critical Path" over every thread is the critical path's length."""
    t = parallax.open(EPOCH4)
    d = t.diagnose()
    inst = d.instances()
    wait = t.window(function="MPI Wait Time").to_pandas()
    pattern = t.window(function="MPI Wait Pattern").to_pandas()
    keys = list(d.summary["patterns"])
    for name, g in wait.groupby("object"):
        rank = name.split()[-1].rsplit(".", 1)[0]  # THREAD 1.3.1 -> 1.3
        at = g[g.value > 0].groupby("begin").value.max()
        pat = pattern[pattern.object == name].groupby("begin").value.max()
        mine = inst[inst["rank"] == rank]
        assert len(mine) > 0
        for b, w, p in zip(mine.begin_s, mine.wait_s, mine.pattern):
            b = round(b * 1e9)
            assert at[b] == pytest.approx(w * 1e9, abs=1)
            assert keys[int(pat[b]) - 1] == p
    on = t.window(function="On Critical Path").to_pandas()
    assert on.value.between(0, 1).all()
    assert (on.value * on.duration).sum() * 1e-9 == pytest.approx(
        d.summary["critical_path"]["length_s"], rel=1e-9)


def test_openmp_per_thread():
    d = parallax.open(os.path.join(DATA, "omp", "omp2.prv.gz")).diagnose()
    omp = d.openmp()
    assert list(omp.index) == ["1.1.1", "1.1.2"]
    assert list(omp.columns) == ["wait_at_omp_barrier", "omp_idle_threads"]
    assert omp.loc["1.1.1", "omp_idle_threads"] == 0
    assert omp.loc["1.1.2", "omp_idle_threads"] == pytest.approx(
        d.summary["openmp"]["patterns"]["omp_idle_threads"]["time_s"])
