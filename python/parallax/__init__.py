"""Parallax from Python: open a Paraver trace, get a window's values for every object as NumPy
arrays or pandas DataFrames, histograms as DataFrames, POP metrics, timeline images that display
in Jupyter, and the trace's records as columns.

    import parallax
    t = parallax.open("tests/data/epoch/epoch_2proc.prv.gz")
    w = t.window(cfg="tests/data/cfg/bsc/General/views/state_as_is.cfg")
    w.to_pandas()                       # object, begin, end, duration, value
    t.analyze("tests/data/cfg/bsc/General/analysis/2dh_states.cfg")[0].frame
    t.timeline("tests/data/cfg/bsc/mpi/views/MPI_call.cfg")   # shows inline in Jupyter

Errors raise parallax.Error; its `file`, `line`, `column` and `hint` say where and what to do.
"""

from __future__ import annotations

import builtins as _builtins
import os as _os
import warnings as _warnings

from ._needs import missing as _missing

try:  # the compiled module hands its arrays to NumPy: say so at import, not at the first window
    import numpy as _numpy  # noqa: F401
except ImportError as _e:
    raise _missing("parallax", "numpy", "python3-numpy") from _e

from . import _parallax
from ._parallax import Error
from ._pipit import PipitOps as _PipitOps, SubTrace as _SubTrace, multirun_analysis
from . import _display, _plot

__all__ = ["Error", "Trace", "Window", "Histogram", "Image", "PopTable", "Diagnosis", "Structure", "Comparison", "DifferenceWindow", "compare", "open", "pop",
           "functions", "register_function", "load_plugin", "LoadWarning",
           "FilteredTrace", "multirun_analysis"]


def _pandas():
    try:
        import pandas
    except ImportError as e:  # pragma: no cover - pandas is installed by scripts/setup.sh
        raise _missing("this", "pandas", "python3-pandas") from e
    return pandas


def _progress_callback(progress):
    """A callable(done, total) from `progress`: a callable, True (a tqdm bar when tqdm is
    installed), or None/False."""
    if progress is None or progress is False:
        return None
    if callable(progress):
        return progress
    try:
        from tqdm import tqdm
    except ImportError:
        return None
    bar = {}

    def update(done, total):
        if "bar" not in bar:
            bar["bar"] = tqdm(total=total, unit="B", unit_scale=True, desc="loading")
        b = bar["bar"]
        b.update(done - b.n)
        if done >= total:
            b.close()

    return update


class Window:
    """The intervals of every object of a window: parallel NumPy arrays `object` (0-based index
    into `object_names`), `begin`, `end` (trace units, `time_unit`) and `value`, in object then
    time order -- the rows paramedir dumps for the window. `unit` says what the values are, as
    the core's functions declare it: a time unit (the window's: "ns", "us", "ms", ...),
    "bytes", a bandwidth ("GB/sec"), what they name ("state", "event value", "task", ...), or
    "number" when the functions say nothing (flags, counts, ratios)."""

    def __init__(self, d):
        self.name = d["window"]
        self.level = d["level"]
        self.info_type = d["info_type"]
        self.time_unit = d["time_unit"]
        self.unit = d.get("unit", "number")
        self.range = (d["from"], d["to"])
        self.object_names = list(d["object_names"])
        self.object = d["object"]
        self.begin = d["begin"]
        self.end = d["end"]
        self.value = d["value"]

    def __len__(self):
        return len(self.begin)

    def __repr__(self):
        return (f"<parallax.Window '{self.name}': {len(self)} intervals of "
                f"{len(self.object_names)} {self.level} objects, values in {self.unit}>")

    def _units(self):
        return {"begin": self.time_unit, "end": self.time_unit, "duration": self.time_unit,
                "value": self.unit}

    def _columns(self):
        return {"object": self.object, "begin": self.begin, "end": self.end,
                "duration": self.end - self.begin, "value": self.value}

    def to_pandas(self):
        """object, begin, end, duration, value; `attrs["units"]` gives each column's unit and
        `attrs["unit"]` the values'."""
        pd = _pandas()
        columns = self._columns()
        columns["object"] = pd.Categorical.from_codes(self.object, categories=self.object_names)
        df = pd.DataFrame(columns)
        df.attrs.update(units=self._units(), unit=self.unit, window=self.name)
        return df

    def to_arrow(self):
        """The to_pandas() columns as a pyarrow Table; begin, end and value wrap the NumPy arrays
        without a copy, object is a dictionary column over the object names. The schema's
        metadata holds the units. ImportError when pyarrow is not installed."""
        t = _display.columns_to_arrow(self._columns(), {"object": self.object_names})
        return t.replace_schema_metadata({f"unit.{k}": v for k, v in self._units().items()})

    def to_polars(self):
        """The to_pandas() columns as a polars DataFrame (object as a Categorical). ImportError
        when polars is not installed."""
        return _display.columns_to_polars(self._columns(), {"object": self.object_names})

    def matrix(self, columns=800):
        """The window as a NumPy matrix of objects x `columns` equal time bins of its range
        (a quantity's time-weighted mean, or the value at the bin's middle for values that name
        things; NaN where no interval covers), and the bins' edges in trace units."""
        return _plot.window_matrix(self, columns)

    def plot(self, ax=None, columns=800, **kw):
        """The window as an image of objects x time (matplotlib Figure; headless)."""
        return _plot.timeline(self, ax=ax, columns=columns, **kw)

    def _repr_html_(self):
        return _display.window_html(self)


class Histogram:
    """One histogram of a cfg: `frame` (rows = objects, columns = the column labels; for a 3D
    histogram a (plane, object) row index), `totals` (Total, Average, Maximum, Minimum, StDev,
    Avg/Max per column; per plane for 3D), `name` and `statistic`. `paramedir_writes` is False
    where paramedir would write no file for the cfg (none of its event types is in the trace)."""

    def __init__(self, d):
        pd = _pandas()
        self.name = d["name"]
        self.statistic = d["statistic"]
        self.unit = d.get("unit", "number")
        self.paramedir_writes = d["paramedir_writes"]
        self.planes = []
        # Per plane, the 0-based object (at the control window's level) of each row.
        self.row_objects = []
        frames, totals = [], []
        for p in d["planes"]:
            frame = pd.DataFrame(p["values"], index=pd.Index(p["rows"], name="object"),
                                 columns=p["columns"])
            tot = pd.DataFrame(p["totals"], index=pd.Index(p["total_names"], name="total"),
                               columns=p["columns"])
            self.planes.append((p["label"], frame, tot))
            self.row_objects.append(list(p.get("row_objects", [])))
            frames.append(frame)
            totals.append(tot)
        three_d = d["extra_window"] >= 0 and len(self.planes) > 1
        if not self.planes:
            self.frame, self.totals = pd.DataFrame(), pd.DataFrame()
        elif three_d:
            labels = [label for label, _, _ in self.planes]
            self.frame = pd.concat(frames, keys=labels, names=["plane"])
            self.totals = pd.concat(totals, keys=labels, names=["plane"])
        else:
            self.frame, self.totals = frames[0], totals[0]
        for f in (self.frame, self.totals):
            f.attrs.update(unit=self.unit, statistic=self.statistic, histogram=self.name)

    def to_pandas(self):
        """`frame`; its `attrs["unit"]` is the statistic's unit."""
        return self.frame

    def to_arrow(self):
        """`frame` as a pyarrow Table (the row labels as the "object" column)."""
        return _display.frame_to_arrow(self.frame)

    def to_polars(self):
        """`frame` as a polars DataFrame (the row labels as the "object" column)."""
        return _display.frame_to_polars(self.frame)

    def plot(self, column=None, ax=None, **kw):
        """Bars of the histogram's rows: stacked over its columns, or of one `column`
        (matplotlib Figure)."""
        return _plot.profile(self, column=column, ax=ax, **kw)

    def __repr__(self):
        return f"<parallax.Histogram '{self.name}' ({self.statistic}, {self.unit}): {self.frame.shape}>"

    def _repr_html_(self):
        cap = (f"<b>{_display.esc(self.name)}</b>: {_display.esc(self.statistic)} in "
               f"<b>{_display.esc(self.unit)}</b>")
        tot = self.totals.to_html() if len(self.totals) else ""
        return _display.frame_html(self.frame, cap) + tot


class Image:
    """An encoded timeline image (`data`: PNG bytes, or SVG/JSON text bytes); PNG images show
    inline in Jupyter."""

    def __init__(self, d):
        self.window = d["window"]
        self.format = d["format"]
        self.data = d["data"]
        self.layout = d["layout"]

    def _repr_png_(self):
        return self.data if self.format == "png" else None

    def _repr_svg_(self):
        return self.data.decode() if self.format == "svg" else None

    def save(self, path):
        # The built-in open: this module's own `open` opens traces.
        with _builtins.open(_os.fspath(path), "xb") as f:  # never replaces an existing file
            f.write(self.data)

    def __repr__(self):
        return f"<parallax.Image '{self.window}' {self.format}, {len(self.data)} bytes>"


class PopTable:
    """The POP efficiency metrics of one trace or a scaling series: `frame` (rows = factors and
    raw values as modelfactors names them, columns = traces; NaN where not available), `csv`
    (modelfactors.csv) and `text`."""

    def __init__(self, d):
        pd = _pandas()
        self.traces = [t["path"] for t in d["traces"]]
        self.scaling = d["scaling"]
        self.csv = d["csv"]
        self.text = d["text"]
        self.warnings = list(d["warnings"])
        self.unavailable = {}
        self.units = {}
        rows, names = [], []
        for line in list(d["factors"]) + list(d["raw"]):
            names.append(line["name"])
            rows.append(list(line["values"]) or [float("nan")] * len(self.traces))
            self.units[line["name"]] = _pop_unit(line)
            if line["unavailable"]:
                self.unavailable[line["name"]] = line["unavailable"]
        columns = [_os.path.basename(p) for p in self.traces]
        self.frame = pd.DataFrame(rows, index=pd.Index(names, name="metric"), columns=columns)
        self.frame.attrs["units"] = dict(self.units)

    def to_pandas(self):
        """`frame`; `attrs["units"]` gives each metric's unit ("%", "us", "GHz", ...)."""
        return self.frame

    def plot(self, ax=None, **kw):
        """The efficiencies as bars, one per trace (matplotlib Figure)."""
        return _plot.pop(self, ax=ax, **kw)

    def __repr__(self):
        return self.text

    def _repr_html_(self):
        shown = self.frame.copy()
        shown.insert(0, "unit", [self.units[m] for m in shown.index])
        return _display.frame_html(shown, f"<b>POP metrics</b> ({_display.esc(self.scaling)} scaling)")


# The unit of a line of the POP table, from the core's key (runtime_us, average_frequency_ghz).
_POP_UNITS = {"speedup": "x", "average_ipc": "instructions/cycle", "useful_instructions": "instructions",
              "useful_cycles": "cycles"}


def _pop_unit(line):
    key = line.get("key", "")
    if line.get("percent"):
        return "%"
    if key in _POP_UNITS:
        return _POP_UNITS[key]
    for suffix, unit in (("_us", "us"), ("_ns", "ns"), ("_ms", "ms"), ("_ghz", "GHz")):
        if key.endswith(suffix):
            return unit
    return "number"


class Records(dict):
    """Columns of one kind of record (NumPy arrays by field name)."""

    def to_pandas(self):
        return _pandas().DataFrame(dict(self))

    def to_arrow(self):
        """The columns as a pyarrow Table, wrapping the NumPy arrays without a copy."""
        return _display.columns_to_arrow(dict(self))

    def to_polars(self):
        """The columns as a polars DataFrame."""
        return _display.columns_to_polars(dict(self))


class Trace(_PipitOps):
    """A loaded trace (open it with parallax.open). Pipit's operations (comm_matrix,
    flat_profile, time_profile, filter, ...) are methods too (docs/python.md)."""

    multirun_analysis = staticmethod(multirun_analysis)

    def __init__(self, handle, path):
        self._t = handle
        self.path = path
        self._records = None

    def __repr__(self):
        i = self.info()
        return (f"<parallax.Trace {self.path}: {i['tasks']} tasks, {i['threads']} threads, "
                f"{i['records']} records>")

    def _repr_html_(self):
        return _display.trace_html(self)

    def info(self):
        """Everything `parallax info` reports, as a dict."""
        return _parallax.info(self._t)

    def _limit(self, value, name):
        """A time limit as the command line takes it: trace units (an int), a time with its
        unit ("1.5s", "200us", "3ms", "10ns"), or a percentage of the trace's end ("40%")."""
        if value is None or isinstance(value, int):
            return value
        if isinstance(value, float) and value.is_integer():
            return int(value)
        text = str(value).strip()
        if text.isdigit():
            return int(text)
        if not hasattr(self, "_end"):
            i = self.info()
            self._end, self._unit = i["trace_end"], i["time_unit"]
        import re
        m = re.fullmatch(r"([0-9]*\.?[0-9]+(?:[eE][-+]?[0-9]+)?)\s*(%|s|ms|us|ns)", text)
        if not m:
            raise ValueError(f"{name}={value!r}: not a time; give trace units (an int), a time with its "
                             f"unit (1.5s, 200us, 3ms, 10ns) or a percentage of the trace (40%)")
        number, unit = float(m.group(1)), m.group(2)
        if unit == "%":
            return int(round(self._end * number / 100))
        ns = number * {"s": 1e9, "ms": 1e6, "us": 1e3, "ns": 1.0}[unit]
        return int(round(ns / {"ns": 1.0, "us": 1e3, "ms": 1e6}[self._unit]))

    def window(self, cfg=None, window=None, function=None, parameters=None, from_=None, to=None,
               cfg_text=None, level=None, view=None):
        """A window's intervals for every object: a cfg's last window (or the one named
        `window`), or one thread function (`function`, default "State As Is", `parameters` its
        first parameter). `from_`/`to` in trace units, or as the command line takes them ("1.5s",
        "200us", "40%" of the trace); default: the window's range. `level`
        ("thread", "task", "appl", "workload", "cpu", "node", "system") evaluates it at another
        level than its own (not for derived windows). `view`: a standard view by name
        (parallax.views()) instead of a cfg."""
        cfg_text = _view_text(view, cfg, cfg_text)
        return Window(_parallax.window(self._t, cfg=_path(cfg), cfg_text=cfg_text or "",
                                       window=window or "", function=function or "",
                                       parameters=list(parameters or []), from_=self._limit(from_, "from_"),
                                       to=self._limit(to, "to"),
                                       level=level or ""))

    def analyze(self, cfg=None, cfg_text=None, all=True, hide_empty=False, from_=None, to=None, view=None):
        """Every histogram of a cfg (only the last one with all=False, as paramedir), or of a
        standard view (`view`, by name). `from_`/`to` (trace units) analyse only that portion of
        the trace, in place of the cfg's Analyzer2D.AnalysisLimits."""
        cfg_text = _view_text(view, cfg, cfg_text)
        tables = _parallax.analyze(self._t, cfg=_path(cfg), cfg_text=cfg_text or "", all=all,
                                   hide_empty=hide_empty, from_=self._limit(from_, "from_"),
                                   to=self._limit(to, "to"))
        return [Histogram(t) for t in tables]

    def timeline(self, cfg=None, width=1000, height=0, window=None, function=None,
                 format="png", from_=None, to=None, cfg_text=None, view=None):
        """The timeline image of a cfg's window (the last one, or `window`), or of a standard
        view (`view`, by name); a list when the cfg has several windows and none is named."""
        cfg_text = _view_text(view, cfg, cfg_text)
        images = _parallax.timeline(self._t, cfg=_path(cfg), cfg_text=cfg_text or "",
                                    window=window or "", function=function or "", width=width,
                                    height=height, format=format, from_=self._limit(from_, "from_"),
                                    to=self._limit(to, "to"))
        images = [Image(i) for i in images]
        return images[-1] if (window or len(images) == 1) else images

    def paramedir(self, cfg, trace_units=False, no_precision_limit=False):
        """What paramedir writes for a cfg: a list of dicts (file_name, content, notices,
        write)."""
        return _parallax.paramedir(self._t, _path(cfg), trace_units=trace_units,
                                   no_precision_limit=no_precision_limit)

    def _all_records(self):
        if self._records is None:
            self._records = _parallax.records(self._t)
        return self._records

    def states(self):
        """State records: thread, begin, end, state, cpu."""
        return Records(self._all_records()["states"])

    def events(self):
        """Event records (one per type:value pair): thread, time, type, value, cpu."""
        return Records(self._all_records()["events"])

    def comms(self):
        """Communications: sender, receiver (threads), the four times, size, tag."""
        return Records(self._all_records()["comms"])

    @property
    def thread_names(self):
        """The threads' names ("THREAD 1.1.1", or the .row's labels), in thread order; no record is read."""
        if self._records is not None:
            return list(self._records["thread_names"])
        return list(_parallax.thread_names(self._t))

    def pop(self, from_=None, to=None):
        """The POP metrics of this trace alone, or of its portion [from_, to) (trace units)."""
        return pop([self.path], from_=self._limit(from_, "from_"), to=self._limit(to, "to"))

    def diagnose(self, from_=None, to=None, strict_sizes=False):
        """Wait states and the critical path of the trace's MPI calls (docs/diagnose.md), over
        the whole trace or its portion [from_, to) (trace units). `strict_sizes`: collectives
        whose sizes are not recorded carry no data."""
        return Diagnosis(_parallax.diagnose(self._t, from_=self._limit(from_, "from_"), to=self._limit(to, "to"),
                                            strict_sizes=strict_sizes))

    def structure(self, marker=None, eps=0.0, min_points=0, min_duration=-1, duration_only=False):
        """The main iterative loop, the phases of an iteration and clusters of the computation
        bursts (docs/structure.md). `marker`: an event type, or (type, value), to find the
        iterations from that event only; the clustering parameters are chosen from the data unless
        given (eps in normalised units, min_duration in trace units)."""
        mtype, mvalue = (marker if isinstance(marker, tuple) else (marker, None))
        return Structure(_parallax.structure(self._t, marker_type=mtype, marker_value=mvalue, eps=eps,
                                             min_points=min_points, min_duration=min_duration,
                                             duration_only=duration_only))


class FilteredTrace(_SubTrace, Trace):
    """A trace cut from another by Trace.filter: every method of a Trace works on it; its files
    live in `folder`, removed by close(), at the end of a `with` block, or when collected."""

    def __repr__(self):
        state = "closed" if self.closed else self.folder
        return f"<parallax.FilteredTrace of {self.parent_path} (range {self.range}, ranks {self.ranks}): {state}>"


class Structure:
    """What `parallax structure` reports, as Python values and DataFrames:

    - `summary`: the JSON of `parallax structure --format json` as a dict;
    - `iterations()`: one row per iteration (iteration, begin_s, end_s, duration_s, over all
      ranks); `iterations(by_rank=True)`: one row per iteration and rank (begin, end in trace
      units);
    - `clusters()`: one row per cluster (id, bursts, time_s, mean_duration_s, mean_ipc,
      mean_instructions, imbalance);
    - `phases()`: one row per phase of an iteration;
    - `bursts()`: every computation burst (thread, begin, end in trace units, cluster: 1-based,
      0 noise, -1 filtered, -2 missing data; instructions and ipc, -1 when not read).
    `str(s)` is the text report."""

    def __init__(self, raw):
        import json
        self._raw = raw
        self.summary = json.loads(raw["json"])

    def __str__(self):
        return self._raw["text"]

    def __repr__(self):
        it = self.summary["iterations"]
        found = f"{it['count']} iterations" if it["found"] else "no iterations"
        return f"<parallax.Structure {found}, {len(self.summary['clusters'])} clusters>"

    @property
    def found(self):
        return self.summary["iterations"]["found"]

    def iterations(self, by_rank=False):
        if by_rank:
            return _pandas().DataFrame(self._raw["iterations"], columns=["iteration", "rank", "begin", "end"])
        rows = [{"iteration": i + 1, "begin_s": x["begin_s"], "end_s": x["end_s"],
                 "duration_s": x["end_s"] - x["begin_s"]}
                for i, x in enumerate(self.summary["iterations"]["items"])]
        return _pandas().DataFrame(rows, columns=["iteration", "begin_s", "end_s", "duration_s"])

    def clusters(self):
        cols = ["id", "bursts", "time_s", "mean_duration_s", "mean_ipc", "mean_instructions", "imbalance"]
        return _pandas().DataFrame([{c: x[c] for c in cols} for x in self.summary["clusters"]], columns=cols)

    def phases(self):
        cols = ["position", "after_call", "before_call", "mean_s", "share", "imbalance", "cluster"]
        return _pandas().DataFrame(self.summary["phases"], columns=cols)

    def bursts(self):
        return _pandas().DataFrame(self._raw["bursts"])


class Diagnosis:
    """What `parallax diagnose` reports, as Python values and DataFrames:

    - `summary`: the JSON of `parallax diagnose --format json` as a dict (patterns with their
      time, count and per-rank times, the critical path, the counts and notes);
    - `patterns()`: one row per pattern (key, name, group, time_s, count, operations,
      completion_s, wrong_order_s);
    - `instances()`: one row per wait state (pattern, rank, call, begin_s, wait_s, call_s,
      culprit_rank, culprit_call, culprit_s, wrong_order, cause, cause_delay_s, cause_phase);
    - `critical_path()`: its segments (rank, begin_s, end_s), in time order;
    - `activities()`: time on the critical path per activity (path_s, imbalance_s);
    - `by_rank()`: per rank, the time in MPI and in each pattern, and on the critical path;
    - `root_causes()`: the waiting charged to each rank's activities (rank, activity, phase
      of the main loop or None, short_term_s, long_term_s), largest long-term first;
    - `impact()`: the critical path's performance impact per activity (on_path, ranks, busy_s,
      intra_s, inter_s, imbalance_impact_s, intra_impact_s, inter_impact_s, impact_s), in
      rank-seconds, largest impact first; the totals are in
      `summary["critical_path"]["performance_impact"]`;
    - `openmp()`: per thread of the tasks with OpenMP events, the time waiting in barriers and
      idle while the master ran outside parallel regions.
    `str(d)` is the text report."""

    def __init__(self, raw):
        import json
        self._raw = raw
        self.summary = json.loads(raw["json"])

    def __str__(self):
        return self._raw["text"]

    def __repr__(self):
        cp = self.summary["critical_path"]
        waits = sum(p["time_s"] for p in self.summary["patterns"].values())
        return (f"<parallax.Diagnosis {len(self.summary['ranks'])} ranks, {waits:.6g} s waiting, "
                f"critical path {cp['length_s']:.6g} s>")

    def _repr_html_(self):
        cp = self.summary["critical_path"]
        rows = [(p["name"], _display.number(p["time_s"]), p["count"])
                for p in sorted(self.summary["patterns"].values(), key=lambda p: -p["time_s"])]
        cap = (f"<b>parallax.Diagnosis</b>: {len(self.summary['ranks'])} ranks, critical path "
               f"{_display.number(cp['length_s'])} s")
        return _display.table(rows, header=["pattern", "time (s)", "instances"], caption=cap)

    @property
    def ranks(self):
        return list(self.summary["ranks"])

    def patterns(self):
        rows = []
        for key, p in self.summary["patterns"].items():
            rows.append({"key": key, "name": p["name"], "group": p["group"],
                         "time_s": p["time_s"], "count": p["count"],
                         "operations": p["operations"],
                         "completion_s": p.get("completion_s", 0.0),
                         "wrong_order_s": p.get("wrong_order_s", 0.0)})
        return _pandas().DataFrame(rows)

    def instances(self):
        return _pandas().DataFrame(self._raw["instances"])

    def critical_path(self):
        return _pandas().DataFrame(self._raw["segments"])

    def activities(self):
        cp = self.summary["critical_path"]
        return _pandas().DataFrame(
            [{"activity": a, "path_s": s, "imbalance_s": cp["imbalance_s"].get(a, 0.0)}
             for a, s in cp["by_activity_s"].items()])

    def openmp(self):
        omp = self.summary["openmp"]
        cols = {key: p["by_thread"] for key, p in omp["patterns"].items()}
        df = _pandas().DataFrame(cols, index=omp["threads"], columns=list(cols))
        df.index.name = "thread"
        return df

    def root_causes(self):
        return _pandas().DataFrame(self.summary["root_causes"],
                                   columns=["rank", "activity", "phase", "short_term_s", "long_term_s"])

    def impact(self):
        per = self.summary["critical_path"]["performance_impact"]["by_activity"]
        cols = ["on_path", "ranks", "busy_s", "intra_s", "inter_s", "imbalance_impact_s",
                "intra_impact_s", "inter_impact_s", "impact_s"]
        df = _pandas().DataFrame([[v[c] for c in cols] for v in per.values()], index=list(per), columns=cols)
        df.index.name = "activity"
        return df

    def by_rank(self):
        s = self.summary
        cols = {"mpi_s": s["mpi_s"]}
        for key, p in s["patterns"].items():
            cols[key + "_s"] = p["by_rank"]
        cols["critical_path_s"] = s["critical_path"]["by_rank_s"]
        df = _pandas().DataFrame(cols)
        df.index.name = "rank"
        return df.reindex(s["ranks"])


def _path(p):
    return _os.fspath(p) if p is not None else ""


# The semantic functions that traces opened from now on can use: the built-in ones, the plug-ins
# of PARALLAX_PLUGINS (loaded on first use), load_plugin() and register_function(). Each call
# makes a new registry, so a trace keeps the functions it was opened with.
_functions = None


def _registry():
    global _functions
    if _functions is None:
        reg = _parallax.new_registry()
        for lib in _os.environ.get("PARALLAX_PLUGINS", "").split(":"):
            if lib:
                reg = _parallax.load_plugin(reg, lib)
        _functions = reg
    return _functions


def load_plugin(path):
    """Loads the semantic functions of a plug-in library (docs/plugins.md) for the traces
    opened afterwards."""
    global _functions
    _functions = _parallax.load_plugin(_registry(), _os.fspath(path))


_RECORDS = {"states": 1, "events": 2, "sends": 4, "receives": 8}


def register_function(name, kind, fn, params=(), info="same as below", doc="",
                      records=("states",), stateful=False):
    """Adds a semantic function written in Python, for the traces opened afterwards; cfgs name
    it like a built-in one (docs/python.md, "Functions of your own"). `fn` is vectorised: it gets
    NumPy arrays of a batch of n intervals (up to 1024; 1 for stateful thread functions) and
    returns n values (a 1-D array of bool, integer or float). By `kind`:

      compose: fn(values, begins, ends, *params)
      derived: fn(a, b, *params)
      thread:  fn(records, previous, *params); records is a dict of arrays (kind, time, thread,
               state, event_type, event_value, size, tag, partner); `records` says which records
               start an interval (states, events, sends, receives)

    `params` is a list of (name, defaults) pairs; each parameter reaches `fn` as an array. An
    exception in `fn` fails the request with parallax.Error naming the function."""
    global _functions
    if isinstance(records, str):
        records = (records,)
    try:
        mask = sum(_RECORDS[r] for r in records)
    except KeyError as e:
        raise ValueError(f"unknown record kind {e}; use {sorted(_RECORDS)}") from None
    plist = [(str(n), [float(x) for x in d]) for n, d in params]
    _functions = _parallax.add_function(_registry(), name, kind, fn, plist, info, doc, mask,
                                        bool(stateful))


class LoadWarning(UserWarning):
    """A trace loaded with something missing or doubtful (a file cut short, skipped records),
    one per kind of damage the loader reports. Attributes: `path`; `kind` ("cut_short" for a
    file cut short, else the loader's kind: "syntax", "out_of_order", "row_lines_ignored", ...);
    `count` (lines or records of that kind); `examples` (the first locations); for a file cut
    short also `last_time` and `end_time` (trace units: where the records stop and the header's
    end), `missing_share` (the share of the run's time after the cut) and `records` (those read)."""

    path = ""
    kind = ""
    count = 0
    examples = ()


# The loader's kinds that say the file was cut short: warned together, as one loss.
_CUT_KINDS = ("truncated_input", "truncated_last_line", "missing_final_newline")


def _load_warnings(handle, path):
    """The LoadWarnings of a loaded trace: one per kind of damage, with its numbers."""
    if not _parallax.load_warnings(handle):  # cheap: no pass over the records
        return []
    info = _parallax.info(handle)
    problems = [d for d in info["diagnostics"] if d["severity"] != "info"]
    out = []

    def warning(message, kind, count, examples, **extra):
        w = LoadWarning(message)
        w.path, w.kind, w.count, w.examples = path, kind, count, tuple(examples)
        for k, v in extra.items():
            setattr(w, k, v)
        out.append(w)

    cut = [d for d in problems if d["kind"] in _CUT_KINDS]
    if cut:
        unit, last, end = info["time_unit"], info["last_time"], info["trace_end"]
        missing = (end - last) / end if end > last else 0.0
        what = "; ".join(d["description"] for d in cut)
        skipped = sum(d["count"] for d in cut if d["kind"] == "truncated_last_line")
        examples = [e for d in cut for e in d["examples"]]
        message = (f"{path}: the file was cut short ({what}): the records stop at {last} {unit}, "
                   f"the header says the run ends at {end} {unit}, so {missing:.1%} of the run's time "
                   f"is missing; {info['records']} records read"
                   + (f", {skipped} incomplete line skipped" if skipped else "")
                   + (f" (first: {examples[0]})" if examples else ""))
        warning(message, "cut_short", sum(d["count"] for d in cut), examples, last_time=last,
                end_time=end, missing_share=missing, records=info["records"])
    for d in problems:
        if d["kind"] in _CUT_KINDS:
            continue
        message = f"{path}: {d['description']}: {d['count']}"
        if d["examples"]:
            message += f" (first: {d['examples'][0]})"
        warning(message, d["kind"], d["count"], d["examples"])
    return out


def open(path, strict=False, threads=0, progress=None, cache=False, cache_dir=None,  # noqa: A001
         compact=False):
    """Loads a .prv/.prv.gz trace with its .pcf and .row. `progress`: a callable(done, total)
    or True for a tqdm bar (when tqdm is installed). The GIL is released while loading. Cfgs
    may name the functions of load_plugin() and register_function() called before.
    `cache`: read the trace's cache (in the user's cache folder ~/.cache/parallax, or in
    `cache_dir`; "beside" for TRACE.pxc next to the trace) when it is valid, else write it; `compact`: hold the records coded in blocks, about 5 bytes
    each instead of 22 (docs/scale.md, "Compact records")."""
    path = _os.fspath(path)
    handle = _parallax.open(path, strict=strict, threads=threads,
                            progress=_progress_callback(progress), functions=_registry(),
                            cache=cache,
                            cache_dir=(":beside:" if cache_dir == "beside"
                                       else _os.fspath(cache_dir) if cache_dir else ""),
                            compact=compact)
    # What the load could not take from the file (a cut-off .prv.gz, a skipped record) is said,
    # once per kind, with its numbers; strict=True refuses such a trace instead.
    for w in _load_warnings(handle, path):
        _warnings.warn(w, stacklevel=2)
    return Trace(handle, path)


def pop(traces, scaling="auto", from_=None, to=None):
    """The POP efficiency metrics of a scaling series of traces (paths), as modelfactors
    computes them; with from_/to (trace units) on the portion [from_, to) of each trace."""
    return PopTable(_parallax.pop([_os.fspath(t) for t in traces], scaling, from_, to))


def compare(a, b, by="auto", pop=False):
    """Two runs compared (docs/compare.md): `a` and `b` are traces (opened, or paths), aligned
    by iteration, phase, MPI call or rank (`by`; "auto": by iteration when both have the same
    loop, else by call); `pop` adds the POP factors of both (it replays each run)."""
    ta = a if isinstance(a, Trace) else globals()["open"](a)
    tb = b if isinstance(b, Trace) else globals()["open"](b)
    return Comparison(_parallax.compare(ta._t, tb._t, by=by, pop=pop), ta, tb)


class Comparison:
    """What `parallax compare` reports: `summary` (its JSON as a dict), `rows()` (one row per
    aligned unit: by, unit, a_s, b_s, diff_s, ratio, and each run's per-rank mean, max and
    imbalance; the largest difference first), `pop()` (the POP factors of both with their
    difference); `str(c)` is the text report; `window(cfg, ...)` a cfg window of both runs over
    aligned time (a DifferenceWindow)."""

    def __init__(self, raw, a=None, b=None):
        import json
        self._raw = raw
        self._a, self._b = a, b
        self.summary = json.loads(raw["json"])

    def window(self, cfg=None, cfg_text="", window="", iteration=None, from_=None, to=None, width=1000,
               image_format="png"):
        """The cfg's window (its last one, or `window`) evaluated on both runs over aligned time:
        B's time mapped onto A's through the iterations both runs have (docs/compare.md);
        `iteration` k of both, or A's [from_, to) in trace units; default: all of A."""
        raw = _parallax.compare_window(self._a._t, self._b._t, cfg=_os.fspath(cfg) if cfg else "",
                                       cfg_text=cfg_text, window=window, iteration=iteration, from_=from_, to=to,
                                       image_format=image_format, width=width)
        return DifferenceWindow(raw)

    def __str__(self):
        return self._raw["text"]

    def __repr__(self):
        s = self.summary
        return f"<parallax.Comparison by {s['by']}, {len(s['rows'])} rows, B - A {s['b_total_s'] - s['a_total_s']:.6g} s>"

    def rows(self):
        flat = []
        for r in self.summary["rows"]:
            row = {k: r[k] for k in ("by", "unit", "a_s", "b_s", "diff_s", "ratio")}
            for side in ("a", "b"):
                for k in ("mean_s", "max_s", "imbalance"):
                    row[f"{side}_{k}"] = r[f"{side}_ranks"][k]
            flat.append(row)
        return _pandas().DataFrame(flat, columns=["by", "unit", "a_s", "b_s", "diff_s", "ratio", "a_mean_s",
                                                  "a_max_s", "a_imbalance", "b_mean_s", "b_max_s", "b_imbalance"])

    def pop(self):
        return _pandas().DataFrame(self.summary["pop"], columns=["key", "name", "a", "b", "diff"])


class DifferenceWindow:
    """One cfg window of two runs over aligned time: `summary` (the JSON of `parallax compare
    --cfg --format json`'s window: objects, histograms, alignment), `objects()` (per object A's
    and B's time-weighted means, A - B, A / B), `intervals()` (the merged intervals on A's axis
    with A's and B's values, `diff` and `ratio`), `histograms()` (per histogram plane a
    DataFrame of cells: row, column, a, b, diff, ratio), `diff_image` / `ratio_image` (Images of
    A - B and A / B); `str(w)` is the text."""

    def __init__(self, raw):
        import json
        self._raw = raw
        self.summary = json.loads(raw["json"])
        images = raw["images"]
        self.diff_image = Image(images["diff"]) if "diff" in images else None
        self.ratio_image = Image(images["ratio"]) if "ratio" in images else None

    def __str__(self):
        return self._raw["text"]

    def __repr__(self):
        s = self.summary
        return f"<parallax.DifferenceWindow '{s['window']}' {s['level']}, {len(s['objects'])} objects>"

    def objects(self):
        return _pandas().DataFrame(self.summary["objects"],
                                   columns=["name", "a_mean", "b_mean", "diff_mean", "ratio", "differs_share"])

    def intervals(self):
        import numpy as np
        i = self._raw["intervals"]
        names = [o["name"] for o in self.summary["objects"]]
        a, b = i["a"], i["b"]
        with np.errstate(divide="ignore", invalid="ignore"):
            ratio = np.where(b != 0, a / np.where(b != 0, b, 1), np.nan)
        return _pandas().DataFrame({"object": [names[k] for k in i["object"]], "begin": i["begin"], "end": i["end"],
                                    "a": a, "b": b, "diff": a - b, "ratio": ratio})

    def histograms(self):
        out = []
        for h in self.summary["histograms"]:
            cells = []
            for r, row in enumerate(h["rows"]):
                for c, col in enumerate(h["columns"]):
                    a, b = h["a"][r][c], h["b"][r][c]
                    cells.append({"row": row, "column": col, "a": a, "b": b,
                                  "diff": (a or 0) - (b or 0) if a is not None or b is not None else None,
                                  "ratio": a / b if a is not None and b else None})
            frame = _pandas().DataFrame(cells, columns=["row", "column", "a", "b", "diff", "ratio"])
            frame.attrs.update(name=h["name"], statistic=h["statistic"], plane=h["plane"])
            out.append(frame)
        return out


def views():
    """The standard views shipped with Parallax (docs/views.md): a list of dicts (name, title,
    description, windows, histograms, needs). Use one with `trace.analyze(view=NAME)`,
    `trace.timeline(view=NAME)` or `trace.window(view=NAME)`; `view_cfg(NAME)` is its cfg text."""
    return _parallax.views()


def view_cfg(name):
    """The cfg text of a standard view (an unknown name raises Error naming the closest)."""
    return _parallax.view_cfg(name)


def _view_text(view, cfg, cfg_text):
    if view is None:
        return cfg_text
    if cfg is not None or cfg_text:
        raise ValueError("give a view, or a cfg (cfg or cfg_text), not both")
    return _parallax.view_cfg(view)


def functions():
    """The semantic functions Parallax knows (name, group, params, info, stateful, doc, origin),
    the plug-in and Python ones included."""
    return _parallax.functions(_registry())
