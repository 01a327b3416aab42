"""Pipit's everyday operations on Parallax traces (docs/python.md, "Pipit's operations").

The per-record work is the core's (ProfileRegions, PointToPointMessages and CommTraffic in
include/parallax/, the cutter and filter of include/parallax/tools.h); this module only shapes
their arrays into the DataFrames and NumPy results Pipit returns. Times are in nanoseconds, as
Pipit's "time.inc"/"time.exc" and "Timestamp (ns)"; ranks ("Process") are 0-based task indices.
"""

from __future__ import annotations

import os as _os
import shutil as _shutil
import tempfile as _tempfile
import weakref as _weakref

from . import _parallax

_NS = {"ns": 1, "us": 1_000, "ms": 1_000_000}
_METRICS = ("time.inc", "time.exc", "count")
# Pipit's idle_time(MPI_events=True) adds these calls to the idle functions.
_MPI_WAITS = ("MPI_Wait", "MPI_Waitall", "MPI_Recv")


def _pandas():
    import pandas
    return pandas


def _np():
    import numpy
    return numpy


# The unit of each metric: Pipit's times are nanoseconds, calls a count.
_UNITS = {"time.inc": "ns", "time.exc": "ns", "count": "count"}


def _with_units(frame, units):
    """`frame` with attrs["units"] (per column) and attrs["unit"] when all columns share one."""
    frame.attrs["units"] = dict(units)
    if len(set(units.values())) == 1:
        frame.attrs["unit"] = next(iter(units.values()))
    return frame


def _groupby_column(groupby):
    key = {"name": "Name", "kind": "Kind", "type": "Kind"}.get(str(groupby).lower())
    if key is None:
        raise ValueError(f"groupby={groupby!r}: use 'name' (the function's name) or 'kind' "
                         f"(MPI, OpenMP, user function, state)")
    return key


def _metric_list(metrics):
    metrics = [metrics] if isinstance(metrics, str) else list(metrics)
    for m in metrics:
        if m not in _METRICS:
            raise ValueError(f"unknown metric {m!r}; use {', '.join(_METRICS)}")
    return metrics


class PipitOps:
    """Pipit's operations, mixed into parallax.Trace."""

    # -- the core's results, kept per range (a trace does not change) -------------------------

    def _region_profile(self, from_=None, to=None, bins=0):
        key = (self._limit(from_, "from_"), self._limit(to, "to"), int(bins))
        cache = self.__dict__.setdefault("_profiles", {})
        if key not in cache:
            cache[key] = _parallax.region_profile(self._t, from_=key[0], to=key[1], bins=key[2])
        return cache[key]

    def _long_profile(self, from_=None, to=None):
        """One row per (region, rank) that has time or calls: Name, Kind, Process and the
        three metrics (ns, calls)."""
        np, pd = _np(), _pandas()
        p = self._region_profile(from_, to)
        ns = _NS[p["time_unit"]]
        inc, exc, calls = p["inclusive"], p["exclusive"], p["calls"]
        region, rank = np.nonzero((inc > 0) | (exc > 0) | (calls > 0))
        names = np.asarray(p["names"], dtype=object)
        kinds = np.asarray(p["kinds"], dtype=object)
        return pd.DataFrame({"Name": names[region], "Kind": kinds[region], "Process": rank,
                             "time.inc": inc[region, rank] * ns, "time.exc": exc[region, rank] * ns,
                             "count": calls[region, rank]})

    # -- profiles ------------------------------------------------------------------------------

    def flat_profile(self, metrics="time.exc", groupby="name", per_process=False, from_=None, to=None):
        """Inclusive ("time.inc") and exclusive ("time.exc") time in ns, and calls ("count"),
        per function name: MPI calls, user functions, OpenMP parallel and task functions, and
        the time outside every function by state ("Computation" for Running, "Idle", ...). As
        Pipit: summed per process (rank; its threads added), then the mean over the processes
        that have the function; `per_process=True` gives the (Name, Process) sums."""
        metrics = _metric_list(metrics)
        column = _groupby_column(groupby)
        long = self._long_profile(from_, to)
        sums = long.groupby([column, "Process"], observed=True)[metrics].sum()
        units = {m: _UNITS[m] for m in metrics}
        if per_process:
            return _with_units(sums, units)
        return _with_units(sums.groupby(level=column).mean(), units)

    def time_profile(self, num_bins=50, normalized=False, per_process=False, from_=None, to=None):
        """Exclusive time (ns) of each function in each of `num_bins` equal time bins of the
        trace (or of [from_, to)), summed over the processes: one row per bin (bin_start,
        bin_end in ns, then one column per function name, the time outside every function by
        state as in flat_profile). `normalized`: as a share of the bin's duration times the
        threads counted. `per_process=True`: one row per (bin, Process)."""
        np, pd = _np(), _pandas()
        if int(num_bins) < 1:
            raise ValueError("num_bins must be at least 1")
        p = self._region_profile(from_, to, bins=int(num_bins))
        ns = _NS[p["time_unit"]]
        bins, tasks = int(num_bins), len(p["tasks"])
        cube = p["binned"].reshape(len(p["names"]), bins, tasks) * ns  # region, bin, rank
        names = list(p["names"])
        edges = p["edges"].astype("float64") * ns
        threads = self._threads_per_rank(tasks)
        if per_process:
            values = cube.transpose(1, 2, 0).reshape(bins * tasks, len(names))
            index = pd.MultiIndex.from_product([range(bins), range(tasks)], names=["bin", "Process"])
            frame = pd.DataFrame(values, index=index, columns=names)
            scale = ((edges[1:] - edges[:-1])[:, None] * threads[None, :]).reshape(-1)
        else:
            frame = pd.DataFrame(cube.sum(axis=2).T, columns=names)
            frame.index.name = "bin"
            scale = (edges[1:] - edges[:-1]) * threads.sum()
        frame = frame.T.groupby(level=0, sort=False).sum().T  # one column per name
        if normalized:
            frame = frame.div(np.where(scale > 0, scale, 1), axis=0)
        if per_process:
            starts = np.repeat(edges[:-1], tasks)
            ends = np.repeat(edges[1:], tasks)
        else:
            starts, ends = edges[:-1], edges[1:]
        units = {c: "fraction" if normalized else "ns" for c in frame.columns}
        frame.insert(0, "bin_end", ends)
        frame.insert(0, "bin_start", starts)
        return _with_units(frame, {"bin_start": "ns", "bin_end": "ns", **units})

    def _threads_per_rank(self, tasks):
        return self._region_profile()["threads"].astype("float64")

    def load_imbalance(self, metric="time.exc", num_processes=1, from_=None, to=None):
        """Per function: `metric`.imbalance (max / mean over the processes that have it),
        "Top processes" (the `num_processes` ranks with the largest value) and `metric`.mean;
        the largest mean first, as Pipit."""
        pd = _pandas()
        (metric,) = _metric_list(metric)
        per = self.flat_profile(metrics=metric, per_process=True, from_=from_, to=to)[metric]
        rows = {}
        for name, series in per.groupby(level="Name"):  # one per function, not per record
            s = series.droplevel("Name").sort_values(ascending=False, kind="stable")
            mean = s.mean()
            rows[name] = {f"{metric}.imbalance": s.iloc[0] / mean if mean else float("nan"),
                          "Top processes": list(s.index[:max(1, int(num_processes))]),
                          f"{metric}.mean": mean}
        frame = pd.DataFrame.from_dict(rows, orient="index",
                                       columns=[f"{metric}.imbalance", "Top processes", f"{metric}.mean"])
        frame.index.name = "Name"
        frame = frame.sort_values(f"{metric}.mean", ascending=False, kind="stable")
        return _with_units(frame, {f"{metric}.imbalance": "ratio", "Top processes": "rank",
                                   f"{metric}.mean": _UNITS[metric]})

    def idle_time(self, idle_functions=("Idle",), mpi_events=False, from_=None, to=None):
        """Per process (rank), the time in ns in the idle functions: by default the state Idle
        outside every function (Paraver's state 0, the "Idle" function of Pipit's readers);
        with `mpi_events`, also MPI_Wait, MPI_Waitall and MPI_Recv (inclusive time), as Pipit.
        Any name flat_profile shows may be given. Columns Process, Idle Time."""
        pd = _pandas()
        names = list(idle_functions) + (list(_MPI_WAITS) if mpi_events else [])
        long = self._long_profile(from_, to)
        tasks = len(self._region_profile(from_, to)["tasks"])
        idle = long[long.Name.isin(names)].groupby("Process")["time.inc"].sum()
        idle = idle.reindex(range(tasks), fill_value=0)
        frame = pd.DataFrame({"Process": range(tasks), "Idle Time": idle.to_numpy()})
        return _with_units(frame, {"Process": "rank", "Idle Time": "ns"})

    # -- communication -------------------------------------------------------------------------

    def _messages(self, from_=None, to=None):
        key = (self._limit(from_, "from_"), self._limit(to, "to"))
        cache = self.__dict__.setdefault("_message_columns", {})
        if key not in cache:
            cache[key] = _parallax.messages(self._t, from_=key[0], to=key[1])
        return cache[key]

    def comm_matrix(self, output="size", from_=None, to=None):
        """Point-to-point traffic between ranks: a NumPy matrix [sender rank][receiver rank] of
        bytes (output="size") or messages ("count"), every message counted once at its send."""
        if output not in ("size", "count"):
            raise ValueError(f"output={output!r}: use 'size' or 'count'")
        tr = _parallax.task_traffic(self._t, from_=self._limit(from_, "from_"), to=self._limit(to, "to"))
        return tr["bytes"] if output == "size" else tr["messages"]

    def comm_by_process(self, output="size", from_=None, to=None):
        """Per rank, the bytes (or messages) it sent and received: columns Sent, Received,
        index Process."""
        m = self.comm_matrix(output, from_, to)
        frame = _pandas().DataFrame({"Sent": m.sum(axis=1), "Received": m.sum(axis=0)})
        unit = "bytes" if output == "size" else "count"
        return _with_units(frame.rename_axis("Process"), {"Sent": unit, "Received": unit})

    def message_histogram(self, bins=20, from_=None, to=None, **kwargs):
        """numpy.histogram of the sizes (bytes) of the point-to-point messages: (counts, bin
        edges)."""
        return _np().histogram(self._messages(from_, to)["size"], bins=bins, **kwargs)

    def comm_over_time(self, output="size", message_type="send", bins=50, from_=None, to=None, **kwargs):
        """Bytes (or messages) sent (or received: message_type="receive") in each of `bins`
        equal intervals of the trace (or of [from_, to)): (values, edges), edges in ns."""
        np = _np()
        if output not in ("size", "count"):
            raise ValueError(f"output={output!r}: use 'size' or 'count'")
        if message_type not in ("send", "receive"):
            raise ValueError(f"message_type={message_type!r}: use 'send' or 'receive'")
        p = self._region_profile(from_, to)  # the range and the unit
        ns = _NS[p["time_unit"]]
        m = self._messages(from_, to)
        times = (m["send"] if message_type == "send" else m["recv"]).astype("float64") * ns
        weights = m["size"].astype("float64") if output == "size" else None
        return np.histogram(times, bins=bins, weights=weights, range=(p["from"] * ns, p["to"] * ns), **kwargs)

    # -- a portion of the trace ----------------------------------------------------------------

    def filter(self, from_=None, to=None, ranks=None, event_types=None):
        """A sub-trace: [from_, to) of this trace (trace units, "1.5s", "40%"), only the ranks
        given (0-based) and only the event types given (states and communications kept), cut
        with Parallax's cutter and filter (`parallax cut` / `parallax filter`) into a temporary
        folder the sub-trace owns and removes when closed or collected. Times of the sub-trace
        start at 0 (Paraver's cutter); `range` and `ranks` say what it was cut from."""
        return SubTrace._cut(self, from_, to, ranks, event_types)


def multirun_analysis(traces, metric="time.exc", groupby="name"):
    """One row per trace (index "Number of Processes": its ranks), one column per function:
    flat_profile's `metric` (mean over the processes, ns), the largest total first."""
    from . import Trace, open as _open
    pd = _pandas()
    opened = [t if isinstance(t, Trace) else _open(t) for t in traces]
    rows, index = [], []
    for t in opened:
        rows.append(t.flat_profile(metrics=metric, groupby=groupby)[metric])
        index.append(len(t._region_profile()["tasks"]))
    frame = pd.concat(rows, axis=1).T.fillna(0.0)
    frame.index = pd.Index(index, name="Number of Processes")
    frame.columns.name = None
    frame = frame[frame.sum().sort_values(ascending=False, kind="stable").index]
    return _with_units(frame, {c: _UNITS[metric] for c in frame.columns})


class SubTrace:
    """Mixin state of a filtered trace (see PipitOps.filter): the folder it owns."""

    @staticmethod
    def _cut(parent, from_, to, ranks, event_types):
        from . import FilteredTrace, _registry
        begin = parent._limit(from_, "from_")
        end = parent._limit(to, "to")
        folder = _tempfile.mkdtemp(prefix="parallax-filter-")
        try:
            source = _os.fspath(parent.path)
            base = "trace"
            if begin is not None or end is not None or ranks is not None:
                span = parent._region_profile(begin, end)  # checks the range like every method
                tasks = []
                for r in sorted(set(int(x) for x in (ranks if ranks is not None else []))):
                    if r < 0 or r >= len(span["tasks"]):
                        raise ValueError(f"rank {r} is not in the trace (ranks 0 to {len(span['tasks']) - 1})")
                    tasks.append((r + 1, r + 1))
                cut = _os.path.join(folder, base + "-cut.prv")
                _parallax.cut(source, cut, span["from"], span["to"], tasks)
                source = cut
            if event_types is not None:
                out = _os.path.join(folder, base + ".prv")
                _parallax.filter_event_types(source, out, [int(x) for x in event_types])
                source = out
            elif source == _os.fspath(parent.path):  # nothing asked: a copy all the same
                out = _os.path.join(folder, base + ".prv")
                _parallax.cut(source, out, 0, parent._region_profile()["to"], [])
                source = out
            handle = _parallax.open(source, functions=_registry())
        except BaseException:
            _shutil.rmtree(folder, ignore_errors=True)
            raise
        sub = FilteredTrace(handle, source)
        sub.folder = folder
        sub.parent_path = parent.path
        sub.range = (begin, end)
        sub.ranks = None if ranks is None else sorted(set(int(x) for x in ranks))
        sub.event_types = None if event_types is None else [int(x) for x in event_types]
        sub._finalizer = _weakref.finalize(sub, _shutil.rmtree, folder, True)
        return sub

    def close(self):
        """Removes the sub-trace's folder (also done when the object is collected)."""
        self._finalizer()

    @property
    def closed(self):
        return not self._finalizer.alive

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False
