// PROVE's communication views under a timeline window (docs/serve.md, "Communication views"):
// bytes sent over time, in total and per task, as a chart whose columns line up with the
// window's time axis, and the node x node (and task x task) matrix of the visible range as
// tables with a heat colour. Both follow the window's range: asked again with every frame.

import { oneAtATime, postJson } from './api.js';
import { el } from './tables.js';

const HEIGHT = 72;       // pixels of the chart
const MAX_TASK_LINES = 12;  // tasks drawn as lines of their own (the total is always drawn)
const COLORS = ['#e6194b', '#3cb44b', '#4363d8', '#f58231', '#911eb4', '#42d4f4', '#f032e6', '#bfef45',
  '#469990', '#9a6324', '#800000', '#000075'];

export function formatBytes(b) {
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
  let i = 0;
  while (b >= 1024 && i < units.length - 1) { b /= 1024; i += 1; }
  return `${i ? b.toFixed(1) : b} ${units[i]}`;
}

// White to red by the share of the largest cell.
function heat(v, max) {
  const f = max > 0 ? v / max : 0;
  const g = Math.round(255 - 200 * f);
  return `rgb(255, ${g}, ${g})`;
}

function matrix(title, labels, bytes, messages, cls) {
  const t = el('table', null, `traffic-matrix ${cls}`);
  t.append(el('caption', `${title}: bytes / messages, sender (row) → receiver (column)`));
  const head = el('tr');
  head.append(el('th', 'from \\ to', 'label'));
  for (const l of labels) head.append(el('th', l));
  t.append(head);
  const max = Math.max(0, ...bytes.flat());
  bytes.forEach((row, i) => {
    const tr = el('tr');
    tr.append(el('th', labels[i], 'label'));
    row.forEach((v, j) => {
      const td = el('td', messages[i][j] ? `${formatBytes(v)} / ${messages[i][j]}` : '');
      td.style.background = heat(v, max);
      Object.assign(td.dataset, { bytes: v, messages: messages[i][j] });
      td.title = `${labels[i]} → ${labels[j]}: ${v} bytes in ${messages[i][j]} messages`;
      tr.append(td);
    });
    t.append(tr);
  });
  return t;
}

export class TrafficView {
  constructor(panel) {
    this.panel = panel;
    this.root = el('div', null, 'traffic');
    this.root.hidden = true;
    // The chart is drawn off screen and shown as an image: the window's canvas stays its only
    // one (as the overview strip's).
    this.canvas = document.createElement('canvas');
    this.img = el('img', null, 'traffic-chart');
    this.img.alt = 'bytes sent over time';
    this.legend = el('div', null, 'traffic-legend');
    this.tables = el('div', null, 'traffic-tables');
    this.root.append(this.img, this.legend, this.tables);
    this.seq = 0;
    this.update = oneAtATime(() => this.ask());  // one request in flight (animations)
  }

  toggle() {
    this.root.hidden = !this.root.hidden;
    if (!this.root.hidden) this.update();
  }

  // Asks the traffic of the window's range, one column per pixel of its time area.
  async ask() {
    if (this.root.hidden) return;
    const p = this.panel;
    const list = p.canvas.list;
    if (!list) return;
    const [ax, , aw] = list.area;
    const range = p.zoom.range;
    const seq = ++this.seq;
    try {
      const t = await postJson('/api/traffic', {
        trace: p.doc.trace, from: range.from, to: range.to, buckets: Math.max(1, Math.round(aw)),
      });
      if (seq !== this.seq) return;
      this.draw(t, list.width, ax, aw);
      this.root.classList.remove('traffic-error');
    } catch (e) {
      if (seq !== this.seq) return;
      this.legend.textContent = `communications: ${e.message}`;
      this.root.classList.add('traffic-error');
    }
  }

  draw(t, width, ax, aw) {
    const c = this.canvas;
    c.width = width;
    c.height = HEIGHT;
    const g = c.getContext('2d');
    g.fillStyle = '#fff';
    g.fillRect(0, 0, width, HEIGHT);
    const max = Math.max(0, ...t.total);
    const n = t.total.length;
    const x = (i) => ax + ((i + 0.5) / n) * aw;
    const y = (v) => HEIGHT - 2 - (max > 0 ? (v / max) * (HEIGHT - 14) : 0);
    g.fillStyle = 'rgba(80, 80, 80, 0.35)';
    g.beginPath();
    g.moveTo(ax, HEIGHT - 2);
    t.total.forEach((v, i) => g.lineTo(x(i), y(v)));
    g.lineTo(ax + aw, HEIGHT - 2);
    g.closePath();
    g.fill();
    const tasks = t.bytes.length <= MAX_TASK_LINES ? t.bytes : [];
    tasks.forEach((series, k) => {
      g.strokeStyle = COLORS[k % COLORS.length];
      g.lineWidth = 1;
      g.beginPath();
      series.forEach((v, i) => (i ? g.lineTo(x(i), y(v)) : g.moveTo(x(i), y(v))));
      g.stroke();
    });
    g.fillStyle = '#000';
    g.font = '10px sans-serif';
    g.fillText(`max ${formatBytes(max)} per ${n > 1 ? 'column' : 'range'}`, 2, 10);
    this.img.src = c.toDataURL();
    this.img.width = width;
    this.img.height = HEIGHT;
    const sum = t.total.reduce((a, b) => a + b, 0);
    Object.assign(this.root.dataset, { from: t.from, to: t.to, messages: t.messages, bytes: sum, columns: n });
    this.legend.replaceChildren(el('span', `sent in view: ${formatBytes(sum)} in ${t.messages} messages`, 'traffic-sum'));
    tasks.forEach((series, k) => {
      const s = el('span', t.tasks[k], 'traffic-task');
      s.style.borderColor = COLORS[k % COLORS.length];
      s.title = `${t.tasks[k]}: ${series.reduce((a, b) => a + b, 0)} bytes sent in view`;
      this.legend.append(s);
    });
    if (t.bytes.length > MAX_TASK_LINES) this.legend.append(el('span', `(${t.tasks.length} tasks: total only)`));
    // Each matrix scrolls in a box of its own (its headers stay in view): a 64 x 64 task
    // matrix is far wider than its window.
    const boxed = (table) => {
      const box = el('div', null, 'traffic-matrix-box');
      box.append(table);
      return box;
    };
    const tables = [];
    if (t.nodes.length) tables.push(boxed(matrix('Nodes', t.nodes, t.node_bytes, t.node_messages, 'nodes')));
    if (t.task_bytes.length) tables.push(boxed(matrix('Tasks', t.tasks, t.task_bytes, t.task_messages, 'tasks')));
    this.tables.replaceChildren(...tables);
  }
}
