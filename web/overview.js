// The overview strip of a timeline window: the whole trace, drawn small above the window, with
// the range on screen marked. A click centres the view on the time clicked (the span kept).
// It is an image and a marker (no canvas of its own: the window's canvas stays its only one).

import { timelineFrame } from './api.js';
import { el } from './tables.js';

const HEIGHT = 24;  // pixels of the strip

export class Overview {
  constructor(panel) {
    this.panel = panel;
    this.root = el('div', null, 'overview');
    this.root.title = 'the whole trace: click to move the view there';
    this.img = el('img');
    this.img.alt = 'overview of the whole trace';
    this.marker = el('div', null, 'overview-view');
    this.img.hidden = true;
    this.marker.hidden = true;
    this.root.append(this.img, this.marker);  // its place is kept while the image loads
    this.root.addEventListener('click', (e) => this.click(e));
    this.key = null;  // what the image shows (cfg, window, width)
    this.ready = false;
  }

  // The whole trace's image for the window as it is now (asked once per cfg and width), drawn
  // with the view marked.
  async update() {
    const p = this.panel;
    const main = p.canvas.list;
    if (!main) return;
    const body = {
      trace: p.doc.trace, cfg_text: p.doc.text, window: p.window.name, from: 0, to: p.app.traceEnd(p.doc.trace),
      width: main.width, height: HEIGHT, labels: false, axis: false, legend: false, title: false,
    };
    const key = JSON.stringify(body);
    if (key !== this.key) {
      this.key = key;
      try {
        const frame = await timelineFrame(body);
        const image = new Image();
        image.src = `data:image/png;base64,${frame.png}`;
        await image.decode();
        if (key !== this.key) return;
        // Only the time area, stretched over the main frame's area so that times line up.
        const [ax, , aw] = p.canvas.list.area;
        const [ox, oy, ow, oh] = frame.layout.area;
        const c = document.createElement('canvas');
        c.width = main.width;
        c.height = HEIGHT;
        const g = c.getContext('2d');
        g.fillStyle = '#333';
        g.fillRect(0, 0, c.width, HEIGHT);
        g.drawImage(image, ox, oy, ow, oh, ax, 0, aw, HEIGHT);
        this.img.src = c.toDataURL();
        this.img.width = main.width;
        this.img.height = HEIGHT;
        this.area = [ax, aw];
        this.ready = true;
        this.img.hidden = false;
        this.marker.hidden = false;
      } catch (e) {
        if (key === this.key) this.key = null;  // asked again with the next frame
        return;
      }
    }
    this.draw();
  }

  // Marks the range on screen.
  draw() {
    if (!this.ready) return;
    const [ax, aw] = this.area;
    const end = this.panel.app.traceEnd(this.panel.doc.trace);
    const r = this.panel.shown();
    const x0 = ax + (r.from / end) * aw, x1 = Math.max(x0 + 2, ax + (r.to / end) * aw);
    Object.assign(this.marker.style, { left: `${x0}px`, width: `${x1 - x0}px` });
    Object.assign(this.root.dataset, { from: r.from, to: r.to });
  }

  click(e) {
    if (!this.ready) return;
    const x = e.clientX - this.img.getBoundingClientRect().left;
    const [ax, aw] = this.area;
    const end = this.panel.app.traceEnd(this.panel.doc.trace);
    const t = Math.min(1, Math.max(0, (x - ax) / aw)) * end;
    const r = this.panel.shown(), span = r.to - r.from;
    this.panel.userRange(this.panel.zoom.go({ from: t - span / 2, to: t - span / 2 + span }));
  }
}
