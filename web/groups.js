// Collapsible groups of a timeline window's rows: threads under tasks under applications, tasks
// under applications, cpus under nodes (from the objects' canonical names, /api/objects). A
// collapsed group's objects are left out of the frame (the `objects` of the request).

import { postJson } from './api.js';
import { el } from './tables.js';

// The groups an object belongs to, outermost first, from its canonical name.
export function groupsOf(name) {
  let m = /^THREAD (\d+)\.(\d+)\.\d+$/.exec(name);
  if (m) return [`APPL ${m[1]}`, `TASK ${m[1]}.${m[2]}`];
  m = /^TASK (\d+)\.\d+$/.exec(name);
  if (m) return [`APPL ${m[1]}`];
  m = /^CPU (\d+)\.\d+$/.exec(name);
  if (m) return [`NODE ${m[1]}`];
  return [];
}

// 0-based objects as the 1-based ranges the server reads ("1-4,7").
export function objectRanges(objects) {
  const sorted = [...objects].sort((a, b) => a - b);
  const parts = [];
  for (let i = 0; i < sorted.length;) {
    let j = i;
    while (j + 1 < sorted.length && sorted[j + 1] === sorted[j] + 1) j += 1;
    parts.push(i === j ? `${sorted[i] + 1}` : `${sorted[i] + 1}-${sorted[j] + 1}`);
    i = j + 1;
  }
  return parts.join(',');
}

// The 1-based ranges "1-4,7" as 0-based objects (the inverse of objectRanges); bad parts are
// left out.
export function parseObjectRanges(text) {
  const out = [];
  for (const part of String(text).split(',')) {
    const m = /^(\d+)(?:-(\d+))?$/.exec(part.trim());
    if (!m) continue;
    const a = Number(m[1]), b = m[2] === undefined ? a : Number(m[2]);
    for (let o = a; o <= b && o - a < 100000; o += 1) if (o >= 1) out.push(o - 1);
  }
  return out;
}

export class RowGroups {
  constructor(panel) {
    this.panel = panel;
    this.root = el('div', null, 'row-groups');
    this.root.hidden = true;
    this.names = null;  // canonical names of the window's objects
    this.level = null;  // the level they are of
    this.base = null;  // the objects the window draws with nothing collapsed
    this.collapsed = new Set();  // group names
  }

  // The `objects` to ask for: none (the cfg's) unless a group is collapsed.
  objects() {
    if (!this.collapsed.size || !this.base || !this.names) return undefined;
    return objectRanges(this.visible());
  }

  visible() {
    return this.base.filter((o) => !groupsOf(this.names[o] || '').some((g) => this.collapsed.has(g)));
  }

  // After a frame: the objects drawn when nothing is collapsed.
  framed(rows) {
    if (!this.collapsed.size) this.base = rows.map((r) => r[3]);
  }

  // The window's level changed (properties): its groups are others.
  reset() {
    if (this.level === this.panel.window.level) return;
    this.names = null;
    this.collapsed.clear();
    if (!this.root.hidden) this.show();
  }

  async toggleShown() {
    if (!this.root.hidden) {
      this.root.hidden = true;
      return;
    }
    await this.show();
  }

  async show() {
    const p = this.panel;
    this.root.hidden = false;
    try {
      if (!this.names) {
        const r = await postJson('/api/objects', { trace: p.doc.trace, cfg_text: p.doc.text, window: p.window.name });
        this.names = r.objects;
        this.level = p.window.level;
      }
      this.draw();
    } catch (e) {
      this.root.replaceChildren(el('div', `${e.message}${e.hint ? ` (${e.hint})` : ''}`, 'error'));
    }
  }

  draw() {
    const base = this.base || [];
    // Each group with its objects, in the order first met; nested by the name's path.
    const tree = new Map();
    for (const o of base) {
      let level = tree;
      for (const g of groupsOf(this.names[o] || '')) {
        if (!level.has(g)) level.set(g, { objects: [], children: new Map() });
        const node = level.get(g);
        node.objects.push(o);
        level = node.children;
      }
    }
    if (!tree.size) {
      this.root.replaceChildren(el('div', 'the objects of this window have no groups (only threads, tasks and cpus do)', 'note'));
      return;
    }
    const list = (level) => {
      const ul = el('ul');
      for (const [name, node] of level) {
        const li = el('li');
        const closed = this.collapsed.has(name);
        const b = el('button', `${closed ? '▸' : '▾'} ${name}`, 'group');
        b.type = 'button';
        b.dataset.group = name;
        b.setAttribute('aria-expanded', String(!closed));
        b.title = `${closed ? 'show' : 'hide'} its ${node.objects.length} row(s)`;
        b.addEventListener('click', () => this.toggle(name));
        li.append(b, el('span', ` ${node.objects.length} row${node.objects.length === 1 ? '' : 's'}`, 'count'));
        if (!closed && node.children.size) li.append(list(node.children));
        ul.append(li);
      }
      return ul;
    };
    // Collapse every innermost group (the tasks of threads, the nodes of cpus) but the first
    // (at least one row stays), or expand all.
    const leaves = [];
    const walk = (level) => {
      for (const [name, node] of level) {
        if (node.children.size) walk(node.children);
        else leaves.push(name);
      }
    };
    walk(tree);
    const all = el('div', null, 'group-all');
    const collapseAll = el('button', 'collapse all', 'collapse-all');
    collapseAll.type = 'button';
    collapseAll.title = 'hide the rows of every innermost group but the first';
    collapseAll.addEventListener('click', () => this.setAll(leaves.slice(1)));
    const expandAll = el('button', 'expand all', 'expand-all');
    expandAll.type = 'button';
    expandAll.addEventListener('click', () => this.setAll([]));
    all.append(collapseAll, ' ', expandAll);
    this.root.replaceChildren(all, list(tree));
  }

  setAll(names) {
    this.collapsed = new Set(names);
    this.draw();
    this.panel.render();
  }

  toggle(name) {
    if (this.collapsed.has(name)) {
      this.collapsed.delete(name);
    } else {
      this.collapsed.add(name);
      if (!this.visible().length) {
        this.collapsed.delete(name);
        this.panel.warn(`${name} holds every row left: at least one row stays.`);
        return;
      }
    }
    this.draw();
    this.panel.render();
  }
}
