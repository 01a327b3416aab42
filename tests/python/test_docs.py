"""docs/python.md is executed: every ```python block of the page, in order, in one namespace,
from the repository's root, with matplotlib drawing off-screen."""

import os
import re

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def test_the_python_page_runs(monkeypatch, capsys, tmp_path):
    with open(os.path.join(ROOT, "docs", "python.md")) as f:
        page = f.read()
    blocks = re.findall(r"```python\n(.*?)```", page, re.S)
    assert len(blocks) >= 6
    monkeypatch.chdir(ROOT)
    monkeypatch.setenv("MPLBACKEND", "Agg")
    # The page saves its plot under /tmp; the test saves it in its own temporary folder instead.
    shown = "/tmp/parallax_useful_per_rank.png"
    assert sum(block.count(shown) for block in blocks) == 1
    out = str(tmp_path / "useful_per_rank.png")
    namespace = {}
    for block in blocks:
        exec(compile(block.replace(shown, out), "docs/python.md", "exec"), namespace)
    printed = capsys.readouterr().out
    assert "4 tasks," in printed
    assert "load balance:" in printed
    assert "Parallel efficiency" in printed
    assert "Burst clusters" in printed and namespace["s"].found
    with open(out, "rb") as f:
        assert f.read(8) == b"\x89PNG\r\n\x1a\n"
    useful = namespace["useful"]
    assert list(useful.index) == [f"THREAD 1.{r}.1" for r in (1, 2, 3, 4)]
    assert useful.iloc[0] == pytest.approx(5.920461325)
