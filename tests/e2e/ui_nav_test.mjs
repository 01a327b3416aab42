// Browser test of the navigation of issue 19 (item 3): wheel and W/S zoom at the cursor,
// shift+wheel and A/D pan, one frame request per burst, frames reused when a range is shown
// again, the hover tooltip with pixel provenance.
//
//   node tests/e2e/ui_nav_test.mjs PARALLAX_BINARY TESTS_DATA_DIR OUT_DIR

import fs from 'node:fs';
import path from 'node:path';
import { check, dragZoom, frames, launch, makeRoot, startServer, waitFrame } from './lib.mjs';

const [binary, data, out] = process.argv.slice(2);
if (!binary || !data || !out) {
  console.error('usage: node tests/e2e/ui_nav_test.mjs PARALLAX_BINARY TESTS_DATA_DIR OUT_DIR');
  process.exit(2);
}
fs.mkdirSync(out, { recursive: true });

const root = makeRoot(['prv.gz', 'pcf', 'row'].map((x) => [path.join(data, 'epoch', `epoch_2proc.${x}`), `epoch/epoch_2proc.${x}`]));

let step = 'start';
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
  ['a burst of wheel events zooms at the cursor with one request', async () => {
    const before = await range(), n = await frames(panel), asked = await requests();
    const p = await at(0.25);
    await page.mouse.move(p.x, p.y);
    for (let i = 0; i < 6; i += 1) await page.mouse.wheel(0, -100);
    await waitFrame(panel, n);
    const after = await range();
    const span0 = before.to - before.from, span1 = after.to - after.from;
    check(span1 < span0 * 0.5, `six wheel steps zoomed ${span0} to ${span1}`);
    // The time under the cursor stays under it (to a pixel).
    const [, , aw] = await area();
    const drift = Math.abs(timeAt(after, 0.25) - timeAt(before, 0.25));
    check(drift <= span0 / aw, `the time under the cursor moved by ${drift} (a pixel is ${span0 / aw})`);
    check(await requests() === asked + 1, `the burst asked ${await requests() - asked} frames, not 1`);
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
    await panel.locator('input.min-y').blur();
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
  ['no browser errors', async () => {
    check(problems.length === 0, problems.join('\n'));
  }],
];

async function run() {
  const failed = [];
  for (const [name, fn] of steps) {
    step = name;
    try {
      await fn();
      console.log(`ok: ${name}`);
    } catch (e) {
      failed.push(`${name}: ${e.message.split('\n')[0]}`);
      console.error(`FAILED: ${name}: ${e.message}`);
      try { await shot(`failure-${failed.length}`); } catch (x) { /* the page may be gone */ }
      break;
    }
  }
  if (failed.length) throw new Error(`${failed.length} step(s) failed:\n${failed.join('\n')}`);
}

let code = 0;
try {
  await run();
  console.log('e2e: all navigation steps passed');
} catch (e) {
  code = 1;
  console.error(`e2e: ${e.message} (step: ${step})`);
  if (problems.length) console.error(problems.join('\n'));
  console.error(`server output:\n${server.output()}`);
} finally {
  await browser.close();
  server.proc.kill();
  fs.rmSync(root, { recursive: true, force: true });
}
process.exit(code);
