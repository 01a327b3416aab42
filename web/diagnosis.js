// The diagnosis of the range in view under a timeline window (docs/diagnose.md): the wait-state
// patterns' totals, the root causes and the critical path as a table, and on the timeline the
// waiting part of each MPI call shaded, the critical path drawn across the ranks, and, for a
// clicked wait, an arrow from the culprit. Follows the window's range: asked again with every
// frame. The overlay shows on windows at thread or task level (one row per rank's thread/task).

import { oneAtATime, postJson } from './api.js';
import { el, seconds } from './tables.js';
import { convertTime } from './timeline.js';
import { clipToArea, register } from './overlays.js';

// On the timeline ({waits, path, selected}): the waiting parts of MPI calls shaded, the critical
// path as a line through the rows it goes through, and an arrow from the culprit of the
// selected wait.
register('diagnosis', {
  order: 40,
  legend: () => 'red: the waiting part of MPI calls; yellow line: the critical path; click a wait for its culprit',
  tooltip(view, point, o) {
    const row = view.list.rows.find(([, y, h]) => point.y >= y && point.y < y + Math.max(h, 1));
    const w = row && o.waits.find((x) => x.object === row[3] && view.x(x.begin) - 1 <= point.x && point.x <= view.x(x.end) + 1);
    return w ? `${w.pattern.replace(/_/g, ' ')} in ${w.call}${w.culpritRank ? ` (waiting for rank ${w.culpritRank})` : ''}` : '';
  },
  draw(g, view, o) {
    const { rows, x } = view;
    const [ax, , aw] = view.area;
    clipToArea(g, view, () => {
      g.fillStyle = 'rgba(255, 40, 40, 0.45)';
      for (const w of o.waits) {
        const row = rows.get(w.object);
        if (!row) continue;
        const x0 = x(w.begin), x1 = x(w.end);
        if (x1 < ax || x0 > ax + aw) continue;
        g.fillRect(x0, row[1], Math.max(1, x1 - x0), Math.max(2, row[2]));
      }
      const mid = (row) => row[1] + Math.max(2, row[2]) / 2;
      g.strokeStyle = '#ffd000';
      g.lineWidth = 2;
      g.beginPath();
      let last = null;
      for (const s of o.path) {
        const row = rows.get(s.object);
        if (!row) { last = null; continue; }
        const y = mid(row);
        if (last && last.object !== s.object) {
          g.moveTo(x(s.begin), last.y);
          g.lineTo(x(s.begin), y);
        }
        g.moveTo(x(s.begin), y);
        g.lineTo(x(s.end), y);
        last = { object: s.object, y };
      }
      g.stroke();
      const sel = o.selected;
      const from = sel && sel.culprit !== null && rows.get(sel.culprit), to = sel && rows.get(sel.object);
      if (!from || !to) return;
      const x0 = x(sel.culpritTime), y0 = mid(from), x1 = x(sel.end), y1 = mid(to);
      g.strokeStyle = '#00e5ff';
      g.fillStyle = '#00e5ff';
      g.beginPath();
      g.moveTo(x0, y0);
      g.lineTo(x1, y1);
      g.stroke();
      const a = Math.atan2(y1 - y0, x1 - x0);
      g.beginPath();
      g.moveTo(x1, y1);
      g.lineTo(x1 - 8 * Math.cos(a - 0.4), y1 - 8 * Math.sin(a - 0.4));
      g.lineTo(x1 - 8 * Math.cos(a + 0.4), y1 - 8 * Math.sin(a + 0.4));
      g.closePath();
      g.fill();
    });
  },
});

export class DiagnosisView {
  constructor(panel) {
    this.panel = panel;
    this.root = el('div', null, 'diagnosis');
    this.root.hidden = true;
    this.summary = el('div', null, 'diagnosis-summary');
    this.detail = el('div', null, 'diagnosis-detail');
    this.root.append(this.summary, this.detail);
    this.seq = 0;
    this.data = null;
    this.overlay = null;
    this.update = oneAtATime(() => this.ask());
  }

  toggle() {
    this.root.hidden = !this.root.hidden;
    if (this.root.hidden) {
      this.overlay = null;
      this.panel.canvas.overlays.set('diagnosis', null);
    } else {
      this.update();
    }
  }

  // The row object of rank r at the window's level, or null (no overlay at other levels).
  objectOf(ranks, r) {
    const level = this.panel.window.level || 'thread';
    if (level === 'thread') return ranks[r].thread;
    if (level === 'task') return ranks[r].task;
    return null;
  }

  async ask() {
    if (this.root.hidden) return;
    const p = this.panel;
    const range = p.zoom.range;
    const seq = ++this.seq;
    try {
      const d = await postJson('/api/diagnose', { trace: p.doc.trace, from: range.from, to: range.to });
      if (seq !== this.seq) return;
      this.data = d;
      this.show(d, range);
      this.root.classList.remove('diagnosis-error');
    } catch (e) {
      if (seq !== this.seq) return;
      this.summary.textContent = `diagnosis: ${e.message}`;
      this.root.classList.add('diagnosis-error');
    }
  }

  show(d, range) {
    const table = el('table', null, 'diagnosis-patterns');
    table.append(el('caption', `Wait states in view (${d.ranks.length} ranks)`));
    const head = el('tr');
    for (const h of ['pattern', 'time', '% of the ranks\' time', 'instances']) head.append(el('th', h));
    table.append(head);
    for (const p of d.patterns) {
      const tr = el('tr', null, `pattern-${p.key}`);
      tr.append(el('td', p.name), el('td', seconds(p.time_s)), el('td', `${p.percent.toFixed(2)} %`),
        el('td', String(p.count)));
      tr.dataset.key = p.key;
      tr.dataset.time = p.time_s;
      table.append(tr);
    }
    const path = el('div', null, 'diagnosis-path');
    const byRank = d.path_by_rank_s.map((s, r) => [d.ranks[r].label, s]).filter(([, s]) => s > 0)
      .sort((a, b) => b[1] - a[1]).slice(0, 6);
    path.textContent = `critical path ${seconds(d.path_length_s)} in view: `
      + byRank.map(([l, s]) => `${l} ${(100 * s / Math.max(d.path_length_s, 1e-300)).toFixed(1)} %`).join(', ');
    const roots = el('div', null, 'diagnosis-roots');
    roots.textContent = d.root_causes.length
      ? `root causes: ${d.root_causes.map((c) => `${c.activity}${c.phase ? ` in ${c.phase}` : ''} on ${c.rank} (${seconds(c.long_term_s)})`).join(', ')}`
      : 'root causes: none in view';
    const notes = d.notes.map((n) => el('div', `note: ${n}`, 'diagnosis-note'));
    if (d.limited) notes.push(el('div', `the ${d.waits.rank.length} longest waits of the range are drawn`, 'diagnosis-note'));
    this.summary.replaceChildren(table, path, roots, ...notes);
    // The overlay, in the window's rows.
    const waits = [];
    const w = d.waits;
    for (let i = 0; i < w.rank.length; i += 1) {
      const object = this.objectOf(d.ranks, w.rank[i]);
      if (object === null) continue;
      const known = w.culprit_rank[i] !== null && w.culprit_rank[i] >= 0;  // -1: unknown
      const culprit = known ? this.objectOf(d.ranks, w.culprit_rank[i]) : null;
      waits.push({
        object, begin: w.begin[i], end: w.begin[i] + w.wait[i], pattern: w.pattern[i], call: w.call[i],
        rank: d.ranks[w.rank[i]].label, culprit, culpritTime: w.culprit[i], culpritCall: w.culprit_call[i],
        culpritRank: known ? d.ranks[w.culprit_rank[i]].label : '',
        cause: w.cause[i], causeDelay: w.cause_delay_s[i], wait: w.wait[i],
      });
    }
    const segments = [];
    for (let i = 0; i < d.path.rank.length; i += 1) {
      const object = this.objectOf(d.ranks, d.path.rank[i]);
      if (object !== null) segments.push({ object, begin: d.path.begin[i], end: d.path.end[i] });
    }
    if (!['thread', 'task'].includes(this.panel.window.level || 'thread'))
      this.summary.append(el('div', 'the overlay shows on thread or task windows', 'diagnosis-note'));
    const selected = this.overlay && this.overlay.selected;
    this.overlay = { waits, path: segments, selected: selected && waits.find((x) => x.object === selected.object && x.begin === selected.begin) };
    if (!this.overlay.selected) {  // the wait said is not in the new range
      this.overlay.selected = null;
      this.detail.textContent = '';
      delete this.root.dataset.selected;
    }
    this.panel.canvas.overlays.set('diagnosis', this.overlay);
    Object.assign(this.root.dataset, { from: range.from, to: range.to, waits: waits.length, segments: segments.length });
  }

  // A click at (row, time): selects the wait drawn there, if any (true), and says what it was.
  select(row, time) {
    if (this.root.hidden || !this.overlay) return false;
    const o = this.overlay;
    const span = (this.panel.zoom.range.to - this.panel.zoom.range.from) / 500;  // a pixel or two
    const hit = o.waits.find((x) => x.object === row[3] && x.begin - span <= time && time <= x.end + span);
    o.selected = hit || null;
    this.panel.canvas.overlays.set('diagnosis', o);
    if (!hit) {
      this.detail.textContent = '';
      return false;
    }
    const traceUnit = this.panel.app.traceInfo(this.panel.doc.trace).time_unit;
    let text = `${hit.pattern.replace(/_/g, ' ')}: rank ${hit.rank} waited ${seconds(convertTime(hit.wait, traceUnit, 's'))} in ${hit.call}`;
    if (hit.culpritRank) text += ` for rank ${hit.culpritRank}${hit.culpritCall ? ` (${hit.culpritCall})` : ''}`;
    if (hit.cause) text += `, which spent ${seconds(hit.causeDelay)} more in ${hit.cause} since they last synchronised`;
    this.detail.textContent = text;
    this.root.dataset.selected = `${hit.rank}@${hit.begin}`;
    return true;
  }
}
