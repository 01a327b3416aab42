// Browser test of `parallax serve`: Debian's chromium, driven by playwright-core, goes through
// the UI as a user would (tests/e2e/README.md lists the steps) and checks what the page shows.
//
//   node tests/e2e/ui_test.mjs PARALLAX_BINARY TESTS_DATA_DIR OUT_DIR
//
// Screenshots of each step are written to OUT_DIR; tests/e2e/screenshots/ keeps the ones that
// were looked at.

import fs from 'node:fs';
import path from 'node:path';
import { check, dragZoom, frames, launch, makeRoot, paintedPixels, startServer, waitFrame } from './lib.mjs';

const [binary, data, out] = process.argv.slice(2);
if (!binary || !data || !out) {
  console.error('usage: node tests/e2e/ui_test.mjs PARALLAX_BINARY TESTS_DATA_DIR OUT_DIR');
  process.exit(2);
}
fs.mkdirSync(out, { recursive: true });

const cfgs = path.join(data, 'cfg/bsc');
const root = makeRoot([
  ...['epoch_2proc', 'epoch_4proc'].flatMap((t) => ['prv.gz', 'pcf', 'row'].map((x) => [path.join(data, 'epoch', `${t}.${x}`), `epoch/${t}.${x}`])),
  [path.join(cfgs, 'mpi/analysis/mpi_stats.cfg'), 'cfgs/mpi_stats.cfg'],
  [path.join(cfgs, 'mpi/views/MPI_call.cfg'), 'cfgs/MPI_call.cfg'],
  [path.join(cfgs, 'General/views/state_duration.cfg'), 'cfgs/state_duration.cfg'],
  [path.join(cfgs, 'mpi/analysis/3dh_duration_MPIcall.cfg'), 'cfgs/3dh_duration_MPIcall.cfg'],
]);

let step = 'start';
const server = await startServer(binary, root);
const { browser, page, problems } = await launch();
const shot = (name) => page.screenshot({ path: path.join(out, `${name}.png`) });
const panels = page.locator('#windows > section.timeline');

async function run() {
  step = 'the page needs the token';
  const bare = await page.request.get(server.url.replace(/\?token=\w+/, ''));
  check(bare.status() === 403, `GET / without the token gave ${bare.status()}, expected 403`);

  step = 'open the example trace';
  await page.goto(server.url);
  await page.locator('#files li.dir', { hasText: 'epoch' }).click();
  await page.locator('#files li.trace', { hasText: 'epoch_2proc.prv.gz' }).click();
  await panels.first().waitFor();
  const first = panels.first();
  await waitFrame(first);
  check((await page.locator('#trace-info').textContent()).includes('2 tasks'), 'the trace summary does not show 2 tasks');
  check(await paintedPixels(first) > 5000, 'the timeline canvas is (almost) empty');
  check((await page.locator('#traces li').count()) === 1, 'the trace is not listed among the open traces');
  await shot('01-open-trace');

  step = 'zoom by dragging';
  const full = { from: Number(await first.getAttribute('data-from')), to: Number(await first.getAttribute('data-to')) };
  check(full.from === 0 && full.to > 0, `the first frame shows ${full.from}-${full.to}, not the whole trace`);
  let n = await frames(first);
  await dragZoom(page, first, 0.3, 0.5);
  n = await waitFrame(first, n);
  const zoomed = { from: Number(await first.getAttribute('data-from')), to: Number(await first.getAttribute('data-to')) };
  check(zoomed.from > full.from && zoomed.to < full.to, `dragging did not zoom in: ${zoomed.from}-${zoomed.to}`);
  console.log(`zoom: ${full.from}-${full.to} -> ${zoomed.from}-${zoomed.to} in ${await first.getAttribute('data-latency')} ms`);
  await shot('02-zoomed');

  step = 'undo, redo, pan and fit';
  await first.locator('button.undo').click();
  n = await waitFrame(first, n);
  check(Number(await first.getAttribute('data-to')) === full.to, 'undo did not return to the whole trace');
  await first.locator('button.redo').click();
  n = await waitFrame(first, n);
  check(Number(await first.getAttribute('data-from')) === zoomed.from, 'redo did not return to the zoom');
  await first.locator('button.pan-right').click();
  n = await waitFrame(first, n);
  check(Number(await first.getAttribute('data-from')) > zoomed.from, 'pan right did not move the range');
  await first.locator('button.fit').click();
  n = await waitFrame(first, n);
  check(Number(await first.getAttribute('data-to')) === full.to, 'fit did not show the whole trace');

  step = 'click for the textual view';
  const box = await first.locator('canvas').boundingBox();
  const list = await first.locator('canvas').evaluate(() => window.parallax.panels[0].canvas.list);
  const [, rowY, rowH] = list.rows[0];
  await page.mouse.click(box.x + box.width * 0.5, box.y + rowY + rowH / 2);
  const text = first.locator('.text-view');
  await text.locator('table.text-values tr').nth(1).waitFor();
  const heading = await text.locator('h4').textContent();
  check(heading.startsWith('THREAD 1.1.1 at'), `the textual view is about '${heading}', not THREAD 1.1.1`);
  check(await text.locator('table.text-values tr').count() >= 2, 'the textual view lists no value');
  await shot('03-textual-view');

  step = 'toggles: colour mode, flags, communication lines';
  await first.locator('select.color-mode').selectOption('gradient');
  n = await waitFrame(first, n);
  const doc = await page.evaluate(() => window.parallax.panels[0].doc.text);
  check(/window_color_mode\s+window_in_gradient_mode/.test(doc), 'the colour mode did not reach the cfg');
  await first.locator('label.flags input').check();
  n = await waitFrame(first, n);
  check(await page.evaluate(() => window.parallax.panels[0].window.flags) === true, 'flags did not switch on');
  await first.locator('select.color-mode').selectOption('code');
  n = await waitFrame(first, n);

  step = 'window properties: change the function';
  await first.locator('button.properties').click();
  const dialog = page.locator('dialog#properties');
  await dialog.waitFor();
  await shot('04-properties');
  await dialog.locator('.slot[data-slot="thread"] select.function').selectOption('Last Evt Val');
  await dialog.locator('button.apply').click();
  await dialog.waitFor({ state: 'hidden' });
  n = await waitFrame(first, n);
  check(await page.evaluate(() => window.parallax.panels[0].window.functions.find((f) => f.slot === 'thread').name) === 'Last Evt Val',
    'the thread function did not change to Last Evt Val');

  step = 'derived window from two windows';
  await first.locator('button.derived').click();
  await dialog.locator('select.function').selectOption('product');
  await dialog.locator('button.apply').click();
  await dialog.waitFor({ state: 'hidden' });
  await page.waitForFunction(() => document.querySelectorAll('#windows > section.timeline').length === 2);
  await waitFrame(panels.nth(1));
  check((await panels.nth(1).getAttribute('data-window')).startsWith('Derived'), 'the derived window has another name');
  await shot('05-derived');
  await panels.nth(1).locator('button.close').click();

  step = 'cfg browser and analyzer';
  await page.locator('#files li.dir', { hasText: '..' }).click();
  await page.locator('#files li.dir', { hasText: 'cfgs' }).click();
  await page.locator('#files li.cfg', { hasText: 'state_duration.cfg' }).click();
  check((await page.locator('#cfg-details').textContent()).length > 20, 'the cfg browser shows no description');
  await page.locator('#files li.cfg', { hasText: 'mpi_stats.cfg' }).click();
  await page.locator('#cfg-details button.open-cfg').click();
  const analyzer = page.locator('#windows > section.analyzer').first();
  await analyzer.locator('table.analyzer td').first().waitFor();
  const stat0 = await analyzer.getAttribute('data-statistic');
  const statistics = await analyzer.locator('select.statistic option').allTextContents();
  check(statistics.length > 5, 'the statistic menu is short');
  const other = statistics.find((s) => s !== stat0 && s === '# Bursts') || statistics.find((s) => s !== stat0);
  await analyzer.locator('select.statistic').selectOption(other);
  await page.waitForFunction((s) => document.querySelector('#windows > section.analyzer').dataset.statistic === s, other);
  const rowsBefore = await analyzer.locator('table.analyzer tr').count();
  await analyzer.locator('label.transpose input').check();
  const rowsAfter = await analyzer.locator('table.analyzer tr').count();
  check(rowsBefore !== rowsAfter || rowsBefore === (await analyzer.locator('table.analyzer tr').first().locator('th').count()),
    'transpose changed nothing');
  await analyzer.locator('label.transpose input').uncheck();
  await shot('06-analyzer');

  step = 'export the table as CSV';
  const [csv] = await Promise.all([page.waitForEvent('download'), analyzer.locator('button.export-csv').click()]);
  const csvText = fs.readFileSync(await csv.path(), 'utf8');
  check(csvText.split('\n').length >= 3 && csvText.includes(','), 'the CSV is empty');

  step = 'click a cell: where in the timeline';
  const before = await panels.count();
  const cell = analyzer.locator('table.analyzer td[data-row="0"]').filter({ hasNotText: /^0$/ }).first();
  await cell.click();
  await page.waitForFunction((k) => document.querySelectorAll('#windows > section.timeline').length > k, before);
  const where = panels.nth(before);
  await waitFrame(where);
  check((await where.locator('h3').textContent()).includes('where'), 'the cell window does not say what it shows');
  check(await page.evaluate((k) => window.parallax.panels.filter((p) => p.highlight)[0].canvas.overlays.get('row') !== null, before),
    'the row of the cell is not outlined');
  await where.scrollIntoViewIfNeeded();
  await shot('07-cell-in-timeline');
  await where.locator('button.close').click();

  step = 'a 3D analyzer: one plane at a time';
  await page.locator('#files li.cfg', { hasText: '3dh_duration_MPIcall.cfg' }).click();
  await page.locator('#cfg-details button.open-cfg').click();
  const cube = page.locator('#windows > section.analyzer[data-histogram="MPI call duration"]');
  await cube.locator('table.analyzer td').first().waitFor();
  const planes = await cube.locator('select[aria-label="plane"] option').allTextContents();
  check(planes.length > 1 && planes.includes('MPI_Barrier'), `the plane menu lists ${planes.join(', ')}`);
  const firstPlane = await cube.locator('table.analyzer').innerText();
  await cube.locator('select[aria-label="plane"]').selectOption({ label: 'MPI_Barrier' });
  check((await cube.locator('table.analyzer').innerText()) !== firstPlane, 'choosing another plane changed nothing');
  // Close every window of that cfg again (its analyzer and its timelines).
  await page.evaluate(() => {
    const app = window.parallax;
    const doc = app.panels.find((p) => p.root.dataset.histogram === 'MPI call duration').doc;
    for (const p of app.panels.filter((x) => x.doc === doc)) p.close();
  });

  step = 'a second trace, synchronised side by side';
  await page.locator('#files li.dir', { hasText: '..' }).click();
  await page.locator('#files li.dir', { hasText: 'epoch' }).click();
  await page.locator('#files li.trace', { hasText: 'epoch_4proc.prv.gz' }).click();
  await page.waitForFunction(() => document.querySelectorAll('#traces li').length === 2);
  // Opening a trace opens its State As Is window.
  await page.locator('#windows > section.timeline[data-trace$="epoch_4proc.prv.gz"]').first().waitFor();
  const count = await panels.count();
  await first.locator('button.compare').click();
  // Compare asks which trace (here the only other one).
  await page.locator('dialog#choose-trace button.apply').click();
  await page.waitForFunction((k) => document.querySelectorAll('#windows > section.timeline').length > k, count);
  const second = panels.nth(count);
  await waitFrame(second);
  check((await second.getAttribute('data-trace')).includes('epoch_4proc'), 'the compared window is not on the second trace');
  // The new panel changes the layout: drag only once every canvas has its final width (a slow
  // server under ASan once let the drag land while the frames were still being redrawn).
  await page.waitForFunction(() => [...document.querySelectorAll('#windows canvas')].every((c) => c.width === c.parentElement.clientWidth),
    null, { timeout: 10000, polling: 50 });
  const unzoomed = [await first.getAttribute('data-from'), await first.getAttribute('data-to')];
  let n1 = await frames(first), n2 = await frames(second);
  await dragZoom(page, first, 0.2, 0.4);
  n1 = await waitFrame(first, n1);
  n2 = await waitFrame(second, n2);
  // A frame already on its way when the drag ended may be the one waited for: wait for the
  // zoomed range on both (the check below says what was seen if it never comes).
  await page.waitForFunction(([a, b, from, to]) => (a.dataset.from !== from || a.dataset.to !== to) &&
      a.dataset.from === b.dataset.from && a.dataset.to === b.dataset.to,
    [await first.elementHandle(), await second.elementHandle(), ...unzoomed], { timeout: 20000, polling: 25 }).catch(() => {});
  const r1 = [await first.getAttribute('data-from'), await first.getAttribute('data-to')];
  const r2 = [await second.getAttribute('data-from'), await second.getAttribute('data-to')];
  check(r1[0] !== unzoomed[0] || r1[1] !== unzoomed[1], `the drag did not zoom the first window: ${r1}`);
  check(r1[0] === r2[0] && r1[1] === r2[1], `the windows are not synchronised: ${r1} vs ${r2}`);
  await first.scrollIntoViewIfNeeded();
  await shot('08-two-traces-synchronised');

  step = 'export PNG and SVG';
  const [png] = await Promise.all([page.waitForEvent('download'), first.locator('button.export-png').click()]);
  const pngBytes = fs.readFileSync(await png.path());
  check(pngBytes.subarray(1, 4).toString() === 'PNG', 'the PNG export is not a PNG');
  const [svg] = await Promise.all([page.waitForEvent('download'), first.locator('button.export-svg').click()]);
  check(fs.readFileSync(await svg.path(), 'utf8').includes('<svg'), 'the SVG export is not an SVG');

  step = 'save the windows as a .cfg';
  // The prompt asks for the path; a confirm asks before replacing an existing file (declined).
  const answer = (d) => (d.type() === 'prompt' ? d.accept('cfgs/saved_from_ui.cfg') : d.dismiss());
  page.on('dialog', answer);
  await first.locator('button.save-cfg').click();
  await page.waitForFunction(() => document.getElementById('status').textContent.startsWith('saved'));
  const saved = fs.readFileSync(path.join(root, 'cfgs/saved_from_ui.cfg'), 'utf8');
  check(saved.startsWith('#ParaverCFG') && saved.includes('Last Evt Val'), 'the saved cfg lacks the edited function');
  await first.locator('button.save-cfg').click();
  await page.waitForFunction(() => document.getElementById('status').className === 'error');
  check(fs.readFileSync(path.join(root, 'cfgs/saved_from_ui.cfg'), 'utf8') === saved, 'declining the replacement changed the file');
  page.off('dialog', answer);

  step = 'save every window of a trace in one cfg';
  await page.locator('#traces li', { hasText: 'epoch_2proc' }).click();
  const all = (d) => (d.type() === 'prompt' ? d.accept('cfgs/all_windows.cfg') : d.dismiss());
  page.on('dialog', all);
  await page.locator('#save-all').click();
  await page.waitForFunction(() => document.getElementById('status').textContent === 'saved cfgs/all_windows.cfg');
  page.off('dialog', all);
  const allText = fs.readFileSync(path.join(root, 'cfgs/all_windows.cfg'), 'utf8');
  const names = [...allText.matchAll(/^window_name (.*)$/gm)].map((m) => m[1]);
  check(names.includes('State As Is') && names.includes('MPI call'), `the cfg of all windows has ${names.join(', ')}`);
  check(allText.includes('Analyzer2D'), 'the analyzer of the first cfg was dropped');
  const units = [...allText.matchAll(/^window_units (.*)$/gm)].map((m) => m[1]);
  check(units.includes('Nanoseconds') && units.includes('Microseconds'), `the windows lost their time units: ${units}`);

  step = 'no browser errors';
  check(problems.length === 0, problems.join('\n'));
}

let code = 0;
try {
  await run();
  console.log('e2e: all UI steps passed');
} catch (e) {
  code = 1;
  console.error(`e2e: failed at step '${step}': ${e.message}`);
  if (problems.length) console.error(problems.join('\n'));
  try { await shot('failure'); } catch (x) { /* the page may be gone */ }
  console.error(`server output:\n${server.output()}`);
} finally {
  await browser.close();
  server.proc.kill();
  fs.rmSync(root, { recursive: true, force: true });
}
process.exit(code);
