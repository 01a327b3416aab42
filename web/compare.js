// Two runs compared (docs/compare.md), under the pair of windows Compare… opened: the rows of
// `parallax compare` ranked by impact with a bar for each difference (red: B slower, green:
// B faster), a choice of unit, and, when both runs have iterations, a stepper that shows
// iteration k of A above iteration k of B (each window at its own run's times, same duration
// scale per window); and the difference view: the window of A's panel evaluated on both runs
// over aligned time, drawn as A − B or A / B with each object's means (/api/compare/window).

import { postJson } from './api.js';
import { button, el, seconds } from './tables.js';

export class CompareView {
  constructor(app, a, b) {
    this.app = app;
    this.a = a;
    this.b = b;
    this.root = el('section', null, 'compare-view');
    this.by = el('select', null, 'compare-by');
    for (const v of ['auto', 'iteration', 'phase', 'call', 'rank']) {
      const o = el('option', v);
      o.value = v;
      this.by.append(o);
    }
    this.by.addEventListener('change', () => this.ask());
    this.head = el('div', null, 'compare-head');
    this.stepper = el('span', null, 'compare-stepper');
    this.table = el('div', null, 'compare-table');
    const bar = el('div', null, 'compare-bar');
    this.op = el('select', null, 'compare-op');
    for (const [v, label] of [['diff', 'A − B'], ['ratio', 'A / B']]) {
      const o = el('option', label);
      o.value = v;
      this.op.append(o);
    }
    this.op.addEventListener('change', () => this.showDifference());
    bar.append(el('span', 'compare by '), this.by, this.stepper,
      button('Difference', 'this window on both runs over aligned time, A − B or A / B', () => this.difference(),
        'compare-difference'), this.op,
      button('✕', 'close the comparison', () => this.root.remove(), 'compare-close'));
    this.diff = el('div', null, 'compare-window');
    this.root.append(bar, this.head, this.diff, this.table);
    this.windowData = null;
    this.k = 0;
    this.data = null;
  }

  async ask() {
    try {
      const d = await postJson('/api/compare', { a: this.a.doc.trace, b: this.b.doc.trace, by: this.by.value });
      this.data = d;
      this.show(d);
      this.root.classList.remove('compare-error');
    } catch (e) {
      this.head.textContent = `compare: ${e.message}${e.hint ? ` (${e.hint})` : ''}`;
      this.table.replaceChildren();
      this.root.classList.add('compare-error');
      this.root.dataset.rows = '0';
    }
  }

  show(d) {
    const diff = d.b_total_s - d.a_total_s;
    this.head.textContent = `by ${d.by}: ${d.alignment}; total A ${seconds(d.a_total_s)}, B ${seconds(d.b_total_s)} `
      + `(${diff >= 0 ? '+' : ''}${seconds(diff)})${d.notes.length ? ` — ${d.notes.join('; ')}` : ''}`;
    const t = el('table', null, 'compare-rows');
    const h = el('tr');
    for (const x of [d.by, 'A', 'B', 'B − A', 'B / A']) h.append(el('th', x));
    t.append(h);
    const largest = Math.max(1e-300, ...d.rows.map((r) => Math.abs(r.diff_s)));
    for (const r of d.rows) {
      const tr = el('tr');
      tr.dataset.unit = r.unit;
      tr.dataset.diff = r.diff_s;
      const cell = el('td', null, 'compare-diff');
      const bar = el('span', null, r.diff_s > 0 ? 'slower' : 'faster');
      bar.style.width = `${(60 * Math.abs(r.diff_s)) / largest}px`;
      cell.append(bar, ` ${r.diff_s >= 0 ? '+' : ''}${seconds(r.diff_s)}`);
      tr.append(el('td', r.unit), el('td', r.a_s === null ? '-' : seconds(r.a_s)),
        el('td', r.b_s === null ? '-' : seconds(r.b_s)), cell, el('td', r.ratio === null ? '-' : r.ratio.toFixed(3)));
      if (d.by === 'iteration') {
        tr.classList.add('clickable');
        tr.title = 'show this iteration in both windows';
        tr.addEventListener('click', () => this.align(Number(r.unit) - 1));
      }
      t.append(tr);
    }
    if (d.rows_total > d.rows.length) t.append(el('caption', `the ${d.rows.length} largest of ${d.rows_total} rows`));
    this.table.replaceChildren(t);
    const n = Math.min(d.a_iterations.begin.length, d.b_iterations.begin.length);
    this.stepper.replaceChildren();
    if (n > 0) {
      this.label = el('span', null, 'compare-iteration');
      this.stepper.append(button('◀', 'the previous iteration in both', () => this.align(this.k - 1), 'compare-prev'),
        this.label, button('▶', 'the next iteration in both', () => this.align(this.k + 1), 'compare-next'));
      this.iterations = n;
      this.label.textContent = ` iteration ${this.k + 1} of ${n} `;
    }
    Object.assign(this.root.dataset, { by: d.by, rows: d.rows.length });
  }

  // The window of A's panel on both runs: the whole run, or iteration k once the stepper moved.
  async difference() {
    const body = {
      a: this.a.doc.trace, b: this.b.doc.trace, cfg_text: this.a.doc.text, window: this.a.window.name,
      width: Math.max(400, Math.min(2000, this.root.clientWidth || 1000)),
    };
    if (this.root.dataset.iteration) body.iteration = Number(this.root.dataset.iteration);
    try {
      this.windowData = await postJson('/api/compare/window', body);
      this.showDifference();
    } catch (e) {
      this.windowData = null;
      this.diff.replaceChildren(el('div', `difference: ${e.message}${e.hint ? ` (${e.hint})` : ''}`, 'compare-error'));
      this.root.dataset.difference = 'error';
    }
  }

  showDifference() {
    const w = this.windowData;
    if (!w) return;
    const op = this.op.value;
    const img = el('img', null, 'compare-diff-image');
    img.src = `data:image/png;base64,${w[`${op}_png`]}`;
    img.alt = `${op === 'diff' ? 'A − B' : 'A / B'} of ${w.window}`;
    const head = el('div', `${w.window} (${w.level}), ${this.root.dataset.iteration ? `iteration ${this.root.dataset.iteration}`
      : 'the whole run'}: time aligned ${w.alignment}. Red: A below B; blue: A above.`, 'compare-window-head');
    const t = el('table', null, 'compare-objects');
    const h = el('tr');
    for (const x of ['object', 'A mean', 'B mean', 'A − B', 'A / B', 'differs']) h.append(el('th', x));
    t.append(h);
    const num = (v) => (v === null || v === undefined ? '-' : Number(v).toPrecision(4));
    for (const o of w.objects) {
      const tr = el('tr');
      tr.append(el('td', o.name), el('td', num(o.a_mean)), el('td', num(o.b_mean)), el('td', num(o.diff_mean)),
        el('td', num(o.ratio)), el('td', `${Math.round(100 * o.differs_share)}%`));
      t.append(tr);
    }
    this.diff.replaceChildren(head, img, t);
    Object.assign(this.root.dataset, { difference: op, differenceObjects: w.objects.length });
  }

  // Iteration k of A in A's window, iteration k of B in B's: the windows leave their sync group
  // (their times differ).
  align(k) {
    const d = this.data;
    if (!d || !this.iterations) return;
    this.k = Math.max(0, Math.min(this.iterations - 1, k));
    this.a.setGroup(null);
    this.b.setGroup(null);
    this.a.userRange(this.a.zoom.go({ from: d.a_iterations.begin[this.k], to: d.a_iterations.end[this.k] }));
    this.b.userRange(this.b.zoom.go({ from: d.b_iterations.begin[this.k], to: d.b_iterations.end[this.k] }));
    this.label.textContent = ` iteration ${this.k + 1} of ${this.iterations} `;
    this.root.dataset.iteration = this.k + 1;
    if (this.windowData) this.difference();
  }
}
