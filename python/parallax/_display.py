"""Rich display in Jupyter (HTML summaries) and Arrow / polars conversions of Parallax results
(docs/python.md, "In Jupyter" and "Arrow and polars")."""

from __future__ import annotations

import html as _html


def esc(x):
    return _html.escape(str(x))


def number(v, digits=6):
    """A number as the summaries print it: integers whole, others with `digits` significant
    digits."""
    try:
        f = float(v)
    except (TypeError, ValueError):
        return str(v)
    if f != f:
        return "NaN"
    if f.is_integer() and abs(f) < 1e15:
        return f"{int(f)}"
    return f"{f:.{digits}g}"


def table(rows, header=None, caption=None):
    """An HTML table of rows (lists of cells, already text)."""
    out = ['<table class="parallax">']
    if caption:
        out.append(f"<caption style=\"text-align:left\">{caption}</caption>")
    if header:
        out.append("<thead><tr>" + "".join(f"<th>{esc(h)}</th>" for h in header) + "</tr></thead>")
    out.append("<tbody>")
    for r in rows:
        cells = list(r)
        out.append("<tr><th style=\"text-align:left\">" + esc(cells[0]) + "</th>"
                   + "".join(f"<td>{esc(c)}</td>" for c in cells[1:]) + "</tr>")
    out.append("</tbody></table>")
    return "".join(out)


def png_img(data, alt=""):
    import base64
    return (f'<img alt="{esc(alt)}" src="data:image/png;base64,'
            f'{base64.b64encode(data).decode()}"/>')


def window_summary(window):
    """Per object: intervals, covered time, and the time-weighted mean (quantities) or the
    value held longest (values that name things)."""
    import numpy as np
    from ._plot import CATEGORICAL_UNITS
    n = len(window.object_names)
    obj = np.asarray(window.object)
    dur = (np.asarray(window.end) - np.asarray(window.begin)).astype(float)
    val = np.asarray(window.value, dtype=float)
    count = np.bincount(obj, minlength=n)
    time = np.bincount(obj, weights=dur, minlength=n)
    rows = []
    categorical = window.unit in CATEGORICAL_UNITS
    labels = getattr(window, "value_labels", None) or {}
    for o in range(n):
        sel = obj == o
        if categorical:
            if count[o]:
                vals, inv = np.unique(val[sel], return_inverse=True)
                longest = vals[np.argmax(np.bincount(inv, weights=dur[sel]))]
                shown = labels.get(longest, number(longest))
            else:
                shown = ""
        else:
            shown = number((val[sel] * dur[sel]).sum() / time[o]) if time[o] > 0 else ""
        rows.append((window.object_names[o], int(count[o]), number(time[o]), shown))
    return rows


def window_html(window, image=True):
    lo, hi = window.range
    head = (f"<b>{esc(window.name)}</b>: {len(window)} intervals of {len(window.object_names)} "
            f"{esc(window.level)} objects, [{lo}, {hi}) {esc(window.time_unit)}, "
            f"values in <b>{esc(window.unit)}</b>")
    from ._plot import CATEGORICAL_UNITS
    last = ("value held longest" if window.unit in CATEGORICAL_UNITS
            else f"time-weighted mean ({window.unit})")
    body = table(window_summary(window), header=["object", "intervals", f"time ({window.time_unit})", last],
                 caption=head)
    if image and len(window.object_names):
        try:
            from . import _plot
            body += png_img(_plot.figure_png(_plot.timeline(window, figsize=(8, 3))), window.name)
        except ImportError:
            pass
    return body


def frame_html(frame, caption):
    return f"<div><p>{caption}</p>{frame.to_html()}</div>"


def trace_html(trace):
    i = trace.info()
    unit = i["time_unit"]
    rows = [("trace", trace.path),
            ("duration", f"{number(i['trace_end'])} {unit}"),
            ("applications", i["appls"]), ("tasks", i["tasks"]), ("threads", i["threads"]),
            ("nodes", i["nodes"]), ("cpus", i["cpus"]),
            ("records", i["records"]), ("states", i["states"]), ("events", i["event_pairs"]),
            ("communications", i["comms"]),
            (".pcf", "yes" if i["has_pcf"] else "no"), (".row", "yes" if i["has_row"] else "no")]
    problems = [d for d in i["diagnostics"] if d["severity"] != "info"]
    for d in problems:
        rows.append((f"{d['severity']}: {d['kind']}", f"{d['count']} x {d['description']}"))
    return table(rows, caption="<b>parallax.Trace</b>")


def need(module, what):
    """Imports pyarrow or polars, or says how to get it."""
    import importlib
    try:
        return importlib.import_module(module)
    except ImportError as e:
        pkg = {"pyarrow": "pyarrow", "polars": "polars"}[module]
        raise ImportError(f"{what} needs {pkg}, which is not installed for this Python "
                          f"(pip install {pkg}; Debian 12 has no package of it); "
                          f"to_pandas() gives the same table") from e


def columns_to_arrow(columns, dictionary=None):
    """A pyarrow Table of NumPy columns: numeric arrays are wrapped, not copied; `dictionary`
    maps a column of codes to its names (a DictionaryArray sharing the codes)."""
    pa = need("pyarrow", "to_arrow()")
    arrays, names = [], []
    for name, col in columns.items():
        if dictionary and name in dictionary:
            codes = pa.array(col)
            arrays.append(pa.DictionaryArray.from_arrays(codes, pa.array(dictionary[name], type=pa.string())))
        else:
            arrays.append(pa.array(col))
        names.append(name)
    return pa.Table.from_arrays(arrays, names=names)


def columns_to_polars(columns, dictionary=None):
    """A polars DataFrame of NumPy columns (polars takes numeric NumPy arrays without a copy
    where their layout allows); a column of codes with names becomes a Categorical."""
    pl = need("polars", "to_polars()")
    series = []
    for name, col in columns.items():
        if dictionary and name in dictionary:
            import numpy as np
            names = np.asarray(dictionary[name], dtype=object)
            series.append(pl.Series(name, names[col], dtype=pl.Categorical))
        else:
            series.append(pl.Series(name, col))
    return pl.DataFrame(series)


def frame_to_arrow(frame):
    pa = need("pyarrow", "to_arrow()")
    return pa.Table.from_pandas(frame)


def frame_to_polars(frame):
    pl = need("polars", "to_polars()")
    return pl.from_pandas(frame.reset_index() if frame.index.name or frame.index.names[0] else frame)
