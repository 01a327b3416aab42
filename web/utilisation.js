// PROVE's processor utilisation under a timeline window at cpu level (docs/serve.md,
// "Communication and processor views"): for every cpu drawn, the share of the range in view in
// which the threads that ran on it were Running, from /api/utilisation (the threads' own state
// records, whatever the window shows), one request for all cpus. Asked again with every frame.

import { oneAtATime, postJson } from './api.js';
import { el } from './tables.js';

export class CpuUse {
  constructor(panel) {
    this.panel = panel;
    this.root = el('div', null, 'cpu-use');
    this.root.hidden = true;
    this.seq = 0;
    this.update = oneAtATime(() => this.ask());  // one round of requests in flight (animations)
  }

  async ask() {
    const p = this.panel;
    const list = p.canvas.list;
    if (p.window.level !== 'cpu' || !list) {
      this.root.hidden = true;
      return;
    }
    this.root.hidden = false;
    const seq = ++this.seq;
    const range = p.zoom.range;
    const objects = list.rows.map((r) => r[3]);
    try {
      const u = await postJson('/api/utilisation', { trace: p.doc.trace, from: range.from, to: range.to });
      if (seq !== this.seq) return;
      const duration = u.to - u.from;
      const items = [el('span', 'Running:', 'cpu-use-title')];
      const shares = {};
      for (const o of objects) {
        if (o >= u.cpus.length) continue;
        const name = u.cpus[o];
        const share = duration > 0 ? u.running[o] / duration : 0;
        shares[name] = share;
        const item = el('span', `${name} ${(100 * share).toFixed(1)}%`, 'cpu-use-item');
        item.style.background = `linear-gradient(to right, #9cf ${100 * share}%, transparent ${100 * share}%)`;
        item.title = `${name}: Running ${u.running[o]} of ${duration} trace units in view (${u.threads[o]} thread${u.threads[o] === 1 ? '' : 's'} ran there)`;
        items.push(item);
      }
      this.root.replaceChildren(...items);
      this.root.dataset.from = range.from;
      this.root.dataset.to = range.to;
      this.root.dataset.shares = JSON.stringify(shares);
    } catch (e) {
      if (seq === this.seq) this.root.replaceChildren(el('span', `utilisation: ${e.message}`, 'error'));
    }
  }
}
