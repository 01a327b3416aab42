// Browser test of the UI defects of issue 19 (Compare asks which trace, a new page keeps its own
// state, frames follow the window size, the range in the cfg's unit, notices that expire, a
// window that says why it is empty, analyzer row headers on one line). Each step failed before
// its fix.
//
//   node tests/e2e/ui_defects_test.mjs PARALLAX_BINARY TESTS_DATA_DIR OUT_DIR

import fs from 'node:fs';
import path from 'node:path';
import { check, launch, makeRoot, startServer, waitFrame } from './lib.mjs';

const [binary, data, out] = process.argv.slice(2);
if (!binary || !data || !out) {
  console.error('usage: node tests/e2e/ui_defects_test.mjs PARALLAX_BINARY TESTS_DATA_DIR OUT_DIR');
  process.exit(2);
}
fs.mkdirSync(out, { recursive: true });

const cfgs = path.join(data, 'cfg/bsc');
const traces = ['epoch_1proc', 'epoch_2proc', 'epoch_4proc'];
const root = makeRoot([
  ...traces.flatMap((t) => ['prv.gz', 'pcf', 'row'].map((x) => [path.join(data, 'epoch', `${t}.${x}`), `epoch/${t}.${x}`])),
  [path.join(cfgs, 'mpi/analysis/mpi_stats.cfg'), 'cfgs/mpi_stats.cfg'],
  [path.join(cfgs, 'mpi/views/MPI_call.cfg'), 'cfgs/MPI_call.cfg'],
]);

// MPI_call.cfg filtering event types no epoch trace has.
const unfit = fs.readFileSync(path.join(root, 'cfgs/MPI_call.cfg'), 'utf8')
  .replace('window_filter_module evt_type 2 50000001 50000005', 'window_filter_module evt_type 2 99999998 99999999')
  .replace(/^window_filter_module evt_type_label .*\n/m, '');
check(unfit.includes('99999999') && !unfit.includes('evt_type_label'), 'the unfit cfg was not made');
fs.writeFileSync(path.join(root, 'cfgs/unfit.cfg'), unfit);
// A trace cut short (issue 31: no silent loss): the first 30000 bytes of epoch_2proc.prv.gz.
fs.mkdirSync(path.join(root, 'cut'));
fs.writeFileSync(path.join(root, 'cut/short.prv.gz'),
  fs.readFileSync(path.join(data, 'epoch/epoch_2proc.prv.gz')).subarray(0, 30000));

let step = 'start';
const server = await startServer(binary, root);
const { browser, page, problems } = await launch();
const shot = (p, name) => p.screenshot({ path: path.join(out, `defects-${name}.png`) });
const timelines = (p) => p.locator('#windows > section.timeline');
const onTrace = (p, t) => p.locator(`#windows > section.timeline[data-trace="epoch/${t}.prv.gz"]`).first();

// Opens a trace from the file browser of page `p` and waits for its State As Is frame.
async function openTrace(p, t) {
  if (!(await p.locator('#cwd').textContent()).endsWith('epoch')) await p.locator('#files li.dir', { hasText: 'epoch' }).click();
  await p.locator('#files li.trace', { hasText: `${t}.prv.gz` }).click();
  await waitFrame(onTrace(p, t));
}

// State the steps share.
let ask, mpi, current, page2;

const steps = [
  ['open three traces', async () => {
    await page.goto(server.url);
    for (const t of traces) await openTrace(page, t);
    check(await page.locator('#traces li').count() === 3, 'the three traces are not listed as open');
  }],
  ['Compare asks which trace', async () => {
    const count = await timelines(page).count();
    await onTrace(page, 'epoch_4proc').locator('button.compare').click();
    ask = page.locator('dialog#choose-trace');
    await ask.waitFor({ timeout: 5000 });
    const offered = await ask.locator('select.trace-choice option').allTextContents();
    check(offered.join() === 'epoch/epoch_1proc.prv.gz,epoch/epoch_2proc.prv.gz', `Compare offers ${offered.join(', ')}`);
    await shot(page, '01-compare-asks');
    await ask.locator('select.trace-choice').selectOption('epoch/epoch_2proc.prv.gz');
    await ask.locator('button.apply').click();
    await page.waitForFunction((k) => document.querySelectorAll('#windows > section.timeline').length > k, count);
    const compared = timelines(page).nth(count);
    await waitFrame(compared);
    check(await compared.getAttribute('data-trace') === 'epoch/epoch_2proc.prv.gz',
      `the compared window is on ${await compared.getAttribute('data-trace')}, not the trace chosen`);
    await onTrace(page, 'epoch_4proc').locator('button.compare').click();
    await ask.waitFor();
    await ask.locator('button.cancel').click();
    await ask.waitFor({ state: 'hidden' });
    check(await timelines(page).count() === count + 1, 'cancelling Compare opened a window');
  }],
  ['a new page keeps its own state', async () => {
    current = await page.evaluate(() => window.parallax.current);
    page2 = await page.context().newPage();
    await page2.clock.install();  // its timers run only when the test says (notices that expire)
    await page2.goto(server.url);
    await page2.locator('#server-traces li').nth(2).waitFor({ timeout: 10000 });
    check(await page2.locator('#traces li').count() === 0, 'the new page reopened the traces of the other page');
    check(await timelines(page2).count() === 0, 'the new page opened windows');
    const listed = await page2.locator('#server-traces li').allTextContents();
    check(listed.length === 3 && traces.every((t) => listed.includes(`epoch/${t}.prv.gz`)), `the server's traces listed: ${listed.join(', ')}`);
    await shot(page2, '02-new-page');
    await page2.locator('#server-traces li', { hasText: 'epoch_1proc' }).click();
    await waitFrame(onTrace(page2, 'epoch_1proc'));
    check(await page2.locator('#traces li').allTextContents().then((l) => l.join()) === 'epoch/epoch_1proc.prv.gz',
      'clicking a server trace did not open it (alone) in the new page');
    check(await page2.locator('#server-traces li').count() === 2, 'the opened trace is still offered');
    check(await page.evaluate(() => window.parallax.current) === current, 'the first page lost its current trace');
  }],
  ['information notices expire', async () => {
    check((await page2.locator('#status').textContent()).includes('loaded in'), 'no notice says the trace was loaded');
    await page2.clock.runFor(11000);
    check(await page2.locator('#status').textContent() === '', `after 11 s the status still reads '${await page2.locator('#status').textContent()}'`);
    await page2.close();
  }],
  ['frames follow the window size', async () => {
    await page.locator('#layout').selectOption('stack');
    const resized = onTrace(page, 'epoch_4proc');
    // Waits until the canvas has as many pixels as the width of its box (a frame at that width).
    const sharp = async (max) => page.waitForFunction(([c, m]) => c.width < m && Math.abs(c.width - c.parentElement.clientWidth) <= 1,
      [await resized.locator('canvas').elementHandle(), max], { timeout: 10000, polling: 50 });
    await page.setViewportSize({ width: 800, height: 900 });
    await sharp(600);
    await resized.scrollIntoViewIfNeeded();
    await shot(page, '03-800px');
    await page.setViewportSize({ width: 1500, height: 1000 });
    await sharp(2000);
    check(await resized.locator('canvas').evaluate((c) => c.width) > 1000, 'back at 1500 px the frame is still narrow');
  }],
  ['the range in the unit of the axis', async () => {
    await page.locator('#files li.dir', { hasText: '..' }).click();
    await page.locator('#files li.dir', { hasText: 'cfgs' }).click();
    await page.locator('#files li.cfg', { hasText: 'MPI_call.cfg' }).click();
    await page.locator('#cfg-details button.open-cfg').click();
    mpi = page.locator('#windows > section.timeline[data-window="MPI call"]').first();
    await waitFrame(mpi);
    const shown = await mpi.locator('.range').textContent();
    const m = /^([\d,.]+) – ([\d,.]+) us \(/.exec(shown);
    check(m, `the range reads '${shown}', not microseconds (the cfg's unit, as on the axis)`);
    const to = Number(await mpi.getAttribute('data-to'));
    check(Math.abs(Number(m[2].replace(/,/g, '')) - to / 1000) <= 1e-3 * (to / 1000), `the end ${m[2]} us is not ${to} ns`);
    // The textual view too.
    await mpi.locator('canvas').scrollIntoViewIfNeeded();  // the click below is at page coordinates
    const box = await mpi.locator('canvas').boundingBox();
    const [, rowY, rowH] = await mpi.evaluate((e) => window.parallax.panels.find((p) => p.root === e).canvas.list.rows[0]);
    await page.mouse.click(box.x + box.width * 0.5, box.y + rowY + rowH / 2);
    const heading = mpi.locator('.text-view h4');
    await heading.waitFor({ timeout: 10000 });
    check(/^THREAD 1\.1\.1 at [\d,]+\.\d{3} us /.test(await heading.textContent()), `the textual view reads '${await heading.textContent()}'`);
    check((await mpi.locator('.text-view table.text-values th').first().textContent()) === 'begin (us)', 'the textual view does not say its unit');
    await mpi.scrollIntoViewIfNeeded();
    await shot(page, '04-range-unit');
  }],
  ['a notice about a window goes with it', async () => {
    const before = await timelines(page).count();
    // Every text the status bar shows is recorded: an information notice expires after 10 s,
    // which a loaded machine can spend before the frame below is painted.
    await page.evaluate(() => {
      window.statusLog = [];
      new MutationObserver(() => window.statusLog.push(document.getElementById('status').textContent))
        .observe(document.getElementById('status'), { childList: true, characterData: true, subtree: true });
    });
    await mpi.locator('button.compare').click();
    await ask.waitFor();
    await ask.locator('select.trace-choice').selectOption('epoch/epoch_1proc.prv.gz');
    await ask.locator('button.apply').click();
    await page.waitForFunction((k) => document.querySelectorAll('#windows > section.timeline').length > k, before);
    const copy = timelines(page).nth(before);
    await waitFrame(copy);
    const shown = await page.evaluate(() => window.statusLog);
    check(shown.some((t) => t.startsWith('comparing')), `no notice says what is compared (the status read ${JSON.stringify(shown)})`);
    // Whether or not it has expired by now, the notice is owned by the compared window: shown
    // again as the UI showed it, it must go when that window closes.
    await copy.evaluate((e) => {
      const p = window.parallax.panels.find((x) => x.root === e);
      window.parallax.status(`comparing ${p.doc.trace}`, false, p);
    });
    await copy.locator('button.close').click();
    check(await page.locator('#status').textContent() === '', `with the compared window closed the status reads '${await page.locator('#status').textContent()}'`);
  }],
  ['a cfg that does not fit says why its window is empty', async () => {
    await page.locator('#files li.cfg', { hasText: 'unfit.cfg' }).click();
    await page.locator('#cfg-details button.open-cfg').click();
    await page.waitForFunction(() => document.querySelectorAll('#windows > section.timeline[data-window="MPI call"]').length === 2);
    const unfitPanel = page.locator('#windows > section.timeline[data-window="MPI call"]').last();
    await waitFrame(unfitPanel);
    check(await unfitPanel.evaluate((e) => window.parallax.panels.find((p) => p.root === e).canvas.list.any_non_zero) === false,
      'the frame of the unfit window has values other than 0');
    // One quiet line (issue 36): the window's own notice, with the types it lacks.
    const why = await unfitPanel.locator('.panel-message').textContent();
    check(why.startsWith('Every value in this range is 0: none of its event types is in the trace (99999998 99999999)')
      && !why.includes('\n') && !why.includes('does not fit'), `the empty window says '${why}'`);
    check(!(await unfitPanel.locator('.panel-message').getAttribute('class')).includes('warning'), 'the line is a warning');
    check(!(await mpi.locator('.panel-message').textContent()).includes('Every value'), 'the window that fits says it is empty');
    await unfitPanel.scrollIntoViewIfNeeded();
    await shot(page, '05-unfit-cfg');
    await unfitPanel.locator('button.close').click();
  }],
  ['analyzer row headers on one line', async () => {
    await page.setViewportSize({ width: 800, height: 900 });
    await page.locator('#files li.cfg', { hasText: 'mpi_stats.cfg' }).click();
    await page.locator('#cfg-details button.open-cfg').click();
    const analyzer = page.locator('#windows > section.analyzer').first();
    await analyzer.locator('table.analyzer td').first().waitFor();
    // The table can be drawn again while the frames arrive (a loaded machine measured its row
    // headers between two draws, with no boxes at all): measure them in one go, again until
    // every header has its text laid out, so a redraw between the wait and the measure cannot
    // show.
    const measured = await page.waitForFunction(() => {
      const ths = [...document.querySelectorAll('#windows > section.analyzer table.analyzer th.label')];
      const headers = ths.map((th) => {
        const r = document.createRange();
        r.selectNodeContents(th);
        return { text: th.textContent, title: th.title, lines: new Set([...r.getClientRects()].map((b) => Math.round(b.top))).size };
      });
      const rows = headers.filter((h) => h.text);
      return rows.length > 2 && rows.every((h) => h.lines > 0) ? headers : null;
    }, null, { timeout: 10000, polling: 50 });
    const headers = await measured.jsonValue();
    const rows = headers.filter((h) => h.text);
    check(rows.length > 2, 'the analyzer has no row headers');
    const wrapped = rows.filter((h) => h.lines !== 1);
    check(!wrapped.length, `row headers wrap: ${wrapped.map((h) => `'${h.text}' on ${h.lines} lines`).join(', ')}`);
    check(rows.every((h) => h.title === h.text), 'a row header has no tooltip with its whole text');
    await analyzer.scrollIntoViewIfNeeded();
    await page.waitForFunction(() => [...document.querySelectorAll('#windows canvas')].every((c) => c.width === c.parentElement.clientWidth),
      null, { timeout: 10000, polling: 50 });  // the frames drawn again at 800 px
    await shot(page, '06-analyzer-rows');
    await page.setViewportSize({ width: 1500, height: 1000 });
  }],
  ['usable at 1280x720', async () => {
    await page.setViewportSize({ width: 1280, height: 720 });
    const first = timelines(page).first();
    await page.waitForFunction((c) => Math.abs(c.width - c.parentElement.clientWidth) <= 1,
      await first.locator('canvas').elementHandle(), { timeout: 10000, polling: 50 });
    const layout = await page.evaluate(() => {
      const work = document.getElementById('work');
      const outside = [];
      for (const panel of document.querySelectorAll('#windows > section')) {
        const p = panel.getBoundingClientRect();
        for (const b of panel.querySelectorAll('.toolbar button, .toolbar select, .toolbar input')) {
          const r = b.getBoundingClientRect();
          if (r.width && (r.right > p.right + 0.5 || r.left < p.left - 0.5)) outside.push(`${panel.dataset.window || panel.dataset.histogram}: ${b.textContent || b.getAttribute('aria-label')}`);
        }
      }
      work.scrollTop = work.scrollHeight;  // the windows scroll, the file browser stays
      const nav = document.getElementById('browser').getBoundingClientRect();
      return { page: document.documentElement.scrollWidth, pageHeight: document.documentElement.scrollHeight, outside, navTop: nav.top, scrolled: work.scrollTop };
    });
    check(layout.page <= 1280, `the page is ${layout.page} px wide at 1280`);
    check(!layout.outside.length, `toolbar controls stick out of their window: ${layout.outside.join(', ')}`);
    check(layout.pageHeight <= 720 && layout.scrolled > 0 && layout.navTop > 0,
      `the page itself scrolls (${layout.pageHeight} px tall) instead of the windows beside the file browser`);
    await page.evaluate(() => { document.getElementById('work').scrollTop = 0; });
    await shot(page, '07-1280x720');
    await page.setViewportSize({ width: 1500, height: 1000 });
  }],
  ['a trace cut short opens with a banner saying so', async () => {
    const banner = page.locator('#load-warning');
    check(await banner.isHidden(), 'a banner shows before any damaged trace');
    await page.goto(server.url);
    await page.locator('#files li.dir', { hasText: 'cut' }).click();
    await page.locator('#files li.trace', { hasText: 'short.prv.gz' }).click();
    await banner.waitFor({ state: 'visible', timeout: 20000 });
    const text = await banner.textContent();
    check(text.includes('cut/short.prv.gz') && text.includes('compressed input cut short'), `banner: ${text}`);
    await shot(page, '08-cut-short');
    await banner.locator('button').click();
    check(await banner.isHidden(), 'the banner does not go when dismissed');
  }],
  ['no browser errors', async () => {
    check(problems.length === 0, problems.join('\n'));
  }],
];

// Runs the steps in order and stops at the first failure, or with PARALLAX_E2E_KEEP_GOING=1
// goes on (to see which steps fail, for example against an older binary).
async function run() {
  const keepGoing = process.env.PARALLAX_E2E_KEEP_GOING === '1';
  const failed = [];
  for (const [name, fn] of steps) {
    step = name;
    try {
      await fn();
      console.log(`ok: ${name}`);
    } catch (e) {
      failed.push(`${name}: ${e.message.split('\n')[0]}`);
      console.error(`FAILED: ${name}: ${e.message}`);
      try { await shot(page, `failure-${failed.length}`); } catch (x) { /* the page may be gone */ }
      if (!keepGoing) break;
      await page.keyboard.press('Escape');  // a dialog left open
    }
  }
  if (failed.length) throw new Error(`${failed.length} step(s) failed:\n${failed.join('\n')}`);
}

let code = 0;
try {
  await run();
  console.log('e2e: all defect steps passed');
} catch (e) {
  code = 1;
  console.error(`e2e: ${e.message}`);
  if (problems.length) console.error(problems.join('\n'));
  console.error(`server output:\n${server.output()}`);
} finally {
  await browser.close();
  server.proc.kill();
  fs.rmSync(root, { recursive: true, force: true });
}
process.exit(code);
