// Browser test of issue 19's animation, copy and paste of window properties and
// synchronisation groups (items 5 and 7), on epoch_2proc:
//
//   node tests/e2e/ui_anim_test.mjs PARALLAX_BINARY TESTS_DATA_DIR OUT_DIR

import fs from 'node:fs';
import path from 'node:path';
import { check, dragZoom, frames, launch, makeRoot, runSteps, startServer, testArgs, waitFrame } from './lib.mjs';

const [binary, data, out] = testArgs('ui_anim_test.mjs');

const root = makeRoot([
  ...['prv.gz', 'pcf', 'row'].map((x) => [path.join(data, 'epoch', `epoch_2proc.${x}`), `epoch/epoch_2proc.${x}`]),
  [path.join(data, 'cfg/bsc/mpi/analysis/mpi_stats.cfg'), 'cfgs/mpi_stats.cfg'],
]);
// The trace's end, from the .prv's header (11528373565_ns).
const END = 11528373565;

const server = await startServer(binary, root);
const { browser, page, problems } = await launch();
const shot = (name) => page.screenshot({ path: path.join(out, `anim-${name}.png`) });
const panels = page.locator('#windows > section.timeline');
let first, second;

const range = async (p) => ({ from: Number(await p.getAttribute('data-from')), to: Number(await p.getAttribute('data-to')) });

// Records, in the page, every range painted by the first two windows and the most frame
// requests ever in flight at once (the overview strips' whole-trace images, which ask a
// height, left out).
async function record() {
  await page.evaluate(() => {
    const w = window;
    w.painted = [[], []];
    w.observers = (w.observers || []);
    for (const o of w.observers) o.disconnect();
    w.observers = [...document.querySelectorAll('#windows > section.timeline')].slice(0, 2).map((e, i) => {
      const o = new MutationObserver(() => {
        const r = [Number(e.dataset.from), Number(e.dataset.to)];
        const l = w.painted[i];
        if (!l.length || l[l.length - 1][0] !== r[0] || l[l.length - 1][1] !== r[1]) l.push(r);
      });
      o.observe(e, { attributes: true, attributeFilter: ['data-frames'] });
      return o;
    });
    w.inFlight = 0;
    w.maxInFlight = 0;
    if (!w.fetchWrapped) {
      w.fetchWrapped = true;
      const real = w.fetch.bind(w);
      w.fetch = async (url, init) => {
        const frame = String(url).startsWith('/api/timeline') && init && init.body && !JSON.parse(init.body).height;
        if (frame) w.maxInFlight = Math.max(w.maxInFlight, ++w.inFlight);
        try {
          return await real(url, init);
        } finally {
          if (frame) w.inFlight -= 1;
        }
      };
    }
  });
}
const painted = () => page.evaluate(() => window.painted);

function monotonic(list, direction, what) {
  check(list.length >= 3, `${what}: only ${list.length} positions painted`);
  for (let i = 1; i < list.length; i += 1) {
    const d = list[i][0] - list[i - 1][0];
    check(direction > 0 ? d > 0 : d < 0, `${what}: position ${i} went from ${list[i - 1][0]} to ${list[i][0]}`);
  }
}

async function overFirst() {
  const box = await first.locator('canvas').boundingBox();
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
}

const WIDTH = Math.round(END / 5);

const steps = [
  ['open a trace and a second window', async () => {
    await page.goto(server.url);
    await page.locator('#files li.dir', { hasText: 'epoch' }).click();
    await page.locator('#files li.trace', { hasText: 'epoch_2proc.prv.gz' }).click();
    first = panels.nth(0);
    await waitFrame(first);
    await page.locator('#function').selectOption('Last Evt Val');
    await page.locator('#function-form button[type="submit"]').click();
    second = panels.nth(1);
    await waitFrame(second);
    check((await range(first)).to === END, `the first frame ends at ${(await range(first)).to}, not at the trace's end`);
  }],
  ['play forward: the view slides later, the synchronised window follows', async () => {
    await first.locator('button.play').click();
    const bar = first.locator('.anim-bar');
    await bar.waitFor();
    await bar.locator('input.anim-width').fill(`${WIDTH} ns`);
    await bar.locator('select.anim-speed').selectOption('0.5');
    await record();
    await bar.locator('button.anim-forward').click();
    check(await first.getAttribute('data-playing') === 'forward', 'the window does not say it plays forward');
    await page.waitForFunction(() => window.painted[0].length >= 5 && window.painted[1].length >= 3, null, { timeout: 30000 });
    await shot('01-playing');
    await bar.locator('button.anim-pause').click();
    check(await first.getAttribute('data-playing') === '', 'pause did not stop the animation');
    // The bar's appearance can change the layout (a scrollbar), so either window may repaint the
    // whole trace, the view before playing, after the recording began: not an animation frame.
    const [a, b] = (await painted()).map((l) => l.filter(([f, t]) => t - f !== END));
    monotonic(a, 1, 'the first window');
    monotonic(b, 1, 'the synchronised window');
    check(a[0][0] < WIDTH / 2 && a.every(([f, t]) => t - f === WIDTH), `the positions are not windows of ${WIDTH} from 0: ${JSON.stringify(a.slice(0, 3))}`);
    // A frame asked before the pause may still be landing in the first window: compare up to
    // the last position it painted.
    const upTo = a.length ? a[a.length - 1][0] : -1;
    check(b.filter(([f]) => f <= upTo).every(([f]) => a.some(([g]) => g === f)), `the second window painted positions the first did not: ${JSON.stringify(b)} against ${JSON.stringify(a)}`);
    const inFlight = await page.evaluate(() => window.maxInFlight);
    check(inFlight <= 2, `${inFlight} frame requests were in flight at once (two windows)`);
  }],
  ['paused: nothing moves', async () => {
    await page.waitForTimeout(300);  // the frames asked before the pause land
    const n0 = await frames(first), r0 = await range(first);
    await page.waitForTimeout(700);
    const r1 = await range(first);
    check(await frames(first) === n0 && r1.from === r0.from, `paused, the window moved from ${r0.from} to ${r1.from}`);
    check((await first.locator('.anim-state').textContent()) === 'paused', 'the bar does not say paused');
  }],
  ['backward with a slow server: positions are skipped, never queued', async () => {
    // Every frame answer is held 400 ms: the animation must skip positions, not ask for each.
    await page.route('**/api/timeline', async (route) => {
      await new Promise((r) => setTimeout(r, 400));
      await route.continue().catch(() => {});  // already let through by the unroute below
    });
    // From the trace's last width: four widths to go back.
    await first.locator('input.begin-time').fill(`${END - WIDTH} ns`);
    await first.locator('input.end-time').fill(`${END} ns`);
    await first.locator('input.end-time').press('Enter');
    await page.waitForFunction(([e, to]) => e.dataset.to === String(to), [await first.elementHandle(), END], { timeout: 20000 });
    await record();
    const before = await range(first);
    await overFirst();
    await page.keyboard.down('Shift');
    await page.keyboard.press(' ');
    await page.keyboard.up('Shift');
    check(await first.getAttribute('data-playing') === 'backward', 'shift+Space does not play backward');
    await page.waitForFunction(() => window.painted[0].length >= 4, null, { timeout: 30000 });
    await page.keyboard.press(' ');
    check(await first.getAttribute('data-playing') === '', 'Space did not pause');
    const [a, b] = await painted();
    monotonic(a, -1, 'backward, the first window');
    check(a[0][0] < before.from, 'backward did not start from the view');
    // 400 ms per frame at half a width per second: at least a fifth of a width between frames.
    const steps = a.slice(1).map((r, i) => a[i][0] - r[0]);
    check(Math.min(...steps) >= WIDTH / 5, `the frames are ${Math.min(...steps)} apart: positions were queued, not skipped`);
    check(b.length >= 2, 'the synchronised window did not follow backward');
    const inFlight = await page.evaluate(() => window.maxInFlight);
    check(inFlight <= 2, `${inFlight} frame requests were in flight at once (two windows) with a slow server`);
    await page.unroute('**/api/timeline');
    await page.waitForTimeout(500);
  }],
  ['play forward stops at the end', async () => {
    const bar = first.locator('.anim-bar');
    const before = await range(first);
    await bar.locator('select.anim-speed').selectOption('4');
    await record();
    await bar.locator('button.anim-forward').click();
    await page.waitForFunction((e) => e.dataset.playing === '', await first.elementHandle(), { timeout: 30000 });
    check(await bar.getAttribute('data-state') === 'stopped at the end', `the bar says '${await bar.getAttribute('data-state')}'`);
    await page.waitForTimeout(300);
    const r = await range(first), s = await range(second);
    check(r.to === END && r.from === END - WIDTH, `stopped at ${r.from}-${r.to}, not at the trace's end`);
    check(s.to === END && s.from === END - WIDTH, `the synchronised window stopped at ${s.from}-${s.to}`);
    monotonic((await painted())[0], 1, 'to the end');
    await shot('02-end');
    // Undo goes back to the range before the animation, in one step.
    await first.locator('button.undo').click();
    await page.waitForFunction(([e, from]) => e.dataset.from === String(from), [await first.elementHandle(), before.from],
      { timeout: 20000 });
  }],
  ['a zoom by the user pauses the animation; the keys help lists Space', async () => {
    await first.locator('button.fit').click();
    await overFirst();
    await page.keyboard.press(' ');
    check(await first.getAttribute('data-playing') === 'forward', 'Space does not play');
    await page.keyboard.press('w');
    check(await first.getAttribute('data-playing') === '', 'a zoom did not pause the animation');
    await page.keyboard.press('?');
    const help = await page.locator('dialog#help').textContent();
    check(/Space/.test(help) && /play forward/.test(help), 'the keys help does not list Space');
    await page.keyboard.press('Escape');
  }],
  ['synchronisation groups: a zoom moves only its group', async () => {
    await page.locator('#function').selectOption('State As Is');
    await page.locator('#function-form button[type="submit"]').click();
    const third = panels.nth(2);
    await waitFrame(third);
    await second.locator('select[aria-label="synchronisation group"]').selectOption('2');
    check(await second.locator('h3 .sync-badge').textContent() === 'sync 2', 'the second window does not show its group');
    check(await first.locator('h3 .sync-badge').textContent() === 'sync 1', 'the first window does not show its group');
    // Kept in the window's cfg as Paraver's window_synchronize.
    await page.waitForFunction(() => /^window_synchronize 2$/m.test(window.parallax.panels[1].doc.text), null, { timeout: 20000 });
    await first.locator('button.fit').click();
    await page.waitForFunction(([e, end]) => e.dataset.to === String(end) && e.dataset.from === '0',
      [await third.elementHandle(), END], { timeout: 20000 });
    await page.waitForTimeout(500);  // the zoom by W of the last step reached the second window
    const b0 = await range(second);
    let n1 = await frames(first), n3 = await frames(third);
    await dragZoom(page, first, 0.3, 0.6);
    n1 = await waitFrame(first, n1);
    n3 = await waitFrame(third, n3);
    const r1 = await range(first), r3 = await range(third);
    check(r1.from > 0 && r1.to < END, `the drag did not zoom the first window: ${r1.from}-${r1.to}`);
    check(r3.from === r1.from && r3.to === r1.to, `group 1's third window shows ${r3.from}-${r3.to}, not ${r1.from}-${r1.to}`);
    await page.waitForTimeout(500);
    const b1 = await range(second);
    check(b1.from === b0.from && b1.to === b0.to, `group 2's window moved with group 1: ${b0.from}-${b0.to} → ${b1.from}-${b1.to}`);
    // A zoom in group 2 leaves group 1 alone.
    const n2 = await frames(second);
    await dragZoom(page, second, 0.1, 0.2);
    await waitFrame(second, n2);
    await page.waitForTimeout(500);
    const a1 = await range(first), a3 = await range(third);
    check(a1.from === r1.from && a1.to === r1.to && a3.from === r1.from && a3.to === r1.to, 'a zoom in group 2 moved group 1');
    // None: the window follows nobody.
    await third.locator('select[aria-label="synchronisation group"]').selectOption('0');
    check(await third.locator('h3 .sync-badge').textContent() === '', 'a window of no group shows a badge');
    const n = await frames(first);
    await first.locator('button.undo').click();
    await waitFrame(first, n);
    await page.waitForTimeout(500);
    const c3 = await range(third);
    check(c3.from === r1.from && c3.to === r1.to, 'a window of no group followed group 1');
    await shot('03-groups');
  }],
  ['copy a window, paste its time range into another', async () => {
    const r1 = await range(first), before = await range(second);
    check(r1.from !== before.from, 'the two windows already show the same range');
    await first.locator('button.copy').click();
    const n = await frames(second);
    await second.locator('select.paste').selectOption('time');
    await waitFrame(second, n);
    const r2 = await range(second);
    check(r2.from === r1.from && r2.to === r1.to, `pasting the time gave ${r2.from}-${r2.to}, not ${r1.from}-${r1.to}`);
    check(await second.locator('select.paste').inputValue() === '', 'the paste menu does not go back to its title');
  }],
  ['paste the semantic scale and the filter', async () => {
    await first.locator('input.max-y').fill('40');
    await first.locator('input.max-y').press('Enter');
    await page.waitForFunction(() => window.parallax.panels[0].window.max_y === 40, null, { timeout: 20000 });
    await page.evaluate(() => window.parallax.panels[0].doc.edit((d) => { d.windows[0].filter.size = { op: '>', values: [1000] }; }));
    const filterOf = (i) => page.evaluate((k) => JSON.stringify(window.parallax.panels[k].window.filter), i);
    const f1 = await filterOf(0);
    check(f1 !== await filterOf(1), 'the filters are already the same');
    await first.locator('button.copy').click();
    await second.locator('select.paste').selectOption('scale');
    await page.waitForFunction(() => window.parallax.panels[1].window.max_y === 40, null, { timeout: 20000 });
    check(await second.locator('input.max-y').inputValue() === '40', 'the scale box does not show the pasted maximum');
    check(await filterOf(1) !== f1, 'pasting the scale pasted the filter too');
    await second.locator('select.paste').selectOption('filter');
    await page.waitForFunction((f) => JSON.stringify(window.parallax.panels[1].window.filter) === f, f1, { timeout: 20000 });
  }],
  ['paste the size', async () => {
    // Side by side, the first window is half as wide: copied so, pasted into the second in one column.
    await page.locator('#layout').selectOption('side-by-side');
    await page.waitForFunction(() => {
      const p = window.parallax.panels[0];
      return p.canvas.list && p.canvas.list.width < p.box.parentElement.parentElement.clientWidth * 0.7;
    }, null, { timeout: 20000 });
    await page.waitForTimeout(400);
    const size = await page.evaluate(() => ({ width: window.parallax.panels[0].canvas.list.width, height: window.parallax.panels[0].canvas.list.height }));
    await first.locator('button.copy').click();
    await page.locator('#layout').selectOption('stack');
    await page.waitForTimeout(400);
    const [wide, own] = await page.evaluate(() => [window.parallax.panels[1].canvas.list.width, window.parallax.panels[1].canvas.list.height]);
    check(wide > size.width * 1.5, `in one column the second window is ${wide} px wide, the copied one ${size.width}`);
    await second.locator('select.paste').selectOption('size');
    await page.waitForFunction((w) => window.parallax.panels[1].canvas.list.width === w, size.width, { timeout: 20000 });
    const got = await page.evaluate(() => ({ width: window.parallax.panels[1].canvas.list.width, height: window.parallax.panels[1].canvas.list.height,
      shown: window.parallax.panels[1].canvas.canvas.getBoundingClientRect().width }));
    // The width only: its long legend takes more lines at the narrower width.
    check(got.height > own, `the height after pasting is ${got.height}, the window was ${own} px high when wider`);
    check(Math.abs(got.shown - size.width) <= 1, `the canvas is shown ${got.shown} px wide, not ${size.width}`);
    await shot('04-pasted');
  }],
  ['histogram units: the time unit is edited and saved to the cfg', async () => {
    // mpi_stats.cfg: control and data window "MPI call", in microseconds.
    await page.locator('#close-all').click();
    await page.locator('#files li.dir', { hasText: '..' }).click();
    await page.locator('#files li.dir', { hasText: 'cfgs' }).click();
    await page.locator('#files li.cfg', { hasText: 'mpi_stats.cfg' }).click();
    await page.locator('#cfg-details button.open-cfg').click();
    const analyzer = page.locator('#windows > section.analyzer').first();
    await analyzer.locator('table.analyzer td').first().waitFor({ timeout: 30000 });
    const table = () => analyzer.evaluate((e) => {
      const t = window.parallax.panels.find((x) => x.root === e).table;
      return { statistic: t.statistic, values: t.planes[0].values };
    });
    const apply = async (changes) => {
      await analyzer.locator('button.hist-properties').click();
      const dialog = page.locator('dialog#histogram-properties');
      await dialog.waitFor();
      await changes(dialog);
      await dialog.locator('button.apply').click();
      await dialog.waitFor({ state: 'hidden', timeout: 20000 });
    };
    await apply(async (d) => {
      check(await d.locator('select.control-unit').inputValue() === 'us', 'the dialog does not show the control window\'s unit (us)');
      check(await d.locator('select.data-unit').count() === 0, 'a data unit is offered when the data window is the control window');
      await d.locator('select[aria-label="statistic"]').selectOption('Time');
    });
    await page.waitForFunction((e) => window.parallax.panels.find((x) => x.root === e).table?.statistic === 'Time',
      await analyzer.elementHandle(), { timeout: 20000 });
    const us = await table();
    await apply(async (d) => {
      await d.locator('select.control-unit').selectOption('ms');
      await shot('05-histogram-units');
    });
    await page.waitForFunction((e) => {
      const d = window.parallax.panels.find((x) => x.root === e).doc.document;
      return d.windows[d.histograms[0].control].unit === 'ms';
    },
      await analyzer.elementHandle(), { timeout: 20000 });
    await page.waitForFunction(([e, v]) => JSON.stringify(window.parallax.panels.find((x) => x.root === e).table.planes[0].values) !== v,
      [await analyzer.elementHandle(), JSON.stringify(us.values)], { timeout: 20000 });
    const ms = await table();
    let compared = 0;
    us.values.forEach((row, r) => row.forEach((v, c) => {
      if (!v) return;
      compared += 1;
      check(Math.abs(ms.values[r][c] * 1000 - v) <= 1e-6 * v, `cell ${r},${c}: ${v} us but ${ms.values[r][c]} ms`);
    }));
    check(compared > 0, 'no time to compare');
    page.once('dialog', (d) => d.accept('cfgs/mpi_ms.cfg'));
    await page.locator('#windows > section.timeline[data-window="MPI call"] button.save-cfg').click();
    await page.waitForFunction(() => document.getElementById('status').textContent.startsWith('saved'), null, { timeout: 10000 });
    const saved = fs.readFileSync(path.join(root, 'cfgs/mpi_ms.cfg'), 'utf8');
    check(/window_name MPI call\n[^]*?window_units Milliseconds/.test(saved), 'the saved cfg does not put MPI call in milliseconds');
    check(saved.includes('Analyzer2D.Statistic: Time'), 'the saved cfg does not keep the statistic');
  }],
];

await runSteps('animation, groups and copy-paste', steps, { browser, server, problems, shot, root });
