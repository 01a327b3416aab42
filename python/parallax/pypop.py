"""pypop's MPI and OpenMP metrics from Parallax DataFrames, without running paramedir.

pypop (numericalalgorithmsgroup/pypop) computes its statistics by running paramedir on a set of
cfgs and reading the histogram files back. The same statistics come from `Trace.analyze`:

    from parallax import pypop
    stats = {n: pypop.statistics(parallax.open(f"epoch_{n}proc.prv.gz"), cfg_dir)
             for n in (1, 2, 4)}
    table = pypop.mpi_metrics(stats)      # rows: process counts; columns: pypop's metrics
    omp = pypop.openmp_metrics(stats)     # pypop's OpenMP table from the same statistics

`cfg_dir` is the folder of pypop's cfgs (pypop/cfgs in its sources; tests/data/cfg/pypop here).
"""

from __future__ import annotations

import math
import os

# pypop's statistics and the cfgs it tries for each, first that writes a table wins (its
# paramedir_analyze_any_of): a cfg whose event types are absent from the trace writes nothing.
BASE_CFGS = {
    "Serial Useful Computation": ("serial_useful_computation.cfg",
                                  "serial_useful_computation_omp_loop.cfg",
                                  "serial_useful_computation_omp_task.cfg",
                                  "serial_useful_computation_no_omp.cfg"),
    "Total Runtime": ("total_runtime_excl_disabled.cfg", "total_runtime.cfg"),
    "Useful Instructions": ("useful_instructions.cfg",),
    "Useful Cycles": ("useful_cycles.cfg",),
}
OMP_CFGS = {
    "OpenMP Total Runtime": ("omp_total_runtime.cfg",),
    "OpenMP Useful Computation": ("omp_useful_computation.cfg",
                                  "omp_useful_computation_loop.cfg",
                                  "omp_useful_computation_task.cfg"),
}


def _threads(trace):
    """(appl, task, thread) of every thread of the trace, 1-based, in thread order: from the
    default names of a thread-level window's objects ("THREAD a.t.h", whatever the .row says)."""
    w = trace.window(function="Thread ID", to=1)
    return [tuple(int(x) for x in name.split(" ")[-1].split(".")) for name in w.object_names]


def mpi_application(trace, threads=None):
    """The application (1-based) whose ranks pypop's statistics describe: the only one, or the
    only one with MPI calls. ValueError when that is ambiguous (several applications and none,
    or more than one, with MPI calls): give `appl=` to statistics()."""
    threads = threads if threads is not None else _threads(trace)
    appls = sorted({a for a, _, _ in threads})
    if len(appls) == 1:
        return appls[0]
    tasks = sorted({(a, t) for a, t, _ in threads})  # global task index -> (appl, task)
    by_kind = trace.flat_profile(metrics=["count"], groupby="kind", per_process=True)
    mpi = by_kind.xs("MPI", level="Kind") if "MPI" in by_kind.index.get_level_values("Kind") else by_kind.iloc[:0]
    with_mpi = sorted({tasks[p][0] for p, n in zip(mpi.index, mpi["count"]) if n > 0 and p < len(tasks)})
    if len(with_mpi) == 1:
        return with_mpi[0]
    which = "none has" if not with_mpi else f"applications {', '.join(map(str, with_mpi))} have"
    raise ValueError(f"the trace has {len(appls)} applications and {which} MPI calls: "
                     f"give statistics(..., appl=N) with N in {appls}")


def _statistic(trace, cfg_dir, cfgs, threads, appl):
    """The single-column histogram of the first cfg that paramedir would write, as a Series
    indexed by (rank, thread) over the threads of application `appl`; None when none of them
    writes."""
    pd = __import__("pandas")
    for name in cfgs:
        path = os.path.join(cfg_dir, name)
        if not os.path.exists(path):
            continue
        histogram = trace.analyze(path, all=False)[-1]
        if not histogram.paramedir_writes:
            continue
        frame = histogram.frame
        if frame.shape[1] != 1:
            raise ValueError(f"{path}: expected a histogram of one column, got {frame.shape[1]}")
        # Rows by the thread they are (the .row may name them anything), kept for `appl` only.
        keep, index = [], []
        for row, obj in enumerate(histogram.row_objects[0]):
            a, task, thread = threads[obj]
            if a == appl:
                keep.append(row)
                index.append((task, thread))
        return pd.Series(frame.iloc[keep, 0].to_numpy(),
                         index=pd.MultiIndex.from_tuples(index, names=["rank", "thread"]))
    return None


def statistics(trace, cfg_dir, appl=None):
    """pypop's per-thread statistics of a trace: a DataFrame indexed by (rank, thread) with the
    columns pypop computes (Total Runtime, Serial/OpenMP/Total Useful Computation, Total
    Non-MPI Runtime, Useful Instructions, Useful Cycles, IPC, Frequency). The ideal-network
    columns (Dimemas in pypop) are not included. A trace of several applications (an MPI run
    and a helper process, ...) gives the rows of one: `appl` (1-based), by default the one with
    MPI calls (mpi_application); ranks are its task numbers."""
    pd = __import__("pandas")
    threads = _threads(trace)
    if appl is None:
        appl = mpi_application(trace, threads)
    elif appl not in {a for a, _, _ in threads}:
        raise ValueError(f"appl={appl}: the trace's applications are "
                         f"{sorted({a for a, _, _ in threads})}")
    columns = {}
    for name, cfgs in BASE_CFGS.items():
        s = _statistic(trace, cfg_dir, cfgs, threads, appl)
        if s is None:
            raise ValueError(f"none of {', '.join(cfgs)} applies to this trace")
        columns[name] = s
    index = columns["Total Runtime"].index
    omp = {name: _statistic(trace, cfg_dir, cfgs, threads, appl) for name, cfgs in OMP_CFGS.items()}
    # As pypop: when any OpenMP statistic has no cfg that applies, they are all 0.
    if any(s is None for s in omp.values()):
        omp = {name: pd.Series(0.0, index=index) for name in OMP_CFGS}
    columns.update(omp)
    stats = pd.DataFrame(columns)
    stats["IPC"] = stats["Useful Instructions"] / stats["Useful Cycles"]
    stats["Total Useful Computation"] = (stats["Serial Useful Computation"]
                                         + stats["OpenMP Useful Computation"])
    stats["Total Non-MPI Runtime"] = (stats["Serial Useful Computation"]
                                      + stats["OpenMP Total Runtime"])
    stats["Frequency"] = stats["Useful Cycles"] / stats["Total Useful Computation"]
    return stats


def _ipc(stats):
    """Useful instructions per useful cycle over all threads."""
    return stats["Useful Instructions"].sum() / stats["Useful Cycles"].sum()


def _frequency(stats):
    """Useful cycles per nanosecond of useful computation (GHz) over all threads."""
    return stats["Useful Cycles"].sum() / stats["Total Useful Computation"].sum()


def mpi_metrics(stats_by_processes, reference=None):
    """pypop's MPI metric table from {number of processes: statistics(...)}: one row per
    process count. Serialisation and transfer efficiency need an ideal-network replay and are
    NaN here (parallax.pop computes them with Parallax's replay)."""
    pd = __import__("pandas")
    keys = sorted(stats_by_processes)
    ref = stats_by_processes[reference if reference is not None else keys[0]]
    rows = {}
    for key in keys:
        s = stats_by_processes[key]
        main = s.xs(1, level="thread")  # the first thread of every rank
        runtime = s["Total Runtime"].max()
        m = {}
        m["Parallel Efficiency"] = s["Total Useful Computation"].mean() / runtime
        m["MPI Load Balance"] = (main["Total Useful Computation"].mean()
                                 / main["Total Useful Computation"].max())
        m["MPI Communication Efficiency"] = main["Total Non-MPI Runtime"].max() / runtime
        m["MPI Serialisation Efficiency"] = math.nan
        m["MPI Transfer Efficiency"] = math.nan
        m["Computation Scaling"] = (ref["Total Useful Computation"].sum()
                                    / s["Total Useful Computation"].sum())
        m["Global Efficiency"] = m["Computation Scaling"] * m["Parallel Efficiency"]
        m["IPC Scaling"] = _ipc(s) / _ipc(ref)
        m["Instruction Scaling"] = (ref["Useful Instructions"].sum()
                                    / s["Useful Instructions"].sum())
        m["Frequency Scaling"] = _frequency(s) / _frequency(ref)
        m["Speedup"] = ref["Total Runtime"].max() / runtime
        m["Average IPC"] = _ipc(s)
        m["Average Frequency (Ghz)"] = _frequency(s)
        ranks = s.index.get_level_values("rank")
        m["Number of Processes"] = len(set(ranks))
        m["Total Threads"] = len(s)
        rows[key] = m
    return pd.DataFrame(rows).T


def openmp_metrics(stats_by_threads, reference=None):
    """pypop's OpenMP metric table from {key: statistics(...)} (a key per run, e.g. the number
    of threads; the smallest is the reference unless `reference` names one): one row per key.
    Ranks' first threads carry the serial and OpenMP region times, as in pypop."""
    pd = __import__("pandas")
    keys = sorted(stats_by_threads)
    ref = stats_by_threads[reference if reference is not None else keys[0]]
    rows = {}
    for key in keys:
        s = stats_by_threads[key]
        main = s.xs(1, level="thread")  # the first thread of every rank
        runtime = s["Total Runtime"].max()
        threads = int((s.index.get_level_values("rank") == s.index.get_level_values("rank")[0]).sum())
        omp_useful_per_rank = s["OpenMP Useful Computation"].groupby(level="rank").mean()
        m = {}
        m["Parallel Efficiency"] = s["Total Useful Computation"].mean() / runtime
        # Time of the OpenMP regions (on each rank's first thread) not spent computing by the
        # average thread of the rank.
        m["OpenMP Region Efficiency"] = 1 - ((main["OpenMP Total Runtime"] - omp_useful_per_rank).mean()
                                             / runtime)
        # Serial computation could have been spread over all the threads of the rank.
        m["Serial Region Efficiency"] = 1 - (main["Serial Useful Computation"].mean() / runtime
                                             * (1 - 1 / threads))
        m["Computational Scaling"] = (ref["Total Useful Computation"].sum()
                                      / s["Total Useful Computation"].sum())
        m["Global Efficiency"] = m["Computational Scaling"] * m["Parallel Efficiency"]
        m["Instruction Scaling"] = (ref["Useful Instructions"].sum()
                                    / s["Useful Instructions"].sum())
        m["IPC Scaling"] = s["IPC"].mean() / ref["IPC"].mean()
        m["Frequency Scaling"] = s["Frequency"].mean() / ref["Frequency"].mean()
        m["Speedup"] = ref["Total Runtime"].max() / runtime
        m["Runtime"] = runtime
        m["Number of Processes"] = len(main)
        m["Threads per Process"] = threads
        rows[key] = m
    return pd.DataFrame(rows).T
