// Browser test of the rows of a timeline window (issue 36): a collapsed group is drawn as one
// summary row (its name and how many rows it holds; the dominant state of its rows in each pixel
// column), with collapse and expand all; a row can be pinned (right click, or a click on its
// label): drawn first, it stays at the top of its window while the rest scrolls, and the
// permalink keeps it; and the labels of a frame never overlap, even in a narrow window. Each
// check failed before its fix.
//
//   node tests/e2e/ui_rows_test.mjs PARALLAX_BINARY TESTS_DATA_DIR OUT_DIR

import fs from 'node:fs';
import path from 'node:path';
import { check, frames, launch, makeRoot, runSteps, startServer, testArgs, waitFrame } from './lib.mjs';

const [binary, data, out] = testArgs('ui_rows_test.mjs');
const root = makeRoot(['prv.gz', 'pcf', 'row'].map((x) => [path.join(data, `epoch/epoch_4proc.${x}`), `epoch/epoch_4proc.${x}`]));

// 16 tasks of 4 threads over [0, 1000) ns: task 1 Running (1) all along; task 2 with three of
// its threads Running and one in state 3 on [0, 500), then three in state 3 and one Running;
// the others in state 3 all along. TASK 1.2's summary row is Running, then state 3 (the
// dominant state; the maximum of its rows would be 3 all along).
const TASKS = 16, THREADS = 4;
const lines = [`#Paraver (01/01/2026 at 10:00):1000_ns:1(${TASKS * THREADS}):1:${TASKS}(${Array(TASKS).fill(`${THREADS}:1`).join(',')})`];
for (let k = 1; k <= TASKS; k += 1) {
  for (let t = 1; t <= THREADS; t += 1) {
    const cpu = (k - 1) * THREADS + t;
    const state = (half) => (k === 1 ? 1 : k === 2 ? ((t === 4) === (half === 0) ? 3 : 1) : 3);
    lines.push(`1:${cpu}:1:${k}:${t}:0:500:${state(0)}`, `1:${cpu}:1:${k}:${t}:500:1000:${state(1)}`);
  }
}
fs.mkdirSync(path.join(root, 'rows'));
fs.writeFileSync(path.join(root, 'rows/tasks.prv'), lines.join('\n') + '\n');

const server = await startServer(binary, root);
const { browser, page, problems } = await launch();
const shot = (name) => page.screenshot({ path: path.join(out, `rows-${name}.png`) });
let panel;

const rowsOf = (p) => p.evaluate((e) => window.parallax.panels.find((x) => x.root === e).canvas.list.rows);
// The colour of the canvas at a fraction of the timeline area's width, in the middle of a row.
const colourAt = (p, row, fraction) => p.evaluate((e, [r, f]) => {
  const c = window.parallax.panels.find((x) => x.root === e).canvas;
  const [ax, , aw] = c.list.area;
  const d = c.canvas.getContext('2d').getImageData(Math.round(ax + f * aw), Math.round(r[1] + r[2] / 2), 1, 1).data;
  return [d[0], d[1], d[2]].join(',');
}, [row, fraction]);

async function openTrace(dir, name) {
  await page.waitForFunction(() => document.querySelector('#cwd').textContent.startsWith('/'));
  if (await page.locator('#cwd').textContent() !== '/') {
    await page.locator('#files li.dir', { hasText: /^\.\.$/ }).click();
    await page.waitForFunction(() => document.querySelector('#cwd').textContent === '/');
  }
  await page.locator('#files li.dir', { hasText: dir }).click();
  await page.locator('#files li.trace', { hasText: name }).click();
}

const steps = [
  ['open a trace of 16 tasks of 4 threads', async () => {
    await page.goto(server.url);
    await openTrace('rows', 'tasks.prv');
    panel = page.locator('#windows > section.timeline').first();
    await waitFrame(panel);
    check((await rowsOf(panel)).length === TASKS * THREADS, `${(await rowsOf(panel)).length} rows`);
  }],
  ['a collapsed group is one summary row: its name, its count, the dominant state; the permalink keeps it', async () => {
    await panel.locator('button.rows').click();
    const tree = panel.locator('.row-groups');
    await tree.locator('button.group[data-group="TASK 1.2"]').waitFor({ timeout: 10000 });
    let n = await frames(panel);
    await tree.locator('button.group[data-group="TASK 1.2"]').click();
    n = await waitFrame(panel, n);
    const rows = await rowsOf(panel);
    check(rows.length === TASKS * THREADS - THREADS + 1, `with TASK 1.2 collapsed there are ${rows.length} rows`);
    const summary = rows[THREADS];
    check(summary[0] === `TASK 1.2 (${THREADS})` && summary[4] === THREADS, `the row after TASK 1.1's is ${JSON.stringify(summary)}`);
    check(rows[THREADS + 1][0] === 'THREAD 1.3.1', `the summary row is followed by ${rows[THREADS + 1][0]}`);
    const running = await colourAt(panel, rows[0], 0.25), other = await colourAt(panel, rows[THREADS + 1], 0.25);
    check(running !== other, 'Running and state 3 have the same colour');
    const first = await colourAt(panel, summary, 0.25), second = await colourAt(panel, summary, 0.75);
    check(first === running, `the summary row's first half is ${first}, not Running (${running}), its threads' dominant state`);
    check(second === other, `the summary row's second half is ${second}, not state 3 (${other})`);
    // Its tooltip says what it summarises: at a quarter, three threads Running and one in state 3.
    const canvasBox = await panel.locator('canvas').boundingBox();
    const area = await panel.evaluate((e) => window.parallax.panels.find((x) => x.root === e).canvas.list.area);
    await page.mouse.move(canvasBox.x + area[0] + 0.25 * area[2], canvasBox.y + summary[1] + summary[2] / 2);
    const tip = panel.locator('.tooltip');
    await page.waitForFunction((t) => t.dataset.summary === '4' && !t.hidden, await tip.elementHandle(), { timeout: 10000 });
    const tipText = await tip.textContent();
    check(/TASK 1\.2: summary of 4 rows/.test(tipText) && /(?:value 1|\(1\)): 3 rows; (?:value 3|\(3\)): 1 row(?!s)/.test(tipText),
      `the summary row's tooltip says: ${tipText}`);
    await shot('01b-summary-tooltip');
    await page.mouse.move(canvasBox.x + area[0] + 0.25 * area[2], canvasBox.y + rows[0][1] + rows[0][2] / 2);
    await page.waitForFunction((t) => t.dataset.summary === undefined && t.textContent.includes('THREAD 1.1.1'), await tip.elementHandle(), { timeout: 10000 });
    await page.mouse.move(0, 0);
    await shot('01-summary-row');
    // The permalink keeps the collapsed group: a new page opened on it draws the summary row.
    await page.waitForFunction(() => location.hash.includes('groups=0%3ATASK+1.2'), null, { timeout: 10000 });
    const link = await page.evaluate(() => location.href);
    const p2 = await page.context().newPage();
    await p2.goto(link);
    await p2.waitForFunction((threads) => {
      const p = window.parallax && window.parallax.panels.find((x) => x.canvas && x.canvas.list);
      const rows = p && p.canvas.list.rows;
      return rows && rows[threads] && rows[threads][0] === `TASK 1.2 (${threads})` && rows[threads + 1][0] === 'THREAD 1.3.1';
    }, THREADS, { timeout: 30000 });
    await p2.close();
    // Collapse all: a summary row per task; expand all: every thread again.
    await tree.locator('button.collapse-all').click();
    n = await waitFrame(panel, n);
    const all = await rowsOf(panel);
    check(all.length === TASKS && all.every((r, i) => r[0] === `TASK 1.${i + 1} (${THREADS})` && r[4] === THREADS),
      `collapse all drew ${all.map((r) => r[0]).join(', ')}`);
    await shot('02-collapse-all');
    await tree.locator('button.expand-all').click();
    n = await waitFrame(panel, n);
    check((await rowsOf(panel)).length === TASKS * THREADS, 'expand all did not bring every row back');
    await panel.locator('button.rows').click();
  }],
  ['a pinned row is drawn first and stays at the top of its window while the rest scrolls', async () => {
    // Right click on THREAD 1.3.2: the menu pins it.
    let rows = await rowsOf(panel);
    const target = rows.find((r) => r[0] === 'THREAD 1.3.2');
    const box = await panel.locator('canvas').boundingBox();
    const area = await panel.evaluate((e) => window.parallax.panels.find((x) => x.root === e).canvas.list.area);
    let n = await frames(panel);
    await page.mouse.click(box.x + area[0] + 50, box.y + target[1] + target[2] / 2, { button: 'right' });
    await panel.locator('.row-menu button.pin-row').click();
    n = await waitFrame(panel, n);
    rows = await rowsOf(panel);
    check(rows[0][0] === 'THREAD 1.3.2', `after pinning the first row is ${rows[0][0]}`);
    // A click on the label of THREAD 1.9.4 pins it too, under the first.
    const last = rows.find((r) => r[0] === 'THREAD 1.9.4');
    await page.mouse.click(box.x + 20, box.y + last[1] + last[2] / 2);
    n = await waitFrame(panel, n);
    rows = await rowsOf(panel);
    check(rows[0][0] === 'THREAD 1.3.2' && rows[1][0] === 'THREAD 1.9.4' && rows.length === TASKS * THREADS,
      `after pinning two rows the rows begin ${rows.slice(0, 3).map((r) => r[0]).join(', ')}`);
    // A second window below, so that the page scrolls; then scroll the first window's top away.
    await page.evaluate(() => window.parallax.openFunction('State As Is', [], 'rows/tasks.prv'));
    await waitFrame(page.locator('#windows > section.timeline').nth(1));
    const scrolled = await panel.evaluate((e) => {
      const work = document.getElementById('work');
      work.scrollTop += e.querySelector('canvas').getBoundingClientRect().top - work.getBoundingClientRect().top + 300;
      return work.scrollTop;
    });
    check(scrolled > 300, `the windows scroll by ${scrolled} px only`);
    await page.waitForTimeout(100);
    const strip = await panel.evaluate((e) => {
      const s = e.querySelector('.pinned-rows'), work = document.getElementById('work').getBoundingClientRect();
      const c = e.querySelector('canvas').getBoundingClientRect();
      const r = s.getBoundingClientRect();
      return { hidden: s.hidden, top: r.top - work.top, canvasTop: c.top - work.top, height: r.height, rows: s.dataset.rows };
    });
    check(!strip.hidden && strip.rows === '9,35', `the strip of pinned rows: ${JSON.stringify(strip)}`);
    check(strip.canvasTop < -200 && Math.abs(strip.top - 8) <= 9, `the strip is ${strip.top} px from the top of the windows (the canvas at ${strip.canvasTop})`);
    // It shows the pinned rows: THREAD 1.9.4 is in state 3 on its line of the strip.
    const stripColour = await panel.evaluate((e, r) => {
      const p = window.parallax.panels.find((x) => x.root === e);
      const d = p.strip.getContext('2d').getImageData(p.canvas.list.area[0] + 10, Math.round(r[1] + r[2] / 2), 1, 1).data;
      return [d[0], d[1], d[2]].join(',');
    }, rows[1]);
    check(stripColour === await colourAt(panel, rows[1], 0), `the strip shows ${stripColour} for THREAD 1.9.4`);
    await shot('03-pinned-rows-scrolled');
    await page.evaluate(() => { document.getElementById('work').scrollTop = 0; });
  }],
  ['the permalink keeps the pinned rows; unpinning puts them back', async () => {
    await page.waitForFunction(() => location.hash.includes('pins=0%3A10%2C36'), null, { timeout: 10000 });
    const link = await page.evaluate(() => location.href);
    check(!link.includes('token'), `the link carries the token: ${link}`);
    const p2 = await page.context().newPage();
    await p2.goto(link);
    await p2.waitForFunction(() => {
      const p = window.parallax && window.parallax.panels.find((x) => x.canvas && x.canvas.list);
      return p && p.canvas.list.rows[0][0] === 'THREAD 1.3.2' && p.canvas.list.rows[1][0] === 'THREAD 1.9.4';
    }, null, { timeout: 30000 });
    await p2.close();
    let n = await frames(panel);
    const rows = await rowsOf(panel);
    const box = await panel.locator('canvas').boundingBox();
    await page.mouse.click(box.x + 200, box.y + rows[0][1] + rows[0][2] / 2, { button: 'right' });
    check((await panel.locator('.row-menu button.pin-row').textContent()).startsWith('Unpin'), 'the menu of a pinned row does not unpin');
    await panel.locator('.row-menu button.pin-row').click();
    n = await waitFrame(panel, n);
    const now = await rowsOf(panel);
    check(now[0][0] === 'THREAD 1.9.4', `after unpinning THREAD 1.3.2 the first row is ${now[0][0]}`);
    await page.mouse.click(box.x + 20, box.y + now[0][1] + now[0][2] / 2);  // its label: unpin
    n = await waitFrame(panel, n);
    const back = await rowsOf(panel);
    check(back.every((r, i) => r[3] === i), `unpinned, the rows are ${back.slice(0, 3).map((r) => r[0]).join(', ')}...`);
    check(await panel.locator('.pinned-rows').isHidden(), 'the strip stays with no row pinned');
  }],
  ['the labels of a frame never overlap, in narrow windows too', async () => {
    await page.locator('#close-all').click();
    await openTrace('epoch', 'epoch_4proc.prv.gz');
    const p = page.locator('#windows > section.timeline').first();
    await waitFrame(p);
    // Label rectangles of the draw lists the server makes for this window's requests at several
    // widths and ranges: the bitmap font's glyphs are 5 pixels wide, 6 apart, 7 high.
    const bad = await p.evaluate(async (e) => {
      const panelOf = window.parallax.panels.find((x) => x.root === e);
      const problems = [];
      for (const width of [160, 200, 320, 640]) {
        for (const [from, to] of [[0, 6082352213], [1000000000, 1000000050], [1000000000, 1000005000], [5000000000, 5000123457]]) {
          const r = await fetch('/api/timeline', { method: 'POST', headers: { 'Content-Type': 'application/json' },
            body: JSON.stringify({ ...panelOf.requestFor({ from, to }), width, format: 'json' }) });
          const list = await r.json();
          const boxes = list.texts.map(([x, y, text, , anchor]) => {
            const w = 6 * text.length - 1;
            const x0 = anchor === 'l' ? x : anchor === 'r' ? x - w : x - Math.floor(w / 2);
            return { x0, x1: x0 + w, y0: y, y1: y + 7, text };
          });
          for (const [i, a] of boxes.entries()) {
            if (a.x0 < 0 || a.x1 > list.width) problems.push(`'${a.text}' outside the ${width} px image over ${from}-${to}`);
            for (const b of boxes.slice(i + 1)) {
              if (a.x1 + 1 >= b.x0 && b.x1 + 1 >= a.x0 && a.y1 > b.y0 && b.y1 > a.y0) {
                problems.push(`'${a.text}' and '${b.text}' touch at ${width} px over ${from}-${to}`);
              }
            }
          }
        }
      }
      return problems;
    });
    check(bad.length === 0, `labels collide:\n${bad.join('\n')}`);
  }],
];

await runSteps('rows', steps, { browser, server, problems, shot, root });
