// The windows of the UI. A Doc is one cfg (its text and its described windows and histograms)
// applied to one trace; every TimelinePanel and AnalyzerPanel shows one window or histogram of
// a Doc. Edits go through the server (EditCfg) and re-render every panel of the Doc.

import { download, oneAtATime, postJson, timelineFrame, timelineImage } from './api.js';
import { TimelineCanvas, ZoomHistory, formatRange, panRange, parseTime, timeFormatter, zoomRange } from './timeline.js';
import { AreaStats, CellTooltip, FindBar } from './inspect.js';
import { Overview } from './overview.js';
import { AnimationBar } from './animation.js';
import { RowGroups } from './groups.js';
import { TrafficView } from './traffic.js';
import { DiagnosisView } from './diagnosis.js';
import { StructureView } from './structure.js';
import { CpuUse } from './utilisation.js';
import { button, el, planeCsv, renderPlane, renderText, statisticUnit } from './tables.js';

// Synchronisation groups a window can join (Paraver's numbered groups); 0 in the menu is none.
export const SYNC_GROUPS = [1, 2, 3, 4, 5, 6];
// What Paste can set in a window from the one copied (Paraver's Paste submenu).
const PASTE = [['time', 'time range'], ['size', 'size'], ['filter', 'filter'], ['scale', 'semantic scale'], ['all', 'all']];

// Time units of a window (window_units of the cfg).
export const TIME_UNITS = ['ns', 'us', 'ms', 's', 'min', 'h', 'day'];

export const COLOR_MODES = ['code', 'gradient', 'null-gradient', 'alt-gradient', 'line', 'fused', 'punctual'];
export const DRAW_MODES = ['last', 'maximum', 'minimum-not-zero', 'random', 'random-not-zero', 'average',
  'average-not-zero', 'mode', 'abs-maximum', 'abs-minimum'];

// How long a burst of wheel events or key presses must pause before its frame is asked (ms),
// and how many frames a window keeps for ranges it may show again (pans back, undo, redo).
const SETTLE_MS = 120;
const CACHED_FRAMES = 32;

export class Doc {
  // `source` names the cfg: its path under the root, or "function NAME".
  constructor(app, trace, source, text, document) {
    this.app = app;
    this.trace = trace;
    this.source = source;
    this.text = text;
    this.document = document;
    this.analyzeCache = new Map();
  }

  get label() {
    return this.source.split('/').pop();
  }

  // Applies `mutate` to a copy of the document and lets the server rewrite the cfg.
  async edit(mutate) {
    const doc = structuredClone(this.document);
    mutate(doc);
    const r = await postJson('/api/cfg/edit', { trace: this.trace, text: this.text, name: this.label, document: doc });
    const before = this.document.windows.length;
    this.text = r.text;
    this.document = r.document;
    this.analyzeCache.clear();
    this.app.docChanged(this, before);
  }

  // The histograms, over `range` ({from, to}) instead of the cfg's limits when given.
  async analyze(hideEmpty, range = null) {
    const key = `${hideEmpty ? 'hide' : 'all'} ${range ? `${range.from}-${range.to}` : 'cfg'}`;
    if (!this.analyzeCache.has(key)) {
      const p = postJson('/api/analyze', {
        trace: this.trace, cfg_text: this.text, hide_empty: hideEmpty, from: range ? range.from : null, to: range ? range.to : null,
      });
      this.analyzeCache.set(key, p);
      p.catch(() => this.analyzeCache.delete(key));
    }
    return (await this.analyzeCache.get(key)).tables;
  }
}

function select(options, value, label) {
  const s = el('select');
  s.setAttribute('aria-label', label);
  for (const o of options) {
    const opt = el('option', o);
    opt.value = o;
    s.append(opt);
  }
  if (value !== undefined) s.value = value;
  return s;
}

function checkbox(text, checked, onChange, cls) {
  const l = el('label', null, cls);
  const c = el('input');
  c.type = 'checkbox';
  c.checked = checked;
  c.addEventListener('change', () => onChange(c.checked));
  l.append(c, ` ${text}`);
  return { label: l, input: c };
}

class Panel {
  constructor(app, doc, kind) {
    this.app = app;
    this.doc = doc;
    this.root = el('section', null, `panel ${kind}`);
    this.root.dataset.trace = doc.trace;
    this.title = el('h3');
    this.bar = el('div', null, 'toolbar');
    this.message = el('div', null, 'panel-message');
    this.root.append(this.title, this.bar, this.message);
  }

  error(e) {
    this.message.textContent = `${e.message}${e.hint ? ` (${e.hint})` : ''}`;
    this.message.className = 'panel-message error';
  }

  note(text) {
    this.message.textContent = text;
    this.message.className = 'panel-message';
  }

  close() {
    this.app.removePanel(this);
  }
}

// Communication lines per pixel column of a frame above which none is drawn (a solid block of
// lines shows nothing): the note offers them, and zooming in brings them back.
const LINES_PER_PIXEL = 4;

export class TimelinePanel extends Panel {
  constructor(app, doc, windowIndex, { highlight = null, range = null } = {}) {
    super(app, doc, 'timeline');
    this.index = windowIndex;
    this.highlight = highlight;  // {min, max, label, object}: a value range, a row to outline
    // Synchronisation group (null: none): the cfg's window_synchronize, else group 1.
    this.group = this.window.synchronize || 1;
    this.size = null;  // {width} of the frames when pasted (else: the box's width)
    this.frames = 0;
    this.seq = 0;
    this.zoom = new ZoomHistory(app.traceEnd(doc.trace));
    if (range) {
      this.zoom.range = this.zoom.clamp(range.from, range.to);
    } else if (this.window.range_end !== undefined) {
      // The cfg's own range (a saved zoom): trace units, or fractions of the trace's end.
      const w = this.window, end = app.traceEnd(doc.trace);
      const [from, to] = w.range_relative ? [w.range_begin * end, w.range_end * end] : [w.range_begin, w.range_end];
      this.zoom.range = this.zoom.clamp(Math.round(from), Math.round(to));
    }
    this.box = el('div', null, 'canvas-box');
    const canvas = el('canvas');
    const selection = el('div', null, 'selection');
    selection.hidden = true;
    // The pinned rows, copied from the canvas into a strip that sticks to the top of the window
    // while the rest of its rows scrolls (hidden when no row is pinned). Its canvas is in a
    // closed shadow root: the window's canvas stays the one `canvas` of its box.
    this.stripBox = el('div', null, 'pinned-rows');
    this.stripBox.hidden = true;
    this.strip = document.createElement('canvas');
    this.strip.style.display = 'block';
    this.stripBox.attachShadow({ mode: 'closed' }).append(this.strip);
    this.menu = el('div', null, 'row-menu');
    this.menu.hidden = true;
    this.box.append(this.stripBox, canvas, selection, this.menu);
    this.canvas = new TimelineCanvas(canvas, selection, {
      onZoom: (from, to) => this.userRange(this.zoom.go({ from, to })),
      onClick: (row, time, x) => {
        if (x < this.canvas.list.area[0] && !row[4]) this.groups.togglePin(row[3]);  // its label: pin or unpin
        else if (!this.diagnosis.select(row, time)) this.showText(row, time);
      },
      onContextMenu: (row, point) => this.rowMenu(row, point),
      onSelect: (area) => this.areaStats.select(area),
      onWheelZoom: (factor, fraction) => this.preview(zoomRange(this.shown(), factor, fraction)),
      onWheelPan: (fraction) => this.preview(panRange(this.shown(), fraction)),
      onDragPan: (range, fraction) => this.preview(panRange(range, fraction)),
      paraverMouse: () => this.app.mouse === 'paraver',
      onDoubleClick: () => this.zoomToArea(),
      onOverlays: (overlays) => this.showOverlayLegend(overlays),
      onPaint: () => this.pinStrip(),
      onHover: (fraction, point, event) => {
        this.app.active = this;
        this.hoverFraction = fraction;
        this.tooltip.hover(point, event);
      },
    });
    this.tooltip = new CellTooltip(this, this.box);
    this.areaStats = new AreaStats(this);
    this.findBar = new FindBar(this);
    this.animation = new AnimationBar(this);
    this.overview = new Overview(this);
    this.groups = new RowGroups(this);
    this.traffic = new TrafficView(this);
    this.diagnosis = new DiagnosisView(this);
    this.structure = new StructureView(this);
    this.cpuUse = new CpuUse(this);
    this.pending = null;  // the range of a zoom or pan in progress (shown stretched)
    this.settleTimer = null;
    this.hoverFraction = null;
    this.requests = 0;  // frames asked from the server
    this.sourceCount = 0;  // events of the marked source line in the range drawn
    this.markSeq = 0;
    // After each frame: the marks of the source line of the range drawn, one request in flight.
    this.refreshMarks = oneAtATime(async () => {
      await this.markSource();
      this.app.sourceCounted();
    });
    this.cache = new Map();  // request body (JSON) → frame promise, oldest first
    // Communication lines: drawn only while they can be read (at most LINES_PER_PIXEL per pixel
    // column of the frame), unless the user asked for all of them; the note says how many were
    // left out and offers them.
    this.allLines = false;
    this.linesNote = el('div', null, 'lines-note');
    this.linesNote.hidden = true;
    const showLines = el('button', 'Show them', 'show-lines');
    showLines.addEventListener('click', () => {
      this.allLines = true;
      this.render();
    });
    this.linesText = el('span');
    this.linesNote.append(this.linesText, ' ', showLines);
    // What the overlays drawn on the timeline mean (those that say it), under it.
    this.overlayLegend = el('div', null, 'overlay-legend');
    this.overlayLegend.hidden = true;
    this.range = el('span', null, 'range');
    this.textBox = el('div', null, 'text-view');
    this.textBox.hidden = true;
    this.root.append(this.findBar.root, this.animation.root, this.groups.root, this.overview.root, this.box, this.overlayLegend, this.linesNote, this.cpuUse.root, this.traffic.root, this.structure.root, this.diagnosis.root, this.areaStats.root,
      this.textBox);
    this.buildBar();
    this.refreshControls();
    // A frame is drawn at the window's pixel width: when the window's width changes (browser
    // window, layout, side panel), the frame is asked again at the new width, once the size
    // has settled.
    this.resizeTimer = null;
    this.resizeObserver = new ResizeObserver(() => {
      clearTimeout(this.resizeTimer);
      this.resizeTimer = setTimeout(() => {
        if (this.root.isConnected && this.pixelWidth() !== this.requestedWidth) this.render();
      }, 150);
    });
    this.resizeObserver.observe(this.root);
  }

  close() {
    this.resizeObserver.disconnect();
    clearTimeout(this.resizeTimer);
    clearTimeout(this.settleTimer);
    this.animation.pause();
    if (this.app.active === this) this.app.active = null;
    super.close();
  }

  // The cfg changed: a find match and the textual view were computed with the old one.
  cfgChanged() {
    this.findBar.forget();
    this.textBox.hidden = true;
    this.textBox.replaceChildren();
  }

  // The strip of pinned rows: the top of the canvas down to the last pinned row, drawn again
  // with every paint of the canvas (web/groups.js).
  pinStrip() {
    const c = this.canvas, pins = c.overlays.get('pins');
    const rows = pins && c.list ? c.list.rows.filter((r) => pins.objects.includes(r[3])) : [];
    this.stripBox.hidden = !rows.length;
    if (!rows.length) return;
    const h = Math.max(...rows.map((r) => r[1] + Math.max(1, r[2]))) + 3;
    this.strip.width = c.canvas.width;
    this.strip.height = h;
    this.strip.style.width = `${c.canvas.clientWidth}px`;
    this.strip.style.height = `${(h * c.canvas.clientWidth) / c.canvas.width}px`;
    this.stripBox.style.height = this.strip.style.height;
    this.stripBox.style.marginBottom = `-${this.strip.style.height}`;
    this.strip.getContext('2d').drawImage(c.canvas, 0, 0, c.canvas.width, h, 0, 0, c.canvas.width, h);
    this.stripBox.dataset.rows = rows.map((r) => r[3]).join(',');
  }

  // A menu at a row (right click): pin or unpin it.
  rowMenu(row, point) {
    if (row[4]) return false;  // a summary row
    const pinned = this.groups.isPinned(row[3]);
    const item = el('button', `${pinned ? 'Unpin' : '📌 Pin'} ${row[0]}`, 'pin-row');
    item.type = 'button';
    item.title = pinned ? 'back to its place among the rows' : 'draw it first, at the top of the window while the rest scrolls';
    item.addEventListener('click', () => {
      this.menu.hidden = true;
      this.groups.togglePin(row[3]);
    });
    this.menu.replaceChildren(item);
    const k = this.canvas.canvas.clientWidth / this.canvas.canvas.width;
    Object.assign(this.menu.style, { left: `${point.x * k}px`, top: `${point.y * k}px` });
    this.menu.hidden = false;
    const away = (e) => {
      if (this.menu.contains(e.target)) return;
      this.menu.hidden = true;
      window.removeEventListener('mousedown', away, true);
    };
    window.addEventListener('mousedown', away, true);
    return true;
  }

  // One line per overlay that says what it draws (web/overlays.js).
  showOverlayLegend(overlays) {
    const items = overlays.legend();
    this.overlayLegend.replaceChildren(...items.map((x) => el('div', x.text, `overlay-${x.name}`)));
    this.overlayLegend.hidden = !items.length;
  }

  // The range on screen: the one being zoomed or panned to, else the current one.
  shown() {
    return this.pending || this.zoom.range;
  }

  // A zoom or pan in progress (wheel, keys, drag): shown at once by stretching the frame on
  // screen (one canvas paint, timed in data-paint-ms); its frame is asked at once, one request
  // in flight (refine); once the burst pauses for SETTLE_MS it becomes one step of the zoom
  // history, and the other windows of the group follow.
  preview(range) {
    this.app.userMoved(this);
    this.tooltip.hide();
    this.pending = this.zoom.clamp(range.from, range.to);
    const t0 = performance.now();
    this.canvas.preview(this.pending);
    this.root.dataset.paintMs = (performance.now() - t0).toFixed(2);
    this.root.dataset.previewAt = String(t0);
    this.refine();
    this.overview.draw();
    clearTimeout(this.settleTimer);
    this.settleTimer = setTimeout(() => {
      const r = this.pending;
      this.pending = null;
      if (r && this.root.isConnected) this.userRange(this.zoom.go(r));
    }, SETTLE_MS);
  }

  // Zooms to the time range of the area selected (Z, a double click), and clears the selection.
  zoomToArea() {
    const a = this.areaStats.area;
    if (!a || a.to <= a.from) return;
    this.areaStats.clear();
    this.userRange(this.zoom.go({ from: a.from, to: a.to }));
  }

  // The keys W/S (zoom in/out at the cursor, else at the centre), A/D (pan), Esc (clear the
  // area selection), Z (zoom to it), F (find), N/P (next, previous match), Space (play forward
  // or pause; with shift: backward); true if used.
  key(k, event = {}) {
    const at = this.hoverFraction ?? 0.5;
    if (k === 'w') this.preview(zoomRange(this.shown(), 0.8, at));
    else if (k === 's') this.preview(zoomRange(this.shown(), 1.25, at));
    else if (k === 'a') this.preview(panRange(this.shown(), -0.2));
    else if (k === 'd') this.preview(panRange(this.shown(), 0.2));
    else if (k === 'escape' && this.areaStats.area) this.areaStats.clear();
    else if (k === 'z' && this.areaStats.area) this.zoomToArea();
    else if (k === 'f') this.findBar.open();
    else if (k === 'n') this.findBar.go('next');
    else if (k === 'p') this.findBar.go('previous');
    else if (k === ' ') this.animation.key(Boolean(event.shiftKey));
    else return false;
    return true;
  }

  // The frame of `body`: from the cache when the same range, size and cfg were drawn before.
  frame(body) {
    const key = JSON.stringify(body);
    let p = this.cache.get(key);
    if (p) {
      this.cache.delete(key);  // most recently used last
    } else {
      p = timelineFrame(body);
      this.requests += 1;
      this.root.dataset.requests = this.requests;
      p.catch(() => this.cache.delete(key));
    }
    this.cache.set(key, p);
    while (this.cache.size > CACHED_FRAMES) this.cache.delete(this.cache.keys().next().value);
    return p;
  }

  // The width of the frames: the width the canvas is shown at, so that no pixel is scaled.
  pixelWidth() {
    return Math.max(160, Math.floor(this.box.clientWidth));
  }

  // Joins synchronisation group `group` (null: none), shown in the title and the menu.
  setGroup(group) {
    this.group = group;
    if (this.syncSelect) {
      if (group && !SYNC_GROUPS.includes(group) && !this.syncSelect.querySelector(`option[value="${group}"]`)) {
        const o = el('option', String(group));
        o.value = String(group);
        this.syncSelect.append(o);
      }
      this.syncSelect.value = String(group || 0);
    }
    this.badge.textContent = group ? `sync ${group}` : '';
    this.badge.className = `sync-badge${group ? ` g${group}` : ''}`;
    this.badge.title = group ? `zooms and pans are shared with the windows of group ${group}` : '';
    this.root.dataset.group = group || '';
  }

  // Paste: sets `what` (time, size, filter, scale, all) of this window from the copied one.
  async paste(what, copied) {
    const all = what === 'all';
    if (all || what === 'size') {
      // The width only: a frame's height is what its rows, labels and legend take at that width.
      this.size = { width: copied.size.width };
      this.box.style.width = `${copied.size.width}px`;
    }
    const changes = {};
    if (all || what === 'filter') changes.filter = structuredClone(copied.filter);
    if (all || what === 'scale') Object.assign(changes, { min_y: copied.min_y, max_y: copied.max_y });
    try {
      if (Object.keys(changes).length) await this.doc.edit((d) => Object.assign(d.windows[this.index], changes));
      if (all || what === 'time') this.userRange(this.zoom.go(copied.range));
      else if (what === 'size') this.render();
    } catch (e) {
      this.error(e);
    }
  }

  get window() {
    return this.doc.document.windows[this.index];
  }

  buildBar() {
    const b = this.bar;
    b.replaceChildren(
      button('↶', 'undo zoom', () => this.userRange(this.zoom.undo()), 'undo'),
      button('↷', 'redo zoom', () => this.userRange(this.zoom.redo()), 'redo'),
      button('◀', 'pan left', () => this.userRange(this.zoom.pan(-0.5)), 'pan-left'),
      button('▶', 'pan right', () => this.userRange(this.zoom.pan(0.5)), 'pan-right'),
      button('−', 'zoom out', () => this.userRange(this.zoom.zoomOut()), 'zoom-out'),
      button('Fit', 'whole trace', () => this.userRange(this.zoom.fit()), 'fit'));
    this.flags = checkbox('flags', false, (v) => this.setDisplay({ flags: v }), 'flags');
    this.comms = checkbox('comms', true, (v) => this.setDisplay({ comm_lines: v }), 'comms');
    this.colorMode = select(COLOR_MODES, undefined, 'colour mode');
    this.colorMode.classList.add('color-mode');
    this.colorMode.addEventListener('change', () => this.setDisplay({ color_mode: this.colorMode.value }));
    this.drawMode = select(DRAW_MODES, undefined, 'draw mode');
    this.drawMode.classList.add('draw-mode');
    this.drawMode.addEventListener('change', () => this.setDisplay({ draw_mode: this.drawMode.value }));
    this.minY = el('input', null, 'min-y');
    this.maxY = el('input', null, 'max-y');
    for (const [input, label] of [[this.minY, 'scale minimum'], [this.maxY, 'scale maximum']]) {
      input.size = 7;
      input.setAttribute('aria-label', label);
      input.title = label;
      input.addEventListener('change', () => {
        const min = Number(this.minY.value), max = Number(this.maxY.value);
        if (Number.isFinite(min) && Number.isFinite(max) && min < max) this.setDisplay({ min_y: min, max_y: max });
      });
    }
    this.fit = false;
    const fitBox = checkbox('fit scale', false, (v) => { this.fit = v; this.render(); }, 'fit-scale');
    fitBox.label.title = 'semantic scale from the values in view';
    // The synchronisation group: zooms and pans are shared within it.
    const syncBox = { label: el('label', 'sync ', 'sync') };
    this.syncSelect = select(['none', ...SYNC_GROUPS.map(String)], undefined, 'synchronisation group');
    [...this.syncSelect.options].forEach((o, i) => { o.value = String(i ? SYNC_GROUPS[i - 1] : 0); });
    this.syncSelect.title = 'synchronisation group: the windows of a group share zooms and pans';
    this.syncSelect.addEventListener('change', () => {
      const group = Number(this.syncSelect.value) || null;
      this.setGroup(group);
      this.setDisplay({ synchronize: group || 0 });  // saved in the cfg (window_synchronize)
    });
    syncBox.label.append(this.syncSelect);
    this.badge = el('span', null, 'sync-badge');
    // Copy and Paste of window properties (Paraver's Copy, Paste > Time / Size / ...).
    const pasteMenu = select(['Paste…', ...PASTE.map(([, label]) => label)], undefined, 'paste');
    [...pasteMenu.options].forEach((o, i) => { o.value = i ? PASTE[i - 1][0] : ''; });
    pasteMenu.classList.add('paste');
    pasteMenu.title = 'set this window\'s time range, size, filter or semantic scale from the window copied';
    pasteMenu.addEventListener('change', () => {
      const what = pasteMenu.value;
      pasteMenu.value = '';
      if (what) this.app.pasteInto(this, what);
    });
    // The range typed: begin and end, in the window's unit unless a unit is given.
    this.beginInput = el('input', null, 'begin-time');
    this.endInput = el('input', null, 'end-time');
    for (const [input, label] of [[this.beginInput, 'begin time'], [this.endInput, 'end time']]) {
      input.size = 13;
      input.setAttribute('aria-label', label);
      input.title = `${label}: a number in the window's unit, or with a unit (ns, us, ms, s), e.g. 1.5 ms; Enter applies`;
      input.addEventListener('keydown', (e) => { if (e.key === 'Enter') this.typedRange(); });
    }
    // The controls used less often: in a narrow window (side by side, a small screen) they
    // wait behind "⋯" instead of wrapping the bar to five lines (style.css, container query).
    const extra = el('span', null, 'extra');
    const moreToggle = button('⋯', 'more controls', () => extra.classList.toggle('open'), 'more-toggle');
    extra.addEventListener('click', (e) => { if (e.target.closest('button')) extra.classList.remove('open'); });
    extra.append(this.colorMode, this.drawMode, this.minY, this.maxY, fitBox.label);
    extra.append(
      button('Copy', 'copy this window\'s properties (time range, size, filter, semantic scale) to paste them into another', () => this.app.copy(this), 'copy'),
      pasteMenu,
      button('Derived…', 'new window from two windows', () => this.app.properties.openDerived(this), 'derived'),
      button('Play…', 'animation: a window of a chosen width sliding through the trace (Space)', () => this.animation.toggle(), 'play'),
      button('Rows…', 'collapse or expand groups of rows (tasks, applications, nodes)', () => this.groups.toggleShown(), 'rows'),
      button('Compare…', 'the same cfg on another open trace', () => this.app.compare(this), 'compare'),
      button('Traffic', 'bytes sent over time and the node / task communication matrix of the range in view',
        () => this.traffic.toggle(), 'traffic-toggle'),
      button('Waits', 'wait states (Late Sender, Wait at Barrier, ...) of the range in view, shaded on the timeline with the critical path; click a wait for its culprit',
        () => this.diagnosis.toggle(), 'diagnosis-toggle'),
      button('Structure', 'iterations of the main loop marked on the timeline (click one under it to zoom to it) and computation bursts coloured by cluster',
        () => this.structure.toggle(), 'structure-toggle'),
      button('CPUs', 'this window at cpu level (the thread running on each cpu), synchronised, with each cpu\'s Running share',
        () => this.openCpus(), 'open-cpus'),
      button('PNG', 'export the image', () => this.export('png'), 'export-png'),
      button('SVG', 'export the image', () => this.export('svg'), 'export-svg'),
      button('Save cfg…', 'save the windows as a Paraver .cfg', () => this.app.saveCfg(this.doc), 'save-cfg'));
    const more = el('span', null, 'more');
    const pin = button('📌', 'pin this window: it stays on top while the others scroll', () => {
      const pinned = this.root.classList.toggle('pinned');
      pin.setAttribute('aria-pressed', String(pinned));
    }, 'pin');
    pin.setAttribute('aria-pressed', String(this.root.classList.contains('pinned')));
    more.append(
      pin,
      button('Properties', 'window properties', () => this.app.properties.open(this), 'properties'),
      moreToggle,
      button('✕', 'close', () => this.close(), 'close'));
    const typed = el('span', null, 'typed-range');
    typed.append(this.beginInput, '–', this.endInput);
    b.append(this.flags.label, this.comms.label, syncBox.label, extra, more, typed, this.range);
  }

  refreshControls() {
    if (this.areaStats.area) this.areaStats.select(this.areaStats.area);  // summed with the new cfg
    this.groups.reset();
    const w = this.window;
    this.title.textContent = `${w.name} — ${this.doc.trace}${this.highlight ? ` — where ${this.highlight.label}` : ''} `;
    this.title.append(this.badge);
    this.setGroup(this.group);
    this.root.dataset.window = w.name;
    this.flags.input.checked = w.flags;
    this.comms.input.checked = w.comm_lines;
    this.colorMode.value = w.color_mode;
    this.drawMode.value = w.draw_mode;
    this.minY.value = w.min_y;
    this.maxY.value = w.max_y;
  }

  // The range typed in the begin and end boxes, shown here and in the synchronised windows.
  typedRange() {
    const unit = this.app.traceInfo(this.doc.trace).time_unit;
    try {
      const from = parseTime(this.beginInput.value, unit, this.window.unit);
      const to = parseTime(this.endInput.value, unit, this.window.unit);
      if (to <= from) throw new Error(`the end (${this.endInput.value}) must come after the begin (${this.beginInput.value})`);
      for (const i of [this.beginInput, this.endInput]) {
        i.classList.remove('invalid');
        i.blur();  // the boxes show the range drawn, and the keys navigate again
      }
      this.userRange(this.zoom.go({ from, to }));
    } catch (e) {
      for (const i of [this.beginInput, this.endInput]) i.classList.add('invalid');
      this.error(e);
    }
  }

  // The begin and end boxes show the range on screen (unless being typed in).
  showTypedRange(range) {
    const unit = this.app.traceInfo(this.doc.trace).time_unit;
    const f = timeFormatter(unit, this.window.unit);
    for (const [input, t] of [[this.beginInput, range.from], [this.endInput, range.to]]) {
      if (document.activeElement === input) continue;
      input.value = `${f.format(t)} ${f.unit}`;
      input.classList.remove('invalid');
    }
  }

  async setDisplay(changes) {
    try {
      await this.doc.edit((d) => Object.assign(d.windows[this.index], changes));
    } catch (e) {
      this.error(e);
      this.refreshControls();
    }
  }

  request(extra = {}) {
    return this.requestFor(this.zoom.range, extra);
  }

  // The frame request of range `r`.
  requestFor(r, extra = {}) {
    const body = {
      trace: this.doc.trace, cfg_text: this.doc.text, window: this.window.name, from: r.from, to: r.to,
      width: this.size ? this.size.width : this.pixelWidth(), ...extra,
    };
    if (this.fit) body.fit = true;
    if (!this.allLines) body.max_lines = LINES_PER_PIXEL * body.width;
    if (this.app.palette) body.palette = this.app.palette;
    const objects = this.groups.objects();
    if (objects) body.objects = objects;
    const summaries = this.groups.summaries();
    if (summaries && summaries.length) body.summaries = summaries;
    if (this.highlight) Object.assign(body, { highlight_min: this.highlight.min, highlight_max: this.highlight.max });
    return body;
  }

  // A range chosen by the user here: shown here and in every synchronised window.
  userRange(range) {
    if (!range) return;
    this.app.userMoved(this);
    this.app.viewChanged();
    this.render();
    this.app.syncRange(this, range);
    this.app.linkChanged();
  }

  // Asks and paints the frame of the current range; false when the request failed.
  async render(extra = {}) {
    const seq = ++this.seq;
    const t0 = performance.now();
    const range = this.zoom.range;
    try {
      const body = this.request(extra);
      this.requestedWidth = body.width;
      const frame = await this.frame(body);
      this.root.dataset.fetchMs = (performance.now() - t0).toFixed(1);
      if (seq !== this.seq) return;  // a newer request is on its way
      this.tooltip.hide();  // it was about the frame before
      await this.canvas.show(frame, range);
      if (seq !== this.seq) return;
      if (this.highlight) this.canvas.mark(this.highlight.object);
      if (this.groups.framed(frame.layout.rows, Boolean(body.objects))) {
        this.render();  // pinned rows known only now (a link): drawn first
        return;
      }
      const hidden = frame.layout.lines_hidden || 0;
      this.linesNote.hidden = !hidden;
      if (hidden) {
        this.linesText.textContent = `${hidden.toLocaleString('en-US')} communication lines hidden: too dense to read here (zoom in to see them).`;
      }
      const ms = performance.now() - t0;
      this.frames += 1;
      this.root.dataset.frames = this.frames;
      this.root.dataset.from = range.from;
      this.root.dataset.to = range.to;
      this.root.dataset.latency = ms.toFixed(1);
      const unit = this.app.traceInfo(this.doc.trace).time_unit;
      this.range.textContent = `${formatRange(range, unit, this.window.unit)} (${ms.toFixed(0)} ms)`;
      this.range.title = `${range.from} – ${range.to} ${unit} (trace units); the frame took ${ms.toFixed(0)} ms`;
      this.showTypedRange(range);
      this.overview.update();
      this.traffic.update();
      this.diagnosis.update();
      this.structure.update();
      this.cpuUse.update();
      if (this.app.sourceMark) this.refreshMarks();
      for (const a of this.app.panels) if (a instanceof AnalyzerPanel) a.controlMoved(this);
      this.explain();
    } catch (e) {
      if (seq === this.seq) this.error(e);
      return false;
    }
    return true;
  }

  // During a gesture: the frame of the range on screen is asked at once, with one request in
  // flight (the latest range wins when it returns); each arriving frame replaces the stretched
  // one. No settle delay: the last range's frame is asked as soon as the gesture's last step
  // is drawn, or as soon as the request before it returns.
  async refine() {
    if (this.refining) {
      this.refineAgain = true;
      return;
    }
    this.refining = true;
    try {
      do {
        this.refineAgain = false;
        const r = this.pending;
        if (!r || !this.root.isConnected) break;
        const frame = await this.frame(this.requestFor(r));
        if (!this.pending) break;  // committed meanwhile: render() shows the frame (from the cache)
        await this.canvas.show(frame, r);
        if (this.pending && (this.pending.from !== r.from || this.pending.to !== r.to)) this.canvas.preview(this.pending);
        this.root.dataset.refined = `${r.from}-${r.to}`;
        this.root.dataset.refinedAt = String(performance.now());
      } while (this.refineAgain);
    } catch {
      // The commit's render() asks again and says what went wrong.
    } finally {
      this.refining = false;
    }
  }

  // What the cfg reader noticed about this window, or about the whole cfg and the trace (not
  // the keys it ignored, which concern no window in particular).
  notices() {
    const name = `window '${this.window.name}'`;
    return (this.doc.document.notices || []).filter((n) => n.includes(name) || !(n.includes("window '") || n.includes('ignored:')));
  }

  // Says why the window is empty when nothing was drawn, else the cfg's notice about it, if
  // any: one quiet line (this window's own notice first; all of them on hover). A type the trace
  // lacks is no fault of the cfg: the reader notices only a window none of whose types occurs.
  explain() {
    const notices = this.notices();
    const name = `window '${this.window.name}'`;
    const first = notices.find((n) => n.includes(name)) || notices[0] || '';
    const line = first.replace(/^line \d+: /, '').replace(`${name}: `, '');
    this.message.title = notices.join('\n');
    if (!this.canvas.list.rows.length) {
      this.warn(['This window has no object to draw at its level.', ...notices].join('\n'));
    } else if (!this.canvas.list.any_non_zero) {
      if (line) this.note(`Every value in this range is 0: ${line}.`);
      else this.warn(['Every value in this range is 0.', 'Zoom out, or check the window\'s function and filter (Properties).'].join('\n'));
    } else {
      this.note(line ? `${line}${notices.length > 1 ? ` (${notices.length - 1} more: hover)` : ''}` : '');
    }
  }

  warn(text) {
    this.message.textContent = text;
    this.message.className = 'panel-message warning';
  }

  async export(format) {
    try {
      const blob = await timelineImage(this.request({ labels: true }), format);
      download(blob, `${this.window.name.replace(/[^\w.-]+/g, '_')}.${format}`);
    } catch (e) {
      this.error(e);
    }
  }

  // PROVE's processor utilisation: a copy of this window at cpu level, in the same range and
  // synchronised with it.
  async openCpus() {
    const count = this.doc.document.windows.length, index = this.index;
    try {
      await this.doc.edit((d) => {
        d.windows.push({ ...structuredClone(d.windows[index]), name: `${d.windows[index].name} per cpu`, level: 'cpu', open: true });
      });
      const p = this.app.openWindow(this.doc, count, this.zoom.range);
      if (!this.group) this.setGroup(1);
      p.setGroup(this.group);
    } catch (e) {
      this.error(e);
    }
  }

  // Click-forward: marks the events of the source line chosen in the source panel
  // (app.sourceMark; none: clears the marks) in the range drawn; resolves with their count.
  async markSource() {
    const m = this.app.sourceMark, c = this.canvas;
    const objects = c.list ? c.list.rows.map((r) => r[3]) : [];
    const seq = ++this.markSeq;
    if (!m || !objects.length) {
      c.overlays.set('source', null);
      this.sourceCount = 0;
      return 0;
    }
    const view = this.zoom.range;
    const r = await postJson('/api/source/events', {
      trace: this.doc.trace, cfg_text: this.doc.text, window: this.window.name, type: m.type, label: m.label,
      object_first: Math.min(...objects), object_last: Math.max(...objects), from: view.from, to: view.to,
    });
    if (seq === this.markSeq && this.app.sourceMark === m) {
      c.overlays.set('source', r.marks);
      this.sourceCount = r.count;
      this.root.dataset.sourceFrom = view.from;
      this.root.dataset.sourceTo = view.to;
    }
    return r.count;
  }

  async showText(row, time) {
    const r = this.zoom.range;
    const span = Math.max(1, Math.round((r.to - r.from) / 100));
    try {
      const text = await postJson('/api/text', {
        trace: this.doc.trace, cfg_text: this.doc.text, window: this.window.name, object_index: row[3],
        from: Math.max(0, time - span), to: time + span,
      });
      this.textBox.hidden = false;
      renderText(this.textBox, text, time, timeFormatter(text.time_unit, this.window.unit), (label, type) => this.app.source.open(label, type));
    } catch (e) {
      this.error(e);
    }
  }
}

export class AnalyzerPanel extends Panel {
  constructor(app, doc, histIndex) {
    super(app, doc, 'analyzer');
    this.index = histIndex;
    this.transpose = false;
    this.totals = true;
    this.hideEmpty = this.settings.hide_empty_columns;
    this.plane = 0;
    this.follow = true;  // over the range its control window shows (else the cfg's limits)
    this.followTimer = null;
    this.limits = el('span', null, 'analysis-range');
    this.tableBox = el('div', null, 'table-box');
    this.root.append(this.tableBox);
    this.buildBar();
  }

  get settings() {
    return this.doc.document.histograms[this.index];
  }

  buildBar() {
    const h = this.settings;
    this.title.textContent = `${h.name} — ${this.doc.trace}`;
    this.root.dataset.histogram = h.name;
    this.statistic = select(h.statistics, h.statistic, 'statistic');
    this.statistic.classList.add('statistic');
    this.statistic.addEventListener('change', async () => {
      const value = this.statistic.value;
      try {
        await this.doc.edit((d) => { d.histograms[this.index].statistic = value; });
      } catch (e) {
        this.error(e);
      }
    });
    this.planeSelect = select([], undefined, 'plane');
    this.planeSelect.hidden = true;
    this.planeSelect.addEventListener('change', () => { this.plane = Number(this.planeSelect.value); this.draw(); });
    this.bar.replaceChildren(this.statistic, this.planeSelect,
      checkbox('transpose', this.transpose, (v) => { this.transpose = v; this.draw(); }, 'transpose').label,
      checkbox('hide empty', this.hideEmpty, (v) => { this.hideEmpty = v; this.render(); }, 'hide-empty').label,
      checkbox('totals', this.totals, (v) => { this.totals = v; this.draw(); }, 'totals').label,
      checkbox('follow zoom', this.follow, (v) => { this.follow = v; this.render(); }, 'follow').label,
      button('CSV', 'export the table', () => this.exportCsv(), 'export-csv'),
      button('Compare…', 'the same histogram on another open trace, beside this one, over the same range',
        () => this.app.compareAnalyzer(this), 'compare'),
      button('Properties', 'histogram properties: statistic, control scale, column order', () => this.openProperties(), 'hist-properties'),
      button('✕', 'close', () => this.close(), 'close'), this.limits);
  }

  // The histogram's properties in a dialog; Apply rewrites the cfg (saved with *Save cfg…*).
  openProperties() {
    const h = this.settings;
    const dialog = document.getElementById('histogram-properties');
    const form = el('form', null, 'histogram-form');
    form.method = 'dialog';
    const field = (label, input) => {
      const d = el('div', null, 'field');
      d.append(el('label', label), input);
      return d;
    };
    const number = (value, cls) => {
      const i = el('input', null, cls);
      i.type = 'number';
      i.step = 'any';
      i.value = value;
      return i;
    };
    const statistic = select(h.statistics, h.statistic, 'statistic');
    const auto = checkbox('computed from the values', h.compute_scale, () => {}, 'compute-scale');
    const min = number(h.minimum, 'minimum'), max = number(h.maximum, 'maximum'), delta = number(h.delta, 'delta');
    for (const i of [min, max, delta]) i.addEventListener('input', () => { auto.input.checked = false; });
    const sort = checkbox('by a total row', h.sort_columns, () => {}, 'sort-columns');
    const criteria = select(['Total', 'Average', 'Maximum', 'Minimum', 'Stdev', 'Avg/Max'], h.sort_criteria, 'sort criterion');
    criteria.classList.add('sort-criteria');
    const reverse = checkbox('reversed', h.sort_reverse, () => {}, 'sort-reverse');
    const hide = checkbox('hide empty columns', h.hide_empty_columns, () => {}, 'hide-columns');
    // The units of the table: times are in the control window's unit, integrals in the data
    // window's (the cfg's window_units of each).
    const windows = this.doc.document.windows;
    const unitOf = (i) => windows[i] && windows[i].unit;
    const units = [];
    if (unitOf(h.control)) units.push(['control', h.control, 'time unit']);
    if (unitOf(h.data) && h.data !== h.control) units.push(['data', h.data, 'data unit']);
    const unitSelects = units.map(([kind, i, label]) => {
      const u = select(TIME_UNITS, unitOf(i), label);
      u.classList.add(`${kind}-unit`);
      u.title = `${label}: the unit of ${windows[i].name} (window_units), which the ${kind === 'control' ? 'times (Time, burst times, ...)' : 'integrals'} are in`;
      return [i, u, label];
    });
    const message = el('div', null, 'error');
    const parts = [el('h4', `${h.name}`), field('statistic', statistic), ...unitSelects.map(([, u, label]) => field(label, u))];
    if (!h.communications) {
      parts.push(el('h4', 'Control scale (columns)'), field('autofit', auto.label), field('minimum', min), field('maximum', max),
        field('delta', delta));
    }
    const order = el('span');
    order.append(sort.label, criteria, reverse.label);
    parts.push(el('h4', 'Columns'), field('sort', order), field('empty', hide.label), message);
    const cancel = el('button', 'Cancel', 'cancel');
    cancel.value = 'cancel';
    const apply = el('button', 'Apply', 'apply');
    apply.type = 'button';
    apply.addEventListener('click', async () => {
      const values = {
        statistic: statistic.value, sort_columns: sort.input.checked, sort_criteria: criteria.value,
        sort_reverse: reverse.input.checked, hide_empty_columns: hide.input.checked,
      };
      if (!h.communications) {
        Object.assign(values, { compute_scale: auto.input.checked, minimum: Number(min.value), maximum: Number(max.value), delta: Number(delta.value) });
        if (![values.minimum, values.maximum, values.delta].every(Number.isFinite)) {
          message.textContent = 'the minimum, maximum and delta must be numbers';
          return;
        }
      }
      try {
        await this.doc.edit((d) => {
          Object.assign(d.histograms[this.index], values);
          for (const [i, u] of unitSelects) d.windows[i].unit = u.value;
        });
        this.hideEmpty = values.hide_empty_columns;
        dialog.close();
      } catch (e) {
        message.textContent = `${e.message}${e.hint ? ` (${e.hint})` : ''}`;
      }
    });
    const buttons = el('div', null, 'buttons');
    buttons.append(cancel, apply);
    form.append(...parts, buttons);
    dialog.replaceChildren(form);
    dialog.showModal();
  }

  // The timeline panel of this histogram's control window, when one is on screen.
  controlPanel() {
    const c = this.settings.control;
    return this.app.panels.find((p) => p instanceof TimelinePanel && p.doc === this.doc && p.index === c && !p.highlight);
  }

  // A control window drew a new range: follow it, once the zooms settle.
  controlMoved(panel) {
    if (!this.follow || panel !== this.controlPanel()) return;
    clearTimeout(this.followTimer);
    this.followTimer = setTimeout(() => this.render(), 150);
  }

  close() {
    clearTimeout(this.followTimer);
    super.close();
  }

  refreshControls() {
    this.buildBar();
  }

  async render() {
    const control = this.follow ? this.controlPanel() : null;
    const range = control ? { ...control.zoom.range } : null;
    const seq = (this.seq = (this.seq || 0) + 1);
    try {
      const tables = await this.doc.analyze(this.hideEmpty, range);
      if (seq !== this.seq) return;  // a newer range is on its way
      this.computedRange = range;  // what its cells were computed over (null: the cfg's limits)
      const unit = this.app.traceInfo(this.doc.trace).time_unit;
      this.limits.textContent = range ? `over ${formatRange(range, unit, control.window.unit)} (${control.window.name})` : 'over the cfg\'s analysis limits';
      Object.assign(this.root.dataset, { from: range ? range.from : '', to: range ? range.to : '' });
      this.table = tables[this.index];
      if (!this.table) throw new Error('the server returned no table for this histogram');
      const planes = this.table.planes;
      this.planeSelect.replaceChildren(...planes.map((p, i) => { const o = el('option', p.label || `plane ${i}`); o.value = i; return o; }));
      this.planeSelect.hidden = planes.length < 2;
      this.plane = Math.min(this.plane, planes.length - 1);
      this.planeSelect.value = this.plane;
      this.draw();
      this.note('');
    } catch (e) {
      this.error(e);
    }
  }

  draw() {
    const p = this.table && this.table.planes[this.plane];
    if (!p) return;
    // Times are in the control window's time unit (Paraver's rule).
    const control = this.doc.document.windows[this.settings.control];
    const statistic = this.table.statistic;
    this.tableBox.replaceChildren(renderPlane(p, {
      transpose: this.transpose, totals: this.totals, onCell: (r, c) => this.app.showCell(this, r, c),
      statistic, unit: statisticUnit(statistic, control ? control.unit : ''),
    }));
    this.root.dataset.statistic = this.table.statistic;
  }

  exportCsv() {
    const p = this.table && this.table.planes[this.plane];
    if (!p) return;
    const csv = planeCsv(p, { transpose: this.transpose, totals: this.totals });
    download(new Blob([csv], { type: 'text/csv' }), `${this.settings.name.replace(/[^\w.-]+/g, '_')}.csv`);
  }
}
