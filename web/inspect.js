// What a timeline window tells about its cells: the hover tooltip (the object, the time, the
// value and its label, the interval holding that time, and what the pixel folds: pixel
// provenance), from the server's /api/at.

import { postJson } from './api.js';
import { timeFormatter } from './timeline.js';
import { el } from './tables.js';
import { register } from './overlays.js';

// An area selection {from, to, objects}: shaded and outlined over its rows.
register('area', {
  order: 10,
  draw(g, view, a) {
    const rows = view.list.rows.filter((row) => a.objects.includes(row[3]));
    if (!rows.length) return;
    const [ax, , aw] = view.area;
    const x0 = Math.max(ax, view.x(a.from)), x1 = Math.min(ax + aw, view.x(a.to));
    if (x1 <= x0) return;
    const y0 = Math.min(...rows.map((row) => row[1])), y1 = Math.max(...rows.map((row) => row[1] + Math.max(1, row[2])));
    g.fillStyle = 'rgba(120, 200, 255, 0.25)';
    g.fillRect(x0, y0, x1 - x0, y1 - y0);
    g.strokeStyle = '#7cf';
    g.strokeRect(x0 + 0.5, y0 - 0.5, Math.max(1, x1 - x0 - 1), y1 - y0 + 1);
  },
});

// A find match {time, end, object_index}: a magenta line at its time and a triangle above its
// row (its extent outlined when it is wider than a pixel).
register('found', {
  order: 20,
  draw(g, view, m) {
    const [ax, ay, aw, ah] = view.area;
    const x0 = view.x(m.time), x1 = view.x(m.end);
    if (x1 < ax || x0 > ax + aw) return;
    g.strokeStyle = '#ff40ff';
    g.fillStyle = '#ff40ff';
    g.beginPath();
    g.moveTo(Math.round(x0) + 0.5, ay);
    g.lineTo(Math.round(x0) + 0.5, ay + ah);
    g.stroke();
    const row = view.rows.get(m.object_index);
    if (!row) return;
    g.beginPath();  // a triangle above the row
    g.moveTo(x0 - 5, row[1] - 6);
    g.lineTo(x0 + 5, row[1] - 6);
    g.lineTo(x0, row[1]);
    g.fill();
    if (x1 - x0 >= 2) g.strokeRect(Math.max(ax, x0), row[1], Math.min(ax + aw, x1) - Math.max(ax, x0), Math.max(1, row[2]));
  },
});

const HOVER_MS = 80;  // the cursor must rest this long before the server is asked
const PIXEL_VALUES = 4;  // values of a pixel listed by name
const SUMMARY_ASKED = 32;  // rows of a summary row asked for the tooltip

// A value as the window means it: its label when it has one (states, events, objects).
export function valueText(value, label) {
  if (value === null) return 'NaN';
  const v = Number.isInteger(value) ? String(value) : value.toPrecision(6).replace(/\.?0+$/, '');
  return label ? `${label} (${v})` : v;
}

// The request naming a panel's window (its doc's cfg text and the window's name).
export function windowOf(panel) {
  return { trace: panel.doc.trace, cfg_text: panel.doc.text, window: panel.window.name };
}

// The time span [from, to) of the pixel column at canvas x of a canvas showing `range`.
export function pixelSpan(canvas, x) {
  const [ax, , aw] = canvas.list.area;
  const r = canvas.range, span = r.to - r.from;
  const px = Math.floor(x - ax);
  const from = Math.floor(r.from + (px * span) / aw);
  return { from, to: Math.max(from + 1, Math.floor(r.from + ((px + 1) * span) / aw)) };
}

export class CellTooltip {
  constructor(panel, box) {
    this.panel = panel;
    this.box = box;
    this.tip = el('div', null, 'tooltip');
    this.tip.hidden = true;
    this.tip.setAttribute('role', 'tooltip');
    box.append(this.tip);
    this.timer = null;
    this.seq = 0;
  }

  hide() {
    clearTimeout(this.timer);
    this.seq += 1;
    this.tip.hidden = true;
  }

  // The cursor at canvas point `pt` (null: it left), `e` its mouse event.
  hover(pt, e) {
    clearTimeout(this.timer);
    const c = this.panel.canvas;
    const row = pt && c.list ? c.rowAt(pt.y) : null;
    const [ax, , aw] = c.list ? c.list.area : [0, 0, 0];
    if (!row || pt.x < ax || pt.x >= ax + aw || this.panel.pending || c.drag) {
      this.hide();
      return;
    }
    const b = this.box.getBoundingClientRect();
    const at = { x: e.clientX - b.left, y: e.clientY - b.top };
    this.timer = setTimeout(() => this.ask(row, pt, at), HOVER_MS);
  }

  async ask(row, pt, at) {
    const c = this.panel.canvas;
    const { from, to } = pixelSpan(c, pt.x);
    const time = Math.min(to - 1, Math.max(from, c.timeAt(pt.x)));
    const seq = ++this.seq;
    try {
      const members = this.panel.groups ? this.panel.groups.membersOf(row) : [];
      if (members.length) {
        // A summary row: what each of its rows holds there (the first SUMMARY_ASKED of them).
        const asked = members.slice(0, SUMMARY_ASKED);
        const answers = await Promise.all(asked.map((o) => postJson('/api/at', { ...windowOf(this.panel), object_index: o, time, from, to })));
        if (seq === this.seq) this.showSummary(row, members.length, answers, time, at, pt);
        return;
      }
      const a = await postJson('/api/at', { ...windowOf(this.panel), object_index: row[3], time, from, to });
      if (seq === this.seq) this.show(a, time, at, pt);
    } catch (e) {
      if (seq === this.seq) this.place([el('div', `${e.message}${e.hint ? ` (${e.hint})` : ''}`, 'error')], at);
    }
  }

  show(a, time, at, pt) {
    const f = timeFormatter(a.time_unit, this.panel.window.unit);
    const t = (x) => `${f.format(x)} ${f.unit}`;
    const lines = [el('div', a.objects[0], 'tip-object'), el('div', `time ${t(time)}`, 'tip-time')];
    if (a.at) {
      lines.push(el('div', valueText(a.at.value, a.at.label), 'tip-value'));
      lines.push(el('div', `interval ${t(a.at.begin)} – ${t(a.at.end)} (${t(a.at.end - a.at.begin)})`, 'tip-interval'));
    } else {
      lines.push(el('div', 'no interval here', 'tip-value'));
    }
    const mode = this.panel.window.draw_mode;
    const plural = (n, w) => `${n} ${w}${n === 1 ? '' : 's'}`;
    lines.push(el('div', `pixel ${t(a.from)} – ${t(a.to)}: ${plural(a.intervals, 'interval')}, ${plural(a.events, 'event')}`
      + `${a.intervals > 1 ? `, drawn by ${mode}` : ''}`, 'tip-pixel'));
    if (a.values.length > 1) {
      const shown = a.values.slice(0, PIXEL_VALUES).map((v) => `${valueText(v.value, v.label)} ${(100 * v.fraction).toFixed(1)}%`);
      if (a.values.length > PIXEL_VALUES) shown.push(`${a.values.length - PIXEL_VALUES} more`);
      lines.push(el('div', shown.join(', '), 'tip-values'));
    }
    this.place(lines, at, pt, { time, from: a.from, to: a.to, intervals: a.intervals, begin: a.at ? a.at.begin : '', end: a.at ? a.at.end : '' });
  }

  // The tooltip of a summary row: its group, how many of its rows hold each value at the time
  // under the cursor (the pixel's value for each, as its own row would be drawn), most first.
  showSummary(row, count, answers, time, at, pt) {
    const f = timeFormatter(answers[0].time_unit, this.panel.window.unit);
    const t = (x) => `${f.format(x)} ${f.unit}`;
    const label = row[0].replace(/ \(\d+\)$/, '');
    const lines = [el('div', `${label}: summary of ${count} rows`, 'tip-object'), el('div', `time ${t(time)}`, 'tip-time')];
    const tally = new Map();  // value text -> rows
    for (const a of answers) {
      const key = a.at ? valueText(a.at.value, a.at.label) : 'no interval';
      tally.set(key, (tally.get(key) || 0) + 1);
    }
    const sorted = [...tally].sort((x, y) => y[1] - x[1]);
    const of = answers.length < count ? ` (of the first ${answers.length})` : '';
    const named = (v) => (/^-?[\d.e+]+$/.test(v) ? `value ${v}` : v);
    const rowsText = (n) => `${n} row${n === 1 ? '' : 's'}`;
    const listed = sorted.slice(0, PIXEL_VALUES).map(([v, n]) => `${named(v)}: ${rowsText(n)}`);
    if (sorted.length > PIXEL_VALUES) listed.push(`${sorted.length - PIXEL_VALUES} more values`);
    lines.push(el('div', listed.join('; ') + of, 'tip-values'));
    const a = answers[0];
    lines.push(el('div', `pixel ${t(a.from)} – ${t(a.to)}; the row shows ${this.panel.window.color_mode === 'code' ? 'the value most of its rows hold' : 'their mean'}`, 'tip-pixel'));
    this.place(lines, at, pt, { time, from: a.from, to: a.to, summary: count });
  }

  // Shows `lines` beside the cursor, kept inside the window; at the canvas point `pt`, what the
  // overlays drawn there say follows (web/overlays.js). `data` becomes the tip's data attributes
  // (those of an earlier tip go).
  place(lines, at, pt = null, data = {}) {
    const c = this.panel.canvas;
    if (pt && c.list) for (const o of c.overlays.tooltip(c.viewport(), pt)) lines.push(el('div', o.text, `tip-overlay tip-${o.name}`));
    for (const k of Object.keys(this.tip.dataset)) delete this.tip.dataset[k];
    Object.assign(this.tip.dataset, data);
    this.tip.replaceChildren(...lines);
    this.tip.hidden = false;
    const w = this.tip.offsetWidth;
    const x = at.x + 14 + w > this.box.clientWidth ? Math.max(0, at.x - 14 - w) : at.x + 14;
    this.tip.style.left = `${x}px`;
    this.tip.style.top = `${Math.max(0, at.y + 14)}px`;
  }
}

// Runs of consecutive numbers in `objects`: [[first, last]...].
function runs(objects) {
  const sorted = [...new Set(objects)].sort((a, b) => a - b);
  const out = [];
  for (const o of sorted) {
    if (out.length && out[out.length - 1][1] === o - 1) out[out.length - 1][1] = o;
    else out.push([o, o]);
  }
  return out;
}

// An area selection (time range × rows) of a timeline window: outlined on its frames, with its
// duration and the time of each value in its cells (from /api/cells), until cleared.
export class AreaStats {
  constructor(panel) {
    this.panel = panel;
    this.root = el('div', null, 'area-stats');
    this.root.hidden = true;
    this.area = null;
    this.seq = 0;
  }

  clear() {
    this.seq += 1;
    this.area = null;
    this.root.hidden = true;
    this.root.replaceChildren();
    this.panel.canvas.overlays.set('area', null);
    this.panel.app.linkChanged();
  }

  async select(area) {
    const seq = ++this.seq;
    this.area = area;
    this.panel.canvas.overlays.set('area', area);
    this.panel.app.linkChanged();
    this.root.hidden = false;
    this.root.replaceChildren(el('div', 'summing the selected cells…', 'area-note'));
    try {
      const parts = await Promise.all(runs(area.objects).map(([first, last]) => postJson('/api/cells', {
        ...windowOf(this.panel), object_first: first, object_last: last, from: area.from, to: area.to,
      })));
      if (seq === this.seq) this.show(area, parts);
    } catch (e) {
      if (seq === this.seq) this.root.replaceChildren(el('div', `${e.message}${e.hint ? ` (${e.hint})` : ''}`, 'error'));
    }
  }

  show(area, parts) {
    const objects = parts.flatMap((p) => p.objects);
    const byValue = new Map();
    for (const v of parts.flatMap((p) => p.values)) {
      const key = `${v.value}\u0000${v.label}`;
      const sum = byValue.get(key) || { value: v.value, label: v.label, time: 0, intervals: 0 };
      sum.time += v.time;
      sum.intervals += v.intervals;
      byValue.set(key, sum);
    }
    const values = [...byValue.values()].sort((a, b) => b.time - a.time);
    const cells = (area.to - area.from) * objects.length;
    const f = timeFormatter(parts[0].time_unit, this.panel.window.unit);
    const t = (x) => `${f.format(x)} ${f.unit}`;
    const who = objects.length === 1 ? objects[0] : `${objects.length} objects (${objects[0]} – ${objects[objects.length - 1]})`;
    const head = el('div', null, 'area-head');
    const zoom = el('button', 'Zoom', 'area-zoom');
    zoom.type = 'button';
    zoom.title = 'zoom to the selected time range';
    zoom.addEventListener('click', () => this.panel.userRange(this.panel.zoom.go({ from: area.from, to: area.to })));
    const close = el('button', '✕', 'area-clear');
    close.type = 'button';
    close.title = 'clear the selection (Esc)';
    close.addEventListener('click', () => this.clear());
    head.append(el('strong', 'Selection: '), el('span', `${who}, ${t(area.to - area.from)} (${t(area.from)} – ${t(area.to)})`, 'area-what'), zoom, close);
    const table = el('table', null, 'area-values');
    const top = el('tr');
    for (const h of ['value', 'time', '%', 'intervals', '']) top.append(el('th', h, h === 'value' ? 'label' : ''));
    table.append(top);
    for (const v of values) {
      const tr = el('tr');
      const pct = cells ? (100 * v.time) / cells : 0;
      const bar = el('div', null, 'area-bar');
      bar.style.width = `${pct.toFixed(1)}%`;
      const barCell = el('td', null, 'bar-cell');
      barCell.append(bar);
      tr.append(el('td', valueText(v.value, v.label), 'label'), el('td', t(v.time)), el('td', pct.toFixed(2)), el('td', String(v.intervals)), barCell);
      Object.assign(tr.dataset, { value: v.value, label: v.label, time: v.time });
      table.append(tr);
    }
    Object.assign(this.root.dataset, { from: area.from, to: area.to, objects: objects.join('\n') });
    this.root.replaceChildren(head, table);
  }
}

// The query typed in the find box: for events a type ("50000002"), a type and value
// ("50000002:10") or text in a label; for the window's values a value or text in its label.
export function parseFind(kind, text) {
  const t = text.trim();
  if (kind === 'event') {
    const m = /^(\d+)(?::(-?\d+))?$/.exec(t);
    if (m) return m[2] === undefined ? { type: Number(m[1]) } : { type: Number(m[1]), event_value: Number(m[2]) };
    return { text: t };
  }
  return /^-?\d+(\.\d+)?(e[-+]?\d+)?$/i.test(t) ? { value: Number(t) } : { text: t };
}

// Find in a timeline window: events (type, type:value or label) or the window's values (value or
// label), next and previous from the last match (else from the view), over the window's rows.
// A match is centred in the view (the span kept) and marked.
export class FindBar {
  constructor(panel) {
    this.panel = panel;
    this.root = el('div', null, 'find-bar');
    this.root.hidden = true;
    this.kind = el('select', null, 'find-kind');
    this.kind.setAttribute('aria-label', 'find what');
    for (const [v, label] of [['event', 'events'], ['value', 'values']]) {
      const o = el('option', label);
      o.value = v;
      this.kind.append(o);
    }
    this.input = el('input', null, 'find-text');
    this.input.size = 24;
    this.input.placeholder = 'type, type:value or label';
    this.input.setAttribute('aria-label', 'find');
    this.kind.addEventListener('change', () => {
      this.input.placeholder = this.kind.value === 'event' ? 'type, type:value or label' : 'value or label (a state name)';
    });
    this.input.addEventListener('keydown', (e) => {
      if (e.key === 'Enter') this.go(e.shiftKey ? 'previous' : 'next');
      if (e.key === 'Escape') this.close();
    });
    const mk = (text, title, cls, fn) => {
      const b = el('button', text, cls);
      b.type = 'button';
      b.title = title;
      b.addEventListener('click', fn);
      return b;
    };
    this.result = el('span', null, 'find-result');
    this.root.append(el('strong', 'Find '), this.kind, this.input,
      mk('◀', 'previous match (P, shift+Enter)', 'find-previous', () => this.go('previous')),
      mk('▶', 'next match (N, Enter)', 'find-next', () => this.go('next')),
      this.result, mk('✕', 'close (Esc)', 'find-close', () => this.close()));
    this.last = null;  // the last match, where the next search starts: {time, end, object_index}
    this.seq = 0;
  }

  open() {
    this.root.hidden = false;
    this.input.focus();
    this.input.select();
  }

  close() {
    this.root.hidden = true;
    this.forget();
    this.input.blur();
  }

  // Forgets the last match: its mark, its line and where the next search starts.
  forget() {
    this.seq += 1;
    this.last = null;
    this.result.textContent = '';
    this.panel.canvas.overlays.set('found', null);
  }

  async go(direction) {
    if (!this.input.value.trim()) {
      this.open();
      return;
    }
    const c = this.panel.canvas;
    const objects = c.list ? c.list.rows.map((r) => r[3]) : [];
    if (!objects.length) return;
    const view = this.panel.shown();
    const time = this.last ? this.last.time : (direction === 'next' ? Math.max(0, view.from - 1) : view.to);
    const seq = ++this.seq;
    this.result.textContent = 'looking…';
    this.result.className = 'find-result';
    try {
      const m = await postJson('/api/find', {
        ...windowOf(this.panel), ...parseFind(this.kind.value, this.input.value), kind: this.kind.value, direction, time,
        object_first: Math.min(...objects), object_last: Math.max(...objects), span: Math.max(1, view.to - view.from),
      });
      if (seq !== this.seq) return;
      if (!m.found) {
        const f = timeFormatter(this.panel.app.traceInfo(this.panel.doc.trace).time_unit, this.panel.window.unit);
        this.result.textContent = `no match ${direction === 'next' ? 'after' : 'before'} ${f.format(time)} ${f.unit}`;
        return;
      }
      this.last = m;
      const f = timeFormatter(this.panel.app.traceInfo(this.panel.doc.trace).time_unit, this.panel.window.unit);
      this.result.textContent = `${m.what} on ${m.object} at ${f.format(m.time)} ${f.unit}`;
      Object.assign(this.root.dataset, { time: m.time, end: m.end, object: m.object_index });
      const span = view.to - view.from;
      c.overlays.set('found', m);
      this.panel.userRange(this.panel.zoom.go({ from: m.time - span / 2, to: m.time - span / 2 + span }));
    } catch (e) {
      if (seq !== this.seq) return;
      this.result.textContent = `${e.message}${e.hint ? ` (${e.hint})` : ''}`;
      this.result.className = 'find-result error';
    }
  }
}
