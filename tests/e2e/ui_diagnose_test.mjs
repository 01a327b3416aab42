// Browser test of the diagnosis under a timeline window (issue 32, item 4): the Waits button
// shows the wait-state table of the range in view, the same numbers as `parallax diagnose` over
// that range, shades the waiting parts and draws the critical path on the timeline, follows the
// zoom, and a click on a wait says who caused it and draws an arrow from the culprit.
//
//   node tests/e2e/ui_diagnose_test.mjs PARALLAX_BINARY TESTS_DATA_DIR OUT_DIR

import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { check, dragZoom, frames, launch, makeRoot, runSteps, startServer, testArgs, waitFrame } from './lib.mjs';

const [binary, data, out] = testArgs('ui_diagnose_test.mjs');
const files = ['prv.gz', 'pcf', 'row'].flatMap((e) => [[path.join(data, `epoch/epoch_4proc.${e}`), `epoch/epoch_4proc.${e}`],
  [path.join(data, `omp/omp2.${e}`), `omp/omp2.${e}`]]);
const root = makeRoot(files);
const tracePath = path.join(data, 'epoch/epoch_4proc.prv.gz');

// What the command line computes for [from, to).
function cli(from, to) {
  const json = execFileSync(binary, ['diagnose', tracePath, '--format', 'json', '--from', String(from), '--to', String(to)],
    { env: { ...process.env, PARALLAX_CACHE: 'off' }, maxBuffer: 1 << 26 });
  return JSON.parse(json);
}

const server = await startServer(binary, root);
const { browser, page, problems } = await launch();
const shot = (name) => page.screenshot({ path: path.join(out, `diagnose-${name}.png`), fullPage: true });
let panel, view;

const range = async () => ({ from: Number(await panel.getAttribute('data-from')), to: Number(await panel.getAttribute('data-to')) });

// Waits until the table shows the window's range, then compares it with the command line.
async function checkTable(what) {
  const r = await range();
  await page.waitForFunction(([e, from, to]) => e.dataset.from === String(from) && e.dataset.to === String(to),
    [await view.elementHandle(), r.from, r.to], { timeout: 30000, polling: 50 });
  const want = cli(r.from, r.to);
  const rows = await view.locator('table.diagnosis-patterns tr[data-key]').evaluateAll((trs) => trs.map((t) => [t.dataset.key, Number(t.dataset.time)]));
  check(rows.length === Object.keys(want.patterns).length, `${what}: ${rows.length} patterns in the table`);
  for (const [key, time] of rows)
    check(Math.abs(time - want.patterns[key].time_s) < 1e-12, `${what}: ${key} ${time} s in the table, ${want.patterns[key].time_s} s from parallax diagnose`);
  return { r, want };
}

// Pixels of the timeline area close to a colour.
async function pixels(rgb, tolerance = 40) {
  return panel.locator('canvas').evaluate((c, [col, tol]) => {
    const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
    let n = 0;
    for (let i = 0; i < d.length; i += 4)
      if (Math.abs(d[i] - col[0]) + Math.abs(d[i + 1] - col[1]) + Math.abs(d[i + 2] - col[2]) <= tol) n += 1;
    return n;
  }, [rgb, tolerance]);
}

const steps = [
  ['open an MPI trace with 4 ranks', async () => {
    await page.goto(server.url);
    await page.locator('#files li.dir', { hasText: 'epoch' }).click();
    await page.locator('#files li.trace', { hasText: 'epoch_4proc.prv.gz' }).click();
    panel = page.locator('#windows > section.timeline').first();
    await waitFrame(panel);
    view = panel.locator('.diagnosis');
    check(await view.isHidden(), 'the diagnosis is shown before being asked for');
  }],
  ['Waits shows the table of the whole range, shades the waits and draws the critical path', async () => {
    const yellowBefore = await pixels([255, 208, 0], 30);
    await panel.locator('button.diagnosis-toggle').click();
    const { want } = await checkTable('whole trace');
    const d = await view.evaluate((e) => ({ ...e.dataset }));
    check(Number(d.waits) > 100 && Number(d.segments) > 10, `overlay of ${d.waits} waits and ${d.segments} path segments`);
    check(Number(d.segments) === want.critical_path.segments.length, `${d.segments} path segments drawn, parallax diagnose has ${want.critical_path.segments.length}`);
    const yellow = await pixels([255, 208, 0], 30);
    check(yellow > yellowBefore + 200, `the critical path is not drawn (${yellowBefore} -> ${yellow} yellow pixels)`);
    const text = await view.innerText();
    check(text.includes('Late Sender') && text.includes('critical path') && text.includes('root causes'), `the panel reads:\n${text}`);
    await shot('01-whole');
  }],
  ['a zoom updates the table and the overlay to the new range', async () => {
    const n = await frames(panel);
    await dragZoom(page, panel, 0.70, 0.78);
    await waitFrame(panel, n);
    const { r, want } = await checkTable('zoomed');
    const total = Object.values(want.patterns).reduce((a, p) => a + p.count, 0);
    check(total > 0, `the zoomed range ${r.from}-${r.to} has no wait state: pick another`);
    await shot('02-zoomed');
  }],
  ['a click on a wait names its culprit and draws an arrow from it', async () => {
    // The longest wait drawn, and where it is on the canvas.
    const target = await panel.evaluate((e) => {
      const p = window.parallax.panels.find((x) => x.root === e);
      const o = p.diagnosis.overlay, l = p.canvas.list, r = p.zoom.range;
      const w = o.waits.filter((x) => x.culprit !== null).sort((a, b) => (b.end - b.begin) - (a.end - a.begin))[0];
      const row = l.rows.find((x) => x[3] === w.object);
      const [ax, , aw] = l.area;
      const mid = (Math.max(w.begin, r.from) + Math.min(w.end, r.to)) / 2;
      return { x: ax + ((mid - r.from) / (r.to - r.from)) * aw, y: row[1] + row[2] / 2, rank: w.rank, begin: w.begin, culprit: w.culpritRank };
    });
    const box = await panel.locator('canvas').boundingBox();
    const cyanBefore = await pixels([0, 229, 255], 30);
    await page.mouse.click(box.x + target.x, box.y + target.y);
    await page.waitForFunction((e) => e.dataset.selected, await view.elementHandle(), { timeout: 10000, polling: 50 });
    const detail = await view.locator('.diagnosis-detail').innerText();
    check(detail.includes(`rank ${target.rank} waited`) && detail.includes(`for rank ${target.culprit}`), `the detail reads: ${detail}`);
    check((await view.getAttribute('data-selected')) === `${target.rank}@${target.begin}`, 'another wait was selected');
    check(await pixels([0, 229, 255], 30) > cyanBefore + 5, 'no arrow from the culprit is drawn');
    await shot('03-selected');
  }],
  ['Waits hides the table and the overlay', async () => {
    await panel.locator('button.diagnosis-toggle').click();
    check(await view.isHidden(), 'the diagnosis is still shown');
    const overlay = await panel.evaluate((e) => window.parallax.panels.find((x) => x.root === e).canvas.overlays.get('diagnosis'));
    check(overlay === null, 'the overlay is still drawn');
  }],
  ['on a trace without MPI, Waits says so and draws nothing', async () => {
    await page.locator('#files li.dir', { hasText: '..' }).click();
    await page.locator('#files li.dir', { hasText: 'omp' }).click();
    await page.locator('#files li.trace', { hasText: 'omp2.prv.gz' }).click();
    const omp = page.locator('#windows > section.timeline', { hasText: 'omp2' }).first();
    await waitFrame(omp);
    await omp.locator('button.diagnosis-toggle').click();
    const v = omp.locator('.diagnosis');
    await page.waitForFunction((e) => e.dataset.waits !== undefined, await v.elementHandle(), { timeout: 30000, polling: 50 });
    const text = await v.innerText();
    check(text.includes('no MPI call events') && (await v.getAttribute('data-waits')) === '0', `the panel reads:\n${text}`);
  }],
];

await runSteps('diagnosis view', steps, { browser, server, problems, shot, root });
