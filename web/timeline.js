// The canvas of a timeline window: paints the frames the core rendered (PNG plus layout), turns
// a drag into a zoom, a shift+drag into an area selection (time range × rows), a ctrl or middle
// drag into a pan, a click into
// (row, time) and the wheel into zooms and pans at the cursor.
// It knows nothing about the server: its owner loads the frame for the range it asks for.
// What is drawn over the frames goes through its OverlaySet (web/overlays.js).

import { OverlaySet, register, viewOf } from './overlays.js';

// An outlined row (the cell of an analyzer, an object searched for): {object}.
register('row', {
  order: 100,
  draw(g, view, { object }) {
    const row = view.rows.get(object);
    if (!row) return;
    const [ax, , aw] = view.area;
    g.strokeStyle = '#ffd000';
    g.lineWidth = 2;
    g.strokeRect(ax - 1, row[1] - 1, aw + 2, Math.max(1, row[2]) + 2);
  },
});

// Wheel pixels (deltaY) per factor e of zoom, and per view width of pan.
const WHEEL_ZOOM = 500;
const WHEEL_PAN = 1000;

export class TimelineCanvas {
  // onZoom(from, to): a dragged range. onClick(row, time, x): row is [label, y, h, object] (and
  // a fifth element, its objects' count, for a summary row), x the canvas x clicked.
  // onWheelZoom(factor, fraction): zoom the view by `factor` (< 1: in) keeping the time at
  // `fraction` of the area where it is. onWheelPan(fraction): pan by a fraction of the view.
  // onHover(fraction, point, event): the cursor at `fraction` of the area, at canvas `point`
  // (all null: it left).
  // onSelect({from, to, objects}): a shift+drag over a time range and rows. onDragPan(range,
  // fraction): a drag with the middle button or ctrl, `fraction` of `range` (the view pressed on).
  // onOverlays(overlays): an overlay was set or cleared. onContextMenu(row, point): a right
  // click on a row (true: handled). onPaint(): the canvas was painted.
  constructor(canvas, selection, {
    onZoom, onClick, onSelect = () => {}, onWheelZoom = () => {}, onWheelPan = () => {}, onHover = () => {},
    onDragPan = () => {}, paraverMouse = () => false, onDoubleClick = () => {}, onOverlays = () => {},
    onContextMenu = () => false, onPaint = () => {},
  }) {
    this.canvas = canvas;
    this.paraverMouse = paraverMouse;  // () => true: Paraver's mouse convention
    canvas.addEventListener('dblclick', (e) => { e.preventDefault(); onDoubleClick(); });
    this.onPaint = onPaint;
    canvas.addEventListener('contextmenu', (e) => {
      const row = this.list && this.rowAt(this.local(e).y);
      if (row && onContextMenu(row, this.local(e))) e.preventDefault();
    });
    this.selection = selection;
    this.onZoom = onZoom;
    this.onClick = onClick;
    this.onWheelZoom = onWheelZoom;
    this.onWheelPan = onWheelPan;
    this.onHover = onHover;
    this.onSelect = onSelect;
    this.onDragPan = onDragPan;  // (range at the press, fraction of it moved): a ctrl or middle drag
    this.panning = null;
    // What is drawn over the frames (web/overlays.js): selections, marks, analyses.
    this.overlays = new OverlaySet(() => {
      if (this.list) this.draw();
      onOverlays(this.overlays);
    });
    this.list = null;  // the layout: width, height, area, rows
    this.image = null;
    this.range = null;
    this.view = null;  // the range on screen while a zoom or pan waits for its frame
    this.drag = null;
    canvas.addEventListener('mousedown', (e) => this.down(e));
    canvas.addEventListener('wheel', (e) => this.wheel(e), { passive: false });
    canvas.addEventListener('mousemove', (e) => this.hover(e));
    canvas.addEventListener('mouseleave', () => this.leave());
    window.addEventListener('mousemove', (e) => this.move(e));
    window.addEventListener('mouseup', (e) => this.up(e));
  }

  // Fraction of the timeline area at canvas x, clamped to [0, 1].
  fractionAt(x) {
    const [ax, , aw] = this.list.area;
    return Math.min(1, Math.max(0, (x - ax) / aw));
  }

  // The mouse convention (docs/serve.md, "Mouse and keys"): today's viewers (the default: the
  // plain wheel scrolls the page, ctrl/⌘ + wheel zooms at the cursor; a drag selects an area,
  // Z or a double click zooms to it) or Paraver's (the wheel zooms; a drag zooms, shift + drag
  // selects). Both: shift + wheel or a horizontal wheel pans, ctrl + drag pans.
  get modern() {
    return !this.paraverMouse();
  }

  wheel(e) {
    if (!this.list) return;
    const scale = e.deltaMode === 1 ? 40 : e.deltaMode === 2 ? 800 : 1;  // lines, pages
    const horizontal = e.shiftKey ? (e.deltaX || e.deltaY) : e.deltaX;
    const zoomKey = e.ctrlKey || e.metaKey;
    if (this.modern && !zoomKey && !e.shiftKey && Math.abs(e.deltaX) <= Math.abs(e.deltaY)) return;  // the page scrolls
    e.preventDefault();
    if (horizontal && (e.shiftKey || Math.abs(e.deltaX) > Math.abs(e.deltaY))) {
      this.onWheelPan((horizontal * scale) / WHEEL_PAN);
    } else if (e.deltaY) {
      this.onWheelZoom(Math.exp((e.deltaY * scale) / WHEEL_ZOOM), this.fractionAt(this.local(e).x));
    }
  }

  hover(e) {
    if (this.list) this.onHover(this.fractionAt(this.local(e).x), this.local(e), e);
  }

  leave() {
    this.onHover(null, null, null);
  }

  // Shows `view` at once by stretching the frame on screen (its area only; labels stay), until
  // the frame of that range arrives.
  preview(view) {
    if (!this.list) return;
    this.view = view;
    this.draw();
  }

  // Decodes the frame's PNG, then paints it; resolves once it is on the canvas.
  async show(frame, range) {
    const image = new Image();
    image.src = `data:image/png;base64,${frame.png}`;
    await image.decode();
    this.list = frame.layout;
    this.image = image;
    this.range = range;
    this.view = null;
    this.draw();
  }

  draw() {
    const l = this.list;
    const c = this.canvas;
    c.width = l.width;
    c.height = l.height;
    const g = c.getContext('2d');
    g.drawImage(this.image, 0, 0);
    const v = this.view;
    if (v && (v.from !== this.range.from || v.to !== this.range.to)) {
      const [ax, , aw] = l.area;
      const span = this.range.to - this.range.from;
      const k = span / Math.max(1, v.to - v.from);
      const x0 = ax - ((v.from - this.range.from) / span) * aw * k;
      g.save();
      g.beginPath();
      g.rect(ax, 0, aw, l.height);
      g.clip();
      g.fillStyle = l.background || '#000';
      g.fillRect(ax, 0, aw, l.height);
      g.drawImage(this.image, ax, 0, aw, l.height, x0, 0, aw * k, l.height);
      g.restore();
    }
    this.overlays.draw(g, this.viewport());
    this.onPaint();
  }

  // What overlays draw in: the frame's layout and the range on screen (web/overlays.js).
  viewport() {
    return viewOf(this.list, this.view || this.range);
  }

  // Outlines the row drawn for `object` (0-based, at the window's level; null: none).
  mark(object) {
    const row = object !== null && this.list && this.list.rows.find((r) => r[3] === object);
    this.overlays.set('row', row ? { object } : null);
    return Boolean(row);
  }

  // Canvas x to trace time, clamped to the timeline area.
  timeAt(x) {
    const f = this.fractionAt(x);
    const r = this.view || this.range;
    return Math.round(r.from + f * (r.to - r.from));
  }

  rowAt(y) {
    return this.list.rows.find(([, top, h]) => y >= top && y < top + Math.max(h, 1));
  }

  local(e) {
    const r = this.canvas.getBoundingClientRect();
    return { x: (e.clientX - r.left) * (this.canvas.width / r.width), y: (e.clientY - r.top) * (this.canvas.height / r.height) };
  }

  down(e) {
    if (!this.list) return;
    if (e.button === 1 || (e.button === 0 && e.ctrlKey)) {  // middle button or ctrl: pan
      this.panning = { client: e.clientX, range: this.view || this.range };
      e.preventDefault();
      return;
    }
    if (e.button !== 0) return;
    this.drag = { start: this.local(e), client: e.clientX, clientY: e.clientY, area: this.modern || e.shiftKey };
    e.preventDefault();
  }

  move(e) {
    if (this.panning) {
      const r = this.canvas.getBoundingClientRect();
      const aw = this.list.area[2] * (r.width / this.canvas.width);
      this.onDragPan(this.panning.range, -(e.clientX - this.panning.client) / aw);
      return;
    }
    if (!this.drag) return;
    const r = this.canvas.getBoundingClientRect();
    const a = this.drag.client - r.left, b = e.clientX - r.left;
    // A zoom spans every row; an area selection (shift) only the rows dragged over.
    const y0 = this.drag.area ? Math.min(this.drag.clientY, e.clientY) - r.top : 0;
    const h = this.drag.area ? Math.abs(e.clientY - this.drag.clientY) : r.height;
    Object.assign(this.selection.style, { left: `${Math.min(a, b)}px`, width: `${Math.abs(b - a)}px`, top: `${y0}px`, height: `${h}px` });
    this.selection.hidden = Math.abs(b - a) < 3;
  }

  up(e) {
    if (this.panning) {
      this.panning = null;
      return;
    }
    if (!this.drag) return;
    const { start, area } = this.drag, end = this.local(e);
    this.drag = null;
    this.selection.hidden = true;
    if (Math.abs(end.x - start.x) >= 3) {
      const t0 = this.timeAt(Math.min(start.x, end.x)), t1 = this.timeAt(Math.max(start.x, end.x));
      if (t1 <= t0) return;
      if (!area) {
        this.onZoom(t0, t1);
        return;
      }
      const top = Math.min(start.y, end.y), bottom = Math.max(start.y, end.y);
      let rows = this.list.rows.filter(([, y, h]) => y + Math.max(h, 1) > top && y <= bottom);
      if (!rows.length) rows = this.list.rows;  // a drag over no row (the axis, a gap): every row
      if (rows.length) this.onSelect({ from: t0, to: t1, objects: rows.map((row) => row[3]) });
      return;
    }
    const row = this.rowAt(start.y);
    if (row) this.onClick(row, this.timeAt(start.x), start.x);
  }
}

// `range` zoomed by `factor` (< 1: in) around the time at `fraction` of it, which stays put.
export function zoomRange(range, factor, fraction = 0.5) {
  const span = range.to - range.from;
  const at = range.from + fraction * span;
  const next = Math.max(1, span * factor);
  return { from: at - fraction * next, to: at - fraction * next + next };
}

// `range` moved by `fraction` of its span (> 0: later).
export function panRange(range, fraction) {
  const d = (range.to - range.from) * fraction;
  return { from: range.from + d, to: range.to + d };
}

// Zoom history of a window: undo and redo stacks over {from, to} ranges, pan and fit, clamped
// to [0, end].
export class ZoomHistory {
  constructor(end) {
    this.end = Math.max(1, end);
    this.range = { from: 0, to: this.end };
    this.back = [];
    this.forward = [];
  }

  clamp(from, to) {
    const span = Math.min(this.end, Math.max(1, to - from));
    const f = Math.max(0, Math.min(from, this.end - span));
    return { from: Math.round(f), to: Math.round(f + span) };
  }

  // Shows `range` without a step of undo (the frames of an animation).
  set(range) {
    this.range = this.clamp(range.from, range.to);
    return this.range;
  }

  go(range) {
    this.back.push(this.range);
    this.forward = [];
    this.range = this.clamp(range.from, range.to);
    return this.range;
  }

  undo() {
    if (!this.back.length) return null;
    this.forward.push(this.range);
    this.range = this.back.pop();
    return this.range;
  }

  redo() {
    if (!this.forward.length) return null;
    this.back.push(this.range);
    this.range = this.forward.pop();
    return this.range;
  }

  pan(fraction) {
    const span = this.range.to - this.range.from;
    const d = Math.round(span * fraction);
    return this.go({ from: this.range.from + d, to: this.range.to + d });
  }

  zoomOut() {
    const span = this.range.to - this.range.from;
    return this.go({ from: this.range.from - span / 2, to: this.range.to + span / 2 });
  }

  fit() {
    return this.go({ from: 0, to: this.end });
  }
}

// Time units as the core names them, and the factor from each to the next.
const UNITS = ['ns', 'us', 'ms', 's', 'min', 'h', 'day'];
const FACTORS = [1000, 1000, 1000, 60, 60, 24];

// `t` (in unit `from`) in unit `to`; unknown units leave it as it is.
export function convertTime(t, from, to) {
  let f = UNITS.indexOf(from), g = UNITS.indexOf(to);
  if (f < 0 || g < 0) return t;
  let v = t;
  for (; f < g; f += 1) v /= FACTORS[f];
  for (; f > g; f -= 1) v *= FACTORS[f - 1];
  return v;
}

// A range of trace times as text in the window's unit (the unit of its time axis), with as many
// decimals as the span needs to tell its ends apart.
export function formatRange(range, traceUnit, windowUnit) {
  const unit = UNITS.includes(windowUnit) ? windowUnit : traceUnit;
  const from = convertTime(range.from, traceUnit, unit), to = convertTime(range.to, traceUnit, unit);
  const span = Math.max(to - from, Number.MIN_VALUE);
  const decimals = Math.min(12, Math.max(0, Math.ceil(2 - Math.log10(span))));
  const fmt = new Intl.NumberFormat('en-US', { minimumFractionDigits: decimals, maximumFractionDigits: decimals });
  return `${fmt.format(from)} – ${fmt.format(to)} ${unit}`;
}

// Formats trace times in the window's unit with every digit of the trace's resolution (ns shown
// in us get 3 decimals): {unit, format(t)}.
export function timeFormatter(traceUnit, windowUnit) {
  const unit = UNITS.includes(windowUnit) ? windowUnit : traceUnit;
  let decimals = 0;
  for (let k = UNITS.indexOf(traceUnit); k >= 0 && k < UNITS.indexOf(unit); k += 1) decimals += FACTORS[k] === 1000 ? 3 : 2;
  const fmt = new Intl.NumberFormat('en-US', { minimumFractionDigits: decimals, maximumFractionDigits: decimals });
  return { unit, format: (t) => fmt.format(convertTime(t, traceUnit, unit)) };
}

// A time typed by the user ("1.5 ms", "2,000 us", "1e6"; without a unit: `windowUnit`) in trace
// units, or throws an Error saying what was expected.
export function parseTime(text, traceUnit, windowUnit) {
  const m = /^\s*([-+]?[\d,]*\.?\d+(?:e[-+]?\d+)?)\s*(ns|us|µs|ms|s|min|h|day)?\s*$/i.exec(text);
  if (!m) throw new Error(`'${text}' is not a time: a number and an optional unit (ns, us, ms, s, min, h), e.g. 1.5 ms`);
  const unit = m[2] ? m[2].toLowerCase().replace('µs', 'us') : (UNITS.includes(windowUnit) ? windowUnit : traceUnit);
  const v = convertTime(Number(m[1].replace(/,/g, '')), unit, traceUnit);
  if (!Number.isFinite(v) || v < 0) throw new Error(`'${text}' is not a time of the trace (it is negative or too large)`);
  return Math.round(v);
}
