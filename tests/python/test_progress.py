"""parallax.open(path, progress=True) reports the load through a tqdm bar when tqdm is
installed (a stand-in tqdm module here, so the test does not depend on python3-tqdm), and
loads silently when it is not."""

import os
import sys
import types

import parallax

EPOCH2 = os.path.join(os.environ["PARALLAX_TEST_DATA"], "epoch", "epoch_2proc.prv.gz")


class FakeBar:
    bars = []

    def __init__(self, total, unit, unit_scale, desc):
        self.total, self.n, self.closed, self.updates = total, 0, False, 0
        FakeBar.bars.append(self)

    def update(self, k):
        assert k >= 0
        self.n += k
        self.updates += 1

    def close(self):
        self.closed = True


def test_progress_true_draws_a_tqdm_bar(monkeypatch):
    monkeypatch.setitem(sys.modules, "tqdm", types.SimpleNamespace(tqdm=FakeBar))
    t = parallax.open(EPOCH2, progress=True)
    assert t.info()["threads"] == 2
    assert len(FakeBar.bars) == 1
    bar = FakeBar.bars[0]
    assert bar.total > 0 and bar.n == bar.total and bar.closed and bar.updates >= 1


def test_progress_true_without_tqdm_is_silent(monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "tqdm", None)  # import tqdm raises ImportError
    t = parallax.open(EPOCH2, progress=True)
    assert t.info()["threads"] == 2
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err == ""


def test_an_exception_in_the_progress_callback_stops_the_load_and_is_raised_as_is():
    calls = []

    def stop(done, total):
        calls.append(done)
        raise KeyboardInterrupt

    try:
        parallax.open(EPOCH2, progress=stop)
    except KeyboardInterrupt:
        pass
    else:
        raise AssertionError("the load went on")
    assert len(calls) == 1  # not called again once it raised
    # the module still loads traces
    assert parallax.open(EPOCH2).info()["threads"] == 2
