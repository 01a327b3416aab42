// Animation (issue 19, item 5): a window of a chosen width slides through the trace, forward or
// backward, at a chosen speed (window widths per second of wall time); the windows of the same
// synchronisation group follow. The position comes from the clock, and the next frame is asked
// only once every window of the group has painted the last one: when the server is slower
// than the animation, positions in between are skipped instead of queued. It stops at the
// trace's end (its start when backward), and any zoom or pan by the user pauses it.

import { parseTime, timeFormatter } from './timeline.js';
import { button, el } from './tables.js';

const SPEEDS = [0.1, 0.25, 0.5, 1, 2, 4];  // window widths per second
const DEFAULT_SPEED = 0.5;

// The next animation frame of the page (a timer when the page is hidden, which stops them).
function nextPaint() {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, 100);
    requestAnimationFrame(() => { clearTimeout(timer); resolve(); });
  });
}

export class AnimationBar {
  constructor(panel) {
    this.panel = panel;
    this.root = el('div', null, 'anim-bar');
    this.root.hidden = true;
    this.width = el('input', null, 'anim-width');
    this.width.size = 12;
    this.width.setAttribute('aria-label', 'animation window width');
    this.width.title = 'the width of the window that slides: a number in the window\'s unit, or with a unit (1.5 ms)';
    this.speed = el('select', null, 'anim-speed');
    this.speed.setAttribute('aria-label', 'animation speed');
    this.speed.title = 'window widths per second of wall time';
    for (const s of SPEEDS) {
      const o = el('option', `${s} × width / s`);
      o.value = String(s);
      this.speed.append(o);
    }
    this.speed.value = String(DEFAULT_SPEED);
    this.speed.addEventListener('change', () => this.retime());
    this.state = el('span', null, 'anim-state');
    this.root.append(el('strong', 'Play '),
      button('◀◀', 'play backward (shift+Space)', () => this.play(-1), 'anim-backward'),
      button('||', 'pause (Space)', () => this.pause(), 'anim-pause'),
      button('▶▶', 'play forward (Space)', () => this.play(1), 'anim-forward'),
      el('label', 'width'), this.width, this.speed, this.state,
      button('✕', 'stop and close', () => this.close(), 'anim-close'));
    this.token = null;  // the animation running (null: none)
    this.direction = 0;
  }

  get playing() {
    return this.token !== null;
  }

  toggle() {
    if (this.root.hidden) this.open();
    else this.close();
  }

  open() {
    this.root.hidden = false;
    if (!this.width.value) this.showWidth(this.panel.zoom.range.to - this.panel.zoom.range.from);
  }

  close() {
    this.pause();
    this.root.hidden = true;
  }

  showWidth(span) {
    const unit = this.panel.app.traceInfo(this.panel.doc.trace).time_unit;
    const f = timeFormatter(unit, this.panel.window.unit);
    this.width.value = `${f.format(span)} ${f.unit}`;
  }

  // The width typed, in trace units (the whole trace at most); throws when it cannot be read.
  widthValue() {
    const unit = this.panel.app.traceInfo(this.panel.doc.trace).time_unit;
    const w = parseTime(this.width.value, unit, this.panel.window.unit);
    if (w < 1) throw new Error(`the animation width '${this.width.value}' must be more than 0`);
    return Math.min(w, this.panel.zoom.end);
  }

  // Space pauses, or plays forward; shift+Space pauses, or plays backward.
  key(backward) {
    if (this.playing) this.pause();
    else this.play(backward ? -1 : 1);
  }

  // Plays from the view's begin (forward) or end (backward); from the other end when the view
  // is already at the end it would go to.
  play(direction) {
    const p = this.panel;
    let width;
    try {
      width = this.widthValue();
      this.width.classList.remove('invalid');
    } catch (e) {
      this.width.classList.add('invalid');
      p.error(e);
      return;
    }
    this.pause();
    this.open();
    const end = p.zoom.end, r = p.zoom.range;
    let from = direction > 0 ? r.from : r.to - width;
    if (direction > 0 && from + width >= end) from = 0;
    if (direction < 0 && from <= 0) from = end - width;
    from = Math.max(0, Math.min(from, end - width));
    p.app.playing(this);
    this.direction = direction;
    this.widthNow = width;
    this.from0 = from;
    this.t0 = performance.now();
    this.token = {};
    const start = { from, to: from + width };
    for (const w of this.windows()) w.zoom.go(start);  // one step of undo for the whole animation
    this.showState(direction > 0 ? 'playing forward' : 'playing backward');
    this.run(this.token);
  }

  // The speed changed while playing: the animation goes on from where it is.
  retime() {
    if (!this.playing) return;
    this.from0 = this.panel.zoom.range.from;
    this.t0 = performance.now();
  }

  pause(why = 'paused') {
    if (!this.playing) return;
    this.token = null;
    this.direction = 0;
    this.showState(why);
  }

  showState(text) {
    this.state.textContent = text;
    this.root.dataset.state = text;
    this.panel.root.dataset.playing = this.playing ? (this.direction > 0 ? 'forward' : 'backward') : '';
  }

  // This window and the windows of its synchronisation group.
  windows() {
    return [this.panel, ...this.panel.app.followers(this.panel)];
  }

  async run(token) {
    const p = this.panel;
    const width = this.widthNow, end = p.zoom.end;
    while (this.token === token) {
      await nextPaint();
      if (this.token !== token) return;
      const speed = Number(this.speed.value) || DEFAULT_SPEED;
      const moved = this.direction * speed * width * ((performance.now() - this.t0) / 1000);
      let from = this.from0 + moved;
      const last = this.direction > 0 ? from + width >= end : from <= 0;
      from = Math.max(0, Math.min(from, end - width));
      const range = { from: Math.round(from), to: Math.round(from) + width };
      const shown = this.windows();
      for (const w of shown) w.zoom.set(range);
      // Every window of the group paints this position before the next is asked.
      const painted = await Promise.all(shown.map((w) => w.render()));
      if (this.token !== token) return;
      if (!painted.every(Boolean)) this.pause('stopped: a frame failed (see the window\'s message)');
      else if (last) this.pause(this.direction > 0 ? 'stopped at the end' : 'stopped at the start');
    }
  }
}
