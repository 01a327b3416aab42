"""examples/analysis.ipynb runs headless from start to end (jupyter nbconvert --execute, the
kernel being Debian's python3 with this build's module) and shows what it says: the trace's
summary as HTML, the plots as images, and the same parallel efficiency as `parallax pop`. Run by
ctest as python.notebook; everything it writes (the executed copy, the kernel's connection
file, IPython's and matplotlib's folders) is in pytest's temporary folder."""

import json
import os
import re
import subprocess
import sys

import pytest

nbformat = pytest.importorskip("nbformat", reason="needs Debian's python3-nbconvert (scripts/setup.sh)")
pytest.importorskip("nbconvert", reason="needs Debian's python3-nbconvert (scripts/setup.sh)")
pytest.importorskip("ipykernel", reason="needs Debian's python3-ipykernel (scripts/setup.sh)")

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
NOTEBOOK = os.path.join(ROOT, "examples", "analysis.ipynb")
BIN = os.environ["PARALLAX_BIN"]
DATA = os.environ["PARALLAX_TEST_DATA"]


def test_the_example_notebook_runs_headless_and_shows_the_analysis(tmp_path):
    before = sorted(os.listdir(os.path.dirname(NOTEBOOK)))
    env = dict(os.environ, JUPYTER_RUNTIME_DIR=str(tmp_path / "runtime"), IPYTHONDIR=str(tmp_path / "ipython"),
               MPLCONFIGDIR=str(tmp_path / "mpl"), JUPYTER_DATA_DIR=str(tmp_path / "data"))
    env.pop("DISPLAY", None)
    subprocess.run([sys.executable, "-m", "nbconvert", "--to", "notebook", "--execute",
                    "--ExecutePreprocessor.timeout=600", "--output-dir", str(tmp_path), NOTEBOOK],
                   env=env, check=True, capture_output=True)
    assert sorted(os.listdir(os.path.dirname(NOTEBOOK))) == before  # nothing written beside it
    nb = nbformat.read(tmp_path / "analysis.ipynb", as_version=4)
    code = [c for c in nb.cells if c.cell_type == "code"]
    assert code and all(c.execution_count is not None for c in code)
    outputs = [o for c in code for o in c.outputs]
    assert not [o for o in outputs if o.output_type == "error"]
    text = "".join(o.get("text", "") for o in outputs if o.output_type == "stream")

    # The trace's summary (its first cell's result) is an HTML table with its numbers.
    info = json.loads(subprocess.run([BIN, "info", "--json", os.path.join(DATA, "epoch", "epoch_4proc.prv.gz")],
                                     check=True, capture_output=True, text=True).stdout)
    first = code[0].outputs[-1]["data"]["text/html"]
    assert f"<th style=\"text-align:left\">tasks</th><td>{info['tasks']}</td>" in first
    assert f"{info['tasks']} tasks, {info['threads']} threads" in text

    # Every plot() cell shows an image: the window, the histogram, the POP table, the profile.
    plots = [c for c in code if ".plot(" in c.source or "_plot.profile(" in c.source]
    assert len(plots) == 4
    for c in plots:
        assert any("image/png" in o.get("data", {}) for o in c.outputs), c.source

    # The POP table's parallel efficiency is the command line's.
    pop = json.loads(subprocess.run([BIN, "pop", "--format", "json", os.path.join(DATA, "epoch", "epoch_4proc.prv.gz")],
                                    check=True, capture_output=True, text=True).stdout)
    pe = next(f for f in pop["factors"] if f["key"] == "parallel_efficiency")["values"][0]
    assert re.search(r"Parallel efficiency: ([0-9.]+) %", text).group(1) == f"{pe:.2f}"
