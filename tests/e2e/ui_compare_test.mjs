// Browser test of the comparison of two runs (issue 34, item 4): Compare… on a window of run A,
// choosing run B, opens B's window beside A's and, under them, the rows of `parallax compare`
// ranked by impact (the same top row as the command line), for the unit chosen; the iteration
// stepper shows iteration k of A in A's window and iteration k of B in B's, each at its own
// run's times; Difference draws the window on both runs over aligned time (A − B, A / B).
//
//   node tests/e2e/ui_compare_test.mjs PARALLAX_BINARY TESTS_DATA_DIR OUT_DIR

import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { check, frames, launch, makeRoot, runSteps, startServer, testArgs, waitFrame } from './lib.mjs';

const [binary, , out] = testArgs('ui_compare_test.mjs');
const root = makeRoot([]);
fs.mkdirSync(path.join(root, 'runs'));
const gen = path.join(path.dirname(binary), 'parallax-gen');
const common = ['--iterations', '12', '--tasks', '4', '--threads', '2', '--seed', '7'];
execFileSync(gen, [...common, '--out', path.join(root, 'runs/a')], { stdio: 'ignore' });
execFileSync(gen, [...common, '--slow-task', '2', '--slow-factor', '1.2', '--out', path.join(root, 'runs/b')], { stdio: 'ignore' });
const cli = (by) => JSON.parse(execFileSync(binary, ['compare', path.join(root, 'runs/a.prv'), path.join(root, 'runs/b.prv'),
  '--by', by, '--no-pop', '--format', 'json'], { env: { ...process.env, PARALLAX_CACHE: 'off' }, maxBuffer: 1 << 26 }));
const structure = (t) => JSON.parse(execFileSync(binary, ['structure', path.join(root, `runs/${t}.prv`), '--format', 'json'],
  { env: { ...process.env, PARALLAX_CACHE: 'off' }, maxBuffer: 1 << 26 })).iterations.items;

const server = await startServer(binary, root);
const { browser, page, problems } = await launch();
const shot = (name) => page.screenshot({ path: path.join(out, `compare-${name}.png`), fullPage: true });
const onTrace = (t) => page.locator(`#windows > section.timeline[data-trace="runs/${t}.prv"]`).first();
let view;

async function rowsFor(by) {
  await page.waitForFunction(([e, b]) => e.dataset.by === b && Number(e.dataset.rows) > 0,
    [await view.elementHandle(), by], { timeout: 30000, polling: 50 });
  return view.locator('table.compare-rows tr[data-unit]').evaluateAll((trs) => trs.map((t) => [t.dataset.unit, Number(t.dataset.diff)]));
}

const range = async (panel) => ({ from: Number(await panel.getAttribute('data-from')), to: Number(await panel.getAttribute('data-to')) });

const steps = [
  ['open both runs', async () => {
    await page.goto(server.url);
    await page.locator('#files li.dir', { hasText: 'runs' }).click();
    for (const t of ['a', 'b']) {
      await page.locator('#files li.trace', { hasText: `${t}.prv` }).click();
      await waitFrame(onTrace(t));
    }
  }],
  ['Compare… on A with B shows the ranked rows of parallax compare', async () => {
    const n = await page.locator('#windows > section.timeline').count();
    await onTrace('a').locator('button.compare').click();
    const ask = page.locator('dialog#choose-trace');
    await ask.waitFor({ timeout: 5000 });
    await ask.locator('select.trace-choice').selectOption('runs/b.prv');
    await ask.locator('button.apply').click();
    await page.waitForFunction((k) => document.querySelectorAll('#windows > section.timeline').length > k, n);
    view = page.locator('section.compare-view');
    const rows = await rowsFor('iteration');
    const want = cli('auto');
    check(rows.length === want.rows.length, `${rows.length} rows shown, parallax compare has ${want.rows.length}`);
    check(rows[0][0] === want.rows[0].unit && Math.abs(rows[0][1] - want.rows[0].diff_s) < 1e-12,
      `top row ${rows[0]} in the page, ${want.rows[0].unit} ${want.rows[0].diff_s} from parallax compare`);
    await shot('01-iterations');
  }],
  ['by rank, the slower task is the top row', async () => {
    await view.locator('select.compare-by').selectOption('rank');
    const rows = await rowsFor('rank');
    check(rows[0][0] === '1.3 computation' && rows[0][0] === cli('rank').rows[0].unit, `top row by rank: ${rows[0]}`);
  }],
  ['the stepper shows iteration k of each run in its own window', async () => {
    await view.locator('select.compare-by').selectOption('iteration');
    await rowsFor('iteration');
    const ia = structure('a'), ib = structure('b');
    // A's window, and B's opened beside it by Compare… (placed right after it, before B's own).
    const a = page.locator('#windows > section.timeline[data-trace="runs/a.prv"]').first();
    const b = page.locator('#windows > section.timeline[data-trace="runs/a.prv"] + section.timeline[data-trace="runs/b.prv"]');
    for (const k of [2, 3]) {
      const fa = await frames(a), fb = await frames(b);
      await view.locator('button.compare-next').click();
      await waitFrame(a, fa);
      await waitFrame(b, fb);
      const ra = await range(a), rb = await range(b);
      check(ra.from === ia[k - 1].begin && ra.to === ia[k - 1].end, `A shows ${ra.from}-${ra.to}, its iteration ${k} is ${ia[k - 1].begin}-${ia[k - 1].end}`);
      check(rb.from === ib[k - 1].begin && rb.to === ib[k - 1].end, `B shows ${rb.from}-${rb.to}, its iteration ${k} is ${ib[k - 1].begin}-${ib[k - 1].end}`);
    }
    check((await view.getAttribute('data-iteration')) === '3', 'the stepper is not at iteration 3');
    await shot('02-iteration-3');
  }],
  ['Difference draws A − B of the window in iteration 3, with each object\'s means', async () => {
    await view.locator('button.compare-difference').click();
    await page.waitForFunction((e) => e.dataset.difference === 'diff', await view.elementHandle(), { timeout: 30000, polling: 50 });
    const objects = await view.locator('table.compare-objects tr td:first-child').allTextContents();
    check(objects.length === 8 && objects[0] === 'THREAD 1.1.1', `objects of the difference: ${objects.join(', ')}`);
    check((await view.locator('.compare-window-head').textContent()).includes('iteration 3'), 'the difference is not of iteration 3');
    const img = view.locator('img.compare-diff-image');
    await page.waitForFunction((e) => e.complete && e.naturalWidth > 0, await img.elementHandle(), { timeout: 10000 });
    await view.locator('select.compare-op').selectOption('ratio');
    await page.waitForFunction((e) => e.dataset.difference === 'ratio', await view.elementHandle(), { timeout: 10000 });
    check((await view.locator('img.compare-diff-image').getAttribute('alt')).startsWith('A / B'), 'the ratio is not drawn');
    await shot('03-difference');
  }],
];

await runSteps('compare view', steps, { browser, server, problems, shot, root });
