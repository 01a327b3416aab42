"""The Python module against the command line: window arrays equal paramedir's timeline dump,
histogram DataFrames equal paramedir's tables, the POP table equals `parallax pop`, errors
carry the core's file, line and hint. Run by ctest as python.pytest (PYTHONPATH=build/python,
PARALLAX_BIN and PARALLAX_TEST_DATA set)."""

import math
import os
import subprocess

import numpy as np
import pytest

import parallax

BIN = os.environ["PARALLAX_BIN"]
DATA = os.environ["PARALLAX_TEST_DATA"]
EPOCH2 = os.path.join(DATA, "epoch", "epoch_2proc.prv.gz")
CFG = os.path.join(DATA, "cfg")


@pytest.fixture(scope="module")
def epoch2():
    return parallax.open(EPOCH2)


def run_paramedir(tmp_path, trace, cfg, *flags):
    subprocess.run([BIN, "paramedir", *flags, trace, cfg, "out"], cwd=tmp_path, check=True,
                   capture_output=True)
    names = [n for n in os.listdir(tmp_path) if n.startswith("out")]
    assert len(names) == 1, names
    with open(tmp_path / names[0]) as f:
        return f.read()


@pytest.mark.parametrize("cfg", [
    "bsc/General/views/state_as_is.cfg",
    "bsc/mpi/views/MPI_call.cfg",
    "bsc/counters_PAPI/performance/IPC.cfg",
    "bsc/General/views/useful_duration.cfg",
    "bsc/General/views/instantaneous_parallelism.cfg",
])
def test_window_arrays_equal_the_paramedir_dump(tmp_path, epoch2, cfg):
    path = os.path.join(CFG, cfg)
    w = epoch2.window(cfg=path)
    dump = run_paramedir(tmp_path, EPOCH2, path, "-tu")
    lines = dump.splitlines()
    assert len(lines) == len(w) > 0
    labels = [n.split(" ", 1)[1] if " " in n else "" for n in w.object_names]
    for k, line in enumerate(lines):
        label, begin, duration, value = line.split("\t")
        assert label == labels[w.object[k]]
        assert int(begin) == w.begin[k]
        assert int(duration) == w.end[k] - w.begin[k]
        assert abs(float(value) - w.value[k]) <= 0.005 + 1e-9  # printed with 2 decimals


def test_window_of_a_thread_function_over_a_range(epoch2):
    w = epoch2.window(function="State As Is", from_=386000000, to=387100000)
    assert w.level == "THREAD" and w.info_type == "state" and w.time_unit == "ns"
    assert w.object_names == ["THREAD 1.1.1", "THREAD 1.2.1"]
    for o in range(2):
        mine = w.object == o
        begin, end = w.begin[mine], w.end[mine]
        assert begin[0] <= 386000000 < end[0]         # the interval containing `from`
        assert end[-1] >= 387100000 > begin[-1]        # up to the first reaching `to`
        assert np.all(begin[1:] == end[:-1])           # contiguous
    df = w.to_pandas()
    assert list(df.columns) == ["object", "begin", "end", "duration", "value"]
    assert (df["duration"] == df["end"] - df["begin"]).all()
    assert set(df["object"]) == {"THREAD 1.1.1", "THREAD 1.2.1"}


def read_table(text):
    lines = [line for line in text.split("\n")]
    head = lines[0].split("\t")[1:-1]
    rows, values = [], []
    k = 1
    while lines[k]:
        f = lines[k].split("\t")
        rows.append(f[0])
        values.append([float(x) for x in f[1:-1]])
        k += 1
    totals = {}
    for line in lines[k + 1:k + 7]:
        f = line.split("\t")
        totals[f[0]] = [float(x) for x in f[1:-1]]
    return head, rows, values, totals


@pytest.mark.parametrize("cfg", [
    "pypop/useful_instructions.cfg",
    "bsc/mpi/analysis/mpi_stats.cfg",
    "bsc/General/analysis/2dh_useful_duration.cfg",
])
def test_histogram_frames_equal_the_paramedir_tables(tmp_path, epoch2, cfg):
    path = os.path.join(CFG, cfg)
    h = epoch2.analyze(path, all=False)[-1]
    head, rows, values, totals = read_table(run_paramedir(tmp_path, EPOCH2, path, "-npr"))
    assert list(h.frame.columns) == head
    assert list(h.frame.index) == rows
    np.testing.assert_allclose(h.frame.to_numpy(), np.array(values), rtol=1e-9, atol=1e-9)
    assert list(h.totals.index) == ["Total", "Average", "Maximum", "Minimum", "StDev", "Avg/Max"]
    for name, line in totals.items():
        got = h.totals.loc[name].to_numpy()
        np.testing.assert_allclose(got, np.array(line), rtol=1e-9, atol=1e-9, equal_nan=True)


def test_pop_table_equals_the_command_line():
    traces = [os.path.join(DATA, "epoch", f"epoch_{n}proc.prv.gz") for n in (1, 2, 4)]
    table = parallax.pop(traces)
    cli = subprocess.run([BIN, "pop", *traces, "--format", "csv"], check=True,
                         capture_output=True, text=True).stdout
    assert table.csv == cli
    assert list(table.frame.columns) == ["epoch_1proc.prv.gz", "epoch_2proc.prv.gz",
                                         "epoch_4proc.prv.gz"]
    pe = table.frame.loc["Parallel efficiency"].to_numpy()
    # modelfactors.csv's Parallel efficiency line, as a fraction.
    ref = [line for line in cli.splitlines() if line.startswith("Parallel efficiency")][0]
    np.testing.assert_allclose(pe, [float(x) for x in ref.split(";")[1:]], atol=1e-6)


def test_records_match_the_counts_of_info(epoch2):
    info = epoch2.info()
    assert len(epoch2.states()["begin"]) == info["states"]
    assert len(epoch2.events()["type"]) == info["event_pairs"]
    assert len(epoch2.comms()["size"]) == info["comms"]
    ev = epoch2.events().to_pandas()
    mpi_init = ev[(ev["type"] == 50000003) & (ev["value"] == 31)]
    assert sorted(mpi_init["thread"]) == [0, 1]
    assert epoch2.thread_names == ["THREAD 1.1.1", "THREAD 1.2.1"]


def test_thread_names_read_no_record():
    t = parallax.open(os.path.join(DATA, "epoch/epoch_4proc.prv.gz"))
    names = t.thread_names
    assert t._records is None  # the names came from the header and .row, not from extracted records
    assert names == ["THREAD 1.%d.1" % i for i in range(1, 5)]
    assert names == list(t._all_records()["thread_names"])


def test_timeline_png_displays_in_jupyter(epoch2):
    img = epoch2.timeline(os.path.join(CFG, "bsc/mpi/views/MPI_call.cfg"), width=400)
    png = img._repr_png_()
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    assert int.from_bytes(png[16:20], "big") == 400


def test_time_limits_as_the_command_line_takes_them(epoch2):
    end = epoch2.info()["trace_end"]  # ns
    a = epoch2.window(function="State As Is", from_="10%", to="20%")
    b = epoch2.window(function="State As Is", from_=round(end * 0.1), to=round(end * 0.2))
    assert (a.begin == b.begin).all() and len(a.begin) == len(b.begin)
    c = epoch2.window(function="State As Is", from_="1.5s", to="2000ms")
    d = epoch2.window(function="State As Is", from_=1500000000, to=2000000000)
    assert list(c.begin) == list(d.begin)
    with pytest.raises(ValueError, match="not a time"):
        epoch2.window(function="State As Is", from_="soon")


def test_image_save_writes_the_file_and_never_replaces_one(tmp_path, epoch2):
    img = epoch2.timeline(os.path.join(CFG, "bsc/mpi/views/MPI_call.cfg"), width=400)
    out = tmp_path / "mpi.png"
    img.save(out)  # a path object, as pathlib users write it
    assert out.read_bytes() == img.data
    with pytest.raises(FileExistsError):
        img.save(str(out))


def test_errors_carry_file_line_and_hint(tmp_path, epoch2):
    bad = tmp_path / "bad.cfg"
    bad.write_text("#ParaverCFG\nConfigFile.Version: 3.4\nwindow_name bad\nwindow_type single\n"
                   "window_selected_functions { 1, { {thread, No Such Function} } }\n")
    with pytest.raises(parallax.Error) as e:
        epoch2.window(cfg=bad)
    assert e.value.file == str(bad) and e.value.line == 5
    assert "No Such Function" in e.value.message and e.value.hint
    with pytest.raises(parallax.Error) as e:
        parallax.open(tmp_path / "missing.prv")
    assert "missing.prv" in str(e.value)
    with pytest.raises(parallax.Error):
        epoch2.window(function="No Such Function")


def test_progress_is_reported_without_holding_the_gil():
    seen = []
    t = parallax.open(EPOCH2, progress=lambda done, total: seen.append((done, total)))
    assert t.info()["threads"] == 2
    assert seen and seen[-1][0] == seen[-1][1]
    assert all(0 <= done <= total for done, total in seen)


def test_functions_lists_the_descriptor_table():
    names = {f["name"] for f in parallax.functions()}
    assert {"State As Is", "Last Evt Val", "Adding", "divide"} <= names


STATES_CFG = """#ParaverCFG
ConfigFile.Version: 3.4
ConfigFile.NumWindows: 1

window_name states
window_type single
window_level thread
window_units Nanoseconds
window_selected_functions { 1, { {thread, State As Is} } }
< NEW ANALYZER2D >
Analyzer2D.Name: profile
Analyzer2D.ControlWindow: 1
Analyzer2D.Statistic: Time
Analyzer2D.ComputeYScale: False
Analyzer2D.Minimum: 0
Analyzer2D.Maximum: 20
Analyzer2D.Delta: 1
Analyzer2D.UseFixedDelta: True
"""


def test_analyze_a_portion_clips_the_intervals(tmp_path, epoch2):
    # The time per state over [a, b) equals the window's intervals clipped to [a, b) by hand.
    end = epoch2.info()["trace_end"]
    a, b = end // 3, 2 * end // 3
    h = epoch2.analyze(cfg_text=STATES_CFG, from_=a, to=b)[0]
    w = epoch2.window(function="State As Is", from_=a, to=b)
    expected = {}
    for o, begin, stop, value in zip(w.object, w.begin, w.end, w.value):
        d = min(int(stop), b) - max(int(begin), a)
        if d > 0:
            key = (w.object_names[o], int(value))
            expected[key] = expected.get(key, 0) + d
    assert expected
    for row, name in enumerate(h.frame.index):
        for col in range(21):
            got = h.frame.iloc[row, col]
            assert got == expected.get((name, col), 0), (name, col)
    assert h.frame.to_numpy().sum() == 2 * (b - a)
    # The same numbers through the command line (`parallax paramedir --from --to`).
    cfg = tmp_path / "states.cfg"
    cfg.write_text(STATES_CFG)
    head, rows, values, _ = read_table(run_paramedir(tmp_path, EPOCH2, str(cfg), "-npr",
                                                     "--from", str(a), "--to", str(b)))
    np.testing.assert_allclose(h.frame.to_numpy(), np.array(values), rtol=1e-12)


def test_a_bad_portion_raises(epoch2):
    end = epoch2.info()["trace_end"]
    with pytest.raises(parallax.Error, match="empty range"):
        epoch2.analyze(cfg_text=STATES_CFG, from_=500, to=500)
    with pytest.raises(parallax.Error, match="after the trace end"):
        epoch2.analyze(cfg_text=STATES_CFG, to=end + 1)
    with pytest.raises(parallax.Error, match="at or after the trace end"):
        epoch2.window(function="State As Is", from_=end)


def test_pop_of_a_portion_equals_the_command_line():
    trace = os.path.join(DATA, "epoch", "epoch_2proc.prv.gz")
    cli = subprocess.run([BIN, "pop", trace, "--from", "1000000000", "--to", "5000000000",
                          "--format", "csv"], check=True, capture_output=True, text=True).stdout
    assert parallax.pop([trace], from_=1000000000, to=5000000000).csv == cli
    assert parallax.open(trace).pop(from_=1000000000, to=5000000000).csv == cli
    # The runtime of the portion is its length: 4 s.
    assert "#Runtime (us);4000000.00" in cli.splitlines()
    with pytest.raises(parallax.Error, match="after the trace end"):
        parallax.pop([trace], to=10**12)


def test_a_cached_compact_open_gives_the_same_windows(tmp_path, epoch2):
    # The first open writes a cache of compact records in cache_dir, the second reads it.
    cfg = os.path.join(CFG, "bsc/mpi/views/MPI_call.cfg")
    want = epoch2.window(cfg=cfg)
    for _ in range(2):
        t = parallax.open(EPOCH2, cache=True, cache_dir=tmp_path, compact=True)
        info = t.info()  # before any thread is decoded
        assert 1 < info["store_bytes"] / info["records"] < 8
        got = t.window(cfg=cfg)
        for name in ("begin", "end", "value"):
            np.testing.assert_array_equal(getattr(got, name), getattr(want, name))
    assert [p.name for p in tmp_path.iterdir() if p.suffix == ".pxc"] != []


def test_a_trace_cut_short_loads_with_a_warning(tmp_path):
    # The first 30000 bytes of epoch_2proc.prv.gz: a gzip member without its end. What can be
    # read is loaded and a LoadWarning says the input was cut short; strict=True refuses it.
    with open(os.path.join(DATA, "epoch", "epoch_2proc.prv.gz"), "rb") as f:
        (tmp_path / "cut.prv.gz").write_bytes(f.read(30000))
    with pytest.warns(parallax.LoadWarning, match="compressed input cut short"):
        t = parallax.open(tmp_path / "cut.prv.gz")
    assert t.info()["states"] > 0
    with pytest.raises(parallax.Error, match="cut short"):
        parallax.open(tmp_path / "cut.prv.gz", strict=True)
