"""matplotlib figures of Parallax results (docs/python.md, "Plots"): a window as an image of
objects x time, a profile table as bars, the POP efficiencies as bars.

Figures are made with matplotlib's object API (matplotlib.figure.Figure), never through
pyplot: no window opens, nothing depends on the backend (Agg writes them with savefig), and
Jupyter shows a returned Figure inline.
"""

from __future__ import annotations

from ._needs import missing

# Units whose values name things (codes), drawn with a qualitative colour map; the others are
# quantities, drawn with a sequential one and a colour bar.
CATEGORICAL_UNITS = frozenset({"state", "event type", "event value", "tag", "object", "appl",
                               "task", "thread", "node", "cpu"})
_SECONDS = {"ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1.0}


def _matplotlib():
    try:
        from matplotlib.figure import Figure
    except ImportError as e:
        raise missing("plot()", "matplotlib", "python3-matplotlib") from e
    return Figure


def _figure(ax, figsize):
    """A new Figure and its axes, or the figure of the axes given."""
    if ax is not None:
        return ax.figure, ax
    Figure = _matplotlib()
    fig = Figure(figsize=figsize, layout="constrained")
    return fig, fig.add_subplot()


def _time_axis(unit, span):
    """The unit the time axis is labelled in (the largest that keeps the span >= 1) and the
    factor from trace units to it."""
    s = _SECONDS.get(unit, 1e-9)
    for name, f in (("s", 1.0), ("ms", 1e-3), ("us", 1e-6), ("ns", 1e-9)):
        if span * s / f >= 1 or name == "ns":
            return name, s / f
    return unit, 1.0  # pragma: no cover


def window_matrix(window, columns=800):
    """The window as a matrix of objects x `columns` equal time bins of its range: a
    quantity's time-weighted mean over the bin, or, for values that name things (states,
    events, objects), the value at the bin's middle. NaN where no interval covers. Returns
    (matrix, edges) with edges in trace units."""
    import numpy as np
    lo, hi = window.range
    columns = max(1, int(columns))
    edges = np.linspace(float(lo), float(hi), columns + 1)
    out = np.full((len(window.object_names), columns), np.nan)
    obj = np.asarray(window.object)
    begin = np.asarray(window.begin, dtype=float)
    end = np.asarray(window.end, dtype=float)
    value = np.asarray(window.value, dtype=float)
    categorical = window.unit in CATEGORICAL_UNITS
    # Intervals are in object then time order: each object's are a slice.
    starts = np.searchsorted(obj, np.arange(len(window.object_names) + 1))
    mids = (edges[:-1] + edges[1:]) / 2
    for o in range(len(window.object_names)):
        a, b = starts[o], starts[o + 1]
        if a == b:
            continue
        bg, en, v = begin[a:b], end[a:b], value[a:b]
        if categorical:
            k = np.searchsorted(bg, mids, side="right") - 1
            ok = (k >= 0) & (mids < en[np.clip(k, 0, None)])
            out[o, ok] = v[k[ok]]
            continue
        # Time-weighted mean: the integral of the row's step function between the edges.
        length = en - bg
        cum = np.concatenate(([0.0], np.cumsum(v * length)))
        covered = np.concatenate(([0.0], np.cumsum(length)))

        def integral(t, weights, total):
            k = np.searchsorted(bg, t, side="right") - 1
            kk = np.clip(k, 0, None)
            inside = np.clip(t - bg[kk], 0, length[kk])
            return np.where(k >= 0, total[kk] + weights[kk] * inside, 0.0)

        area = integral(edges, v, cum)
        time = integral(edges, np.ones_like(v), covered)
        dt = np.diff(time)
        with np.errstate(invalid="ignore", divide="ignore"):
            out[o] = np.where(dt > 0, np.diff(area) / dt, np.nan)
    return out, edges


def timeline(window, ax=None, columns=800, figsize=None, cmap=None, max_labels=40):
    """A window as an image: one row per object, time across (the window's range), coloured by
    value. Quantities get a sequential colour map and a colour bar labelled with the window's
    unit; values that name things (states, event values, objects) a qualitative map and a
    legend of the values seen. Returns the matplotlib Figure."""
    import numpy as np
    n = len(window.object_names)
    fig, ax = _figure(ax, figsize or (10, max(2.0, min(8.0, 0.6 + 0.25 * n))))
    matrix, edges = window_matrix(window, columns)
    tname, factor = _time_axis(window.time_unit, window.range[1] - window.range[0])
    extent = (edges[0] * factor, edges[-1] * factor, n - 0.5, -0.5)
    categorical = window.unit in CATEGORICAL_UNITS
    if categorical:
        from matplotlib.colors import BoundaryNorm, ListedColormap
        from matplotlib.patches import Patch
        import matplotlib
        seen = np.unique(matrix[~np.isnan(matrix)])
        base = matplotlib.colormaps[cmap or "tab20"]
        colors = [base(i % base.N) for i in range(len(seen))] or [base(0)]
        codes = np.full(matrix.shape, np.nan)
        for i, v in enumerate(seen):
            codes[matrix == v] = i
        listed = ListedColormap(colors)
        listed.set_bad((1, 1, 1, 0))
        ax.imshow(codes, aspect="auto", interpolation="nearest", extent=extent, cmap=listed,
                  norm=BoundaryNorm(np.arange(len(colors) + 1) - 0.5, len(colors)))
        labels = getattr(window, "value_labels", None) or {}
        handles = [Patch(color=colors[i], label=f"{labels.get(v, _number(v))}")
                   for i, v in enumerate(seen[:20])]
        if handles:
            ax.legend(handles=handles, title=window.unit, loc="upper left", bbox_to_anchor=(1.01, 1),
                      fontsize="small", title_fontsize="small", frameon=False)
    else:
        image = ax.imshow(np.ma.masked_invalid(matrix), aspect="auto", interpolation="nearest",
                          extent=extent, cmap=cmap or "viridis")
        fig.colorbar(image, ax=ax, label=f"{window.name} ({window.unit})")
    ax.set_xlabel(f"time ({tname})")
    ax.set_ylabel(window.level.lower())
    if n <= max_labels:
        ax.set_yticks(range(n), window.object_names, fontsize="small")
    ax.set_title(f"{window.name} [{window.unit}]")
    return fig


def _number(v):
    return str(int(v)) if float(v).is_integer() else f"{v:g}"


def profile(table, column=None, ax=None, top=20, unit=None, figsize=None, title=None):
    """A profile table as horizontal bars: one bar per row (the `top` largest), of `column`
    (default: the only or first numeric column); with several numeric columns and no
    `column`, stacked bars of every column per row (a histogram's objects x values). The axis
    says the unit (`unit`, or the table's `attrs["unit"]` / `attrs["units"]`). Returns the
    Figure."""
    import numpy as np
    frame = getattr(table, "frame", table)  # a Histogram or a DataFrame
    attrs = dict(getattr(frame, "attrs", {}) or {})
    if unit is None and hasattr(table, "unit"):
        unit = table.unit
    numeric = frame.select_dtypes(include=[np.number])
    if numeric.shape[1] == 0:
        raise ValueError("profile(): the table has no numeric column")
    if column is None and numeric.shape[1] == 1:
        column = numeric.columns[0]
    if unit is None:
        units = attrs.get("units", {})
        unit = units.get(column) if column is not None else None
        unit = unit or attrs.get("unit")
    rows = numeric if column is None else numeric[[column]]
    order = rows.sum(axis=1).sort_values(ascending=False).index[:top]
    rows = rows.loc[order].iloc[::-1]  # largest at the top
    fig, ax = _figure(ax, figsize or (8, max(2.0, min(10.0, 0.8 + 0.3 * len(rows)))))
    labels = [" / ".join(map(str, i)) if isinstance(i, tuple) else str(i) for i in rows.index]
    left = np.zeros(len(rows))
    if rows.shape[1] == 1:
        ax.barh(labels, rows.iloc[:, 0].to_numpy(dtype=float))
    else:
        import matplotlib
        cmap = matplotlib.colormaps["tab20"]
        for k, c in enumerate(rows.columns):
            values = np.nan_to_num(rows[c].to_numpy(dtype=float))
            ax.barh(labels, values, left=left, label=str(c), color=cmap(k % cmap.N))
            left += values
        ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1), fontsize="small", frameon=False)
    what = str(column) if column is not None else (getattr(table, "statistic", None) or "value")
    ax.set_xlabel(f"{what} ({unit})" if unit else what)
    ax.set_title(title or getattr(table, "name", None) or what)
    return fig


def pop(table, ax=None, figsize=None, metrics=None):
    """The POP efficiencies of a PopTable (or pypop's metric table) as grouped horizontal bars,
    one bar per trace, in percent, with the 80 % line POP reports use as "good". Returns the
    Figure."""
    import numpy as np
    frame = getattr(table, "frame", table)
    units = getattr(table, "units", None)
    if metrics is None:
        if units is not None:
            metrics = [m for m in frame.index if units.get(m) == "%"]
        else:  # pypop's table: rows are runs, columns metrics; efficiencies are fractions
            frame = frame.T * 100
            metrics = [m for m in frame.index if "Efficiency" in str(m) or "Balance" in str(m)
                       or "Scaling" in str(m)]
    data = frame.loc[metrics].astype(float)
    fig, ax = _figure(ax, figsize or (8, max(2.5, 0.35 * len(metrics) * max(1, data.shape[1]) ** 0.5 + 1)))
    n = data.shape[1]
    height = 0.8 / max(1, n)
    y = np.arange(len(metrics))
    for k, col in enumerate(data.columns):
        ax.barh(y + (k - (n - 1) / 2) * height, data[col].to_numpy(), height=height, label=str(col))
    ax.set_yticks(y, [str(m) for m in metrics])
    ax.invert_yaxis()
    ax.axvline(80, color="grey", linestyle="--", linewidth=1)
    ax.set_xlabel("efficiency (%)")
    ax.set_xlim(0, max(100.0, float(np.nanmax(data.to_numpy())) if data.size else 100.0) * 1.05)
    if n > 1:
        ax.legend(fontsize="small", loc="lower right")
    ax.set_title("POP metrics")
    return fig


def figure_png(fig):
    """The PNG bytes of a Figure (Agg)."""
    import io
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    FigureCanvasAgg(fig)
    buf = io.BytesIO()
    fig.savefig(buf, format="png")
    return buf.getvalue()
