// Window properties (Paraver's property grid): level, the function and parameters of every
// slot, the filter, the display settings; and a form for a derived window from two windows.
// Applying sends the changed document to the server, which rewrites the cfg; every window of
// that cfg is drawn again.

import { COLOR_MODES, DRAW_MODES, TIME_UNITS } from './windows.js';
import { el } from './tables.js';

const LEVELS = ['workload', 'appl', 'task', 'thread', 'system', 'node', 'cpu'];
const CRITERIA = ['All', 'None', '=', '!=', '>', '<', '[x,y]'];

// Which function groups a slot offers.
function slotGroups(slot) {
  if (slot === 'thread') return ['state', 'event', 'communication', 'object'];
  if (slot.startsWith('compose') || slot.startsWith('top_compose')) return ['compose'];
  if (slot === 'cpu') return ['cpu'];
  if (slot === 'derived') return ['derived'];
  return ['aggregation'];
}

function numbers(text) {
  const t = text.trim();
  if (!t) return [];
  return t.split(/[\s,;]+/).map(Number);
}

function field(label, input, cls) {
  const row = el('div', null, `field ${cls || ''}`);
  const l = el('label', label);
  row.append(l, input);
  return row;
}

function selectOf(options, value, cls) {
  const s = el('select', null, cls);
  for (const o of options) {
    const opt = el('option', o);
    opt.value = o;
    s.append(opt);
  }
  if (value !== undefined && !options.includes(value)) {
    const opt = el('option', value);
    opt.value = value;
    s.append(opt);
  }
  if (value !== undefined) s.value = value;
  return s;
}

function input(value, cls, size = 10) {
  const i = el('input', null, cls);
  i.value = value;
  i.size = size;
  return i;
}

export class PropertiesDialog {
  constructor(app, dialog) {
    this.app = app;
    this.dialog = dialog;
  }

  show(title, body, onApply) {
    const form = el('form', null, 'properties-form');
    form.method = 'dialog';
    const error = el('div', null, 'error');
    const apply = el('button', 'Apply', 'apply');
    apply.type = 'submit';
    const cancel = el('button', 'Cancel', 'cancel');
    cancel.type = 'button';
    cancel.addEventListener('click', () => this.dialog.close());
    const buttons = el('div', null, 'buttons');
    buttons.append(apply, cancel);
    form.append(el('h3', title), ...body, error, buttons);
    form.addEventListener('submit', async (e) => {
      e.preventDefault();
      apply.disabled = true;
      try {
        await onApply();
        this.dialog.close();
      } catch (x) {
        error.textContent = `${x.message}${x.hint ? ` (${x.hint})` : ''}`;
      } finally {
        apply.disabled = false;
      }
    });
    this.dialog.replaceChildren(form);
    this.dialog.showModal();
  }

  functionsFor(slot) {
    const groups = slotGroups(slot);
    return this.app.functions.filter((f) => f.implemented && groups.includes(f.group)).map((f) => f.name);
  }

  // One slot: function select plus one input per parameter (comma-separated values).
  slotEditor(fn) {
    const box = el('div', null, 'slot');
    box.dataset.slot = fn.slot;
    const s = selectOf(this.functionsFor(fn.slot), fn.name, 'function');
    s.setAttribute('aria-label', `${fn.slot} function`);
    const params = el('span', null, 'params');
    const fill = (values) => {
      const info = this.app.functions.find((f) => f.name === s.value);
      params.replaceChildren();
      (info ? info.params : []).forEach((p, i) => {
        const v = values && values[i] ? values[i] : p.defaults;
        const inp = input(v.join(', '), 'param', 12);
        inp.title = p.name;
        inp.setAttribute('aria-label', `${fn.slot} ${p.name}`);
        params.append(inp);
      });
    };
    fill(fn.params);
    s.addEventListener('change', () => fill(null));
    box.append(el('label', fn.slot.replace('_', ' ')), s, params);
    box.read = () => ({ slot: fn.slot, name: s.value, params: [...params.querySelectorAll('input')].map((i) => numbers(i.value)) });
    return box;
  }

  criterionEditor(name, c, trace = null) {
    const box = el('span', null, 'criterion');
    box.dataset.criterion = name;
    const op = selectOf(CRITERIA, c.op, 'op');
    op.setAttribute('aria-label', `${name} criterion`);
    const values = input(c.values.join(', '), 'values', 14);
    values.setAttribute('aria-label', `${name} values`);
    box.append(op, values);
    box.read = () => ({ op: op.value, values: numbers(values.value) });
    const row = field(name.replace('_', ' '), box, `criterion-${name}`);
    if (name === 'event_type' && trace) row.append(this.typePicker(trace, op, values));
    return row;
  }

  // The event types of the trace by label, with a search box: checking one adds its number to
  // the values (and picks "=" when the criterion was All or None); the values stay editable.
  typePicker(trace, op, values) {
    const picker = el('div', null, 'type-picker');
    const search = input('', 'type-search', 24);
    search.placeholder = 'search event types by label or number';
    search.setAttribute('aria-label', 'search event types');
    const list = el('ul', null, 'type-list');
    const named = el('div', null, 'type-names');
    picker.append(search, list, named);
    let types = [];
    // The types the criterion lets through, as a set: a range [x,y] stands for the trace's
    // types inside it; "!=" keeps its list (of types left out).
    const chosen = () => {
      const v = numbers(values.value);
      if (op.value === '[x,y]' && v.length === 2) return new Set(types.map((t) => t.id).filter((id) => id >= v[0] && id <= v[1]));
      if (op.value === 'All' || op.value === 'None' || op.value === '>' || op.value === '<') return new Set();
      return new Set(v);
    };
    const describe = () => {
      const byId = new Map(types.map((t) => [t.id, t.label]));
      named.textContent = [...chosen()].map((v) => `${v} ${byId.get(v) || '(not in the trace)'}`).join('; ');
    };
    const draw = () => {
      const q = search.value.trim().toLowerCase();
      const set = chosen();
      list.replaceChildren(...types.filter((t) => !q || String(t.id).includes(q) || (t.label || '').toLowerCase().includes(q))
        .slice(0, 200).map((t) => {
          const li = el('li');
          const box = el('input');
          box.type = 'checkbox';
          box.checked = op.value === '!=' ? !set.has(t.id) : set.has(t.id);
          box.dataset.type = t.id;
          box.addEventListener('change', () => {
            const now = chosen();
            if (box.checked !== (op.value === '!=')) now.add(t.id); else now.delete(t.id);
            values.value = [...now].sort((a, b) => a - b).join(', ');
            if (op.value !== '!=') op.value = '=';
            describe();
          });
          const label = el('label');
          label.append(box, ` ${t.id} ${t.label || ''} (${t.count.toLocaleString('en-US')})`);
          li.append(label);
          return li;
        }));
      describe();
    };
    search.addEventListener('input', draw);
    op.addEventListener('change', draw);
    values.addEventListener('input', () => { draw(); });
    this.app.fullInfo(trace).then((info) => {
      types = info.event_types || [];
      draw();
    }).catch((e) => { named.textContent = `event types: ${e.message}`; });
    return picker;
  }

  open(panel) {
    const w = panel.window;
    const name = input(w.name, 'name', 30);
    const level = selectOf(LEVELS, w.level, 'level');
    const unit = selectOf(TIME_UNITS, w.unit, 'unit');
    const slots = w.functions.map((f) => this.slotEditor(f));
    const f = w.filter;
    const logical = el('input');
    logical.type = 'checkbox';
    logical.checked = f.logical;
    const physical = el('input');
    physical.type = 'checkbox';
    physical.checked = f.physical;
    const lp = el('span');
    lp.append(logical, ' logical ', physical, ' physical');
    const crit = ['from', 'to', 'tag', 'size', 'bandwidth', 'event_type', 'event_value']
      .map((k) => [k, this.criterionEditor(k, f[k], panel.doc.trace)]);
    const color = selectOf(COLOR_MODES, w.color_mode, 'color');
    const drawTime = selectOf(DRAW_MODES, w.draw_mode, 'draw-time');
    const drawRows = selectOf(DRAW_MODES, w.object_draw_mode, 'draw-objects');
    const minY = input(w.min_y, 'min', 8), maxY = input(w.max_y, 'max', 8);
    const pixel = selectOf(['1', '2', '4', '8'], String(w.pixel_size), 'pixel');
    const body = [
      field('name', name), field('level', level), field('time unit', unit),
      el('h4', 'functions'), ...slots,
      el('h4', 'filter'), field('communications', lp), ...crit.map(([, x]) => x),
      el('h4', 'display'), field('colour', color), field('draw (time)', drawTime), field('draw (objects)', drawRows),
      field('scale', (() => { const s = el('span'); s.append(minY, ' – ', maxY); return s; })()), field('pixel size', pixel),
    ];
    this.show(`Properties of ${w.name}`, body, () => panel.doc.edit((d) => {
      const x = d.windows[panel.index];
      x.name = name.value;
      x.level = level.value;
      x.unit = unit.value;
      x.functions = slots.map((s) => s.read());
      x.filter.logical = logical.checked;
      x.filter.physical = physical.checked;
      for (const [k, box] of crit) x.filter[k] = box.querySelector('.criterion').read();
      x.color_mode = color.value;
      x.draw_mode = drawTime.value;
      x.object_draw_mode = drawRows.value;
      x.min_y = Number(minY.value);
      x.max_y = Number(maxY.value);
      x.pixel_size = Number(pixel.value);
    }));
  }

  // A new window combining `panel`'s window with another window of the same cfg.
  openDerived(panel) {
    const windows = panel.doc.document.windows;
    const names = windows.map((w, i) => `${i + 1}: ${w.name}`);
    const a = selectOf(names, names[panel.index], 'parent0');
    const b = selectOf(names, names[panel.index], 'parent1');
    const fn = selectOf(this.functionsFor('derived'), 'product', 'function');
    const f0 = input('1', 'factor0', 6), f1 = input('1', 'factor1', 6);
    const name = input(`Derived ${windows.length + 1}`, 'name', 30);
    const body = [field('name', name), field('first window', a), field('factor', f0), field('second window', b),
      field('factor', f1), field('function', fn)];
    this.show(`New derived window from ${panel.window.name}`, body, async () => {
      const p0 = names.indexOf(a.value), p1 = names.indexOf(b.value);
      const count = windows.length;
      await panel.doc.edit((d) => {
        d.windows.push({
          ...structuredClone(d.windows[p0]), name: name.value, derived: true, parent0: p0, parent1: p1,
          factor0: Number(f0.value), factor1: Number(f1.value), open: true,
          functions: [{ slot: 'derived', name: fn.value, params: [] }],
        });
      });
      this.app.openWindow(panel.doc, count, panel.zoom.range);
    });
  }
}
