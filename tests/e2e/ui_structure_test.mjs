// Browser test of the structure under a timeline window (issue 33, item 4): the Structure button
// marks the iterations of the range in view (as many as `parallax structure` finds there) with
// a ruler under the time axis, colours the bursts by cluster and lists the clusters as the
// command line does; a click on an iteration of the ruler zooms to exactly that iteration; a
// trace without a loop says so.
//
//   node tests/e2e/ui_structure_test.mjs PARALLAX_BINARY TESTS_DATA_DIR OUT_DIR

import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { check, launch, makeRoot, runSteps, startServer, testArgs, waitFrame, frames } from './lib.mjs';

const [binary, data, out] = testArgs('ui_structure_test.mjs');
const files = ['prv.gz', 'pcf', 'row'].map((e) => [path.join(data, `epoch/epoch_2proc.${e}`), `epoch/epoch_2proc.${e}`]);
const root = makeRoot(files);
fs.mkdirSync(path.join(root, 'gen'));
execFileSync(path.join(path.dirname(binary), 'parallax-gen'),
  ['--size', '3M', '--seed', '3', '--tasks', '4', '--threads', '2', '--out', path.join(root, 'gen/g')], { stdio: 'ignore' });
const tracePath = path.join(root, 'gen/g.prv');
const want = JSON.parse(execFileSync(binary, ['structure', tracePath, '--format', 'json'],
  { env: { ...process.env, PARALLAX_CACHE: 'off' }, maxBuffer: 1 << 26 }));
check(want.iterations.found && want.iterations.count > 10, `the generated trace has ${want.iterations.count} iterations`);

const server = await startServer(binary, root);
const { browser, page, problems } = await launch();
const shot = (name) => page.screenshot({ path: path.join(out, `structure-${name}.png`), fullPage: true });
let panel, view;

// Iterations of the command line's JSON that overlap [from, to).
const inRange = (from, to) => want.iterations.items.filter((x) => x.end > from && x.begin < to).length;

// Pixels of the canvas close to a colour.
async function pixels(rgb, tolerance = 40) {
  return panel.locator('canvas').evaluate((c, [col, tol]) => {
    const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
    let n = 0;
    for (let i = 0; i < d.length; i += 4)
      if (Math.abs(d[i] - col[0]) + Math.abs(d[i + 1] - col[1]) + Math.abs(d[i + 2] - col[2]) <= tol) n += 1;
    return n;
  }, [rgb, tolerance]);
}

async function shown() {
  const r = { from: Number(await panel.getAttribute('data-from')), to: Number(await panel.getAttribute('data-to')) };
  await page.waitForFunction(([e, from, to]) => e.dataset.from === String(from) && e.dataset.to === String(to),
    [await view.elementHandle(), r.from, r.to], { timeout: 30000, polling: 50 });
  return r;
}

const steps = [
  ['open the generated trace', async () => {
    await page.goto(server.url);
    await page.locator('#files li.dir', { hasText: 'gen' }).click();
    await page.locator('#files li.trace', { hasText: 'g.prv' }).click();
    panel = page.locator('#windows > section.timeline').first();
    await waitFrame(panel);
    view = panel.locator('.structure');
    check(await view.isHidden(), 'the structure is shown before being asked for');
  }],
  ['Structure marks the iterations, colours the bursts and lists the clusters', async () => {
    const greenBefore = await pixels([0, 200, 83], 30);
    await panel.locator('button.structure-toggle').click();
    const r = await shown();
    const d = await view.evaluate((e) => ({ ...e.dataset }));
    check(Number(d.iterations) === inRange(r.from, r.to), `${d.iterations} iterations marked, parallax structure has ${inRange(r.from, r.to)} in view`);
    check(Number(d.clusters) === want.clusters.length, `${d.clusters} clusters listed, parallax structure has ${want.clusters.length}`);
    check(Number(d.bursts) > 100, `only ${d.bursts} bursts coloured`);
    check(await view.locator('.structure-ruler button.iteration').count() === Number(d.iterations), 'the ruler has another number of cells');
    const green = await pixels([0, 200, 83], 30);
    check(green > greenBefore + 200, `cluster 1 is not drawn (${greenBefore} -> ${green} green pixels)`);
    const text = await view.innerText();
    check(text.includes(`${want.iterations.count} iterations`) && text.includes('Burst clusters'), `the panel reads:\n${text}`);
    await shot('01-whole');
  }],
  ['a click on an iteration of the ruler zooms to exactly that iteration', async () => {
    const n = await frames(panel);
    await view.locator('.structure-ruler button.iteration[data-iteration="5"]').click();
    await waitFrame(panel, n);
    const r = await shown();
    const it = want.iterations.items[4];
    check(r.from === it.begin && r.to === it.end, `the window shows ${r.from}-${r.to}, iteration 5 is ${it.begin}-${it.end}`);
    const d = await view.evaluate((e) => ({ ...e.dataset }));
    check(Number(d.iterations) === inRange(r.from, r.to), `${d.iterations} iterations marked in the zoom, ${inRange(r.from, r.to)} overlap it`);
    await shot('02-iteration');
  }],
  ['Structure hides the panel and the overlay', async () => {
    await panel.locator('button.structure-toggle').click();
    check(await view.isHidden(), 'the structure is still shown');
    const overlay = await panel.evaluate((e) => window.parallax.panels.find((x) => x.root === e).canvas.overlays.get('structure'));
    check(overlay === null, 'the overlay is still drawn');
  }],
  ['on a trace without a loop, Structure says so', async () => {
    await page.locator('#files li.dir', { hasText: '..' }).click();
    await page.locator('#files li.dir', { hasText: 'epoch' }).click();
    await page.locator('#files li.trace', { hasText: 'epoch_2proc.prv.gz' }).click();
    const e = page.locator('#windows > section.timeline', { hasText: 'epoch_2proc' }).first();
    await waitFrame(e);
    await e.locator('button.structure-toggle').click();
    const v = e.locator('.structure');
    await page.waitForFunction((x) => x.dataset.iterations !== undefined, await v.elementHandle(), { timeout: 30000, polling: 50 });
    const text = await v.innerText();
    check(text.includes('no iterations found') && (await v.getAttribute('data-iterations')) === '0', `the panel reads:\n${text}`);
  }],
];

await runSteps('structure view', steps, { browser, server, problems, shot, root });
