"""Pipit's everyday operations on Parallax traces (docs/python.md, "Pipit's operations"), each
checked against an independent answer: the command line (`parallax analyze` with the standard
views' cfgs set to the Time statistic, `parallax cut`) or the .prv text read here. Run by ctest
as python.pytest."""

import gc
import gzip
import json
import os
import subprocess

import numpy as np
import pytest

import parallax

DATA = os.environ["PARALLAX_TEST_DATA"]
BIN = os.environ["PARALLAX_BIN"]
EPOCH = {n: os.path.join(DATA, "epoch", f"epoch_{n}proc.prv.gz") for n in (1, 2, 4)}
OMP = os.path.join(DATA, "omp", "omp2.prv.gz")


def comms_of(path):
    """The `3:` lines of a .prv: sender and receiver task (0-based), logical send and receive
    times, size."""
    opener = gzip.open if path.endswith(".gz") else open
    rows = []
    with opener(path, "rt") as f:
        for line in f:
            if line.startswith("3:"):
                p = line.split(":")
                rows.append((int(p[3]) - 1, int(p[9]) - 1, int(p[5]), int(p[11]), int(p[13])))
    return np.array(rows, dtype=np.int64).reshape(-1, 5)


def cli_time_table(trace, view, tmp_path, extra=()):
    """`parallax analyze` of a standard view with its statistic set to Time (microseconds):
    {column: {row label: ns}}."""
    cfg = tmp_path / f"{view}-time.cfg"
    text = subprocess.run([BIN, "views", view], check=True, capture_output=True, text=True).stdout
    assert "Analyzer2D.Statistic: % Time" in text
    cfg.write_text(text.replace("Analyzer2D.Statistic: % Time", "Analyzer2D.Statistic: Time"))
    out = subprocess.run([BIN, "analyze", trace, "--cfg", str(cfg), "--format", "json", *extra],
                         check=True, capture_output=True, text=True).stdout
    plane = json.loads(out)[0]["planes"][0]
    table = {c: {} for c in plane["columns"]}
    for row in plane["rows"]:
        for c, v in zip(plane["columns"], row["values"]):
            table[c][row["label"]] = round(v * 1000)  # µs with 3 decimals: exact ns
    totals = {name: dict(zip(plane["columns"], values)) for name, values in plane["totals"].items()}
    return table, totals


def per_rank(column):
    """{THREAD 1.r.1: ns} -> {rank: ns}, threads of a task added."""
    out = {}
    for label, v in column.items():
        rank = int(label.split()[1].split(".")[1]) - 1
        out[rank] = out.get(rank, 0) + v
    return out


@pytest.mark.parametrize("n", [2, 4])
def test_comm_matrix_and_by_process_equal_the_prv_text(n):
    t = parallax.open(EPOCH[n])
    c = comms_of(EPOCH[n])
    size = np.zeros((n, n))
    count = np.zeros((n, n))
    np.add.at(size, (c[:, 0], c[:, 1]), c[:, 4])
    np.add.at(count, (c[:, 0], c[:, 1]), 1)
    assert t.comm_matrix().shape == (n, n)
    assert (t.comm_matrix() == size).all()              # [sender][receiver], bytes
    assert (t.comm_matrix(output="count") == count).all()
    by = t.comm_by_process()
    assert list(by.columns) == ["Sent", "Received"] and by.index.name == "Process"
    assert (by.Sent.to_numpy() == size.sum(axis=1)).all()
    assert (by.Received.to_numpy() == size.sum(axis=0)).all()
    assert (t.comm_by_process("count").Sent.to_numpy() == count.sum(axis=1)).all()


@pytest.mark.parametrize("n", [2, 4])
def test_message_histogram_and_comm_over_time_equal_numpy_on_the_prv_text(n):
    t = parallax.open(EPOCH[n])
    c = comms_of(EPOCH[n])
    counts, edges = t.message_histogram(bins=7)
    want_counts, want_edges = np.histogram(c[:, 4], bins=7)
    assert (counts == want_counts).all() and np.allclose(edges, want_edges)
    end = t.info()["trace_end"]  # ns traces: trace units are ns
    for output, weights in (("size", c[:, 4]), ("count", None)):
        for kind, column in (("send", 2), ("receive", 3)):
            values, edges = t.comm_over_time(output=output, message_type=kind, bins=13)
            want, want_edges = np.histogram(c[:, column], bins=13, range=(0, end), weights=weights)
            assert np.allclose(values, want) and np.allclose(edges, want_edges), (output, kind)


def test_flat_profile_equals_the_cli_mpi_profile(tmp_path):
    t = parallax.open(EPOCH[4])
    table, _ = cli_time_table(EPOCH[4], "mpi-profile", tmp_path)
    per = t.flat_profile(["time.inc", "time.exc"], per_process=True)
    flat = t.flat_profile(["time.inc", "time.exc"])
    assert flat.index.name == "Name" and list(flat.columns) == ["time.inc", "time.exc"]
    for call, by_thread in table.items():
        ranks = per_rank(by_thread)
        if call == "Outside MPI":  # the time outside every function, by state
            states = t.flat_profile(groupby="kind", per_process=True).loc["state", "time.exc"]
            assert {r: states[r] for r in ranks} == ranks
            continue
        assert {r: per.loc[(call, r), "time.exc"] for r in ranks} == ranks, call
        assert per.loc[call, "time.inc"].to_dict() == per.loc[call, "time.exc"].to_dict()  # MPI does not nest
        assert flat.loc[call, "time.exc"] == pytest.approx(np.mean(list(ranks.values())), abs=1e-6)
    # Computation is the Running state outside MPI: the state profile's Running column here.
    states, _ = cli_time_table(EPOCH[4], "state-profile", tmp_path)
    running = per_rank(states["Running"])
    assert {r: per.loc[("Computation", r), "time.exc"] for r in running} == running
    # Calls: the bursts of each call in the mpi-call-count view (# Bursts).
    out = subprocess.run([BIN, "analyze", EPOCH[4], "--view", "mpi-call-count", "--format", "json"],
                         check=True, capture_output=True, text=True).stdout
    plane = json.loads(out)[0]["planes"][0]
    calls = t.flat_profile("count", per_process=True)["count"]
    for row in plane["rows"]:
        rank = int(row["label"].split()[1].split(".")[1]) - 1
        for call, n in zip(plane["columns"], row["values"]):
            if call != "Outside MPI":
                assert calls.get((call, rank), 0) == n, (call, rank)


def test_flat_profile_of_openmp_functions_equals_the_cli_openmp_profile(tmp_path):
    t = parallax.open(OMP)
    table, _ = cli_time_table(OMP, "openmp-profile", tmp_path)
    per = t.flat_profile(["time.inc", "time.exc"], per_process=True)
    functions = [c for c in table if c != "Outside OpenMP" and not c.startswith("Outside")]
    assert functions
    for name in functions:
        assert per.loc[(name, 0), "time.inc"] == sum(table[name].values()), name
    kinds = t.flat_profile(groupby="kind")
    assert set(kinds.index) == {"OpenMP", "state"}


def test_time_profile_equals_the_cli_on_each_bin(tmp_path):
    t = parallax.open(EPOCH[4])
    tp = t.time_profile(num_bins=3)
    assert list(tp.columns[:2]) == ["bin_start", "bin_end"] and len(tp) == 3
    per = t.flat_profile(per_process=True)["time.exc"]
    for k in range(3):
        a, b = int(tp.bin_start[k]), int(tp.bin_end[k])
        table, _ = cli_time_table(EPOCH[4], "mpi-profile", tmp_path, ["--from", str(a), "--to", str(b)])
        for call, by_thread in table.items():
            if call != "Outside MPI":
                assert tp.loc[k, call] == sum(by_thread.values()), (k, call)
    # The bins add up to the flat profile; per process, and normalised to shares of bin x threads.
    by_bin = tp.drop(columns=["bin_start", "bin_end"]).sum()
    assert (by_bin == per.groupby(level="Name").sum().reindex(by_bin.index, fill_value=0)).all()
    pp = t.time_profile(num_bins=3, per_process=True)
    assert pp.index.names == ["bin", "Process"] and len(pp) == 12
    assert pp.loc[(slice(None), 2), "MPI_Sendrecv"].sum() == per.loc[("MPI_Sendrecv", 2)]
    norm = t.time_profile(num_bins=3, normalized=True).drop(columns=["bin_start", "bin_end"])
    assert np.allclose(norm.sum(axis=1), 1.0, atol=1e-3)


def test_load_imbalance_equals_the_cli_avg_over_max(tmp_path):
    t = parallax.open(EPOCH[4])
    table, totals = cli_time_table(EPOCH[4], "mpi-profile", tmp_path)
    li = t.load_imbalance(num_processes=2)
    assert list(li.columns) == ["time.exc.imbalance", "Top processes", "time.exc.mean"]
    assert li["time.exc.mean"].is_monotonic_decreasing
    for call, by_thread in table.items():
        if call == "Outside MPI":
            continue
        assert li.loc[call, "time.exc.imbalance"] == pytest.approx(1 / totals["Avg/Max"][call], rel=1e-4), call
        ranks = per_rank(by_thread)
        assert li.loc[call, "Top processes"][0] == max(ranks, key=ranks.get)
        assert len(li.loc[call, "Top processes"]) == 2


def test_idle_time_equals_the_cli(tmp_path):
    t = parallax.open(EPOCH[4])
    table, _ = cli_time_table(EPOCH[4], "mpi-profile", tmp_path)
    states, _ = cli_time_table(EPOCH[4], "state-profile", tmp_path)
    idle = t.idle_time()  # the Idle state (0): here the end of each thread, after its last record
    assert list(idle.columns) == ["Process", "Idle Time"]
    assert dict(zip(idle.Process, idle["Idle Time"])) == per_rank(states["Idle"])
    waits = t.idle_time(mpi_events=True)  # and MPI_Wait, MPI_Waitall, MPI_Recv
    recv = per_rank(table["MPI_Recv"])
    assert dict(zip(waits.Process, waits["Idle Time"] - idle["Idle Time"])) == recv
    o = parallax.open(OMP)
    states, _ = cli_time_table(OMP, "state-profile", tmp_path)
    not_created = o.idle_time(idle_functions=["Not created"])
    assert not_created["Idle Time"][0] == sum(states["Not created"].values())


def test_multirun_analysis_equals_the_cli_per_trace(tmp_path):
    m = parallax.multirun_analysis([EPOCH[n] for n in (1, 2, 4)])
    assert m.index.name == "Number of Processes" and list(m.index) == [1, 2, 4]
    assert m.columns[0] == "Computation"  # the largest total first
    assert (m.sum().diff().dropna() <= 0).all()
    for n in (1, 2, 4):
        table, _ = cli_time_table(EPOCH[n], "mpi-profile", tmp_path)
        for call, by_thread in table.items():
            if call != "Outside MPI":
                assert m.loc[n, call] == pytest.approx(np.mean(list(per_rank(by_thread).values())), abs=1e-6)
    assert parallax.Trace.multirun_analysis([parallax.open(EPOCH[2]), EPOCH[4]]).shape[0] == 2


def test_filter_is_a_cut_every_method_works_on(tmp_path):
    t = parallax.open(EPOCH[4])
    end = t.info()["trace_end"]
    a, b = end // 4, end // 2
    sub = t.filter(from_=a, to=b, ranks=[1, 2])
    folder = sub.folder
    assert os.path.isdir(folder) and folder.startswith("/tmp/parallax-filter-")
    # The same cut by the command line, then its MPI profile: the sub-trace's flat profile.
    cut = tmp_path / "cut.prv"
    subprocess.run([BIN, "cut", EPOCH[4], "--from", str(a), "--to", str(b), "--tasks", "2-3", "-o", str(cut)],
                   check=True, capture_output=True)
    table, _ = cli_time_table(str(cut), "mpi-profile", tmp_path)
    per = sub.flat_profile(per_process=True)["time.exc"]
    for call, by_thread in table.items():
        if call != "Outside MPI":
            for r, v in per_rank(by_thread).items():
                assert per.get((call, r), 0) == v, (call, r)
    assert set(per.index.get_level_values("Process")) == {1, 2}  # ranks keep their numbers
    # Its communications are the cut's .prv text (kept when either end is a kept rank).
    c = comms_of(sub.path)
    size = np.zeros((4, 4))
    np.add.at(size, (c[:, 0], c[:, 1]), c[:, 4])
    assert (sub.comm_matrix() == size).all() and size.sum() > 0
    assert set(np.nonzero(size)[0]) | set(np.nonzero(size)[1]) >= {1, 2}
    # Every method of a trace works on it.
    assert sub.info()["trace_end"] == b - a
    assert len(sub.window(view="mpi-call")) > 0
    assert sub.analyze(view="mpi-profile")[0].frame.shape[0] == 4
    assert sub.timeline(view="mpi-call", width=200).data[:4] == b"\x89PNG"
    assert sub.diagnose().summary["ranks"]
    assert len(sub.time_profile(num_bins=4)) == 4
    sub.close()
    assert sub.closed and not os.path.exists(folder)


def test_filter_by_event_types_and_its_folder_goes_with_the_object():
    t = parallax.open(EPOCH[2])
    sub = t.filter(event_types=range(50000001, 50000006))
    types = {e["id"] for e in sub.info()["event_types"]}
    assert types == {50000001, 50000002, 50000003}
    assert sub.flat_profile(per_process=True).equals(t.flat_profile(per_process=True))
    assert (sub.comm_matrix() == t.comm_matrix()).all()
    folder = sub.folder
    del sub
    gc.collect()
    assert not os.path.exists(folder)
    with t.filter(to="50%") as half:
        folder = half.folder
        assert half.info()["trace_end"] == pytest.approx(t.info()["trace_end"] / 2, abs=1)
        nested = half.filter(ranks=[0])
        assert nested.flat_profile(per_process=True).index.get_level_values("Process").unique().tolist() == [0]
        nested.close()
    assert not os.path.exists(folder)


def test_mistakes():
    t = parallax.open(EPOCH[2])
    before = {d for d in os.listdir("/tmp") if d.startswith("parallax-filter-")}
    with pytest.raises(ValueError, match="use 'size' or 'count'"):
        t.comm_matrix(output="bytes")
    with pytest.raises(ValueError, match="unknown metric"):
        t.flat_profile("time")
    with pytest.raises(ValueError, match="rank 5 is not in the trace"):
        t.filter(ranks=[5])
    with pytest.raises(parallax.Error):
        t.filter(from_=10, to=5)
    after = {d for d in os.listdir("/tmp") if d.startswith("parallax-filter-")}
    assert after <= before  # a failed filter leaves no folder behind
