// The structure of the trace under a timeline window (docs/structure.md): the iterations of its
// main loop marked on the timeline, with a ruler under it aligned on the time axis whose cells
// zoom to one iteration when clicked; the computation bursts coloured by cluster along the
// bottom of their rows; the clusters as a table. Follows the window's range: asked again with
// every frame (the server computes the structure once per trace).

import { oneAtATime, postJson } from './api.js';
import { el, seconds } from './tables.js';
import { clipToArea, register } from './overlays.js';

// On the timeline ({marks, bursts}): each burst as a strip of its cluster's colour along the
// bottom third of its row, and a dashed line at each iteration's begin.
register('structure', {
  order: 30,
  legend: () => 'dashed lines: iteration begins; strips along the rows: computation bursts by cluster',
  draw(g, view, o) {
    const { rows, x } = view;
    const [ax, , aw] = view.area;
    clipToArea(g, view, () => {
      for (const b of o.bursts) {
        const row = rows.get(b.object);
        if (!row) continue;
        const x0 = x(b.begin), x1 = x(b.end);
        if (x1 < ax || x0 > ax + aw) continue;
        const h = Math.max(2, Math.round(Math.max(1, row[2]) / 3));
        g.fillStyle = b.colour;
        g.fillRect(x0, row[1] + Math.max(1, row[2]) - h, Math.max(1, x1 - x0), h);
      }
      g.strokeStyle = '#ffffff';
      g.setLineDash([4, 3]);
      g.beginPath();
      for (const t of o.marks) {
        const xm = Math.round(x(t)) + 0.5;
        g.moveTo(xm, 0);
        g.lineTo(xm, view.list.height);
      }
      g.stroke();
    });
  },
});

// Cluster colours: noise grey, filtered and missing data not drawn.
const COLOURS = ['#00c853', '#ffd600', '#ff1744', '#2979ff', '#d500f9', '#00e5ff', '#ff9100', '#76ff03',
  '#f50057', '#651fff', '#1de9b6', '#c6ff00'];

export function clusterColour(id) {
  if (id === 0) return '#9e9e9e';
  return id > 0 ? COLOURS[(id - 1) % COLOURS.length] : null;
}

export class StructureView {
  constructor(panel) {
    this.panel = panel;
    this.root = el('div', null, 'structure');
    this.root.hidden = true;
    this.summary = el('div', null, 'structure-summary');
    this.ruler = el('div', null, 'structure-ruler');
    this.root.append(this.ruler, this.summary);
    this.seq = 0;
    this.update = oneAtATime(() => this.ask());
  }

  toggle() {
    this.root.hidden = !this.root.hidden;
    if (this.root.hidden) this.panel.canvas.overlays.set('structure', null);
    else this.update();
  }

  async ask() {
    if (this.root.hidden) return;
    const p = this.panel;
    const range = p.zoom.range;
    const seq = ++this.seq;
    try {
      const s = await postJson('/api/structure', { trace: p.doc.trace, from: range.from, to: range.to });
      if (seq !== this.seq) return;
      this.show(s, range);
      this.root.classList.remove('structure-error');
    } catch (e) {
      if (seq !== this.seq) return;
      this.summary.textContent = `structure: ${e.message}`;
      this.root.classList.add('structure-error');
    }
  }

  // The row object of a burst's thread: bursts are coloured on thread windows only (a task row
  // holds several threads' bursts at once).
  objectOf(thread) {
    return (this.panel.window.level || 'thread') === 'thread' ? thread : null;
  }

  show(s, range) {
    const it = s.iterations;
    const head = el('div', null, 'structure-iterations');
    head.textContent = it.found
      ? `${it.count} iterations of ${seconds(it.period_s)} (found by ${it.anchor}); click one below the timeline to zoom to it`
      : `no iterations found: ${it.why_none}`;
    const table = el('table', null, 'structure-clusters');
    table.append(el('caption', `Burst clusters (${s.features})`));
    const tr = el('tr');
    for (const h of ['cluster', 'bursts', 'time', 'IPC']) tr.append(el('th', h));
    table.append(tr);
    for (const c of s.clusters) {
      const row = el('tr', null, `cluster-${c.id}`);
      const name = el('td');
      const swatch = el('span', null, 'swatch');
      swatch.style.background = clusterColour(c.id);
      name.append(swatch, ` ${c.id}`);
      row.append(name, el('td', String(c.bursts)), el('td', seconds(c.time_s)),
        el('td', c.mean_ipc === null ? '-' : c.mean_ipc.toFixed(2)));
      table.append(row);
    }
    const notes = s.notes.map((n) => el('div', `note: ${n}`, 'structure-note'));
    if ((this.panel.window.level || 'thread') !== 'thread')
      notes.push(el('div', 'bursts are coloured on thread windows', 'structure-note'));
    if (s.limited) notes.push(el('div', `the ${s.bursts.thread.length} longest bursts of the range are coloured`, 'structure-note'));
    this.summary.replaceChildren(head, table, ...notes);
    // Iterations in view: marks on the timeline and the ruler's cells.
    const marks = [];
    const cells = [];
    for (let i = 0; i < it.begin.length; i += 1) {
      if (it.end[i] <= range.from || it.begin[i] >= range.to) continue;
      marks.push(it.begin[i]);
      cells.push({ n: i + 1, begin: it.begin[i], end: it.end[i] });
    }
    this.drawRuler(cells, range);
    const bursts = [];
    const b = s.bursts;
    for (let i = 0; i < b.thread.length; i += 1) {
      const colour = clusterColour(b.cluster[i]);
      const object = this.objectOf(b.thread[i]);
      if (colour && object !== null) bursts.push({ object, begin: b.begin[i], end: b.end[i], colour });
    }
    this.panel.canvas.overlays.set('structure', { marks, bursts });
    Object.assign(this.root.dataset, { from: range.from, to: range.to, iterations: cells.length, bursts: bursts.length,
      clusters: s.clusters.length });
  }

  // One cell per iteration in view, placed under the timeline's time axis.
  drawRuler(cells, range) {
    const layout = this.panel.canvas.list;
    this.ruler.replaceChildren();
    if (!layout || cells.length === 0) return;
    const [ax, , aw] = layout.area;
    const span = range.to - range.from;
    this.ruler.style.marginLeft = `${ax}px`;
    this.ruler.style.width = `${aw}px`;
    for (const c of cells) {
      const x0 = Math.max(0, (c.begin - range.from) / span), x1 = Math.min(1, (c.end - range.from) / span);
      const cell = el('button', x1 - x0 > 0.02 ? String(c.n) : '', 'iteration');
      cell.type = 'button';
      cell.title = `iteration ${c.n}: ${c.begin} – ${c.end} (trace units)`;
      cell.dataset.iteration = c.n;
      cell.style.left = `${100 * x0}%`;
      cell.style.width = `${Math.max(0.2, 100 * (x1 - x0))}%`;
      cell.addEventListener('click', () => this.panel.userRange(this.panel.zoom.go({ from: c.begin, to: c.end })));
      this.ruler.append(cell);
    }
  }
}
