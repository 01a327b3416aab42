"""The standard views from Python (docs/views.md): listed, used by name wherever a cfg is, equal
to the cfg they are; a wrong name names the closest. Run by ctest as python.pytest."""

import os

import pytest

import parallax

DATA = os.environ["PARALLAX_TEST_DATA"]
EPOCH4 = os.path.join(DATA, "epoch", "epoch_4proc.prv.gz")


def test_views_are_listed_with_what_they_need():
    views = {v["name"]: v for v in parallax.views()}
    assert len(views) >= 12
    assert views["mpi-profile"]["needs"] == ["MPI"]
    assert views["mpi-profile"]["histograms"] == ["MPI profile"]
    assert views["states"]["title"] == "States"


def test_a_view_is_used_by_name_as_its_cfg():
    t = parallax.open(EPOCH4)
    by_view = t.analyze(view="mpi-profile")[0].to_pandas()
    bsc = t.analyze(cfg=os.path.join(DATA, "cfg", "bsc", "mpi", "analysis", "mpi_stats.cfg"))[0].to_pandas()
    assert list(by_view.columns) == list(bsc.columns)
    assert (abs(by_view.values - bsc.values) < 1e-9).all()
    by_text = t.analyze(cfg_text=parallax.view_cfg("mpi-profile"))[0].to_pandas()
    assert (by_text.values == by_view.values).all()
    image = t.timeline(view="mpi-call", width=400)
    assert image.data[:4] == b"\x89PNG"
    w = t.window(view="mpi-call")
    assert w.name == "MPI call"


def test_mistakes():
    with pytest.raises(parallax.Error, match="the closest: mpi-profile"):
        parallax.view_cfg("mpi-profil")
    with pytest.raises(ValueError, match="not both"):
        parallax.open(EPOCH4).analyze(view="mpi-profile", cfg="x.cfg")
