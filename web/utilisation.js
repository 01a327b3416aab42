// PROVE's processor utilisation under a timeline window at cpu level (docs/serve.md,
// "Communication and processor views"): for every cpu drawn, the share of the range in view in
// which the thread running on it was Running, from /api/cells. Asked again with every frame.

import { oneAtATime, postJson } from './api.js';
import { el } from './tables.js';

const MAX_CPUS = 64;  // cpus summed one request each; beyond this, none

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
    if (objects.length > MAX_CPUS) {
      this.root.replaceChildren(el('span', `utilisation: more than ${MAX_CPUS} cpus drawn (select an area instead)`, 'cpu-use-note'));
      return;
    }
    try {
      const cells = await Promise.all(objects.map((o) => postJson('/api/cells', {
        trace: p.doc.trace, cfg_text: p.doc.text, window: p.window.name, object_first: o, object_last: o,
        from: range.from, to: range.to,
      })));
      if (seq !== this.seq) return;
      const items = [el('span', 'Running:', 'cpu-use-title')];
      const shares = {};
      cells.forEach((c) => {
        const running = c.values.filter((v) => v.label === 'Running').reduce((a, v) => a + v.time, 0);
        const share = c.duration > 0 ? running / c.duration : 0;
        shares[c.objects[0]] = share;
        const item = el('span', `${c.objects[0]} ${(100 * share).toFixed(1)}%`, 'cpu-use-item');
        item.style.background = `linear-gradient(to right, #9cf ${100 * share}%, transparent ${100 * share}%)`;
        item.title = `${c.objects[0]}: Running ${running} of ${c.duration} trace units in view`;
        items.push(item);
      });
      this.root.replaceChildren(...items);
      this.root.dataset.from = range.from;
      this.root.dataset.to = range.to;
      this.root.dataset.shares = JSON.stringify(shares);
    } catch (e) {
      if (seq === this.seq) this.root.replaceChildren(el('span', `utilisation: ${e.message}`, 'error'));
    }
  }
}
