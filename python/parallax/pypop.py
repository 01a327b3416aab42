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


def _statistic(trace, cfg_dir, cfgs):
    """The single-column histogram of the first cfg that paramedir would write, as a Series
    indexed by (rank, thread); None when none of them writes."""
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
        index = pd.MultiIndex.from_tuples(
            [tuple(int(x) for x in label.split(" ")[-1].split(".")[1:]) for label in frame.index],
            names=["rank", "thread"])
        return pd.Series(frame.iloc[:, 0].to_numpy(), index=index)
    return None


def statistics(trace, cfg_dir):
    """pypop's per-thread statistics of a trace: a DataFrame indexed by (rank, thread) with the
    columns pypop computes (Total Runtime, Serial/OpenMP/Total Useful Computation, Total
    Non-MPI Runtime, Useful Instructions, Useful Cycles, IPC, Frequency). The ideal-network
    columns (Dimemas in pypop) are not included."""
    pd = __import__("pandas")
    columns = {}
    for name, cfgs in BASE_CFGS.items():
        s = _statistic(trace, cfg_dir, cfgs)
        if s is None:
            raise ValueError(f"none of {', '.join(cfgs)} applies to this trace")
        columns[name] = s
    index = columns["Total Runtime"].index
    omp = {name: _statistic(trace, cfg_dir, cfgs) for name, cfgs in OMP_CFGS.items()}
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
