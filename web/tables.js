// HTML tables: the textual view of one object, and analyzer planes (shaded cells, totals,
// transpose, a click handler per cell), plus their CSV.

import { isSourceLabel, sourceLink } from './source.js';

// A duration in seconds with a unit that keeps it readable (s, ms, µs).
export function seconds(s) {
  if (s === 0) return '0 s';
  if (Math.abs(s) >= 1) return `${s.toFixed(3)} s`;
  if (Math.abs(s) >= 1e-3) return `${(s * 1e3).toFixed(3)} ms`;
  return `${(s * 1e6).toFixed(3)} µs`;
}

export function el(tag, text, cls) {
  const c = document.createElement(tag);
  if (text !== undefined && text !== null) c.textContent = text;
  if (cls) c.className = cls;
  return c;
}

// A button of type button (not a form's submit) that calls onClick.
export function button(text, title, onClick, cls) {
  const b = el('button', text, cls);
  b.type = 'button';
  if (title) b.title = title;
  b.addEventListener('click', onClick);
  return b;
}

function table(headers, rows, cls) {
  const t = el('table', null, cls);
  const head = el('tr');
  headers.forEach((h, i) => head.append(el('th', h, i === 0 ? 'label' : '')));
  t.append(head);
  for (const r of rows) {
    const tr = el('tr');
    r.forEach((v, i) => tr.append(v instanceof HTMLElement ? v : el('td', v, i === 0 ? 'label' : '')));
    t.append(tr);
  }
  return t;
}

// The textual view `v` of one object. `times` ({unit, format(t)}) shows trace times in the
// window's unit; by default they are shown as the server sent them, in trace units. An event
// whose value label is a source location gets a link that calls onSource(label, type).
export function renderText(panel, v, time, times = { unit: v.time_unit, format: String }, onSource = null) {
  const t = times.format;
  const h = el('h4', `${v.object} at ${t(time)} ${times.unit} — ${v.window} (${v.function}), ${t(v.from)}–${t(v.to)} ${times.unit}`);
  const intervals = table([`begin (${times.unit})`, `end (${times.unit})`, 'value', 'label'],
    v.intervals.map((i) => [t(i.begin), t(i.end), i.value === null ? '' : String(i.value), i.label]), 'text-values');
  const events = table([`time (${times.unit})`, 'thread', 'type', 'value'],
    v.events.map((e) => {
      const value = `${e.value} ${e.value_label}`;
      if (!onSource || !isSourceLabel(e.value_label)) return [t(e.time), e.thread, `${e.type} ${e.type_label}`, value];
      const cell = el('td');
      cell.append(sourceLink(value, e.value_label, (label) => onSource(label, e.type)));
      return [t(e.time), e.thread, `${e.type} ${e.type_label}`, cell];
    }), 'text-events');
  const comms = table(['thread', 'direction', 'partner', 'logical send', 'physical send', 'logical recv', 'physical recv', 'size', 'tag'],
    v.comms.map((c) => [c.thread, c.direction, c.partner, t(c.logical_send), t(c.physical_send),
      t(c.logical_recv), t(c.physical_recv), String(c.size), String(c.tag)]), 'text-comms');
  panel.replaceChildren(h, el('h5', `values (${v.intervals.length})`), intervals, el('h5', `events (${v.events.length})`), events,
    el('h5', `communications (${v.comms.length})`), comms);
}

// Cells are shaded from light to dark green by their value within the plane.
function shade(v, max) {
  if (v === null || !max) return '';
  const f = Math.min(1, Math.abs(v) / max);
  return `hsl(120, 60%, ${Math.round(95 - 45 * f)}%)`;
}

export function formatValue(v) {
  if (v === null || v === undefined) return 'nan';
  return Number.isInteger(v) ? String(v) : v.toPrecision(6);
}

// What an analyzer statistic's values are in: '%', a time unit (the data window's), 'bytes',
// or '' (counts, and values of the data window's function).
export function statisticUnit(statistic, timeUnit) {
  if (!statistic) return '';
  if (statistic.includes('%')) return '%';
  if (/^(Time|Average Burst Time|Stdev Burst Time|Sum bursts)$/.test(statistic)) return timeUnit || '';
  if (/bytes/i.test(statistic)) return 'bytes';
  return '';
}

const GROUPED = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });
const TWO = new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

// A cell as Paraver shows it: integers with thousands separators, other values with two
// decimals (three significant digits below 0.01, where two decimals would read 0.00), and the
// unit of percentages.
export function formatCell(v, unit = '') {
  if (v === null || v === undefined) return 'nan';
  let text;
  if (Number.isInteger(v)) text = GROUPED.format(v);
  else if (v !== 0 && Math.abs(v) < 0.01) text = v.toPrecision(3);
  else text = TWO.format(v);
  return unit === '%' ? `${text} %` : text;
}

// The plane as a grid of strings (header row first), transposed on request, with totals.
export function planeGrid(p, { transpose = false, totals = true } = {}) {
  const head = ['', ...p.columns];
  const body = p.values.map((r, i) => [p.rows[i], ...r]);
  if (totals) p.totals.forEach((r, i) => body.push([p.total_names[i], ...r]));
  const grid = [head, ...body];
  if (!transpose) return grid;
  return grid[0].map((_, c) => grid.map((r) => r[c]));
}

function csvField(v) {
  const s = typeof v === 'number' || v === null ? formatValue(v) : String(v);
  return /[",\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

export function planeCsv(p, options) {
  return planeGrid(p, options).map((r) => r.map(csvField).join(',')).join('\n') + '\n';
}

// One plane as a table. onCell(row, column) gets plane indices (before transposing).
// `unit`: what the values are in (statisticUnit), said in the corner cell with `statistic`.
export function renderPlane(p, { transpose = false, totals = true, onCell, statistic = '', unit = '' } = {}) {
  const max = Math.max(0, ...p.values.flat().filter((x) => x !== null).map(Math.abs));
  const nRows = p.rows.length;
  const t = el('table', null, 'analyzer');
  const grid = planeGrid(p, { transpose, totals });
  grid.forEach((r, gi) => {
    const tr = el('tr');
    r.forEach((v, gj) => {
      if (gi === 0 && gj === 0 && statistic) {
        const corner = el('th', unit && unit !== '%' ? `${statistic} (${unit})` : statistic, 'label corner');
        corner.title = corner.textContent;
        tr.append(corner);
        return;
      }
      if (gi === 0 || gj === 0) {
        const th = el('th', v, gj === 0 ? 'label' : '');
        if (gj === 0 && v) th.title = v;  // row headers stay on one line, cut with an ellipsis
        tr.append(th);
        return;
      }
      // Plane indices of this cell.
      const [ri, ci] = transpose ? [gj - 1, gi - 1] : [gi - 1, gj - 1];
      // Avg/Max is a ratio whatever the statistic's unit.
      const ratio = ri >= nRows && p.total_names[ri - nRows] === 'Avg/Max';
      const td = el('td', formatCell(v, ratio ? '' : unit));
      if (v !== null && v !== undefined) td.title = String(v);  // every digit on hover
      if (ri < nRows) {
        td.style.background = shade(v, max);
        td.dataset.row = ri;
        td.dataset.col = ci;
        if (onCell) td.addEventListener('click', () => onCell(ri, ci, td));
      } else {
        td.className = 'total';
      }
      tr.append(td);
    });
    t.append(tr);
  });
  return t;
}
