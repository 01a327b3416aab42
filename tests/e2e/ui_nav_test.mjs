// Browser test of the navigation of issue 19 (item 3): wheel and W/S zoom at the cursor,
// shift+wheel and A/D pan, one frame request per burst, frames reused when a range is shown
// again, the hover tooltip with pixel provenance.
//
//   node tests/e2e/ui_nav_test.mjs PARALLAX_BINARY TESTS_DATA_DIR OUT_DIR

import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { check, dragZoom, frames, launch, makeRoot, runSteps, startServer, testArgs, waitFrame } from './lib.mjs';

const [binary, data, out] = testArgs('ui_nav_test.mjs');

const root = makeRoot([
  ...['prv.gz', 'pcf', 'row'].map((x) => [path.join(data, 'epoch', `epoch_2proc.${x}`), `epoch/epoch_2proc.${x}`]),
  [path.join(data, 'cfg/bsc/mpi/analysis/mpi_stats.cfg'), 'cfgs/mpi_stats.cfg'],
]);

// THREAD 1.1.1's state records, read straight from the .prv ([begin, end, state]), and the
// state names of the .pcf: what the tooltip must agree with.
const prv = zlib.gunzipSync(fs.readFileSync(path.join(data, 'epoch/epoch_2proc.prv.gz'))).toString();
const records = prv.split('\n').filter((l) => l.startsWith('1:')).map((l) => l.split(':').map(Number));
const statesOf = (task) => records.filter((f) => f[2] === 1 && f[3] === task && f[4] === 1).map((f) => [f[5], f[6], f[7]]);
const states = statesOf(1);
const pcf = fs.readFileSync(path.join(data, 'epoch/epoch_2proc.pcf'), 'utf8');
const stateNames = new Map([...pcf.split(/\nSTATES\n/)[1].split(/\n\s*\n/)[0].matchAll(/^(\d+)\s+(.+)$/gm)].map((m) => [Number(m[1]), m[2].trim()]));

const server = await startServer(binary, root);
const { browser, page, problems } = await launch();
const shot = (name) => page.screenshot({ path: path.join(out, `nav-${name}.png`) });
let panel;  // the State As Is window

const range = async () => ({ from: Number(await panel.getAttribute('data-from')), to: Number(await panel.getAttribute('data-to')) });
const requests = async () => Number((await panel.getAttribute('data-requests')) || 0);
const area = () => panel.evaluate((e) => window.parallax.panels.find((p) => p.root === e).canvas.list.area);

// The page point at fraction `f` of the timeline area, at mid height of the area.
async function at(f) {
  const box = await panel.locator('canvas').boundingBox();
  const [ax, ay, aw, ah] = await area();
  return { x: box.x + ax + f * aw, y: box.y + ay + ah / 2 };
}

// The time at fraction f of range r.
const timeAt = (r, f) => r.from + f * (r.to - r.from);

const steps = [
  ['open a trace', async () => {
    await page.goto(server.url);
    await page.locator('#files li.dir', { hasText: 'epoch' }).click();
    await page.locator('#files li.trace', { hasText: 'epoch_2proc.prv.gz' }).click();
    panel = page.locator('#windows > section.timeline').first();
    await waitFrame(panel);
    const r = await range();
    check(r.from === 0 && r.to > 0, `the first frame shows ${r.from}-${r.to}`);
    check(await requests() === 1, `the first frame took ${await requests()} requests`);
  }],
  ['a burst of ctrl + wheel events zooms at the cursor with one request in flight', async () => {
    const before = await range(), n = await frames(panel), asked = await requests();
    const p = await at(0.25);
    await page.mouse.move(p.x, p.y);
    // Today's viewers' convention (the default): the plain wheel scrolls the page, ctrl + wheel zooms.
    await page.mouse.wheel(0, -100);
    await page.waitForTimeout(300);
    check(await frames(panel) === n && (await range()).to === before.to, 'the plain wheel zoomed the window');
    await page.keyboard.down('Control');
    for (let i = 0; i < 6; i += 1) await page.mouse.wheel(0, -100);
    await page.keyboard.up('Control');
    await waitFrame(panel, n);
    const after = await range();
    const span0 = before.to - before.from, span1 = after.to - after.from;
    check(span1 < span0 * 0.5, `six wheel steps zoomed ${span0} to ${span1}`);
    // The time under the cursor stays under it (to a pixel).
    const [, , aw] = await area();
    const drift = Math.abs(timeAt(after, 0.25) - timeAt(before, 0.25));
    check(drift <= span0 / aw, `the time under the cursor moved by ${drift} (a pixel is ${span0 / aw})`);
    // One request in flight while the burst goes on: at most one per step, and the last step's.
    check(await requests() - asked >= 1 && await requests() - asked <= 6, `the burst asked ${await requests() - asked} frames for 6 steps`);
    await page.waitForTimeout(400);
    check(await frames(panel) === n + 1, 'the burst painted more than one frame');
    await shot('01-wheel-zoom');
  }],
  ['shift+wheel pans', async () => {
    const before = await range(), n = await frames(panel);
    await page.keyboard.down('Shift');
    await page.mouse.wheel(0, 200);
    await page.keyboard.up('Shift');
    await waitFrame(panel, n);
    const after = await range();
    check(after.to - after.from === before.to - before.from, `panning changed the span: ${before.to - before.from} → ${after.to - after.from}`);
    check(after.from > before.from, `shift+wheel down did not pan later: ${before.from} → ${after.from}`);
  }],
  ['W and S zoom at the cursor, A and D pan', async () => {
    const p = await at(0.75);
    await page.mouse.move(p.x, p.y);
    let before = await range(), n = await frames(panel);
    await page.keyboard.press('w');
    await page.keyboard.press('w');
    n = await waitFrame(panel, n);
    let after = await range();
    const span0 = before.to - before.from;
    check(Math.abs((after.to - after.from) - span0 * 0.64) <= 2, `W W zoomed ${span0} to ${after.to - after.from}, not to 64%`);
    check(Math.abs(timeAt(after, 0.75) - timeAt(before, 0.75)) <= 2, 'W did not zoom at the cursor');
    before = after;
    await page.keyboard.press('s');
    n = await waitFrame(panel, n);
    after = await range();
    check(Math.abs((after.to - after.from) - (before.to - before.from) * 1.25) <= 2, `S zoomed ${before.to - before.from} to ${after.to - after.from}`);
    before = after;
    await page.keyboard.press('d');
    n = await waitFrame(panel, n);
    after = await range();
    const span = before.to - before.from;
    check(Math.abs(after.from - before.from - 0.2 * span) <= 1 && after.to - after.from === span, `D moved ${before.from} to ${after.from}`);
    // A brings the range back: its frame comes from the cache.
    const asked = await requests();
    await page.keyboard.press('a');
    n = await waitFrame(panel, n);
    after = await range();
    check(after.from === before.from && after.to === before.to, `A did not undo D: ${after.from}-${after.to} vs ${before.from}-${before.to}`);
    check(await requests() === asked, `showing a range again asked the server ${await requests() - asked} more time(s)`);
    await shot('02-keys');
  }],
  ['keys typed in a control do not navigate', async () => {
    const before = await range();
    await panel.locator('input.min-y').focus();
    await page.keyboard.press('w');
    await page.waitForTimeout(400);
    const after = await range();
    check(after.from === before.from && after.to === before.to, 'typing w in the scale box zoomed');
    check(await panel.locator('input.min-y').inputValue() === '0w', 'the w did not reach the scale box');
    await page.keyboard.press('Backspace');
    await panel.locator('input.min-y').blur();
  }],
  ['ctrl+drag pans: the trace follows the mouse', async () => {
    const before = await range();
    const n = await frames(panel);
    const a = await at(0.6), b = await at(0.4);
    await page.keyboard.down('Control');
    await page.mouse.move(a.x, a.y);
    await page.mouse.down();
    await page.mouse.move((a.x + b.x) / 2, a.y, { steps: 3 });
    await page.mouse.move(b.x, b.y, { steps: 3 });
    await page.mouse.up();
    await page.keyboard.up('Control');
    await waitFrame(panel, n);
    const after = await range();
    const span = before.to - before.from;
    check(after.to - after.from === span, 'panning by drag changed the span');
    check(Math.abs(after.from - before.from - 0.2 * span) <= span / 500, `dragging left by 20% moved ${before.from} to ${after.from}, not by ${0.2 * span}`);
    check(!(await panel.locator('.text-view').isVisible()), 'the pan drag was taken for a click');
  }],
  ['drag still zooms, undo goes back a whole burst', async () => {
    const before = await range();
    let n = await frames(panel);
    await dragZoom(page, panel, 0.4, 0.6);
    n = await waitFrame(panel, n);
    const after = await range();
    check(after.from > before.from && after.to < before.to, `dragging did not zoom: ${after.from}-${after.to}`);
    await panel.locator('button.undo').click();
    await waitFrame(panel, n);
    const back = await range();
    check(back.from === before.from && back.to === before.to, 'undo did not go back to the range before the drag');
  }],
  ['a drag selects an area, a double click zooms to it; Paraver\'s convention: the wheel and a drag zoom', async () => {
    let before = await range(), n = await frames(panel);
    const a = await at(0.3), b = await at(0.5);
    await page.mouse.move(a.x, a.y);
    await page.mouse.down();
    await page.mouse.move(b.x, b.y, { steps: 4 });
    await page.mouse.up();
    await panel.locator('.area-stats tr[data-label]').first().waitFor({ timeout: 10000 });
    check((await range()).from === before.from, 'a plain drag zoomed (today\'s viewers: it selects)');
    await page.mouse.dblclick((a.x + b.x) / 2, a.y);
    n = await waitFrame(panel, n);
    let after = await range();
    check(after.from > before.from && after.to < before.to, `the double click did not zoom to the area: ${after.from}-${after.to}`);
    // Paraver's: the plain wheel zooms, and so does a drag.
    await page.locator('#mouse').selectOption('paraver');
    before = after;
    await page.mouse.move(a.x, a.y);
    for (let i = 0; i < 3; i += 1) await page.mouse.wheel(0, -100);
    n = await waitFrame(panel, n);
    after = await range();
    check(after.to - after.from < before.to - before.from, 'with Paraver\'s convention the wheel did not zoom');
    before = after;
    await dragZoom(page, panel, 0.2, 0.8);
    n = await waitFrame(panel, n);
    after = await range();
    check(after.from > before.from && after.to < before.to, 'with Paraver\'s convention a drag did not zoom');
    check(await page.evaluate(() => localStorage.getItem('parallax.mouse')) === 'paraver', 'the choice is not kept');
    await page.locator('#mouse').selectOption('modern');
    await panel.locator('button.fit').click();
    await waitFrame(panel, n);
  }],
  ['the tooltip tells the object, time, value, interval and what the pixel folds', async () => {
    let n = await frames(panel);
    await panel.locator('button.fit').click();
    n = await waitFrame(panel, n);
    const tip = panel.locator('.tooltip');
    const [, rowY, rowH] = await panel.evaluate((e) => window.parallax.panels.find((p) => p.root === e).canvas.list.rows[0]);
    const box = await panel.locator('canvas').boundingBox();
    // The pixel column where the .prv has the most states of THREAD 1.1.1.
    const r = await range();
    const [, , aw] = await area();
    let best = 0, most = 0;
    for (let px = 0; px < aw; px += 1) {
      const a = r.from + (px * (r.to - r.from)) / aw, b = r.from + ((px + 1) * (r.to - r.from)) / aw;
      const k = states.filter(([sb, se]) => sb < b && se > a).length;
      if (k > most) [best, most] = [px, k];
    }
    const p = await at((best + 0.5) / aw);
    await page.mouse.move(p.x, box.y + rowY + rowH / 2);
    await tip.waitFor({ state: 'visible', timeout: 10000 });
    await page.waitForFunction((t) => t.dataset.time, await tip.elementHandle(), { timeout: 10000 });
    const d = await tip.evaluate((t) => ({ ...t.dataset }));
    const [time, from, to, begin, end, folded] = ['time', 'from', 'to', 'begin', 'end', 'intervals'].map((k) => Number(d[k]));
    check(from <= time && time < to, `the time ${time} is not in the pixel ${from}-${to}`);
    const holding = states.find(([b, e]) => b <= time && time < e);
    check(holding && holding[0] === begin && holding[1] === end, `the tooltip's interval ${begin}-${end} is not the .prv's ${holding}`);
    const text = await tip.innerText();
    check(text.includes('THREAD 1.1.1'), `the tooltip does not name the object:\n${text}`);
    check(text.includes(`${stateNames.get(holding[2])} (${holding[2]})`), `the tooltip does not say ${stateNames.get(holding[2])}:\n${text}`);
    const inPixel = states.filter(([b, e]) => b < to && e > from).length;
    check(folded === inPixel, `the pixel folds ${folded} intervals, the .prv has ${inPixel} states there`);
    check(inPixel > 1 && text.includes(`${inPixel} intervals`) && text.includes('drawn by mode'), `the provenance reads:\n${text}`);  // the first view of a trace of many states (issue 36)
    check(/ns\)\n/.test(text) || text.includes(' ns)'), `the interval has no duration in ns:\n${text}`);
    await shot('03-tooltip');
    await page.mouse.move(box.x + 2, box.y + 2);  // the labels: no tooltip
    await tip.waitFor({ state: 'hidden', timeout: 5000 });
  }],
  ['shift+drag selects an area and sums its cells per value; Esc clears it', async () => {
    const rows = await panel.evaluate((e) => window.parallax.panels.find((p) => p.root === e).canvas.list.rows);
    check(rows.length === 2, `${rows.length} rows`);
    const box = await panel.locator('canvas').boundingBox();
    const a = await at(0.1), b = await at(0.5);
    await page.keyboard.down('Shift');
    await page.mouse.move(a.x, box.y + rows[0][1] + 2);
    await page.mouse.down();
    await page.mouse.move((a.x + b.x) / 2, box.y + rows[1][1] + 2, { steps: 3 });
    await page.mouse.move(b.x, box.y + rows[1][1] + rows[1][2] - 2, { steps: 3 });
    await page.mouse.up();
    await page.keyboard.up('Shift');
    const stats = panel.locator('.area-stats');
    await stats.locator('table.area-values tr[data-label]').first().waitFor({ timeout: 10000 });
    const d = await stats.evaluate((e) => ({ ...e.dataset }));
    const from = Number(d.from), to = Number(d.to);
    check(d.objects === 'THREAD 1.1.1\nTHREAD 1.2.1', `the selection covers ${d.objects}`);
    const r = await range();
    check(Math.abs(from - timeAt(r, 0.1)) <= (r.to - r.from) / 500 && Math.abs(to - timeAt(r, 0.5)) <= (r.to - r.from) / 500,
      `the selection is ${from}-${to}, not 10%-50% of the view`);
    check((await stats.locator('.area-what').textContent()).includes('2 objects'), 'the selection does not say it has 2 objects');
    // The time of each state inside the area, from the .prv.
    const expected = new Map();
    for (const [sb, se, st] of [...statesOf(1), ...statesOf(2)]) {
      const t = Math.min(se, to) - Math.max(sb, from);
      if (t > 0) expected.set(stateNames.get(st), (expected.get(stateNames.get(st)) || 0) + t);
    }
    const shown = await stats.locator('tr[data-label]').evaluateAll((trs) => trs.map((tr) => [tr.dataset.label, Number(tr.dataset.time),
      Number(tr.children[2].textContent)]));
    check(shown.length === expected.size && shown.every(([l, t]) => expected.get(l) === t),
      `the selection's states ${JSON.stringify(shown)} differ from the .prv's ${JSON.stringify([...expected])}`);
    const pct = shown.reduce((s, [, , p]) => s + p, 0);
    check(Math.abs(pct - 100) < 0.05, `the percentages add up to ${pct}`);
    check(shown[0][1] >= shown[shown.length - 1][1], 'the values are not sorted by time');
    check(await panel.evaluate((e) => Boolean(window.parallax.panels.find((p) => p.root === e).canvas.overlays.get('area'))), 'the area is not outlined');
    await shot('04-area');
    await page.keyboard.press('Escape');
    await stats.waitFor({ state: 'hidden', timeout: 5000 });
    check(await panel.evaluate((e) => window.parallax.panels.find((p) => p.root === e).canvas.overlays.get('area') === null), 'Esc left the area outlined');
  }],
  ['typed begin and end times', async () => {
    const begin = panel.locator('input.begin-time'), end = panel.locator('input.end-time');
    let r = await range();
    const grouped = (t) => `${t.toLocaleString('en-US')} ns`;
    check(await begin.inputValue() === grouped(r.from) && await end.inputValue() === grouped(r.to),
      `the boxes show '${await begin.inputValue()}' – '${await end.inputValue()}', not the range ${r.from}-${r.to}`);
    let n = await frames(panel);
    await begin.fill('1.5 ms');
    await end.fill('2500 us');
    await end.press('Enter');
    n = await waitFrame(panel, n);
    r = await range();
    check(r.from === 1500000 && r.to === 2500000, `typing 1.5 ms – 2500 us showed ${r.from}-${r.to}`);
    check(await begin.inputValue() === '1,500,000 ns', `the begin box reads '${await begin.inputValue()}' after the frame`);
    await end.fill('1 ms');
    await end.press('Enter');
    await page.waitForTimeout(300);
    check(await end.evaluate((e) => e.classList.contains('invalid')), 'an end before the begin is not marked');
    check((await panel.locator('.panel-message').textContent()).includes('must come after'), 'no message says the end is before the begin');
    await end.fill('soon');
    await end.press('Enter');
    check((await panel.locator('.panel-message').textContent()).includes("'soon' is not a time"), 'no message says soon is not a time');
    r = await range();
    check(r.from === 1500000 && r.to === 2500000, 'a bad time changed the range');
    await shot('05-typed-range');
    await end.fill('2.5 ms');
    await end.press('Enter');
    await page.locator('#windows').click({ position: { x: 5, y: 5 } });  // the keys go to the page again
  }],
  ['? shows the keys', async () => {
    await page.keyboard.press('?');
    const help = page.locator('dialog#help');
    await help.waitFor({ timeout: 5000 });
    const keys = await help.locator('table.keys th').allTextContents();
    for (const k of ['wheel', 'ctrl / ⌘ + wheel, pinch', 'drag, shift + drag', 'Z, double click', 'shift + wheel', 'W / S', 'A / D', 'Esc', 'F', 'N / P', 'B', '?'])
      check(keys.includes(k), `the help does not list ${k}: ${keys.join(', ')}`);
    await shot('06-help');
    await page.keyboard.press('Escape');
    await help.waitFor({ state: 'hidden', timeout: 5000 });
  }],
  ['find events with next and previous, moving the view', async () => {
    // MPI_Allreduce (50000002:10) in the .prv, both threads, at distinct times.
    const times = [...new Set(prv.split('\n').filter((l) => l.startsWith('2:')).map((l) => l.split(':'))
      .filter((f) => f.slice(6).some((x, i) => i % 2 === 0 && x === '50000002' && f[7 + i] === '10')).map((f) => Number(f[5])))].sort((a, b) => a - b);
    check(times.length > 3, `only ${times.length} MPI_Allreduce in the .prv`);
    let n = await frames(panel);
    await panel.locator('input.begin-time').fill('0');
    await panel.locator('input.end-time').fill('100 ms');
    await panel.locator('input.end-time').press('Enter');
    n = await waitFrame(panel, n);
    await page.locator('#windows').click({ position: { x: 5, y: 5 } });
    const view = await range();
    check(view.from === 0 && view.to === 100000000 && times[0] > view.to, `the view before finding is ${view.from}-${view.to}`);
    const span = view.to - view.from;
    const box = await panel.locator('canvas').boundingBox();
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.keyboard.press('f');
    const bar = panel.locator('.find-bar');
    await bar.waitFor({ timeout: 5000 });
    check(await page.evaluate(() => document.activeElement.classList.contains('find-text')), 'F did not put the cursor in the find box');
    await page.keyboard.type('allreduce');
    await page.keyboard.press('Enter');
    const found = async (t) => page.waitForFunction(([b, x]) => b.dataset.time === String(x), [await bar.elementHandle(), t], { timeout: 20000 });
    await found(times[0]);
    n = await waitFrame(panel, n);
    let r = await range();
    check(Math.abs((r.from + r.to) / 2 - times[0]) <= 1, `the view ${r.from}-${r.to} is not centred on ${times[0]}`);
    check(r.to - r.from === span, 'finding changed the span');
    check((await bar.locator('.find-result').textContent()).startsWith('MPI_Allreduce (50000002:10) on THREAD 1.'), `the result reads '${await bar.locator('.find-result').textContent()}'`);
    await page.keyboard.press('Enter');
    await found(times[1]);
    await page.keyboard.press('Enter');
    await found(times[2]);
    n = await waitFrame(panel, n);
    r = await range();
    check(Math.abs((r.from + r.to) / 2 - times[2]) <= 1, `the view ${r.from}-${r.to} is not centred on ${times[2]}`);
    await page.keyboard.press('Shift+Enter');
    await found(times[1]);
    // The type:value form, from the page's keys (N) once the box is left.
    await bar.locator('input.find-text').fill('50000002:10');
    await page.locator('#windows').click({ position: { x: 5, y: 5 } });
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.keyboard.press('n');
    await found(times[2]);
    await page.keyboard.press('p');
    await found(times[1]);
    n = await waitFrame(panel, n);
    await shot('07-find');
    // States by name.
    await bar.locator('select.find-kind').selectOption('value');
    await bar.locator('input.find-text').fill('group comm');
    await bar.locator('input.find-text').press('Enter');
    const groups = [...statesOf(1), ...statesOf(2)].filter(([, , st]) => st === 13).map(([b]) => b).filter((b) => b > times[1]).sort((a, b) => a - b);
    await found(groups[0]);
    check((await bar.locator('.find-result').textContent()).startsWith('Group Communication (13)'), `the result reads '${await bar.locator('.find-result').textContent()}'`);
    await bar.locator('input.find-text').fill('no such state');
    await bar.locator('input.find-text').press('Enter');
    await page.waitForFunction((b) => b.querySelector('.find-result').textContent.startsWith('no match after'), await bar.elementHandle(), { timeout: 20000 });
    await bar.locator('input.find-text').press('Escape');
    await bar.waitFor({ state: 'hidden' });
  }],
  ['the overview strip marks the view; a click moves the view there', async () => {
    const strip = panel.locator('.overview');
    await strip.locator('img').waitFor({ timeout: 10000 });
    const end = await page.evaluate(() => window.parallax.traceEnd('epoch/epoch_2proc.prv.gz'));
    let n = await frames(panel);
    await panel.locator('input.begin-time').fill('1 s');
    await panel.locator('input.end-time').fill('2 s');
    await panel.locator('input.end-time').press('Enter');
    n = await waitFrame(panel, n);
    const [ax, , aw] = await area();
    const marked = async () => strip.locator('.overview-view').evaluate((m) => [parseFloat(m.style.left), parseFloat(m.style.width)]);
    let [left, width] = await marked();
    check(Math.abs(left - (ax + (1e9 / end) * aw)) < 1 && Math.abs(width - (1e9 / end) * aw) < 1,
      `the marker is at ${left}+${width} px, not at 1-2 s of ${end} ns over ${ax}+${aw} px`);
    // The strip is the whole trace: a state drawn there at the x of a state in the .prv.
    const painted = await strip.locator('img').evaluate((img) => {
      const c = document.createElement('canvas');
      c.width = img.width;
      c.height = img.height;
      const g = c.getContext('2d');
      g.drawImage(img, 0, 0);
      const d = g.getImageData(0, 0, c.width, c.height).data;
      let k = 0;  // columns with some blue (Running) pixel
      for (let x = 0; x < c.width; x += 1) {
        for (let y = 0; y < c.height; y += 1) {
          const i = 4 * (y * c.width + x);
          if (d[i + 2] > 200 && d[i] < 50) {
            k += 1;
            break;
          }
        }
      }
      return k;
    });
    check(painted > aw * 0.5, `the strip has ${painted} blue pixels over ${aw}: not the whole trace's Running`);
    await shot('08-overview');
    const box = await strip.boundingBox();
    await page.mouse.click(box.x + ax + 0.75 * aw, box.y + 8);
    n = await waitFrame(panel, n);
    const r = await range();
    check(Math.abs((r.from + r.to) / 2 - 0.75 * end) <= end / aw && r.to - r.from === 1e9,
      `clicking the strip at 75% shows ${r.from}-${r.to}, not 1 s around ${0.75 * end}`);
    [left] = await marked();
    check(Math.abs(left - (ax + (r.from / end) * aw)) < 1, 'the marker did not follow the view');
  }],
  ['groups of rows collapse and expand', async () => {
    const rowsOf = () => panel.evaluate((e) => window.parallax.panels.find((p) => p.root === e).canvas.list.rows.map((r) => [r[0], r[3]]));
    check(JSON.stringify(await rowsOf()) === '[["THREAD 1.1.1",0],["THREAD 1.2.1",1]]', `the rows are ${JSON.stringify(await rowsOf())}`);
    await panel.locator('button.rows').click();
    const tree = panel.locator('.row-groups');
    await tree.locator('button.group').first().waitFor({ timeout: 10000 });
    const groups = await tree.locator('button.group').allTextContents();
    check(groups.join('|') === '▾ APPL 1|▾ TASK 1.1|▾ TASK 1.2', `the groups are ${groups.join(', ')}`);
    let n = await frames(panel);
    await tree.locator('button.group[data-group="TASK 1.1"]').click();
    n = await waitFrame(panel, n);
    // A collapsed group is one summary row (its name and its rows' count; ui_rows_test.mjs draws it).
    check(JSON.stringify(await rowsOf()) === '[["TASK 1.1 (1)",0],["THREAD 1.2.1",1]]', `with TASK 1.1 collapsed the rows are ${JSON.stringify(await rowsOf())}`);
    check(await tree.locator('button.group[data-group="TASK 1.1"]').textContent() === '▸ TASK 1.1', 'the collapsed group does not say so');
    await shot('09-groups');
    // The tooltip and the area follow the rows drawn: the second row is THREAD 1.2.1's.
    const [, rowY, rowH] = await panel.evaluate((e) => window.parallax.panels.find((p) => p.root === e).canvas.list.rows[1]);
    const box = await panel.locator('canvas').boundingBox();
    const p = await at(0.5);
    await page.mouse.move(p.x, box.y + rowY + rowH / 2);
    await page.waitForFunction((t) => !t.hidden && t.querySelector('.tip-object'), await panel.locator('.tooltip').elementHandle(), { timeout: 10000 });
    check(await panel.locator('.tooltip .tip-object').textContent() === 'THREAD 1.2.1', 'the tooltip is not about THREAD 1.2.1');
    await tree.locator('button.group[data-group="TASK 1.1"]').click();
    n = await waitFrame(panel, n);
    check(JSON.stringify(await rowsOf()) === '[["THREAD 1.1.1",0],["THREAD 1.2.1",1]]', 'expanding TASK 1.1 did not bring its row back');
    // Collapse all: a summary row per task; expand all brings every row back.
    await tree.locator('button.collapse-all').click();
    n = await waitFrame(panel, n);
    check(JSON.stringify(await rowsOf()) === '[["TASK 1.1 (1)",0],["TASK 1.2 (1)",1]]', `collapse all left ${JSON.stringify(await rowsOf())}`);
    await tree.locator('button.expand-all').click();
    n = await waitFrame(panel, n);
    check((await rowsOf()).length === 2, 'expand all did not bring every row back');
    await tree.locator('button.group[data-group="APPL 1"]').click();  // every row: one summary row
    n = await waitFrame(panel, n);
    check(JSON.stringify(await rowsOf()) === '[["APPL 1 (2)",0]]', `with APPL 1 collapsed the rows are ${JSON.stringify(await rowsOf())}`);
    check(await tree.locator('button.group[data-group="TASK 1.1"]').count() === 0, 'the collapsed APPL still lists its tasks');
    await tree.locator('button.group[data-group="APPL 1"]').click();
    n = await waitFrame(panel, n);
    await panel.locator('button.rows').click();
    await tree.waitFor({ state: 'hidden' });
    // The groups of other levels' canonical names: cpus under nodes, tasks under applications.
    const named = await page.evaluate(async () => {
      const { groupsOf, objectRanges } = await import('./groups.js');
      return [groupsOf('CPU 2.3'), groupsOf('TASK 3.4'), groupsOf('THREAD 1.12.2'), groupsOf('NODE 1'), objectRanges([0, 1, 2, 5, 7, 8])];
    });
    check(JSON.stringify(named) === '[["NODE 2"],["APPL 3"],["APPL 1","TASK 1.12"],[],"1-3,6,8-9"]', `groups of names: ${JSON.stringify(named)}`);
  }],
  ['usable at 1280x720 with every navigation view open', async () => {
    await page.setViewportSize({ width: 1280, height: 720 });
    await page.waitForFunction((c) => Math.abs(c.width - c.parentElement.clientWidth) <= 1,
      await panel.locator('canvas').elementHandle(), { timeout: 10000, polling: 50 });
    await panel.locator('button.rows').click();
    await panel.locator('.row-groups button.group').first().waitFor();
    await page.mouse.move(10, 10);
    await page.keyboard.press('f');
    await panel.locator('.find-bar select.find-kind').selectOption('event');
    await panel.locator('.find-bar input.find-text').fill('allreduce');
    await panel.locator('.find-bar input.find-text').press('Shift+Enter');  // the last MPI_Allreduce is before the view
    await page.waitForFunction((b) => b.querySelector('.find-result').textContent.startsWith('MPI_Allreduce'),
      await panel.locator('.find-bar').elementHandle(), { timeout: 20000 });
    const rows = await panel.evaluate((e) => window.parallax.panels.find((p) => p.root === e).canvas.list.rows);
    const box = await panel.locator('canvas').boundingBox();
    const a = await at(0.3), b = await at(0.7);
    await page.keyboard.down('Shift');
    await page.mouse.move(a.x, box.y + rows[0][1] + 2);
    await page.mouse.down();
    await page.mouse.move(b.x, box.y + rows[rows.length - 1][1] + 2, { steps: 4 });
    await page.mouse.up();
    await page.keyboard.up('Shift');
    await panel.locator('.area-stats tr[data-label]').first().waitFor({ timeout: 10000 });
    const outside = await panel.evaluate((p) => {
      const r = p.getBoundingClientRect();
      return [...p.querySelectorAll('button, select, input')].filter((x) => {
        const b = x.getBoundingClientRect();
        return b.width && (b.right > r.right + 0.5 || b.left < r.left - 0.5);
      }).map((x) => x.textContent || x.getAttribute('aria-label'));
    });
    check(!outside.length, `controls stick out of the window at 1280 px: ${outside.join(', ')}`);
    check(await page.evaluate(() => document.documentElement.scrollWidth) <= 1280, 'the page is wider than 1280 px');
    await shot('10-1280x720');
    await page.keyboard.press('Escape');
    await page.setViewportSize({ width: 1500, height: 1000 });
  }],
  ['the analyzer follows its control window\'s zoom', async () => {
    await page.locator('#files li.dir', { hasText: '..' }).click();
    await page.locator('#files li.dir', { hasText: 'cfgs' }).click();
    await page.locator('#files li.cfg', { hasText: 'mpi_stats.cfg' }).click();
    await page.locator('#cfg-details button.open-cfg').click();
    const mpi = page.locator('#windows > section.timeline[data-window="MPI call"]');
    const analyzer = page.locator('#windows > section.analyzer').first();
    await waitFrame(mpi);
    await analyzer.locator('table.analyzer td').first().waitFor();
    const [a, b] = [500000000, 2500000000];
    await mpi.locator('input.begin-time').fill('0.5 s');
    await mpi.locator('input.end-time').fill('2.5 s');
    await mpi.locator('input.end-time').press('Enter');
    await page.waitForFunction(([e, from, to]) => e.dataset.from === String(from) && e.dataset.to === String(to),
      [await analyzer.elementHandle(), a, b], { timeout: 30000 });
    check((await analyzer.locator('.analysis-range').textContent()).includes('(MPI call)'), 'the analyzer does not say it follows MPI call');
    // % of time inside an MPI call for THREAD 1.1.1 over [a, b), from the .prv's MPI events.
    const mpiTypes = new Set(['50000001', '50000002', '50000003', '50000004', '50000005']);
    const changes = [];
    for (const l of prv.split('\n')) {
      if (!l.startsWith('2:')) continue;
      const f = l.split(':');
      if (f[2] !== '1' || f[3] !== '1' || f[4] !== '1') continue;
      for (let i = 6; i + 1 < f.length; i += 2) if (mpiTypes.has(f[i])) changes.push([Number(f[5]), Number(f[i + 1])]);
    }
    changes.sort((x, y) => x[0] - y[0]);
    let inside = 0;
    for (let i = 0; i < changes.length; i += 1) {
      if (changes[i][1] === 0) continue;
      const end = i + 1 < changes.length ? changes[i + 1][0] : Infinity;
      inside += Math.max(0, Math.min(end, b) - Math.max(changes[i][0], a));
    }
    const expected = (100 * inside) / (b - a);
    const shown = await analyzer.evaluate((e) => {
      const t = window.parallax.panels.find((p) => p.root === e).table;
      const p = t.planes[0];
      const r = p.rows.indexOf('THREAD 1.1.1');
      return p.values[r].reduce((s, v, c) => s + (p.column_ranges[c][0] !== 0 ? v || 0 : 0), 0);
    });
    check(Math.abs(shown - expected) < 0.01, `the analyzer shows ${shown}% in MPI for THREAD 1.1.1 over 0.5-2.5 s, the .prv ${expected}%`);
    await analyzer.scrollIntoViewIfNeeded();
    await shot('11-analyzer-follows');
    // Unchecked: the cfg's limits (the whole trace) again.
    await analyzer.locator('label.follow input').uncheck();
    await page.waitForFunction((e) => e.dataset.from === '', await analyzer.elementHandle(), { timeout: 30000 });
    check((await analyzer.locator('.analysis-range').textContent()).includes('cfg'), 'unchecked, the analyzer does not say it uses the cfg\'s limits');
  }],
  ['histogram properties: sort the columns by their total, saved to the cfg', async () => {
    const analyzer = page.locator('#windows > section.analyzer').first();
    const planeOf = () => analyzer.evaluate((e) => {
      const p = window.parallax.panels.find((x) => x.root === e).table.planes[0];
      return { columns: p.columns, total: p.totals[p.total_names.indexOf('Total')] };
    });
    const before = await planeOf();
    await analyzer.locator('button.hist-properties').click();
    const dialog = page.locator('dialog#histogram-properties');
    await dialog.waitFor();
    check(await dialog.locator('select[aria-label="statistic"]').inputValue() === '% Time', 'the dialog does not show the statistic');
    await dialog.locator('label.sort-columns input').check();
    await dialog.locator('select.sort-criteria').selectOption('Total');
    await dialog.locator('button.apply').click();
    await dialog.waitFor({ state: 'hidden', timeout: 10000 });
    await page.waitForFunction((e) => {
      const p = window.parallax.panels.find((x) => x.root === e).doc.document.histograms[0];
      return p.sort_columns && p.sort_criteria === 'Total';
    }, await analyzer.elementHandle(), { timeout: 10000 });
    await page.waitForFunction(([e, cols]) => {
      const t = window.parallax.panels.find((x) => x.root === e).table;
      return t && t.planes[0].columns.join('|') !== cols;
    }, [await analyzer.elementHandle(), before.columns.join('|')], { timeout: 20000 });
    const after = await planeOf();
    check(after.total.every((v, k) => k === 0 || after.total[k - 1] >= v), `the columns are not by decreasing total: ${after.total}`);
    check([...after.columns].sort().join() === [...before.columns].sort().join(), 'sorting changed the set of columns');
    const headers = await analyzer.locator('table.analyzer tr').first().locator('th').allTextContents();
    check(headers.slice(1).join('|') === after.columns.join('|'), `the table shows ${headers.join(', ')}, not the sorted columns`);
    await analyzer.scrollIntoViewIfNeeded();
    await shot('12-histogram-sorted');
    page.once('dialog', (d) => d.accept('cfgs/mpi_sorted.cfg'));
    await page.locator('#windows > section.timeline[data-window="MPI call"] button.save-cfg').click();
    await page.waitForFunction(() => document.getElementById('status').textContent.startsWith('saved'), null, { timeout: 10000 });
    const saved = fs.readFileSync(path.join(root, 'cfgs/mpi_sorted.cfg'), 'utf8');
    check(saved.includes('Analyzer2D.SortCols: True') && saved.includes('Analyzer2D.SortCriteria: Total'),
      'the saved cfg does not sort the columns by Total');
  }],
];

await runSteps('navigation', steps, { browser, server, problems, shot, root });
