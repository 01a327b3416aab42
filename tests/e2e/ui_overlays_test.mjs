// Browser test of the overlays of a timeline window and of what they leave behind (issue 36):
// every overlay (the area selection, find matches, the source line's events, the structure, the
// diagnosis, an outlined row) is drawn through one registry (web/overlays.js), so clearing it
// leaves exactly the frame; highlights and messages about what was shown go when the range, the
// cfg or the trace changes (the wait said, an error in the status bar, the search's match and
// line, the find match and the textual view, another trace's banner); and a permalink restores
// the area selected. Each check failed before its fix.
//
//   node tests/e2e/ui_overlays_test.mjs PARALLAX_BINARY TESTS_DATA_DIR OUT_DIR

import fs from 'node:fs';
import path from 'node:path';
import { check, frames, launch, makeRoot, runSteps, startServer, testArgs, waitFrame } from './lib.mjs';

const [binary, data, out] = testArgs('ui_overlays_test.mjs');
const root = makeRoot(['epoch_4proc', 'epoch_2proc'].flatMap((t) => ['prv.gz', 'pcf', 'row']
  .map((x) => [path.join(data, `epoch/${t}.${x}`), `epoch/${t}.${x}`])));
// A trace with a line the reader skips: its load warns (a banner).
fs.writeFileSync(path.join(root, 'epoch/damaged.prv'),
  '#Paraver (01/01/2026 at 10:00):1000_ns:1(2):1:2(1:1,1:1)\n1:1:1:1:1:0:500:1\nxx:bad\n1:2:1:2:1:0:1000:1\n');

const server = await startServer(binary, root);
const { browser, page, problems } = await launch();
const shot = (name) => page.screenshot({ path: path.join(out, `overlays-${name}.png`) });
const timelines = () => page.locator('#windows > section.timeline');
let panel;

async function openTrace(name) {
  await page.waitForFunction(() => document.querySelector('#cwd').textContent.startsWith('/'));
  if (!(await page.locator('#cwd').textContent()).endsWith('epoch')) await page.locator('#files li.dir', { hasText: 'epoch' }).click();
  await page.locator('#files li.trace', { hasText: name }).click();
  await page.waitForFunction((n) => window.parallax.current === `epoch/${n}` && window.parallax.panels.some((p) => p.doc.trace === `epoch/${n}` && p.frames > 0), name,
    { timeout: 30000 });
}

async function typeRange(p, from, to) {
  const n = await frames(p);
  await p.locator('input.begin-time').fill(from);
  await p.locator('input.end-time').fill(to);
  await p.locator('input.end-time').press('Enter');
  await waitFrame(p, n);
}

// A drag over the canvas (today's viewers' mouse: an area selection) between fractions of its
// width and of its height.
async function dragArea(p, [x0, y0], [x1, y1]) {
  const box = await p.locator('canvas').boundingBox();
  await page.mouse.move(box.x + box.width * x0, box.y + box.height * y0);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width * x1, box.y + box.height * y1, { steps: 4 });
  await page.mouse.up();
}

const statusError = () => page.evaluate(() => document.getElementById('status').className === 'error'
  && document.getElementById('status').textContent);

const steps = [
  ['open a trace', async () => {
    await page.goto(server.url);
    await openTrace('epoch_4proc.prv.gz');
    panel = timelines().first();
    await waitFrame(panel);
  }],
  ['every overlay is drawn through the registry: cleared, the canvas is the frame', async () => {
    await panel.locator('button.diagnosis-toggle').click();
    await panel.locator('button.structure-toggle').click();
    await dragArea(panel, [0.3, 0.2], [0.45, 0.6]);
    await page.keyboard.press('f');
    await panel.locator('.find-bar input.find-text').fill('50000002');
    await panel.locator('.find-bar input.find-text').press('Enter');
    await page.waitForFunction((e) => {
      const p = window.parallax.panels.find((x) => x.root === e);
      return p.canvas.overlays && ['area', 'found', 'diagnosis', 'structure'].every((n) => p.canvas.overlays.get(n));
    }, await panel.elementHandle(), { timeout: 30000, polling: 100 });
    await panel.evaluate((e) => ((p) => p.canvas.mark(p.canvas.list.rows[1][3]))(window.parallax.panels.find((x) => x.root === e)));
    const shown = await panel.evaluate((e) => ((p) => p.canvas.overlays.shown().map(([name]) => name))(window.parallax.panels.find((x) => x.root === e)));
    check(['area', 'found', 'structure', 'diagnosis', 'row'].every((n) => shown.includes(n)), `the overlays shown: ${shown.join(', ')}`);
    const legend = await panel.locator('.overlay-legend').innerText();
    check(legend.includes('critical path') && legend.includes('iteration'), `the overlays' legend reads '${legend}'`);
    await shot('01-all');
    // The canvas with every overlay cleared, against the frame's image alone.
    const same = await panel.evaluate((e) => ((p) => {
      const c = p.canvas;
      const painted = c.canvas.getContext('2d').getImageData(0, 0, c.canvas.width, c.canvas.height).data;
      c.overlays.clear();
      const now = c.canvas.getContext('2d').getImageData(0, 0, c.canvas.width, c.canvas.height).data;
      const plain = document.createElement('canvas');
      plain.width = c.canvas.width;
      plain.height = c.canvas.height;
      plain.getContext('2d').drawImage(c.image, 0, 0);
      const frame = plain.getContext('2d').getImageData(0, 0, plain.width, plain.height).data;
      let differs = 0, drawn = 0;
      for (let i = 0; i < now.length; i += 1) {
        if (now[i] !== frame[i]) differs += 1;
        if (painted[i] !== frame[i]) drawn += 1;
      }
      return { differs, drawn };
    })(window.parallax.panels.find((x) => x.root === e)));
    check(same.drawn > 1000, `the overlays changed only ${same.drawn} bytes of the canvas`);
    check(same.differs === 0, `with every overlay cleared ${same.differs} bytes of the canvas differ from the frame`);
    await page.keyboard.press('Escape');  // the find bar
  }],
  ['a range change takes away the wait said and an error in the status bar', async () => {
    if (await panel.locator('.structure').isVisible()) await panel.locator('button.structure-toggle').click();
    if (await panel.locator('.diagnosis').isHidden()) await panel.locator('button.diagnosis-toggle').click();
    await page.waitForFunction((e) => (window.parallax.panels.find((x) => x.root === e).diagnosis.overlay || { waits: [] }).waits.length > 0,
      await panel.elementHandle(), { timeout: 30000, polling: 100 });
    const target = await panel.evaluate((e) => ((p) => {
      const o = p.diagnosis.overlay, l = p.canvas.list, r = p.zoom.range;
      const w = o.waits.filter((x) => x.culprit !== null).sort((a, b) => (b.end - b.begin) - (a.end - a.begin))[0];
      const row = l.rows.find((x) => x[3] === w.object);
      const [ax, , aw] = l.area;
      const mid = (Math.max(w.begin, r.from) + Math.min(w.end, r.to)) / 2;
      return { x: ax + ((mid - r.from) / (r.to - r.from)) * aw, y: row[1] + row[2] / 2, begin: w.begin, end: w.end };
    })(window.parallax.panels.find((x) => x.root === e)));
    const box = await panel.locator('canvas').boundingBox();
    await page.mouse.click(box.x + target.x, box.y + target.y);
    const view = panel.locator('.diagnosis');
    await page.waitForFunction((e) => e.dataset.selected, await view.elementHandle(), { timeout: 10000 });
    check((await view.locator('.diagnosis-detail').innerText()).includes('waited'), 'no wait is said');
    // An error in the status bar: Paste with nothing copied.
    await panel.locator('select.paste').selectOption('time');
    check(await statusError(), 'Paste without Copy gave no error');
    // Another range, away from the wait.
    const end = await page.evaluate(() => window.parallax.traceEnd(window.parallax.current));
    const away = target.end < end / 2 ? [Math.round(end * 0.8), end] : [0, Math.round(end * 0.1)];
    await typeRange(panel, `${away[0]} ns`, `${away[1]} ns`);
    await page.waitForFunction(([e, f]) => e.dataset.from === String(f), [await view.elementHandle(), away[0]], { timeout: 30000 });
    const detail = await view.locator('.diagnosis-detail').innerText();
    check(detail === '', `after the range changed the diagnosis still says '${detail}'`);
    check(await view.getAttribute('data-selected') === null, 'the wait stays selected');
    const error = await statusError();
    check(!error, `after the range changed the status bar still says '${error}'`);
    await panel.locator('button.diagnosis-toggle').click();
    await shot('02-range-changed');
  }],
  ['a cfg change takes away the find match and the textual view', async () => {
    await page.keyboard.press('f');
    await panel.locator('.find-bar input.find-text').fill('50000002');
    await panel.locator('.find-bar input.find-text').press('Enter');
    await page.waitForFunction((e) => window.parallax.panels.find((x) => x.root === e).canvas.overlays.get('found'),
      await panel.elementHandle(), { timeout: 20000 });
    await panel.locator('.find-bar input.find-text').press('Escape');
    await page.keyboard.press('n');  // the match again, the bar closed
    await page.waitForFunction((e) => window.parallax.panels.find((x) => x.root === e).canvas.overlays.get('found'),
      await panel.elementHandle(), { timeout: 20000 });
    const box = await panel.locator('canvas').boundingBox();
    const row = await panel.evaluate((e) => ((p) => { const r = p.canvas.list.rows[0]; return { y: r[1] + r[2] / 2, x: p.canvas.list.area[0] + 20 }; })(window.parallax.panels.find((x) => x.root === e)));
    await page.mouse.click(box.x + row.x, box.y + row.y);
    await panel.locator('.text-view').waitFor({ state: 'visible', timeout: 20000 });
    const n = await frames(panel);
    await panel.locator('select.draw-mode').selectOption('last');
    await waitFrame(panel, n);
    const left = await panel.evaluate((e) => ((p) => ({ found: p.canvas.overlays.get('found'), text: !p.textBox.hidden, line: p.findBar.result.textContent }))(window.parallax.panels.find((x) => x.root === e)));
    check(!left.found, 'the find match made with the old cfg is still marked');
    check(!left.text, 'the textual view of the old cfg is still shown');
    check(left.line === '', `the find bar still says '${left.line}'`);
  }],
  ['another trace: no search match, line or error of the last one, and no banner of another trace', async () => {
    await page.locator('#search select.search-kind').selectOption('event');
    await page.locator('#search input.search-text').fill('50000002');
    await page.locator('#search input.search-text').press('Enter');
    const result = page.locator('#search .search-result');
    await page.waitForFunction((e) => e.dataset.time !== undefined, await result.elementHandle(), { timeout: 20000 });
    check(await panel.evaluate((e) => ((p) => Boolean(p.canvas.overlays.get('found')))(window.parallax.panels.find((x) => x.root === e))), 'the search marked nothing');
    await page.locator('#files li.dir', { hasText: /^\.\.$/ }).click();
    await page.waitForFunction(() => document.querySelector('#cwd').textContent === '/');
    await openTrace('damaged.prv');
    check(await page.locator('#load-warning').isVisible(), 'the damaged trace shows no banner');
    await panel.locator('select.paste').selectOption('time');
    check(await statusError(), 'Paste without Copy gave no error');
    await openTrace('epoch_2proc.prv.gz');
    const left = await panel.evaluate((e) => ((p) => ({ found: Boolean(p.canvas.overlays.get('found')), line: document.querySelector('#search .search-result').textContent }))(window.parallax.panels.find((x) => x.root === e)));
    check(!left.found, 'the search match in the other trace\'s window is still marked');
    check(left.line === '', `the search box still says '${left.line}'`);
    const error = await statusError();
    check(!error, `the status bar still says '${error}'`);
    check(await page.locator('#load-warning').isHidden(), 'the damaged trace\'s banner stays over a clean trace');
    await shot('03-another-trace');
    await page.locator('#traces li', { hasText: 'damaged.prv' }).click();
    check(await page.locator('#load-warning').isVisible(), 'the damaged trace, current again, shows no banner');
    await page.locator('#traces li', { hasText: 'epoch_4proc.prv.gz' }).click();
    check(await page.locator('#load-warning').isHidden(), 'the banner stays over a clean trace');
  }],
  ['a permalink restores the area selected (and carries no token)', async () => {
    await page.locator('#close-all').click();
    await page.evaluate(() => window.parallax.openFunction('State As Is', [], 'epoch/epoch_4proc.prv.gz'));
    const p = timelines().first();
    await waitFrame(p);
    await typeRange(p, '1 s', '2 s');
    await dragArea(p, [0.4, 0.3], [0.6, 0.7]);
    await page.waitForFunction((e) => window.parallax.panels.find((x) => x.root === e).areaStats.area, await p.elementHandle());
    const area = await p.evaluate((e) => ((x) => x.areaStats.area)(window.parallax.panels.find((x) => x.root === e)));
    await page.waitForFunction((a) => location.hash.includes(`select=0%3A${a.from}-${a.to}%3A`), area, { timeout: 10000 });
    const link = await page.evaluate(() => location.href);
    check(!link.includes('token'), `the link carries the token: ${link}`);
    const p2 = await page.context().newPage();
    await p2.goto(link);
    await p2.waitForFunction(() => window.parallax && window.parallax.panels.some((x) => x.areaStats && x.areaStats.area && x.frames > 0),
      null, { timeout: 30000 });
    const got = await p2.evaluate(() => {
      const x = window.parallax.panels.find((q) => q.areaStats && q.areaStats.area);
      return { area: x.areaStats.area, range: { ...x.zoom.range }, outlined: Boolean(x.canvas.overlays.get('area')) };
    });
    check(got.area.from === area.from && got.area.to === area.to && got.area.objects.join() === area.objects.join(),
      `the link selects ${JSON.stringify(got.area)}, the page had ${JSON.stringify(area)}`);
    check(got.outlined, 'the restored selection is not outlined');
    check(got.range.from === 1000000000 && got.range.to === 2000000000, `the link shows ${got.range.from}-${got.range.to}`);
    await p2.locator('.area-stats table.area-values tr').nth(1).waitFor({ timeout: 20000 });
    await p2.screenshot({ path: path.join(out, 'overlays-04-permalink-selection.png') });
    await p2.close();
  }],
];

await runSteps('overlays', steps, { browser, server, problems, shot, root });
