// The rows of a timeline window: collapsible groups (threads under tasks under applications,
// tasks under applications, cpus under nodes, from the objects' canonical names, /api/objects)
// and pinned rows. A collapsed group is drawn as one summary row, labelled with its name and
// how many rows it holds (the `summaries` of the frame request: the dominant value of its rows
// in each pixel column, their mean for gradients and lines); pinned rows are drawn first, and a
// strip over the canvas keeps them at the top of the window while the rest scrolls.

import { postJson } from './api.js';
import { el } from './tables.js';
import { register } from './overlays.js';

// On the timeline ({objects}): a pin left of each pinned row's label and a line under
// the last of them.
register('pins', {
  order: 5,
  draw(g, view, { objects }) {
    let bottom = 0;
    g.fillStyle = '#ffd000';
    for (const o of objects) {
      const row = view.rows.get(o);
      if (!row) continue;
      const y = row[1] + Math.max(1, row[2]) / 2;
      g.beginPath();  // a pin: a head and its point
      g.arc(5, y - 1, 3, 0, 2 * Math.PI);
      g.fill();
      g.fillRect(4.5, y, 1, 4);
      bottom = Math.max(bottom, row[1] + Math.max(1, row[2]));
    }
    if (!bottom) return;
    g.strokeStyle = '#ffd000';
    g.beginPath();
    g.moveTo(0, bottom + 1.5);
    g.lineTo(view.list.width, bottom + 1.5);
    g.stroke();
  },
});

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
  return orderedRanges([...objects].sort((a, b) => a - b));
}

// 0-based objects, in their order, as 1-based ranges ("7,1-4": 7 drawn first).
export function orderedRanges(objects) {
  const parts = [];
  for (let i = 0; i < objects.length;) {
    let j = i;
    while (j + 1 < objects.length && objects[j + 1] === objects[j] + 1) j += 1;
    parts.push(i === j ? `${objects[i] + 1}` : `${objects[i] + 1}-${objects[j] + 1}`);
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
    this.pinned = [];  // pinned objects, in the order drawn (first pinned on top)
  }

  // The `objects` to ask for: none (the cfg's) unless rows are pinned or collapsed; else every
  // object, the pinned ones first.
  objects() {
    if (!this.base || (!this.pinned.length && !(this.collapsed.size && this.names))) return undefined;
    const pinned = this.pinned.filter((o) => this.base.includes(o));
    return orderedRanges([...pinned, ...this.base.filter((o) => !pinned.includes(o))]);
  }

  // The collapsed groups (the outermost, when nested) as summary rows: [{objects, label}].
  summaries() {
    if (!this.collapsed.size || !this.base || !this.names) return undefined;
    const members = new Map();  // group → its objects drawn (not pinned)
    for (const o of this.base) {
      if (this.pinned.includes(o)) continue;
      const g = groupsOf(this.names[o] || '').find((x) => this.collapsed.has(x));
      if (!g) continue;
      if (!members.has(g)) members.set(g, []);
      members.get(g).push(o);
    }
    return [...members].map(([g, objects]) => ({ objects: objectRanges(objects), label: `${g} (${objects.length})` }));
  }

  // The objects a summary row (layout row `row`, whose fifth element counts them) stands for,
  // from its label "GROUP (N)"; [] for any other row.
  membersOf(row) {
    if (!row || !(row[4] > 1) || !this.base || !this.names) return [];
    const m = /^(.*) \((\d+)\)$/.exec(row[0]);
    if (!m) return [];
    return this.base.filter((o) => !this.pinned.includes(o) && groupsOf(this.names[o] || '').includes(m[1]));
  }

  // After a frame: the objects drawn when nothing is collapsed, in the window's order; and the
  // pins shown. True when the frame was asked before the rows were known (pins from a link):
  // it must be asked again.
  framed(rows, asked) {
    // A frame asked without objects has the cfg's rows, whatever is collapsed (groups from a
    // link are set before the first frame).
    if (!this.collapsed.size || !asked) this.base = rows.map((r) => r[3]).sort((a, b) => a - b);
    const pinned = this.pinned.filter((o) => rows.some((r) => r[3] === o && !r[4]));
    this.panel.canvas.overlays.set('pins', pinned.length ? { objects: pinned } : null);
    return !asked && this.objects() !== undefined;
  }

  isPinned(object) {
    return this.pinned.includes(object);
  }

  // Pins `object`'s row (it is drawn first, and stays at the top of the window while the rest
  // scrolls), or unpins it.
  togglePin(object) {
    if (this.isPinned(object)) this.pinned = this.pinned.filter((o) => o !== object);
    else this.pinned = [...this.pinned, object];
    this.panel.render();
    this.panel.app.linkChanged();
  }

  // The window's level changed (properties): its groups are others.
  reset() {
    const level = this.panel.window.level;
    if (this.pinLevel !== undefined && this.pinLevel !== level) this.pinned = [];
    this.pinLevel = level;
    if (this.level === level) return;
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

  // The canonical names of the window's objects (asked once per level).
  async loadNames() {
    if (this.names) return;
    const p = this.panel;
    const r = await postJson('/api/objects', { trace: p.doc.trace, cfg_text: p.doc.text, window: p.window.name });
    this.names = r.objects;
    this.level = p.window.level;
  }

  // Collapses the groups `names` (a permalink's), drawn at the next frame.
  async restore(names) {
    await this.loadNames();
    this.collapsed = new Set(names);
    if (!this.root.hidden) this.draw();
    this.panel.render();
  }

  async show() {
    this.root.hidden = false;
    try {
      await this.loadNames();
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
        b.title = closed ? `show its ${node.objects.length} row(s)` : `draw its ${node.objects.length} row(s) as one summary row`;
        b.addEventListener('click', () => this.toggle(name));
        li.append(b, el('span', ` ${node.objects.length} row${node.objects.length === 1 ? '' : 's'}`, 'count'));
        if (!closed && node.children.size) li.append(list(node.children));
        ul.append(li);
      }
      return ul;
    };
    // Collapse every innermost group (the tasks of threads, the nodes of cpus: a summary row
    // each), or expand all.
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
    collapseAll.title = 'draw every innermost group (a task\'s threads, a node\'s cpus) as one summary row';
    collapseAll.addEventListener('click', () => this.setAll(leaves));
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
    this.panel.app.linkChanged();
  }

  toggle(name) {
    if (this.collapsed.has(name)) this.collapsed.delete(name);
    else this.collapsed.add(name);
    this.draw();
    this.panel.render();
    this.panel.app.linkChanged();
  }
}
