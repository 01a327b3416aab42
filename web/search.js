// One search box for every window of the current trace (docs/serve.md, "Search"): events by
// type, type:value or label, the windows' values by label (a state's name), or an object by
// name. The next (previous) match is the earliest (latest) of every window's next match after
// (before) the last one; the window holding it is centred on it (its sync group follows) and
// marks it, with the match said beside the box.

import { postJson } from './api.js';
import { parseFind, windowOf } from './inspect.js';
import { timeFormatter } from './timeline.js';
import { el } from './tables.js';
import { TimelinePanel } from './windows.js';

export class GlobalSearch {
  constructor(app, box) {
    this.app = app;
    this.kind = el('select', null, 'search-kind');
    this.kind.setAttribute('aria-label', 'search what');
    for (const [v, label] of [['event', 'events'], ['value', 'values'], ['object', 'objects']]) {
      const o = el('option', label);
      o.value = v;
      this.kind.append(o);
    }
    this.input = el('input', null, 'search-text');
    this.input.placeholder = 'search every window';
    this.input.setAttribute('aria-label', 'search every window');
    this.input.size = 18;
    this.input.addEventListener('keydown', (e) => {
      if (e.key === 'Enter') this.go(e.shiftKey ? 'previous' : 'next');
    });
    this.input.addEventListener('input', () => { this.last = null; });
    this.kind.addEventListener('change', () => { this.last = null; });
    const prev = el('button', '◀', 'search-previous');
    prev.type = 'button';
    prev.title = 'previous match (shift + Enter)';
    prev.addEventListener('click', () => this.go('previous'));
    const next = el('button', '▶', 'search-next');
    next.type = 'button';
    next.title = 'next match (Enter)';
    next.addEventListener('click', () => this.go('next'));
    this.result = el('span', null, 'search-result');
    box.append(this.kind, this.input, prev, next, this.result);
    this.last = null;  // {time, panel}: where the next search starts
    this.seq = 0;
  }

  // Forgets the last search: its marks in the windows, its line and where the next one starts
  // (another trace is current; the matches were about the last one).
  reset() {
    this.seq += 1;
    this.last = null;
    const m = this.marked;
    if (m && m.panel.canvas.overlays.get('found') === m.match) m.panel.canvas.overlays.set('found', null);
    this.marked = null;
    if (this.outlined && this.outlined.root.isConnected) this.outlined.canvas.mark(null);
    this.outlined = null;
    this.say('');
    for (const k of ['time', 'window', 'object']) delete this.result.dataset[k];
  }

  panels() {
    return this.app.panels.filter((p) => p instanceof TimelinePanel && !p.highlight
      && p.doc.trace === this.app.current && p.canvas.list);
  }

  say(text, error = false) {
    this.result.textContent = text;
    this.result.className = `search-result${error ? ' error' : ''}`;
  }

  async go(direction) {
    const text = this.input.value.trim();
    const panels = this.panels();
    if (!text || !panels.length) return this.say(panels.length ? '' : 'no window open on the current trace', !panels.length);
    if (this.kind.value === 'object') return this.findObject(text, panels);
    const seq = ++this.seq;
    this.say('looking…');
    const from = this.last ? this.last.time : (direction === 'next' ? Math.max(0, panels[0].shown().from - 1) : panels[0].shown().to);
    try {
      const found = await Promise.all(panels.map(async (p) => {
        const objects = p.canvas.list.rows.map((r) => r[3]);
        const view = p.shown();
        const m = await postJson('/api/find', {
          ...windowOf(p), ...parseFind(this.kind.value, text), kind: this.kind.value, direction, time: from,
          object_first: Math.min(...objects), object_last: Math.max(...objects), span: Math.max(1, view.to - view.from),
        }).catch(() => ({ found: false }));
        return m.found ? { ...m, panel: p } : null;
      }));
      if (seq !== this.seq) return undefined;
      const hits = found.filter(Boolean);
      if (!hits.length) {
        const f = timeFormatter(this.app.traceInfo(this.app.current).time_unit, panels[0].window.unit);
        return this.say(`no match ${direction === 'next' ? 'after' : 'before'} ${f.format(from)} ${f.unit} in ${panels.length} window${panels.length === 1 ? '' : 's'}`);
      }
      hits.sort((a, b) => (direction === 'next' ? a.time - b.time : b.time - a.time));
      const m = hits[0];
      this.last = { time: m.time };
      const p = m.panel;
      const view = p.shown(), span = view.to - view.from;
      for (const x of panels) x.canvas.overlays.set('found', x === p ? m : null);
      this.marked = { panel: p, match: m };
      p.userRange(p.zoom.go({ from: m.time - span / 2, to: m.time - span / 2 + span }));
      p.root.scrollIntoView({ block: 'nearest' });
      const f = timeFormatter(this.app.traceInfo(this.app.current).time_unit, p.window.unit);
      this.say(`${m.what} on ${m.object} at ${f.format(m.time)} ${f.unit} (${p.window.name})`);
      Object.assign(this.result.dataset, { time: m.time, window: p.window.name, object: m.object_index });
    } catch (e) {
      if (seq === this.seq) this.say(`${e.message}${e.hint ? ` (${e.hint})` : ''}`, true);
    }
    return undefined;
  }

  // An object by name ("THREAD 1.3", "cpu 2.1", a label's start): its row, outlined, in the first
  // window that draws it.
  findObject(text, panels) {
    const q = text.toLowerCase();
    for (const p of panels) {
      const row = p.canvas.list.rows.find((r) => String(r[0]).toLowerCase().startsWith(q))
        || p.canvas.list.rows.find((r) => String(r[0]).toLowerCase().includes(q));
      if (!row) continue;
      p.canvas.mark(row[3]);
      this.outlined = p;
      p.root.scrollIntoView({ block: 'nearest' });
      this.say(`${row[0]} in ${p.window.name}`);
      Object.assign(this.result.dataset, { window: p.window.name, object: row[3] });
      return undefined;
    }
    return this.say(`no object named '${text}' in the windows`, true);
  }
}
