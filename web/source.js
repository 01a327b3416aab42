// Click-back: the source panel. An event whose value label is a source location ("LINE (FILE[,
// MODULE])", the caller line events of the tracing library and of Extrae) links to the lines of
// that file around LINE, read from the served root by GET /api/source. Esc or the button closes
// the panel.

import { getJson } from './api.js';
import { el } from './tables.js';

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
  constructor(onError) {
    this.onError = onError;
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
    this.root.append(head, this.list);
    document.body.append(this.root);
  }

  // Shows the lines around the location of `label`.
  async open(label) {
    try {
      const s = await getJson('/api/source', { label, context: 200 });
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

  // Closes the panel; whether it was open.
  close() {
    if (this.root.hidden) return false;
    this.root.hidden = true;
    return true;
  }
}
