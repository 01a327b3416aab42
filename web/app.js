// Parallax's browser UI: a trace and cfg browser, timeline windows (zoom, pan, toggles, textual
// view on click, properties, derived windows), analyzer windows (statistic, transpose, cell →
// where in the timeline), synchronised ranges and several traces side by side. Everything is
// computed by the server; this only asks and draws.

import { ApiError, getJson, openTrace, postJson } from './api.js';
import { PropertiesDialog } from './properties.js';
import { SourcePanel } from './source.js';
import { el } from './tables.js';
import { AnalyzerPanel, Doc, TimelinePanel } from './windows.js';
import { CompareView } from './compare.js';
import { GlobalSearch } from './search.js';
import { objectRanges, orderedRanges, parseObjectRanges } from './groups.js';

const $ = (id) => document.getElementById(id);
const STATUS_SECONDS = 10;

// What the keyboard and the mouse do over a timeline window (the help overlay, docs/serve.md).
// The keys and mouse of each convention (the "mouse" menu): today's viewers' (the default) and
// Paraver's.
const MOUSE_KEYS = {
  modern: [
    ['wheel', 'scroll the page'],
    ['ctrl / ⌘ + wheel, pinch', 'zoom in or out at the cursor'],
    ['drag, shift + drag', 'select an area (time range × rows): its duration and the time of each value'],
    ['Z, double click', 'zoom to the area selected'],
  ],
  paraver: [
    ['wheel', 'zoom in or out at the cursor'],
    ['drag', 'zoom to the dragged range'],
    ['shift + drag', 'select an area (time range × rows): its duration and the time of each value'],
    ['Z, double click', 'zoom to the area selected'],
  ],
};

const KEYS = [
  ['shift + wheel', 'pan (a horizontal wheel or touchpad pans too)'],
  ['W / S', 'zoom in / out at the cursor (at the centre when the cursor is elsewhere)'],
  ['A / D', 'pan left / right by a fifth of the view'],
  ['ctrl + drag, middle drag', 'pan: the trace follows the mouse'],
  ['Esc', 'clear the area selection; close this help'],
  ['click', 'textual view of the row around the time clicked'],
  ['click on a row\'s label, right click', 'pin or unpin the row: it stays at the top of the window'],
  ['hover', 'tooltip: object, time, value, interval and what the pixel folds'],
  ['begin – end boxes', 'type a range (1.5 ms, 2000 us, ...), Enter applies'],
  ['F', 'find: events by type, type:value or label, or the window\'s values, with next / previous'],
  ['N / P', 'next / previous match of the last find'],
  ['Space / shift + Space', 'play forward / backward through the trace (Play…: width, speed), or pause'],
  ['B', 'hide or show the file browser (☰)'],
  ['⋯', 'a narrow window\'s other controls (colour and draw modes, scale, Copy, Paste, Traffic, ...)'],
  ['?', 'this help'],
];

class App {
  constructor() {
    this.traces = new Map();  // path → info
    this.current = null;      // path of the trace new windows open on
    this.panels = [];
    this.functions = [];
    this.serverTraces = [];  // loaded on the server (by any page), from /api/traces
    this.active = null;  // the timeline panel the keys go to (last under the mouse)
    this.properties = new PropertiesDialog(this, $('properties'));
    this.source = new SourcePanel((e) => this.showError(e), (type, label) => this.markSource(type, label));  // click-back
  }

  // The status bar. A notice describes the state when it was written, so it does not stay: the
  // next notice replaces it, an information notice expires after STATUS_SECONDS, and a notice
  // about a window (`owner`: a panel or a doc) goes when that window closes. Errors stay until
  // replaced or their owner closes.
  status(text, isError = false, owner = null) {
    $('status').textContent = text;
    $('status').className = isError ? 'error' : '';
    this.statusOwner = text ? owner : null;
    clearTimeout(this.statusTimer);
    if (text && !isError) this.statusTimer = setTimeout(() => this.status(''), STATUS_SECONDS * 1000);
  }

  // A banner for what the load of the current trace could not take from its file (LoadWarnings
  // on the server); none for a clean trace, so another trace's banner never stays.
  showLoadWarnings(trace) {
    const box = $('load-warning');
    const lines = (this.traces.get(trace) || {}).warnings || [];
    box.dataset.trace = trace;
    box.hidden = !lines.length || this.dismissed === trace;
    box.querySelector('ul').replaceChildren(...lines.map((l) => el('li', l)));
    box.querySelector('button').onclick = () => { box.hidden = true; this.dismissed = trace; };
  }

  // What was shown changed (the current trace, a window's range or cfg): an error in the status
  // bar was about what was shown before, so it goes (docs/serve.md, "Messages").
  viewChanged() {
    if ($('status').className === 'error') this.status('');
  }

  showError(e, owner = null) {
    this.status(`${e.message}${e.hint ? ` (${e.hint})` : ''}`, true, owner);
  }

  // The info of a trace with what needs a pass over its records (state values, event types
  // with their labels and counts): asked once per trace.
  fullInfo(path) {
    this.fullInfos = this.fullInfos || new Map();
    if (!this.fullInfos.has(path)) {
      const p = getJson('/api/info', { trace: path });
      p.catch(() => this.fullInfos.delete(path));
      this.fullInfos.set(path, p);
    }
    return this.fullInfos.get(path);
  }

  traceInfo(path) {
    return this.traces.get(path);
  }

  traceEnd(path) {
    return Math.max(1, this.traces.get(path).trace_end);
  }

  // ---- files ---------------------------------------------------------------------------------

  async listDir(dir) {
    try {
      const { entries } = await getJson('/api/files', { dir });
      $('cwd').textContent = `/${dir}`;
      const ul = $('files');
      ul.replaceChildren();
      if (dir) entries.unshift({ name: '..', kind: 'dir', path: dir.split('/').slice(0, -1).join('/') });
      for (const e of entries) {
        const li = el('li', e.name, e.kind);
        li.dataset.path = e.path;
        li.title = e.kind === 'cfg' && e.description ? e.description : e.path;
        li.addEventListener('click', () => this.choose(e, li));
        li.addEventListener('dblclick', () => { if (e.kind === 'cfg') this.openCfg(e.path); });
        ul.append(li);
      }
    } catch (e) {
      this.showError(e);
    }
  }

  choose(entry, li) {
    if (entry.kind === 'dir') return this.listDir(entry.path);
    for (const x of document.querySelectorAll(`#files li.${entry.kind}`)) x.classList.remove('current');
    li.classList.add('current');
    if (entry.kind === 'trace') return this.loadTrace(entry.path);
    if (entry.kind === 'cfg') return this.showCfg(entry);
    return undefined;
  }

  // The cfg browser: description and contents of the chosen cfg, with an Open button.
  showCfg(entry) {
    const box = $('cfg-details');
    box.hidden = false;
    const parts = [el('strong', entry.name)];
    if (entry.error) parts.push(el('div', entry.error, 'error'));
    if (entry.description) parts.push(el('pre', entry.description, 'description'));
    if (entry.windows && entry.windows.length) parts.push(el('div', `windows: ${entry.windows.join(', ')}`));
    if (entry.histograms && entry.histograms.length) parts.push(el('div', `analyzers: ${entry.histograms.join(', ')}`));
    const open = el('button', 'Open cfg', 'open-cfg');
    open.type = 'button';
    open.disabled = Boolean(entry.error);
    open.addEventListener('click', () => this.openCfg(entry.path));
    parts.push(open);
    box.replaceChildren(...parts);
  }

  // ---- traces --------------------------------------------------------------------------------

  // Opens a trace in this page. `select`: it becomes the current trace (a click); traces opened
  // for the command line only become current when no other is.
  async loadTrace(path, { select = true } = {}) {
    if (this.traces.has(path)) return select ? this.setCurrent(path) : undefined;
    const bar = $('progress');
    bar.hidden = false;
    bar.value = 0;
    this.status(`loading ${path}…`);
    try {
      const info = await openTrace(path, (f) => {
        bar.value = f;
        this.progressUpdates = (this.progressUpdates || 0) + 1;
        this.status(`loading ${path}: ${Math.round(f * 100)}%`);
      });
      this.traces.set(path, info);
      this.remember(path);
      this.status(`${path} loaded in ${info.load_seconds.toFixed(2)} s`);
      if (select || !this.current) this.setCurrent(path);
      this.listTraces();
      if (!this.panels.some((p) => p.doc.trace === path)) await this.openFirstView(path, info);
    } catch (e) {
      this.showError(e);
    } finally {
      bar.hidden = true;
    }
    return undefined;
  }

  // The trace new windows open on. Another trace: what was found or said about the last one goes
  // (the search's hits and its line, an error in the status bar), and the banner is this one's.
  setCurrent(path) {
    const changed = this.current !== path;
    this.current = path;
    if (changed) {
      if (this.search) this.search.reset();
      this.viewChanged();
    }
    this.showLoadWarnings(path);
    this.showInfo(this.traces.get(path));
    this.listTraces();
    this.linkChanged();
  }

  listTraces() {
    const ul = $('traces');
    ul.replaceChildren(...[...this.traces.keys()].map((p) => {
      const li = el('li', p, p === this.current ? 'current' : '');
      li.dataset.path = p;
      li.addEventListener('click', () => this.setCurrent(p));
      return li;
    }));
    this.listServerTraces();
  }

  // Traces the server has loaded (for another page) that this page has not opened: offered, not
  // opened.
  listServerTraces() {
    const rest = this.serverTraces.filter((t) => !this.traces.has(t));
    $('server-traces-box').hidden = !rest.length;
    $('server-traces').replaceChildren(...rest.map((t) => {
      const li = el('li', t);
      li.dataset.path = t;
      li.title = 'loaded on the server: click to open it here';
      li.addEventListener('click', () => this.loadTrace(t));
      return li;
    }));
  }

  showInfo(i) {
    const dl = el('dl');
    const rows = [['trace', i.trace], ['duration', `${i.trace_end} ${i.time_unit}`],
      ['objects', `${i.appls} appl, ${i.tasks} tasks, ${i.threads} threads; ${i.nodes} nodes, ${i.cpus} cpus`],
      ['records', `${i.states} states, ${i.event_pairs} events, ${i.comms} communications`],
      ['load', `${i.load_seconds.toFixed(2)} s, ${(i.store_bytes / 1048576).toFixed(1)} MiB of records`]];
    for (const d of i.diagnostics || []) rows.push([d.severity, `${d.count} × ${d.description}`]);
    for (const [k, v] of rows) dl.append(el('dt', k), el('dd', v));
    $('trace-info').replaceChildren(dl);
  }

  // ---- documents and panels ------------------------------------------------------------------

  needTrace() {
    if (!this.current) throw new ApiError(400, { error: 'open a trace first', hint: 'click a .prv in Files' });
    return this.current;
  }

  // The standard views (docs/views.md) in the file browser: a click opens one on the current
  // trace, as a cfg would.
  async listViews() {
    try {
      const { views } = await getJson('/api/views');
      $('views').replaceChildren(...views.map((v) => {
        const li = el('li', v.title, 'view');
        li.dataset.view = v.name;
        li.title = `${v.name}: ${v.description}${v.needs.length ? `\n(needs ${v.needs.join(', ')})` : ''}`;
        li.addEventListener('click', () => this.openView(v.name));
        return li;
      }));
    } catch (e) {
      this.showError(e);
    }
  }

  async openView(name, trace = undefined) {
    try {
      const t = trace || this.needTrace();
      const r = await getJson('/api/view', { name, trace: t });
      const doc = new Doc(this, t, `${name}.cfg`, r.text, r.document);
      doc.link = `view:${name}`;
      this.addDoc(doc);
    } catch (e) {
      this.showError(e);
    }
  }

  async openCfg(path, trace = undefined) {
    try {
      const t = trace || this.needTrace();
      const r = await getJson('/api/cfg', { path, trace: t });
      const doc = new Doc(this, t, path, r.text, r.document);  // its windows show its notices
      doc.link = `cfg:${path}`;
      this.addDoc(doc);
    } catch (e) {
      this.showError(e);
    }
  }

  // The first view of a trace: its states; a trace without states but with events (a Pajé
  // trace of variables, a trace of counters) shows its events instead, a window per event type
  // (Pajé's variables first, types 60003000 + n; at most four), each the last value of its type.
  async openFirstView(path, info) {
    if (info.states > 0 || !info.events) return this.openFunction('State As Is', [], path);
    try {
      const full = await this.fullInfo(path);
      const types = [...(full.event_types || [])]
        .sort((a, b) => (b.id >= 60003000 && b.id < 60004000) - (a.id >= 60003000 && a.id < 60004000) || a.id - b.id)
        .slice(0, 4);
      if (!types.length) return this.openFunction('State As Is', [], path);
      for (const t of types) {
        const r = await postJson('/api/cfg/function', { trace: path, function: 'Last Evt Val', params: [] });
        const document = structuredClone(r.document);
        const name = (t.label || `event type ${t.id}`).replace(/[\r\n]+/g, ' ');
        document.windows[0].name = name;
        document.windows[0].filter.event_type = { op: '=', values: [t.id] };
        document.windows[0].color_mode = 'gradient';  // a variable's values, not codes
        const e = await postJson('/api/cfg/edit', { trace: path, text: r.text, name, document });
        this.addDoc(new Doc(this, path, `events ${name}`, e.text, e.document));
      }
    } catch (e) {
      this.showError(e);
    }
    return undefined;
  }

  async openFunction(name, params, trace = undefined) {
    try {
      const t = trace || this.needTrace();
      const r = await postJson('/api/cfg/function', { trace: t, function: name, params });
      const doc = new Doc(this, t, `function ${name}`, r.text, r.document);
      doc.link = `fn:${name}${params.length ? `:${params.join(',')}` : ''}`;
      this.addDoc(doc);
    } catch (e) {
      this.showError(e);
    }
  }

  // Opens the doc's windows (those marked open; else the last) and all its analyzers.
  addDoc(doc, range = null) {
    const ws = doc.document.windows;
    let shown = ws.map((w, i) => (w.open ? i : -1)).filter((i) => i >= 0);
    if (!shown.length && ws.length) shown = [ws.length - 1];
    for (const i of shown) this.openWindow(doc, i, range);
    doc.document.histograms.forEach((_, k) => this.addPanel(new AnalyzerPanel(this, doc, k)));
  }

  openWindow(doc, index, range = null, highlight = null) {
    const p = new TimelinePanel(this, doc, index, { range, highlight });
    this.addPanel(p);
    return p;
  }

  addPanel(panel) {
    this.panels.push(panel);
    $('windows').append(panel.root);
    panel.render();
    this.linkChanged();
  }

  removePanel(panel) {
    this.panels = this.panels.filter((p) => p !== panel);
    panel.root.remove();
    this.linkChanged();
    const o = this.statusOwner;
    if (o && (o === panel || (o === panel.doc && !this.panels.some((p) => p.doc === o)))) this.status('');
  }

  // After an edit: every panel of the doc shows the new cfg (what was found or shown with the
  // old one goes).
  docChanged(doc) {
    this.viewChanged();
    for (const p of this.panels.filter((x) => x.doc === doc)) {
      if (p instanceof TimelinePanel) p.cfgChanged();
      p.refreshControls();
      p.render();
    }
  }

  // The timeline windows that follow the zooms and pans of `source` (its synchronisation group).
  followers(source) {
    if (!source.group) return [];
    return this.panels.filter((p) => p !== source && p instanceof TimelinePanel && p.group === source.group);
  }

  // Copy: the properties of `panel` that Paste can set in another window.
  copy(panel) {
    const w = panel.window, l = panel.canvas.list;
    this.copied = {
      source: `${w.name} (${panel.doc.trace})`, range: { ...panel.zoom.range }, filter: structuredClone(w.filter),
      min_y: w.min_y, max_y: w.max_y, size: { width: l ? l.width : panel.pixelWidth() },
    };
    this.status(`copied ${this.copied.source}: Paste in another window sets its time range, size, filter or semantic scale`);
  }

  pasteInto(panel, what) {
    if (!this.copied) return this.status('Copy a window first, then Paste', true);
    return panel.paste(what, this.copied);
  }

  syncRange(source, range) {
    for (const p of this.followers(source)) {
      p.zoom.go(range);
      p.render();
    }
  }

  // One animation plays at a time: `bar` starts, the one playing pauses.
  playing(bar) {
    if (this.animation && this.animation !== bar) this.animation.pause();
    this.animation = bar;
  }

  // A zoom or pan by the user in `panel` pauses the animation it takes part in.
  userMoved(panel) {
    const a = this.animation;
    if (a && a.playing && a.windows().includes(panel)) a.pause();
  }

  // Asks which of `choices` (trace paths) to use; resolves with one, or null when cancelled.
  chooseTrace(question, choices) {
    const dialog = $('choose-trace');
    const form = el('form', null, 'choose-trace-form');
    form.method = 'dialog';
    const list = el('select', null, 'trace-choice');
    list.setAttribute('aria-label', 'trace');
    for (const t of choices) {
      const o = el('option', t);
      o.value = t;
      list.append(o);
    }
    const ok = el('button', 'Compare', 'apply');
    ok.value = 'ok';
    const cancel = el('button', 'Cancel', 'cancel');
    cancel.value = 'cancel';
    const buttons = el('div', null, 'buttons');
    buttons.append(cancel, ok);
    form.append(el('p', question), list, buttons);
    dialog.replaceChildren(form);
    return new Promise((resolve) => {
      dialog.addEventListener('close', () => resolve(dialog.returnValue === 'ok' ? list.value : null), { once: true });
      dialog.returnValue = '';
      dialog.showModal();
    });
  }

  // The same cfg on another open trace (the user picks which), opened synchronised beside
  // this one, with the two runs' comparison under them (web/compare.js).
  async compare(panel) {
    const others = [...this.traces.keys()].filter((t) => t !== panel.doc.trace);
    if (!others.length) return this.status('open another trace first, then Compare', true);
    const trace = await this.chooseTrace(`Compare ${panel.window.name} (${panel.doc.trace}) with:`, others);
    if (!trace) return undefined;
    try {
      const r = await postJson('/api/cfg/edit', { trace, text: panel.doc.text, name: panel.doc.label, document: panel.doc.document });
      const doc = new Doc(this, trace, panel.doc.source, r.text, r.document);
      const p = this.openWindow(doc, panel.index, panel.zoom.range);
      panel.root.after(p.root);  // beside its original in the side-by-side layout
      if (!panel.group) panel.setGroup(1);
      p.setGroup(panel.group);
      $('windows').classList.add('side-by-side');
      $('layout').value = 'side-by-side';
      // The runs compared unit by unit, under the pair (docs/compare.md).
      const view = new CompareView(this, panel, p);
      p.root.after(view.root);
      view.ask();
      this.status(`comparing ${panel.doc.trace} with ${trace}`, false, p);
    } catch (e) {
      this.showError(e);
    }
    return undefined;
  }

  // Compare… on an analyzer: the same histogram of the same cfg on another open trace, beside
  // it, over the same range (its control window opens there too, in the same sync group, so
  // both tables follow the zooms of either run).
  async compareAnalyzer(analyzer) {
    const others = [...this.traces.keys()].filter((t) => t !== analyzer.doc.trace);
    if (!others.length) return this.status('open another trace first, then Compare', true);
    const trace = await this.chooseTrace(`Compare ${analyzer.settings.name} (${analyzer.doc.trace}) with:`, others);
    if (!trace) return undefined;
    try {
      const d = analyzer.doc;
      const r = await postJson('/api/cfg/edit', { trace, text: d.text, name: d.label, document: d.document });
      const doc = new Doc(this, trace, d.source, r.text, r.document);
      const control = analyzer.controlPanel();
      const range = analyzer.computedRange || (control ? control.zoom.range : null);
      const c = this.openWindow(doc, analyzer.settings.control, range);
      if (control) {
        if (!control.group) control.setGroup(1);
        c.setGroup(control.group);
        control.root.after(c.root);
      }
      const twin = new AnalyzerPanel(this, doc, analyzer.index);
      this.addPanel(twin);
      analyzer.root.after(twin.root);  // beside its original in the side-by-side layout
      $('windows').classList.add('side-by-side');
      $('layout').value = 'side-by-side';
      this.status(`comparing ${analyzer.settings.name} of ${d.trace} with ${trace}`, false, twin);
    } catch (e) {
      this.showError(e);
    }
    return undefined;
  }

  // A click on an analyzer cell: the control window over the range the table was computed on,
  // in the sync group of the analyzer's control window, drawing only the values of that column
  // (the cell's value selected), with the cell's row outlined.
  showCell(analyzer, r, c) {
    const t = analyzer.table;
    const p = t.planes[analyzer.plane];
    const [lo, hi] = (p.column_ranges || [])[c] || [null, null];
    if (lo === null || t.control_window < 0) {
      this.status('this column has no value range to look for (communication histogram)', true);
      return;
    }
    const label = `${p.rows[r]} × ${p.columns[c]}`;
    const highlight = { min: lo, max: hi, label, object: p.row_objects[r] };
    let panel = this.panels.find((x) => x instanceof TimelinePanel && x.doc === analyzer.doc && x.highlight
      && x.index === t.control_window);
    const range = analyzer.computedRange;
    const control = analyzer.controlPanel();
    const group = control ? control.group : null;
    if (panel) {
      panel.highlight = highlight;
      if (range) panel.zoom.range = panel.zoom.clamp(range.from, range.to);
      panel.setGroup(group);
      panel.refreshControls();
      panel.render();
    } else {
      panel = this.openWindow(analyzer.doc, t.control_window, range, highlight);
      panel.setGroup(group);
    }
    panel.root.dataset.cell = label;
    panel.root.scrollIntoView({ block: 'nearest' });
  }

  // Asks where to save `text` under the root; asks again before replacing a file.
  async saveText(text, suggestion) {
    const path = window.prompt('Save the windows as a Paraver .cfg under the root (path):', suggestion);
    if (!path) return;
    try {
      let r;
      try {
        r = await postJson('/api/cfg/save', { path, text, overwrite: false });
      } catch (e) {
        if (e.status !== 409 || !window.confirm(`${path} exists. Replace it?`)) throw e;
        r = await postJson('/api/cfg/save', { path, text, overwrite: true });
      }
      this.status(`saved ${r.path}`);
      this.listDir($('cwd').textContent.slice(1));
    } catch (e) {
      this.showError(e);
    }
  }

  suggestName(doc) {
    const dir = doc.trace.includes('/') ? `${doc.trace.split('/').slice(0, -1).join('/')}/` : '';
    return doc.source.endsWith('.cfg') ? doc.source.replace(/\.cfg$/, '.edited.cfg') : `${dir}parallax.cfg`;
  }

  // The cfg of one window's doc (all its windows and analyzers).
  // Saves a doc's cfg with the range each of its windows on screen shows (a zoom is kept, as
  // absolute times: window_begin_time / window_stop_time).
  async saveCfg(doc) {
    try {
      const document = structuredClone(doc.document);
      this.keepRanges(doc, document, 0);
      const r = await postJson('/api/cfg/edit', { trace: doc.trace, text: doc.text, name: doc.label, document });
      await this.saveText(r.text, this.suggestName(doc));
    } catch (e) {
      this.showError(e);
    }
  }

  // Sets, in `document` (a copy), the range shown by each window of `doc` on screen, its
  // windows starting at index `offset`.
  keepRanges(doc, document, offset) {
    for (const p of this.panels)
      if (p instanceof TimelinePanel && p.doc === doc && !p.highlight && document.windows[offset + p.index]) {
        Object.assign(document.windows[offset + p.index],
          { range_relative: false, range_begin: p.zoom.range.from, range_end: p.zoom.range.to });
      }
  }

  // Every timeline window open on the current trace, in one cfg: the first cfg that has
  // analyzers (else the first window's), with its analyzers, plus the windows of the others,
  // each marked open when it is on screen. Analyzers of the other cfgs are not carried over.
  async saveAll() {
    const shown = this.panels.filter((p) => p instanceof TimelinePanel && p.doc.trace === this.current && !p.highlight);
    if (!shown.length) return this.status('no timeline window is open on the current trace', true);
    const docs = [...new Set(shown.map((p) => p.doc))];
    const withAnalyzers = docs.findIndex((d) => d.document.histograms.length > 0);
    if (withAnalyzers > 0) docs.unshift(...docs.splice(withAnalyzers, 1));
    const base = docs[0];
    const onScreen = (doc, i) => shown.some((p) => p.doc === doc && p.index === i);
    const merged = structuredClone(base.document);
    merged.windows.forEach((w, i) => { w.open = onScreen(base, i); });
    this.keepRanges(base, merged, 0);
    for (const doc of docs.slice(1)) {
      const offset = merged.windows.length;
      doc.document.windows.forEach((w, i) => {
        const copy = { ...structuredClone(w), open: onScreen(doc, i) };
        if (copy.derived) {
          copy.parent0 += offset;
          copy.parent1 += offset;
        }
        merged.windows.push(copy);
      });
      this.keepRanges(doc, merged, offset);
    }
    try {
      const r = await postJson('/api/cfg/edit', { trace: base.trace, text: base.text, name: base.label, document: merged });
      await this.saveText(r.text, this.suggestName(base).replace(/[^/]*$/, 'windows.cfg'));
    } catch (e) {
      this.showError(e);
    }
    return undefined;
  }

  async loadFunctions() {
    try {
      const { functions } = await getJson('/api/functions');
      this.functions = functions;
      const select = $('function');
      for (const name of this.properties.functionsFor('thread')) {
        const o = el('option', name);
        o.value = name;
        select.append(o);
      }
      select.value = 'State As Is';
    } catch (e) {
      this.showError(e);
    }
  }

  start() {
    $('function-form').addEventListener('submit', (e) => {
      e.preventDefault();
      const p = $('function-param').value.trim();
      this.openFunction($('function').value, p ? p.split(/[\s,]+/).map(Number) : []);
    });
    $('layout').addEventListener('change', () => {
      $('windows').classList.toggle('side-by-side', $('layout').value === 'side-by-side');
      for (const p of this.panels) if (p instanceof TimelinePanel) p.render();
    });
    $('close-all').addEventListener('click', () => { for (const p of [...this.panels]) p.close(); });
    $('save-all').addEventListener('click', () => this.saveAll());
    // Drop the token from the address bar: the cookie carries it from now on.
    if (location.search.includes('token=')) history.replaceState(null, '', location.pathname + location.hash);
    document.addEventListener('keydown', (e) => this.key(e));
    $('help-button').addEventListener('click', () => this.showHelp());
    $('toggle-browser').addEventListener('click', () => this.toggleBrowser());
    this.search = new GlobalSearch(this, $('search'));
    // The theme and the timelines' palette, kept in this browser.
    this.theme = localStorage.getItem('parallax.theme') === 'dark' ? 'dark' : 'light';
    document.documentElement.dataset.theme = this.theme;
    $('theme').value = this.theme;
    $('theme').addEventListener('change', () => {
      this.theme = $('theme').value === 'dark' ? 'dark' : 'light';
      document.documentElement.dataset.theme = this.theme;
      localStorage.setItem('parallax.theme', this.theme);
    });
    this.palette = ['paraver', 'colorblind'].includes(localStorage.getItem('parallax.palette')) ? localStorage.getItem('parallax.palette') : '';
    $('palette').value = this.palette;
    $('palette').addEventListener('change', () => {
      this.palette = $('palette').value;
      localStorage.setItem('parallax.palette', this.palette);
      for (const p of this.panels) if (p instanceof TimelinePanel) p.render();
    });
    // The mouse convention, kept in this browser.
    this.mouse = localStorage.getItem('parallax.mouse') === 'paraver' ? 'paraver' : 'modern';
    $('mouse').value = this.mouse;
    $('mouse').addEventListener('change', () => {
      this.mouse = $('mouse').value === 'paraver' ? 'paraver' : 'modern';
      localStorage.setItem('parallax.mouse', this.mouse);
    });
    this.loadFunctions();
    this.listViews();
    this.listDir('');
    this.openPreloaded();
  }

  // Hides or shows the file browser (the windows take its width: a small screen, side by side).
  toggleBrowser() {
    const main = document.querySelector('main');
    const hidden = main.classList.toggle('browser-hidden');
    $('toggle-browser').setAttribute('aria-pressed', String(!hidden));
  }

  // Click-forward: marks in every timeline window the events of `type` whose value label is the
  // source location `label` (null: clears the marks), in the range each shows, again after
  // every zoom or pan; resolves with each window's count (sourceCounts).
  async markSource(type, label) {
    this.sourceMark = label === null ? null : { type, label };
    await Promise.all(this.panels.filter((p) => p instanceof TimelinePanel).map((p) => p.markSource()));
    return this.sourceCounts();
  }

  // How many events of the marked line each timeline window shows: [{window, count}]. Windows
  // over the same trace and range show the same events: their counts are never added up.
  sourceCounts() {
    return this.panels.filter((p) => p instanceof TimelinePanel)
      .map((p) => ({ window: `${p.window.name} (${p.doc.trace})`, count: p.sourceCount || 0 }));
  }

  // A window marked the source line again in a new range: the panel shows the new counts.
  sourceCounted() {
    if (!this.sourceMark) return;
    this.source.counted(this.sourceCounts());
  }

  // Navigation keys go to the timeline window last under the mouse (else the first one), unless
  // a control or a dialog has the keyboard.
  key(e) {
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    const t = e.target;
    if (t && (t.closest('input, select, textarea, dialog[open]') || t.isContentEditable)) return;
    if (e.key === 'Escape' && this.source.close()) {
      e.preventDefault();
      return;
    }
    if (e.key === '?') {
      e.preventDefault();
      this.showHelp();
      return;
    }
    if (e.key === 'b' || e.key === 'B') {
      e.preventDefault();
      this.toggleBrowser();
      return;
    }
    let panel = this.active && this.active.root.isConnected ? this.active : null;
    panel = panel || this.panels.find((p) => p instanceof TimelinePanel);
    if (panel && panel.key(e.key.toLowerCase(), e)) e.preventDefault();
  }

  // The keys and mouse actions, in a dialog (Esc or the button closes it).
  showHelp() {
    const dialog = $('help');
    const table = el('table', null, 'keys');
    for (const [k, what] of [...MOUSE_KEYS[this.mouse], ...KEYS]) {
      const tr = el('tr');
      tr.append(el('th', k, 'label'), el('td', what, 'label'));
      table.append(tr);
    }
    const form = el('form');
    form.method = 'dialog';
    const close = el('button', 'Close', 'close');
    const buttons = el('div', null, 'buttons');
    buttons.append(close);
    form.append(el('h3', 'Keys and mouse over a timeline window'), table, buttons);
    dialog.replaceChildren(form);
    dialog.showModal();
  }

  // A new page shows its own state: only the traces given on the command line (`parallax serve
  // TRACE...`) are opened; the others the server has loaded are offered in a list.
  async openPreloaded() {
    try {
      const { traces, preloaded } = await getJson('/api/traces');
      this.serverTraces = traces;
      this.listServerTraces();
      for (const t of preloaded || []) await this.loadTrace(t, { select: false });
    } catch (e) {
      this.showError(e);
    }
    await this.restoreLink();
  }

  // ---- recent traces and permalinks ------------------------------------------------------------

  // The traces opened last in this browser (at most 8), shown on the first page.
  remember(path) {
    const recent = this.recentTraces().filter((p) => p !== path);
    recent.unshift(path);
    localStorage.setItem('parallax.recent', JSON.stringify(recent.slice(0, 8)));
    this.listRecent();
  }

  recentTraces() {
    try {
      const r = JSON.parse(localStorage.getItem('parallax.recent') || '[]');
      return Array.isArray(r) ? r.filter((p) => typeof p === 'string') : [];
    } catch {
      return [];
    }
  }

  // The first page: the recent traces (a click opens one) and what to do, while no window is open.
  listRecent() {
    const recent = this.recentTraces();
    $('recent-box').hidden = !recent.length;
    $('recent').replaceChildren(...recent.map((p) => {
      const li = el('li', p, 'recent');
      li.title = `open ${p} (opened recently in this browser)`;
      li.addEventListener('click', () => this.loadTrace(p));
      return li;
    }));
    $('first-page').hidden = this.panels.length > 0;
  }

  // The address of this page says what it shows
  // (#trace=...&open=cfg:a.cfg|view:mpi-call&from=&to=&pins=&groups=&select=), so that it can be shared or
  // bookmarked (the token stays out of it: the cookie carries it).
  linkChanged() {
    if (this.restoring) return;
    $('first-page').hidden = this.panels.length > 0;
    clearTimeout(this.linkTimer);
    this.linkTimer = setTimeout(() => {
      const shown = this.panels.filter((p) => p instanceof TimelinePanel && !p.highlight && p.doc.trace === this.current);
      const params = new URLSearchParams();
      if (this.current) params.set('trace', this.current);
      const open = [...new Set(shown.map((p) => p.doc.link).filter(Boolean))];
      if (open.length) params.set('open', open.join('|'));
      if (shown.length) {
        params.set('from', String(shown[0].zoom.range.from));
        params.set('to', String(shown[0].zoom.range.to));
      }
      // The area selected, in the first window that has one: WINDOW:FROM-TO:OBJECTS (WINDOW the
      // window's place among those listed, OBJECTS 1-based, as "1-4,7").
      // Pinned rows: WINDOW:OBJECTS;... (OBJECTS in the order drawn).
      const pins = shown.map((p, i) => (p.groups.pinned.length ? `${i}:${orderedRanges(p.groups.pinned)}` : '')).filter(Boolean);
      if (pins.length) params.set('pins', pins.join(';'));
      // Collapsed groups: WINDOW:NAME,NAME;... (names as "TASK 1.2": no comma, colon or semicolon).
      const groups = shown.map((p, i) => (p.groups.collapsed.size ? `${i}:${[...p.groups.collapsed].join(',')}` : '')).filter(Boolean);
      if (groups.length) params.set('groups', groups.join(';'));
      const k = shown.findIndex((p) => p.areaStats.area);
      if (k >= 0) {
        const a = shown[k].areaStats.area;
        params.set('select', `${k}:${a.from}-${a.to}:${objectRanges(a.objects)}`);
      }
      const hash = params.toString();
      history.replaceState(null, '', `${location.pathname}${hash ? `#${hash}` : ''}`);
    }, 300);
  }

  // Opens what the address names: its trace, its cfgs, views and functions, at its range.
  async restoreLink() {
    this.listRecent();
    const params = new URLSearchParams(location.hash.slice(1));
    const trace = params.get('trace');
    if (!trace) return;
    this.restoring = true;
    try {
      if (!this.traces.has(trace)) await this.loadTrace(trace);
      else this.setCurrent(trace);
      const open = (params.get('open') || '').split('|').filter(Boolean);
      if (open.length) for (const p of this.panels.filter((x) => x.doc.trace === trace)) p.close();
      for (const item of open) {
        const [kind, ...rest] = item.split(':');
        const what = rest.join(':');
        if (kind === 'cfg') await this.openCfg(what, trace);
        else if (kind === 'view') await this.openView(what, trace);
        else if (kind === 'fn') {
          const [name, values] = what.split(':');
          await this.openFunction(name, values ? values.split(',').map(Number) : [], trace);
        }
      }
      const from = Number(params.get('from')), to = Number(params.get('to'));
      const shown = this.panels.filter((p) => p instanceof TimelinePanel && p.doc.trace === trace);
      const first = shown[0];
      if (first && Number.isFinite(from) && Number.isFinite(to) && to > from) first.userRange(first.zoom.go({ from, to }));
      for (const pin of (params.get('pins') || '').split(';')) {
        const m = /^(\d+):([\d,-]+)$/.exec(pin);
        const p = m && shown[Number(m[1])];
        if (!p) continue;
        p.groups.pinned = parseObjectRanges(m[2]);
        p.render();
      }
      for (const item of (params.get('groups') || '').split(';')) {
        const m = /^(\d+):((?:(?:APPL|TASK|NODE) [\d.]+,?)+)$/.exec(item);
        const p = m && shown[Number(m[1])];
        if (p) await p.groups.restore(m[2].split(',').filter(Boolean));
      }
      const area = /^(\d+):(\d+)-(\d+):([\d,-]+)$/.exec(params.get('select') || '');
      if (area && shown[Number(area[1])] && Number(area[3]) > Number(area[2])) {
        shown[Number(area[1])].areaStats.select({ from: Number(area[2]), to: Number(area[3]), objects: parseObjectRanges(area[4]) });
      }
    } finally {
      this.restoring = false;
      this.linkChanged();
    }
  }
}

const app = new App();
window.parallax = app;  // for the browser console and the browser tests
app.start();
