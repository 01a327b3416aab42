// The one way of adding an overlay to timeline windows: a feature registers a kind of overlay
// once (register: how to draw it, and optionally a legend and a tooltip), and each window's
// canvas holds the data of the overlays shown on it (OverlaySet: set, get, clear), drawn over
// every frame in the kinds' order, in the range on screen (stretched while a zoom or pan waits
// for its frame). The kinds: the area selection and the find match (inspect.js), the source
// line's events (source.js), the structure (structure.js), the diagnosis (diagnosis.js) and the
// outlined row (timeline.js).

// name → {draw(g, view, data), legend(data) → text, tooltip(view, point, data) → text, order}.
// Filled by the modules as they load (each registers its own kinds, once).
const kinds = new Map();

// Registers the kind of overlay `name`: `draw(g, view, data)` paints `data` on the canvas'
// context `g` (view: viewOf below); `legend(data)` says what it shows (text, or '' for nothing)
// and `tooltip(view, point, data)` what it has at canvas `point` (text, or '' for nothing).
// Overlays are drawn by increasing `order` (later ones on top).
export function register(name, { draw, legend = () => '', tooltip = () => '', order = 0 }) {
  if (kinds.has(name)) throw new Error(`overlay '${name}' is registered twice`);
  kinds.set(name, { draw, legend, tooltip, order });
}

// What an overlay draws in: the layout of the frame on screen (`list`: width, height, area,
// rows), the range it shows (`range`), `x(t)`: canvas x of trace time t, `rows`: object → layout
// row [label, y, h, object], and the timeline area [x, y, w, h].
export function viewOf(list, range) {
  const [ax, , aw] = list.area;
  const span = Math.max(1, range.to - range.from);
  return {
    list, range, area: list.area, rows: new Map(list.rows.map((row) => [row[3], row])),
    x: (t) => ax + ((t - range.from) / span) * aw,
  };
}

// Clips drawing to the timeline area while `paint` runs.
export function clipToArea(g, view, paint) {
  const [ax, , aw] = view.area;
  g.save();
  g.beginPath();
  g.rect(ax, 0, aw, view.list.height);
  g.clip();
  try {
    paint();
  } finally {
    g.restore();
  }
}

// The overlays shown on one timeline canvas: name → data. `onChange` repaints the canvas.
export class OverlaySet {
  constructor(onChange) {
    this.onChange = onChange;
    this.data = new Map();
  }

  // Shows overlay `name` with `data` (null or undefined: clears it).
  set(name, data) {
    if (!kinds.has(name)) throw new Error(`no overlay '${name}' is registered`);
    if (data === null || data === undefined) this.data.delete(name);
    else this.data.set(name, data);
    this.onChange();
  }

  get(name) {
    return this.data.has(name) ? this.data.get(name) : null;
  }

  // Clears overlay `name`, or every overlay when no name is given.
  clear(name = undefined) {
    if (name === undefined) this.data.clear();
    else this.data.delete(name);
    this.onChange();
  }

  // The kinds shown, in drawing order: [[name, kind, data]].
  shown() {
    return [...this.data].map(([name, data]) => [name, kinds.get(name), data]).sort((a, b) => a[1].order - b[1].order);
  }

  draw(g, view) {
    for (const [, kind, data] of this.shown()) {
      g.save();
      try {
        kind.draw(g, view, data);
      } finally {
        g.restore();
      }
    }
  }

  // What the overlays shown say about themselves: [{name, text}].
  legend() {
    return this.shown().map(([name, kind, data]) => ({ name, text: kind.legend(data) })).filter((x) => x.text);
  }

  // What the overlays have at canvas `point`: [{name, text}].
  tooltip(view, point) {
    return this.shown().map(([name, kind, data]) => ({ name, text: kind.tooltip(view, point, data) })).filter((x) => x.text);
  }
}
