"""The structure in Python equals `parallax structure --format json`, and its DataFrames agree
with each other: one row per iteration and rank, the bursts of each cluster add up to its count
and time. Run by ctest as python.pytest."""

import json
import os
import re
import subprocess

import pytest

import parallax

BIN = os.environ["PARALLAX_BIN"]
GEN = os.path.join(os.path.dirname(BIN), "parallax-gen")
DATA = os.environ["PARALLAX_TEST_DATA"]


@pytest.fixture(scope="module")
def generated(tmp_path_factory):
    out = tmp_path_factory.mktemp("structure") / "g"
    log = subprocess.run([GEN, "--size", "4M", "--seed", "3", "--tasks", "4", "--threads", "4", "--out", str(out)],
                         check=True, capture_output=True, text=True).stderr
    planted = int(re.search(r"(\d+) iterations", log).group(1))
    return str(out) + ".prv", planted


def test_iterations_are_the_planted_ones_and_equal_the_command_line(generated):
    path, planted = generated
    s = parallax.open(path).structure()
    assert s.found and s.summary["iterations"]["count"] == planted
    cli = json.loads(subprocess.run([BIN, "structure", path, "--format", "json"], check=True,
                                    capture_output=True, text=True).stdout)
    assert cli["iterations"]["count"] == planted
    assert [c["bursts"] for c in s.summary["clusters"]] == [c["bursts"] for c in cli["clusters"]]
    it = s.iterations()
    assert list(it.iteration) == list(range(1, planted + 1))
    assert (it.duration_s > 0).all()
    by_rank = s.iterations(by_rank=True)
    assert len(by_rank) == planted * len(s.summary["ranks"])
    assert (by_rank.end > by_rank.begin).all()
    assert "iterations" in str(s) and "Structure" in repr(s)


def test_bursts_add_up_to_the_clusters(generated):
    path, _ = generated
    s = parallax.open(path).structure()
    b = s.bursts()
    assert set(b.columns) == {"thread", "begin", "end", "cluster", "instructions", "ipc"}
    assert len(b) == s.summary["clustering"]["bursts"]
    counts = b.cluster.value_counts()
    for c in s.clusters().itertuples():
        assert counts[c.id] == c.bursts
    assert counts.get(0, 0) == s.summary["noise"]["bursts"]
    assert counts.get(-1, 0) == s.summary["filtered"]["bursts"]
    assert counts.get(-2, 0) == s.summary["missing"]["bursts"]
    # Three planted behaviours: the three largest clusters, with their IPCs.
    ipcs = sorted(round(x, 1) for x in s.clusters().mean_ipc[:3])
    assert ipcs == [0.6, 1.2, 1.8]


def test_marker_and_no_loop():
    epoch = os.path.join(DATA, "epoch", "epoch_2proc.prv.gz")
    s = parallax.open(epoch).structure()
    assert not s.found and s.iterations().empty
    assert s.summary["iterations"]["why_none"]
    # A marker the trace does not have: no iterations, said, and the bursts still clustered.
    m = parallax.open(epoch).structure(marker=(60000019, 3))
    assert not m.found and "marker" in m.summary["iterations"]["why_none"]
    assert len(m.clusters()) > 0


def test_compare_rows_equal_the_command_line(tmp_path):
    a, b = tmp_path / "a", tmp_path / "b"
    for out, extra in ((a, []), (b, ["--slow-task", "1", "--slow-factor", "1.3"])):
        subprocess.run([GEN, "--iterations", "12", "--tasks", "4", "--threads", "2", "--seed", "5", "--out", str(out)]
                       + extra, check=True, capture_output=True)
    c = parallax.compare(str(a) + ".prv", parallax.open(str(b) + ".prv"), by="rank")
    cli = json.loads(subprocess.run([BIN, "compare", str(a) + ".prv", str(b) + ".prv", "--by", "rank",
                                     "--no-pop", "--format", "json"], check=True, capture_output=True,
                                    text=True).stdout)
    rows = c.rows()
    assert list(rows.unit) == [r["unit"] for r in cli["rows"]]
    assert rows.unit[0] == "1.2 computation" and rows.ratio[0] > 1.1
    assert rows.diff_s.tolist() == pytest.approx([r["diff_s"] for r in cli["rows"]], abs=1e-12)
    assert c.pop().empty and "B - A" in str(c)
    with pytest.raises(ValueError):
        parallax.compare(str(a) + ".prv", str(b) + ".prv", by="nothing")


def test_difference_window_equals_the_command_line(tmp_path):
    a, b = tmp_path / "a", tmp_path / "b"
    for out, extra in ((a, []), (b, ["--slow-task", "1", "--slow-factor", "1.3"])):
        subprocess.run([GEN, "--iterations", "12", "--tasks", "4", "--threads", "2", "--seed", "5", "--out", str(out)]
                       + extra, check=True, capture_output=True)
    cfg = os.path.join(DATA, "cfg", "bsc", "mpi", "analysis", "mpi_stats.cfg")
    c = parallax.compare(str(a) + ".prv", str(b) + ".prv", by="rank")
    w = c.window(cfg, iteration=3)
    cli = json.loads(subprocess.run([BIN, "compare", str(a) + ".prv", str(b) + ".prv", "--no-pop", "--format", "json",
                                     "--cfg", cfg, "--iteration", "3"], check=True, capture_output=True,
                                    text=True).stdout)["windows"][0]
    assert w.summary["objects"] == cli["objects"] and w.summary["from"] == cli["from"]
    objects = w.objects()
    assert list(objects.name) == [o["name"] for o in cli["objects"]]
    # The intervals' time-weighted means are the objects' means; they tile A's range.
    iv = w.intervals()
    first = iv[iv.object == "THREAD 1.1.1"]
    span = (first.end - first.begin).sum()
    assert span == cli["to"] - cli["from"]
    assert ((first.end - first.begin) * first.a).sum() / span == pytest.approx(objects.a_mean[0], rel=1e-9)
    assert (iv["diff"] == iv.a - iv.b).all()
    h = w.histograms()[0]
    assert h.attrs["name"] == cli["histograms"][0]["name"] and len(h) == len(cli["histograms"][0]["rows"]) * len(
        cli["histograms"][0]["columns"])
    assert w.diff_image.data[:4] == b"\x89PNG" and w.ratio_image.format == "png"
    assert "A - B" in str(w)
    with pytest.raises(parallax.Error, match="iteration 13 is not in both runs"):
        c.window(cfg, iteration=13)
