// Click-back: the source panel. An event whose value label is a source location ("LINE (FILE[,
// MODULE])", the caller line events of the tracing library and of Extrae) links to the lines of
// that file around LINE, read from the served root by GET /api/source. Esc or the button closes
// the panel. Clicking a line of the panel marks, in the timeline windows, the events of the same
// type generated at that line (click-forward), and shows how many there are.

import { getJson } from './api.js';
import { el } from './tables.js';
import { register } from './overlays.js';

// Click-forward on the timeline: an orange tick at each event [{time, object_index}] of the line.
register('source', {
  order: 25,
  draw(g, view, marks) {
    const [ax, , aw] = view.area;
    g.fillStyle = '#ff8c00';
    for (const m of marks) {
      const row = view.rows.get(m.object_index);
      const x = view.x(m.time);
      if (!row || x < ax || x > ax + aw) continue;
      g.fillRect(Math.round(x) - 1, row[1], 2, Math.max(3, row[2]));
    }
  },
});

// Whether `label` names a source location (the server's parser decides which file).
export function isSourceLabel(label) {
  return typeof label === 'string' && /^\s*[1-9]\d*\s*\([^(),][^()]*\)\s*$/.test(label);
}

// A link in place of the text `text` that opens the source of `label`.
export function sourceLink(text, label, onOpen) {
  const a = el('a', text, 'source-link');
  a.href = '#';
  a.title = `show the source of ${label.trim()}`;
  a.addEventListener('click', (e) => { e.preventDefault(); onOpen(label); });
  return a;
}

export class SourcePanel {
  // onMark(type, label) marks the events of `type` at the source location `label` (null: clears
  // the marks) and resolves with their count.
  constructor(onError, onMark) {
    this.onError = onError;
    this.onMark = onMark;
    this.root = el('aside', null, 'source-panel');
    this.root.id = 'source-panel';
    this.root.hidden = true;
    this.title = el('span', '', 'source-path');
    const close = el('button', '×', 'source-close');
    close.title = 'close (Esc)';
    close.addEventListener('click', () => this.close());
    const head = el('div', null, 'source-head');
    head.append(this.title, close);
    this.list = el('ol', null, 'source-lines');
    this.list.title = 'click a line to mark its events in the timeline windows';
    this.list.addEventListener('click', (e) => {
      const li = e.target.closest('li');
      if (li) this.mark(li);
    });
    this.count = el('div', '', 'source-count');
    this.root.append(head, this.count, this.list);
    document.body.append(this.root);
  }

  // Shows the lines around the location of `label`, the value label of an event of `type`.
  async open(label, type) {
    try {
      const s = await getJson('/api/source', { label, context: 200 });
      this.type = type;
      this.file = /\(\s*([^,()]*[^,()\s])/.exec(label)[1];  // as the labels name it
      this.count.textContent = 'click a line to mark its events';
      this.marked = undefined;
      delete this.root.dataset.count;
      this.title.textContent = `${s.path}:${s.line}`;
      this.root.dataset.path = s.path;
      this.root.dataset.line = String(s.line);
      this.list.start = s.first;
      this.list.replaceChildren(...s.lines.map((text, i) => {
        const li = el('li', text);
        li.value = s.first + i;
        if (s.first + i === s.line) li.className = 'current';
        return li;
      }));
      this.root.hidden = false;
      const current = this.list.querySelector('li.current');
      if (current) current.scrollIntoView({ block: 'center' });
    } catch (e) {
      this.onError(e);
    }
  }

  // Marks the events generated at the line `li`.
  async mark(li) {
    const label = `${li.value} (${this.file})`;
    for (const x of this.list.querySelectorAll('li.marked')) x.classList.remove('marked');
    li.classList.add('marked');
    this.count.textContent = 'counting…';
    try {
      this.marked = li.value;
      const n = await this.onMark(this.type, label);
      this.counted(n);
    } catch (e) {
      this.count.textContent = '';
      this.onError(e);
    }
  }

  // Shows how many events of the marked line the windows show (again after zooms and pans):
  // `counts` has each window's count; one number when they agree, else one per window.
  counted(counts) {
    if (this.root.hidden || this.marked === undefined) return;
    const values = [...new Set(counts.map((c) => c.count))];
    const n = values.length ? Math.max(...values) : 0;
    const events = (k) => `${k} event${k === 1 ? '' : 's'}`;
    this.count.textContent = values.length <= 1
      ? `${events(n)} of line ${this.marked} in the range${counts.length > 1 ? 's' : ''} shown`
      : `events of line ${this.marked}: ${counts.map((c) => `${c.count} in ${c.window}`).join(', ')}`;
    this.root.dataset.count = String(n);
    this.root.dataset.counts = JSON.stringify(counts.map((c) => c.count));
    this.root.dataset.marked = String(this.marked);
  }


  // Closes the panel (and clears the marks); whether it was open.
  close() {
    if (this.root.hidden) return false;
    this.root.hidden = true;
    this.marked = undefined;
    this.onMark(this.type, null).catch((e) => this.onError(e));
    return true;
  }
}
