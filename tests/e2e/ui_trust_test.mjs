// Browser test of the defects of issue 36 that showed wrong or misleading numbers: an MPI cfg
// naming a type the trace lacks is not said to misfit (and a window none of whose types occurs
// says so in one quiet line); the first view of a dense trace hides the lines it cannot show
// readably (saying how many, with a toggle) and draws the dominant state; the processor
// utilisation uses the threads' states whatever the window shows, beyond 64 cpus; a click on
// an analyzer cell opens the control window over the range the cell was computed on, in the
// sync group of the analyzer's control window. (The source panel's count: ui_source_test.mjs.)
// Each check failed before its fix.
//
//   node tests/e2e/ui_trust_test.mjs PARALLAX_BINARY TESTS_DATA_DIR OUT_DIR

import fs from 'node:fs';
import path from 'node:path';
import { check, dragZoom, frames, launch, makeRoot, runSteps, startServer, testArgs, waitFrame } from './lib.mjs';

const [binary, data, out] = testArgs('ui_trust_test.mjs');
const cfgs = path.join(data, 'cfg/bsc');
const root = makeRoot([
  ...['epoch_2proc', 'epoch_4proc'].flatMap((t) => ['prv.gz', 'pcf', 'row'].map((x) => [path.join(data, 'epoch', `${t}.${x}`), `epoch/${t}.${x}`])),
  [path.join(cfgs, 'mpi/views/MPI_call.cfg'), 'cfgs/MPI_call.cfg'],
  [path.join(cfgs, 'mpi/analysis/mpi_stats.cfg'), 'cfgs/mpi_stats.cfg'],
  [path.join(data, 'otf2/ping-pong-otf2/scorep.cfg'), 'cfgs/scorep.cfg'],
  [path.join(data, 'paje/variables.trace'), 'paje/variables.trace'],
]);
check(fs.readFileSync(path.join(root, 'cfgs/MPI_call.cfg'), 'utf8').includes('evt_type 2 50000001 50000005'),
  'MPI_call.cfg no longer names 50000005 (a type the epoch traces lack): pick another cfg');

// A dense trace written here: 70 tasks of one thread, one node of 70 cpus, 1100 cycles of 1000
// ns per thread: Running for 950 ns, then 50 ns of state 12; each cycle every task sends a
// message to the next one. 77,000 messages: a solid block of lines at any frame width.
const TASKS = 70, CYCLES = 1100, CYCLE = 1000, RUN = 950;
const end = CYCLES * CYCLE;
const dense = [`#Paraver (01/01/2026 at 10:00):${end}_ns:1(${TASKS}):1:${TASKS}(${Array(TASKS).fill('1:1').join(',')})`];
for (let c = 0; c < CYCLES; c += 1) {
  const t0 = c * CYCLE;
  for (let k = 1; k <= TASKS; k += 1) {
    dense.push(`1:${k}:1:${k}:1:${t0}:${t0 + RUN}:1`, `1:${k}:1:${k}:1:${t0 + RUN}:${t0 + CYCLE}:12`);
    const to = (k % TASKS) + 1;
    dense.push(`3:${k}:1:${k}:1:${t0 + 100}:${t0 + 100}:${to}:1:${to}:1:${t0 + 600}:${t0 + 600}:64:1`);
  }
}
// 60 tasks passing a message around a ring: a 60 x 60 task matrix.
const RING = 60;
const ring = [`#Paraver (01/01/2026 at 10:00):1000_ns:1(${RING}):1:${RING}(${Array(RING).fill('1:1').join(',')})`];
for (let k = 1; k <= RING; k += 1) {
  const to = (k % RING) + 1;
  ring.push(`1:${k}:1:${k}:1:0:1000:1`, `3:${k}:1:${k}:1:${k}:${k}:${to}:1:${to}:1:${k + 100}:${k + 100}:1024:1`);
}
fs.mkdirSync(path.join(root, 'ring'));
fs.writeFileSync(path.join(root, 'ring/ring.prv'), ring.join('\n') + '\n');
fs.mkdirSync(path.join(root, 'dense'));
fs.writeFileSync(path.join(root, 'dense/dense.prv'), dense.join('\n') + '\n');
fs.writeFileSync(path.join(root, 'dense/dense.pcf'),
  'STATES\n0    Idle\n1    Running\n12   Others\n\nSTATES_COLOR\n0    {117,195,255}\n1    {0,0,255}\n12   {255,255,0}\n');

const server = await startServer(binary, root);
const { browser, page, problems } = await launch();
const shot = (name) => page.screenshot({ path: path.join(out, `trust-${name}.png`) });
const timelines = () => page.locator('#windows > section.timeline');
const panelOf = (locator) => locator.evaluate((e) => {
  const p = window.parallax.panels.find((x) => x.root === e);
  return { level: p.window.level, drawMode: p.window.draw_mode, group: p.group, range: { ...p.zoom.range },
    hidden: p.canvas.list ? p.canvas.list.lines_hidden : undefined, highlight: !!p.highlight };
});

async function openDir(dir) {
  await page.waitForFunction(() => document.querySelector('#cwd').textContent.startsWith('/'));  // listed
  if (await page.locator('#cwd').textContent() !== '/') {
    await page.locator('#files li.dir', { hasText: /^\.\.$/ }).click();
    await page.waitForFunction(() => document.querySelector('#cwd').textContent === '/');
  }
  await page.locator('#files li.dir', { hasText: dir }).click();
  await page.waitForFunction((d) => document.querySelector('#cwd').textContent.endsWith(d), dir);
}

async function openCfg(name) {
  await openDir('cfgs');
  await page.locator('#files li.cfg', { hasText: name }).click();
  await page.locator('#cfg-details button.open-cfg').click();
}

let dense1, mpiCall;

const steps = [
  ['Score-P\'s scorep.cfg is not listed as a Paraver cfg', async () => {
    await page.goto(server.url);
    await openDir('cfgs');
    const listed = await page.locator('#files li.cfg').allTextContents();
    check(listed.some((t) => t.includes('MPI_call.cfg')) && !listed.some((t) => t.includes('scorep.cfg')),
      `the cfgs listed: ${listed.join(', ')}`);
    await page.locator('#files li.dir', { hasText: /^\.\.$/ }).click();
    await page.waitForFunction(() => document.querySelector('#cwd').textContent === '/');
  }],
  ['an MPI cfg naming a type the trace lacks is not said to misfit', async () => {
    await page.locator('#files li.dir', { hasText: 'epoch' }).click();
    await page.locator('#files li.trace', { hasText: 'epoch_4proc.prv.gz' }).click();
    await waitFrame(timelines().first());
    await openCfg('MPI_call.cfg');
    mpiCall = page.locator('#windows > section.timeline[data-window="MPI call"]').first();
    await waitFrame(mpiCall);
    const text = await mpiCall.locator('.panel-message').textContent();
    check(text === '', `the MPI call window says '${text}'`);
    const notices = await mpiCall.evaluate((e) => window.parallax.panels.find((p) => p.root === e).doc.document.notices || []);
    check(!notices.some((n) => n.includes('50000005') || n.includes('None of the events')),
      `the cfg reader noticed: ${notices.join(' | ')}`);
    await shot('01-mpi-call-quiet');
  }],
  ['the standard views are listed in the file browser and open on the current trace', async () => {
    const views = await page.locator('#views li').allTextContents();
    check(views.length >= 12 && views.includes('MPI profile'), `the views listed: ${views.join(', ')}`);
    check((await page.locator('#views li[data-view="mpi-profile"]').getAttribute('title')).includes('needs MPI'),
      'the view does not say what it needs');
    await page.locator('#views li[data-view="mpi-profile"]').click();
    const analyzer = page.locator('#windows > section.analyzer[data-histogram="MPI profile"]');
    await analyzer.locator('table.analyzer td').first().waitFor({ timeout: 20000 });
    const columns = await analyzer.evaluate((e) => window.parallax.panels.find((p) => p.root === e).table.planes[0].columns);
    check(columns.includes('MPI_Sendrecv'), `the MPI profile's columns: ${columns.join(', ')}`);
    // Close the view's windows (its analyzer and its MPI call timeline).
    await analyzer.evaluate((e) => {
      const doc = window.parallax.panels.find((p) => p.root === e).doc;
      for (const p of window.parallax.panels.filter((x) => x.doc === doc)) p.close();
    });
  }],
  ['Properties lists the event types by label, with a search', async () => {
    await mpiCall.locator('button.properties').click();
    const dialog = page.locator('dialog#properties');
    await dialog.waitFor();
    const list = dialog.locator('.type-list li');
    await list.first().waitFor({ timeout: 20000 });
    const all = await list.allTextContents();
    check(all.some((t) => t.startsWith(' 50000001 MPI Point-to-point')), `the types listed: ${all.slice(0, 5).join(' | ')}`);
    await dialog.locator('input.type-search').fill('collective');
    await page.waitForFunction((d) => d.querySelectorAll('.type-list li').length >= 1
      && [...d.querySelectorAll('.type-list li')].every((li) => /collective/i.test(li.textContent)), await dialog.elementHandle());
    // MPI_call.cfg lets the range [50000001, 50000005] through: the collectives are checked;
    // unchecking them leaves the trace's other types of the range, as a list.
    const box = dialog.locator('.type-list input[data-type="50000002"]');
    check(await box.isChecked(), 'MPI Collective, inside the cfg\'s range of types, is not checked');
    check((await dialog.locator('.type-names').textContent()).includes('50000002 MPI Collective'), 'the types let through are not named');
    await box.uncheck();
    await shot('01-properties-event-types');
    const crit = dialog.locator('.criterion-event_type');
    check(await crit.locator('select.op').inputValue() === '=' && await crit.locator('input.values').inputValue() === '50000001, 50000003',
      `after unchecking the filter reads ${await crit.locator('select.op').inputValue()} ${await crit.locator('input.values').inputValue()}`);
    await dialog.locator('button.apply').click();
    await page.waitForFunction((d) => !d.open || d.querySelector('.error').textContent, await dialog.elementHandle(), { timeout: 20000 });
    check(!(await dialog.evaluate((d) => d.open)), `Apply failed: ${await dialog.locator('.error').textContent()}`);
    await page.waitForFunction((e) => window.parallax.panels.find((p) => p.root === e).window.filter.event_type.values.join() === '50000001,50000003',
      await mpiCall.elementHandle(), { timeout: 20000 });
  }],
  ['Save cfg keeps the zoomed range', async () => {
    const n = await frames(mpiCall);
    await mpiCall.locator('input.begin-time').fill('1 s');
    await mpiCall.locator('input.end-time').fill('2.5 s');
    await mpiCall.locator('input.end-time').press('Enter');
    await waitFrame(mpiCall, n);
    const shown = (await panelOf(mpiCall)).range;
    page.once('dialog', (d) => d.accept('cfgs/zoomed.cfg'));
    await mpiCall.locator('button.save-cfg').click();
    await page.waitForFunction(() => document.getElementById('status').textContent.startsWith('saved'), null, { timeout: 10000 });
    const saved = fs.readFileSync(path.join(root, 'cfgs/zoomed.cfg'), 'utf8');
    const begin = Number((/^window_begin_time (\S+)$/m.exec(saved) || [])[1]);
    const stop = Number((/^window_stop_time (\S+)$/m.exec(saved) || [])[1]);
    check(begin === shown.from && stop === shown.to, `the saved cfg's range is ${begin}-${stop}, the window showed ${shown.from}-${shown.to}`);
    check(!/^window_begin_time_relative/m.test(saved), 'the saved cfg still has a relative range');
    // Opened again, the window shows that range.
    await openCfg('zoomed.cfg');
    await page.waitForFunction(() => document.querySelectorAll('#windows > section.timeline[data-window="MPI call"]').length === 2);
    const again = page.locator('#windows > section.timeline[data-window="MPI call"]').nth(1);
    await waitFrame(again);
    const r = (await panelOf(again)).range;
    check(r.from === shown.from && r.to === shown.to, `the saved cfg opens at ${r.from}-${r.to}, not ${shown.from}-${shown.to}`);
    await again.locator('button.close').click();
  }],
  ['at 1280x720 side by side: two-line toolbars, the rest behind ⋯, and the file browser hides', async () => {
    await page.setViewportSize({ width: 1280, height: 720 });
    await page.locator('#layout').selectOption('side-by-side');
    const first = timelines().first();
    await page.waitForFunction((c) => Math.abs(c.width - c.parentElement.clientWidth) <= 1,
      await first.locator('canvas').elementHandle(), { timeout: 10000, polling: 50 });
    // Rows of controls in a toolbar: distinct tops of its visible controls.
    const rows = (panel) => panel.evaluate((p) => {
      const tops = [...p.querySelector('.toolbar').querySelectorAll('button, select, input, label')]
        .map((x) => x.getBoundingClientRect()).filter((r) => r.width > 0).map((r) => Math.round(r.top));
      return [...new Set(tops)].filter((t, i, a) => !a.some((u) => u < t && t - u < 8)).length;
    });
    const n = await rows(first);
    check(n <= 2, `the toolbar of a window side by side at 1280 px has ${n} rows of controls`);
    check(await first.locator('button.traffic-toggle').isHidden() && await first.locator('button.more-toggle').isVisible(),
      'the narrow window shows every control instead of "⋯"');
    await first.locator('button.more-toggle').click();
    check(await first.locator('button.traffic-toggle').isVisible(), '"⋯" does not show the other controls');
    const inside = await first.evaluate((p) => {
      const box = p.getBoundingClientRect();
      return [...p.querySelectorAll('.toolbar .extra.open > *')].every((x) => {
        const r = x.getBoundingClientRect();
        return r.left >= box.left - 0.5 && r.right <= box.right + 0.5;
      });
    });
    check(inside, 'the opened controls stick out of their window');
    await shot('02-1280-side-by-side-more');
    await first.locator('button.more-toggle').click();
    // The file browser hides (☰ or B): the windows take its width, and their full toolbars.
    const before = (await first.boundingBox()).width;
    await page.locator('#toggle-browser').click();
    check(await page.locator('#browser').isHidden(), '☰ does not hide the file browser');
    await page.waitForFunction(([e, w]) => e.getBoundingClientRect().width > w + 100, [await first.elementHandle(), before]);
    await shot('02-1280-browser-hidden');
    await page.mouse.move(5, 5);
    await page.keyboard.press('b');
    check(await page.locator('#browser').isVisible(), 'B does not show the file browser again');
    await page.locator('#layout').selectOption('stack');
    await page.setViewportSize({ width: 1500, height: 1000 });
  }],
  ['an analyzer cell opens its control window over the cell\'s range, in its sync group', async () => {
    await openCfg('mpi_stats.cfg');
    const analyzer = page.locator('#windows > section.analyzer').first();
    await analyzer.locator('table.analyzer td').first().waitFor();
    // The analyzer's control window: the timeline of its doc that is not a cell's window.
    const controlInfo = await analyzer.evaluate((e) => {
      const a = window.parallax.panels.find((p) => p.root === e);
      const c = a.controlPanel();
      return c ? { index: window.parallax.panels.indexOf(c), group: c.group } : null;
    });
    check(controlInfo, 'the analyzer has no control window open');
    const controlPanel = timelines().nth(await page.evaluate((i) => {
      const c = window.parallax.panels[i];
      return [...document.querySelectorAll('#windows > section.timeline')].indexOf(c.root);
    }, controlInfo.index));
    // Zoom the control window: the analyzer follows it.
    const n = await frames(controlPanel);
    await dragZoom(page, controlPanel, 0.3, 0.6);
    await waitFrame(controlPanel, n);
    const zoomed = (await panelOf(controlPanel)).range;
    await page.waitForFunction(([e, f, t]) => e.dataset.from === String(f) && e.dataset.to === String(t),
      [await analyzer.elementHandle(), zoomed.from, zoomed.to], { timeout: 30000 });
    // Units and Paraver's number format: the corner cell names the statistic and its unit, each
    // cell has two decimals (or is an integer with thousands separators), every digit on hover.
    const table = await analyzer.evaluate((e) => {
      const a = window.parallax.panels.find((p) => p.root === e);
      return { statistic: a.table.statistic, values: a.table.planes[a.plane].values };
    });
    const corner = await analyzer.locator('table.analyzer th.corner').textContent();
    const unit = table.statistic.includes('%') ? '%' : /^(Time|Average Burst Time)$/.test(table.statistic) ? 'us' : '';
    check(corner === (unit && unit !== '%' ? `${table.statistic} (${unit})` : table.statistic), `the corner reads '${corner}' for ${table.statistic}`);
    const cell = analyzer.locator('table.analyzer td[data-row="0"][data-col="0"]');
    const v = table.values[0][0];
    const want = v === null ? 'nan' : Number.isInteger(v) ? v.toLocaleString('en-US')
      : Math.abs(v) < 0.01 && v !== 0 ? v.toPrecision(3)
        : v.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
    check(await cell.textContent() === (unit === '%' ? `${want} %` : want), `the cell of ${v} reads '${await cell.textContent()}'`);
    check(await cell.getAttribute('title') === String(v), 'the cell does not give every digit on hover');
    const before = await timelines().count();
    await analyzer.locator('table.analyzer td[data-row="0"]').filter({ hasNotText: /^0$/ }).first().click();
    await page.waitForFunction((k) => document.querySelectorAll('#windows > section.timeline').length > k, before);
    const where = timelines().nth(before);
    await waitFrame(where);
    const got = await panelOf(where);
    check(got.highlight, 'the new window does not show the cell\'s values');
    check(got.range.from === zoomed.from && got.range.to === zoomed.to,
      `the cell's window shows ${got.range.from}-${got.range.to}, the cell was computed over ${zoomed.from}-${zoomed.to}`);
    const group = (await panelOf(controlPanel)).group;
    check(group && got.group === group, `the cell's window is in sync group ${got.group}, the control window in ${group}`);
    await where.scrollIntoViewIfNeeded();
    await shot('02-cell-at-its-range');
    // Compare… on the analyzer: the same histogram of another run, beside it, over the same range.
    await openDir('epoch');
    await page.locator('#files li.trace', { hasText: 'epoch_2proc.prv.gz' }).click();
    await waitFrame(page.locator('#windows > section.timeline[data-trace="epoch/epoch_2proc.prv.gz"]').first());
    await analyzer.locator('button.compare').click();
    const ask = page.locator('dialog#choose-trace');
    await ask.waitFor();
    await ask.locator('select.trace-choice').selectOption('epoch/epoch_2proc.prv.gz');
    await ask.locator('button.apply').click();
    const twin = page.locator('#windows > section.analyzer[data-trace="epoch/epoch_2proc.prv.gz"]');
    await twin.locator('table.analyzer td').first().waitFor({ timeout: 30000 });
    await page.waitForFunction(([a, b]) => a.dataset.from && a.dataset.from === b.dataset.from && a.dataset.to === b.dataset.to,
      [await analyzer.elementHandle(), await twin.elementHandle()], { timeout: 30000 });
    const rowsOf = (x) => x.evaluate((e) => window.parallax.panels.find((p) => p.root === e).table.planes[0].rows);
    check((await rowsOf(twin)).length === 2 && (await rowsOf(analyzer)).length === 4,
      `the compared tables have ${(await rowsOf(twin)).length} and ${(await rowsOf(analyzer)).length} rows`);
    await twin.scrollIntoViewIfNeeded();
    await shot('03-analyzers-compared');
    await page.locator('#layout').selectOption('stack');
    await page.locator('#close-all').click();
    await page.waitForFunction(() => document.querySelectorAll('#windows > section').length === 0);
  }],
  ['the first view of a dense trace hides its unreadable lines and draws the dominant state', async () => {
    await openDir('dense');
    await page.locator('#files li.trace', { hasText: 'dense.prv' }).click();
    dense1 = timelines().first();
    await waitFrame(dense1);
    const got = await panelOf(dense1);
    check(got.drawMode === 'mode', `the first view draws with '${got.drawMode}', not the dominant state ('mode')`);
    check(got.hidden === TASKS * CYCLES, `the frame hid ${got.hidden} lines, the trace has ${TASKS * CYCLES}`);
    const note = dense1.locator('.lines-note');
    check(await note.isVisible(), 'no note says lines were hidden');
    check((await note.textContent()).startsWith(`${(TASKS * CYCLES).toLocaleString('en-US')} communication lines hidden`),
      `the note reads '${await note.textContent()}'`);
    await shot('03-dense-first-view');
    // Zooming in to a few cycles brings the lines back.
    const n = await frames(dense1);
    await dense1.locator('input.begin-time').fill('100 us');
    await dense1.locator('input.end-time').fill('105 us');
    await dense1.locator('input.end-time').press('Enter');
    await waitFrame(dense1, n);
    check((await panelOf(dense1)).hidden === 0, 'the lines stay hidden over five cycles');
    check(await note.isHidden(), 'the note stays when every line is drawn');
    // Back to the whole trace: hidden again; "Show them" draws them all.
    const m = await frames(dense1);
    await dense1.locator('input.begin-time').fill('0 us');
    await dense1.locator('input.end-time').fill(`${end / 1000} us`);
    await dense1.locator('input.end-time').press('Enter');
    await waitFrame(dense1, m);
    check((await panelOf(dense1)).hidden > 0, 'the lines are not hidden again over the whole trace');
    const k = await frames(dense1);
    await note.locator('button.show-lines').click();
    await waitFrame(dense1, k);
    check((await panelOf(dense1)).hidden === 0 && await note.isHidden(), '"Show them" did not draw the lines');
    await shot('04-dense-all-lines');
  }],
  ['a 60 x 60 communication matrix scrolls inside its window', async () => {
    await page.locator('#close-all').click();
    await openDir('ring');
    await page.locator('#files li.trace', { hasText: 'ring.prv' }).click();
    const view = timelines().first();
    await waitFrame(view);
    await view.locator('button.traffic-toggle').click();
    const box = view.locator('.traffic-matrix-box').filter({ has: page.locator('table.tasks') });
    await box.waitFor({ timeout: 20000 });
    const fit = await view.evaluate((p) => {
      const r = p.getBoundingClientRect();
      const b = p.querySelector('.traffic-matrix-box:has(table.tasks)');
      const x = b.getBoundingClientRect();
      return { inside: x.right <= r.right + 0.5 && x.left >= r.left - 0.5, scrolls: b.scrollWidth > b.clientWidth,
        cells: b.querySelectorAll('td').length };
    });
    check(fit.cells === RING * RING, `the task matrix has ${fit.cells} cells, not ${RING} x ${RING}`);
    check(fit.inside, 'the communication matrix overflows its window');
    check(fit.scrolls, 'the matrix box does not scroll (is it cut?)');
    await box.scrollIntoViewIfNeeded();
    await shot('05-ring-matrix');
    await page.locator('#close-all').click();
  }],
  ['a Pajé trace of variables opens to a window of its variables', async () => {
    await openDir('paje');
    await page.locator('#files li.trace', { hasText: 'variables.trace' }).click();
    const view = page.locator('#windows > section.timeline[data-trace="paje/variables.trace"]').first();
    await waitFrame(view);
    check(await view.getAttribute('data-window') === 'VAR', `the first view is '${await view.getAttribute('data-window')}', not the variable VAR`);
    check(await view.evaluate((e) => window.parallax.panels.find((p) => p.root === e).canvas.list.any_non_zero),
      'the variable window draws only zeros');
    await shot('06-paje-variables');
    await page.locator('#close-all').click();
  }],
  ['the processor utilisation of a non-state window, at 70 cpus', async () => {
    await page.locator('#traces li', { hasText: 'dense/dense.prv' }).click();  // the current trace again
    // A window that shows no state: the MPI call cfg (the dense trace has no MPI call).
    await openCfg('MPI_call.cfg');
    const mpi = page.locator('#windows > section.timeline[data-trace="dense/dense.prv"][data-window="MPI call"]').first();
    await waitFrame(mpi);
    const before = await timelines().count();
    await mpi.locator('button.open-cpus').click();
    await page.waitForFunction((k) => document.querySelectorAll('#windows > section.timeline').length > k, before);
    const cpus = timelines().nth(before);
    await waitFrame(cpus);
    check((await panelOf(cpus)).level === 'cpu', 'the new window is not at cpu level');
    const use = cpus.locator('.cpu-use');
    await page.waitForFunction((e) => !!e.dataset.shares, await use.elementHandle(), { timeout: 30000 });
    const shares = JSON.parse(await use.getAttribute('data-shares'));
    const values = Object.values(shares);
    check(values.length === TASKS, `${values.length} cpus have a share, the trace has ${TASKS}`);
    const r = (await panelOf(cpus)).range;
    // Running 950 of every 1000 ns: over [from, to) the share of each cpu, from the trace.
    const runningIn = (from, to) => {
      let t = 0;
      for (let c = Math.floor(from / CYCLE); c * CYCLE < to; c += 1) t += Math.max(0, Math.min(to, c * CYCLE + RUN) - Math.max(from, c * CYCLE));
      return t / (to - from);
    };
    const want = runningIn(r.from, r.to);
    values.forEach((v, i) => check(Math.abs(v - want) < 1e-9, `cpu ${i + 1} is Running ${v} of the range, the trace says ${want}`));
    check(want > 0.9, `the range ${r.from}-${r.to} has Running ${want}`);
    await use.scrollIntoViewIfNeeded();
    await shot('07-cpus-of-a-non-state-window');
  }],
  ['a dark theme and a colour-blind-safe palette, kept in the browser', async () => {
    await page.locator('#theme').selectOption('dark');
    const bg = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    check(await page.evaluate(() => document.documentElement.dataset.theme) === 'dark' && bg === 'rgb(21, 23, 28)',
      `the dark theme's page is ${bg}`);
    const count = await timelines().count();
    await page.evaluate(() => window.parallax.openFunction('State As Is', [], 'dense/dense.prv'));
    const panel = timelines().nth(count);
    await waitFrame(panel);
    const n = await frames(panel);
    await page.locator('#palette').selectOption('colorblind');
    await waitFrame(panel, n);
    check(await panel.evaluate((e) => window.parallax.panels.find((p) => p.root === e).request().palette) === 'colorblind',
      'the frames are not asked with the colour-blind palette');
    // The palette's colours, in the draw list the server makes for that request.
    const colours = await panel.evaluate(async (e) => {
      const p = window.parallax.panels.find((x) => x.root === e);
      const r = await fetch('/api/timeline', { method: 'POST', headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ ...p.request(), format: 'json' }) });
      return [...new Set((await r.json()).rects.map((x) => x[4]))];
    });
    const okabeIto = ['#e69f00', '#56b4e9', '#009e73', '#f0e442', '#0072b2', '#d55e00', '#cc79a7', '#999999'];
    check(colours.some((c) => okabeIto.includes(c.toLowerCase())), `the frame's colours are ${colours.join(', ')}`);
    await shot('08-dark-colourblind');
    await page.reload();
    await page.waitForFunction(() => document.documentElement.dataset.theme === 'dark' && document.querySelector('#palette').value === 'colorblind');
    await page.locator('#theme').selectOption('light');
    await page.locator('#palette').selectOption('');
  }],
  ['one search box across the windows: events, values and objects, next and previous', async () => {
    await openDir('epoch');
    await page.locator('#files li.trace', { hasText: 'epoch_4proc.prv.gz' }).click();
    await page.waitForFunction(() => window.parallax.current === 'epoch/epoch_4proc.prv.gz');
    await openCfg('MPI_call.cfg');
    const mpi = page.locator('#windows > section.timeline[data-trace="epoch/epoch_4proc.prv.gz"][data-window="MPI call"]').last();
    await waitFrame(mpi);
    await page.locator('#search select.search-kind').selectOption('event');
    await page.locator('#search input.search-text').fill('allreduce');
    await page.locator('#search input.search-text').press('Enter');
    const result = page.locator('#search .search-result');
    await page.waitForFunction((e) => e.dataset.time !== undefined && e.textContent.startsWith('MPI_Allreduce'), await result.elementHandle(), { timeout: 20000 });
    const t1 = Number(await result.getAttribute('data-time'));
    await page.locator('#search button.search-next').click();
    await page.waitForFunction(([e, t]) => Number(e.dataset.time) > t, [await result.elementHandle(), t1], { timeout: 20000 });
    const t2 = Number(await result.getAttribute('data-time'));
    await page.locator('#search button.search-previous').click();
    await page.waitForFunction(([e, t]) => Number(e.dataset.time) < t, [await result.elementHandle(), t2], { timeout: 20000 });
    check(Number(await result.getAttribute('data-time')) === t1, `previous went to ${await result.getAttribute('data-time')}, not back to ${t1}`);
    await page.locator('#search select.search-kind').selectOption('object');
    await page.locator('#search input.search-text').fill('thread 1.3');
    await page.locator('#search input.search-text').press('Enter');
    check((await result.textContent()).startsWith('THREAD 1.3.1'), `the object search says '${await result.textContent()}'`);
    await shot('09-search');
    // A pinned window stays at the top while the others scroll: a small window first, then
    // enough windows below it to scroll.
    await page.locator('#close-all').click();
    await openCfg('MPI_call.cfg');
    const pinned = timelines().first();
    await waitFrame(pinned);
    for (const v of ['states', 'useful-duration', 'mpi-call', 'states']) {
      const k = await timelines().count();
      await page.locator(`#views li[data-view="${v}"]`).click();
      await waitFrame(timelines().nth(k));
    }
    await pinned.locator('button.pin').click();
    await page.evaluate(() => { document.getElementById('work').scrollTop = 100000; });
    await page.waitForTimeout(200);
    const top = await page.evaluate((e) => e.getBoundingClientRect().top - document.getElementById('work').getBoundingClientRect().top,
      await pinned.elementHandle());
    check(top >= 0 && top < 20, `the pinned window is ${top} px from the top of the scrolled windows`);
    await pinned.locator('button.pin').click();
    await page.evaluate(() => { document.getElementById('work').scrollTop = 0; });
  }],
  ['recent traces on the first page, and a permalink that restores the trace, cfgs, views and range', async () => {
    const p2 = await page.context().newPage();
    await p2.goto(server.url.replace(/\?.*$/, ''));
    await p2.locator('#first-page').waitFor();
    check(await p2.locator('#first-page').isVisible(), 'the first page does not say what to do');
    await p2.locator('#recent li').first().waitFor({ timeout: 20000 });  // listed once the page has asked the server
    const recent = await p2.locator('#recent li').allTextContents();
    check(recent.includes('epoch/epoch_4proc.prv.gz') && recent.includes('dense/dense.prv'), `recent traces: ${recent.join(', ')}`);
    await p2.locator('#recent li', { hasText: 'epoch/epoch_4proc.prv.gz' }).click();
    const first = p2.locator('#windows > section.timeline').first();
    await waitFrame(first);
    check(await p2.locator('#first-page').isHidden(), 'the first page stays over the windows');
    await p2.locator('#files li.dir', { hasText: 'cfgs' }).click();
    await p2.locator('#files li.cfg', { hasText: 'MPI_call.cfg' }).click();
    await p2.locator('#cfg-details button.open-cfg').click();
    await p2.locator('#views li[data-view="mpi-profile"]').click();
    await p2.locator('#windows > section.analyzer').first().locator('table.analyzer td').first().waitFor({ timeout: 20000 });
    const n = await frames(first);
    await first.locator('input.begin-time').fill('1 s');
    await first.locator('input.end-time').fill('2 s');
    await first.locator('input.end-time').press('Enter');
    await waitFrame(first, n);
    await p2.waitForFunction(() => location.hash.includes('from=1000000000') && location.hash.includes('view%3Ampi-profile'), null, { timeout: 10000 });
    const link = await p2.evaluate(() => location.href);
    check(!link.includes('token'), `the link carries the token: ${link}`);
    await p2.close();
    const p3 = await page.context().newPage();
    await p3.goto(link);
    await p3.waitForFunction(() => document.querySelectorAll('#windows > section.analyzer').length === 1
      && document.querySelectorAll('#windows > section.timeline').length >= 3, null, { timeout: 30000 });
    const restored = await p3.evaluate(() => ({
      windows: [...document.querySelectorAll('#windows > section.timeline')].map((e) => e.dataset.window),
      range: { ...window.parallax.panels.find((p) => p.zoom).zoom.range },
      trace: window.parallax.current,
    }));
    check(restored.trace === 'epoch/epoch_4proc.prv.gz', `the link opened ${restored.trace}`);
    check(restored.windows.includes('State As Is') && restored.windows.includes('MPI call'), `the link opened ${restored.windows.join(', ')}`);
    check(restored.range.from === 1000000000 && restored.range.to === 2000000000, `the link shows ${restored.range.from}-${restored.range.to}`);
    await p3.screenshot({ path: path.join(out, 'trust-09-permalink.png') });
    await p3.close();
  }],
];

await runSteps('UI trust', steps, { browser, server, problems, shot, root });
