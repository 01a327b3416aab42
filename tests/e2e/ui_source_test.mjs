// Browser test of click-back (issue 19 item 6): an event whose value label is a source location
// ("LINE (FILE, MODULE)", type 80000001 as the tracing library writes it) links, in the textual
// view, to a source panel at that line of the file under the served root; a line of the panel
// marks the events generated there in the timeline, with their count (click-forward); Esc
// closes the panel.
// The trace is written here: one thread, caller line events every 5 ns pointing at three lines
// of a small C file copied into the root.
//
//   node tests/e2e/ui_source_test.mjs PARALLAX_BINARY TESTS_DATA_DIR OUT_DIR

import fs from 'node:fs';
import path from 'node:path';
import { check, launch, makeRoot, runSteps, startServer, testArgs, waitFrame } from './lib.mjs';

const [binary, data, out] = testArgs('ui_source_test.mjs');

const root = makeRoot([]);
const source = ['#include <mpi.h>', '', 'int main(int argc, char** argv) {', '  MPI_Init(&argc, &argv);',
  '  int rank;', '  MPI_Comm_rank(MPI_COMM_WORLD, &rank);', '  MPI_Barrier(MPI_COMM_WORLD);', '  MPI_Finalize();',
  '  return 0;', '}'];
fs.mkdirSync(path.join(root, 'src'));
fs.writeFileSync(path.join(root, 'src/demo.c'), source.join('\n') + '\n');
// Value → source line; the labels name the file as a build directory would (only its name is
// under the root), as the tracing library and Extrae do.
const lines = new Map([[1, 4], [2, 6], [3, 7]]);
const prv = ['#Paraver (01/01/2024 at 10:00):1000_ns:1(1):1:1(1:1)', '1:1:1:1:1:0:1000:1'];
for (let t = 5, k = 0; t < 1000; t += 5, k += 1) prv.push(`2:1:1:1:1:${t}:80000001:${(k % 3) + 1}`);
fs.writeFileSync(path.join(root, 'demo.prv'), prv.join('\n') + '\n');
fs.writeFileSync(path.join(root, 'demo.pcf'), ['STATES', '0    Idle', '1    Running', '', 'EVENT_TYPE',
  '0    80000001    Caller line', 'VALUES', ...[...lines].map(([v, l]) => `${v}   ${l} (/build/demo/demo.c, demo)`), '', ''].join('\n'));

const server = await startServer(binary, root);
const { browser, page, problems } = await launch();
const shot = (name) => page.screenshot({ path: path.join(out, `source-${name}.png`) });
const sourcePanel = page.locator('#source-panel');
let panel;

const steps = [
  ['open the trace and the textual view', async () => {
    await page.goto(server.url);
    await page.locator('#files li.trace', { hasText: 'demo.prv' }).click();
    panel = page.locator('#windows > section.timeline').first();
    await waitFrame(panel);
    const box = await panel.locator('canvas').boundingBox();
    const [, rowY, rowH] = await panel.evaluate((e) => window.parallax.panels.find((p) => p.root === e).canvas.list.rows[0]);
    await page.mouse.click(box.x + box.width * 0.5, box.y + rowY + rowH / 2);
    await panel.locator('.text-view table.text-events a.source-link').first().waitFor({ timeout: 20000 });
    const links = await panel.locator('.text-view table.text-events a.source-link').count();
    const rows = await panel.locator('.text-view table.text-events tr').count() - 1;
    check(links === rows && links > 0, `${links} of the ${rows} caller line events link to their source`);
  }],
  ['a link opens the source at its line', async () => {
    const link = panel.locator('.text-view table.text-events a.source-link').first();
    const text = await link.textContent();
    const value = Number(text.split(' ')[0]);
    const line = lines.get(value);
    check(line !== undefined, `the link reads '${text}'`);
    await link.click();
    await sourcePanel.waitFor({ state: 'visible', timeout: 10000 });
    check(await sourcePanel.locator('.source-path').textContent() === `src/demo.c:${line}`,
      `the panel is titled '${await sourcePanel.locator('.source-path').textContent()}', not src/demo.c:${line}`);
    const current = sourcePanel.locator('li.current');
    check(await current.count() === 1, `${await current.count()} lines are highlighted`);
    check(await current.textContent() === source[line - 1], `the highlighted line reads '${await current.textContent()}', not line ${line}`);
    check(await sourcePanel.locator('li').count() === source.length, 'the panel does not show the whole (short) file');
    check(await current.evaluate((e) => e.value) === line, 'the highlighted line is numbered wrong');
    await shot('01-panel');
  }],
  ['a line of the panel marks its events in the timeline', async () => {
    // Line 7 is value 3's: the events the test counts in the .prv it wrote.
    const expected = prv.filter((l) => l.startsWith('2:') && l.endsWith(':80000001:3')).length;
    await sourcePanel.locator('li').nth(6).click();
    await page.waitForFunction(() => document.querySelector('#source-panel').dataset.count !== undefined, null, { timeout: 20000 });
    const count = Number(await sourcePanel.getAttribute('data-count'));
    check(count === expected, `the panel counts ${count} events of line 7, the .prv has ${expected}`);
    check(await sourcePanel.getAttribute('data-marked') === '7', 'the marked line is not line 7');
    const marks = await panel.evaluate((e) => window.parallax.panels.find((p) => p.root === e).canvas.overlays.get('source'));
    check(marks.length === expected, `${marks.length} marks are drawn, not ${expected}`);
    const times = prv.filter((l) => l.endsWith(':80000001:3')).map((l) => Number(l.split(':')[5]));
    check(JSON.stringify(marks.map((m) => m.time)) === JSON.stringify(times), 'the marks are not at the events of line 7');
    check((await sourcePanel.locator('.source-count').textContent()).startsWith(`${expected} events of line 7`),
      `the panel reads '${await sourcePanel.locator('.source-count').textContent()}'`);
    await shot('02-marks');
  }],
  ['a second window over the same range does not double the count (issue 36)', async () => {
    // The panel summed the windows' counts: two windows showing the same events read twice as many.
    const expected = prv.filter((l) => l.startsWith('2:') && l.endsWith(':80000001:3')).length;
    await page.evaluate(() => window.parallax.openFunction('State As Is', [], 'demo.prv'));
    const second = page.locator('#windows > section.timeline').nth(1);
    await waitFrame(second);
    await page.waitForFunction((n) => JSON.parse(document.querySelector('#source-panel').dataset.counts || '[]').length === n, 2,
      { timeout: 20000 });
    const counts = JSON.parse(await sourcePanel.getAttribute('data-counts'));
    check(counts.every((c) => c === expected), `the windows count ${counts}, the .prv has ${expected}`);
    check(Number(await sourcePanel.getAttribute('data-count')) === expected,
      `the panel says ${await sourcePanel.getAttribute('data-count')} events, the .prv has ${expected}`);
    check((await sourcePanel.locator('.source-count').textContent()).startsWith(`${expected} events of line 7 in the ranges shown`),
      `the panel reads '${await sourcePanel.locator('.source-count').textContent()}'`);
    await second.locator('button.close').click();
    await page.waitForFunction(() => document.querySelectorAll('#windows > section.timeline').length === 1);
  }],
  ['the marks follow zooms and pans', async () => {
    // Line 7's events in [from, to), from the .prv.
    const line7 = prv.filter((l) => l.endsWith(':80000001:3')).map((l) => Number(l.split(':')[5]));
    const marksIn = async (from, to) => {
      const expected = line7.filter((t) => t >= from && t < to);
      await page.waitForFunction(([e, f, t]) => e.dataset.sourceFrom === String(f) && e.dataset.sourceTo === String(t),
        [await panel.elementHandle(), from, to], { timeout: 20000 });
      const marks = await panel.evaluate((e) => window.parallax.panels.find((p) => p.root === e).canvas.overlays.get('source'));
      check(JSON.stringify(marks.map((m) => m.time)) === JSON.stringify(expected),
        `over ${from}-${to} the marks are at ${marks.map((m) => m.time).slice(0, 5)}..., the .prv's line 7 events at ${expected.slice(0, 5)}...`);
      await page.waitForFunction((n) => document.querySelector('#source-panel').dataset.count === String(n), expected.length, { timeout: 10000 });
      return expected.length;
    };
    await panel.locator('input.begin-time').fill('100 ns');
    await panel.locator('input.end-time').fill('300 ns');
    await panel.locator('input.end-time').press('Enter');
    const n = await marksIn(100, 300);
    check(n > 0 && n < line7.length, `${n} of ${line7.length} events in 100-300 ns`);
    check((await sourcePanel.locator('.source-count').textContent()).startsWith(`${n} events of line 7`), 'the count was not updated after the zoom');
    await shot('03-marks-zoomed');
    const box = await panel.locator('canvas').boundingBox();
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.keyboard.press('d');  // a fifth of the view later
    await marksIn(140, 340);
  }],
  ['Esc closes the panel and clears the marks', async () => {
    await page.keyboard.press('Escape');
    await sourcePanel.waitFor({ state: 'hidden', timeout: 5000 });
    await page.waitForFunction(() => !window.parallax.panels[0].canvas.overlays.get('source'), null, { timeout: 5000 });
    await shot('04-closed');
  }],
];

await runSteps('click-back', steps, { browser, server, problems, shot, root });
