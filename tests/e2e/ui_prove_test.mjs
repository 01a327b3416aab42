// Browser test of PROVE's communication views (issue 19, item 4): the bytes sent over time and
// the node / task communication matrix under a timeline window, following its zoom. Expected
// numbers are summed by this test straight from qsort_beo3.prv (4 tasks, each on its own node
// and cpu), over the range the window shows.
//
//   node tests/e2e/ui_prove_test.mjs PARALLAX_BINARY TESTS_DATA_DIR OUT_DIR

import fs from 'node:fs';
import path from 'node:path';
import { check, dragZoom, frames, launch, makeRoot, runSteps, startServer, testArgs, waitFrame } from './lib.mjs';

const [binary, data, out] = testArgs('ui_prove_test.mjs');

const prvPath = path.join(data, 'qsort_beo3/qsort_beo3.prv');
const root = makeRoot([
  [prvPath, 'qsort/qsort_beo3.prv'],
  [path.join(data, 'qsort_beo3/qsort_beo3.pcf'), 'qsort/qsort_beo3.pcf'],
]);

// Communication lines: 3:cpu:appl:task:thread:lsend:psend:cpu:appl:task:thread:lrecv:precv:size:tag.
const comms = fs.readFileSync(prvPath, 'utf8').split('\n').filter((l) => l.startsWith('3:'))
  .map((l) => l.split(':').map(Number)).map((f) => ({ from: f[3], to: f[9], send: f[5], size: f[13] }));
check(comms.length > 20, `qsort_beo3.prv has only ${comms.length} communications`);

// What the views must show for [from, to): bytes and messages in total and task x task.
function expected(from, to) {
  const inRange = comms.filter((c) => c.send >= from && c.send < to);
  const bytes = [0, 1, 2, 3].map(() => [0, 0, 0, 0]), messages = [0, 1, 2, 3].map(() => [0, 0, 0, 0]);
  for (const c of inRange) {
    bytes[c.from - 1][c.to - 1] += c.size;
    messages[c.from - 1][c.to - 1] += 1;
  }
  return { messages: inRange.length, bytes: inRange.reduce((a, c) => a + c.size, 0), matrix: bytes, counts: messages };
}

// State lines: 1:cpu:appl:task:thread:begin:end:state. In qsort_beo3 task i runs on cpu i only,
// so cpu i's Running share is thread i's time in state 1 (Running) over the range.
const states = fs.readFileSync(prvPath, 'utf8').split('\n').filter((l) => l.startsWith('1:'))
  .map((l) => l.split(':').map(Number)).map((f) => ({ cpu: f[1], task: f[3], begin: f[5], end: f[6], state: f[7] }));
check(states.every((x) => x.cpu === x.task), 'a task of qsort_beo3.prv ran on another cpu than its own');
const runningShare = (cpu, from, to) => states.filter((x) => x.cpu === cpu && x.state === 1)
  .reduce((a, x) => a + Math.max(0, Math.min(to, x.end) - Math.max(from, x.begin)), 0) / (to - from);

const server = await startServer(binary, root);
const { browser, page, problems } = await launch();
const shot = (name) => page.screenshot({ path: path.join(out, `prove-${name}.png`), fullPage: true });
let panel, traffic;

const range = async () => ({ from: Number(await panel.getAttribute('data-from')), to: Number(await panel.getAttribute('data-to')) });
// Once the window and `other` (synchronised with it) both show a range other than `before`: the
// range they moved to. Another frame of `other` is no sign of the move (a repaint of the old
// range after a scroll).
async function movedTogether(other, before) {
  await page.waitForFunction(([a, b, f, t]) => a.dataset.from === b.dataset.from && a.dataset.to === b.dataset.to &&
    (a.dataset.from !== String(f) || a.dataset.to !== String(t)),
  [await panel.elementHandle(), await other.elementHandle(), before.from, before.to], { timeout: 60000, polling: 50 });
  return range();
}

// Waits until the views show the window's range, then compares them with the .prv.
async function checkViews(what) {
  const r = await range();
  await page.waitForFunction(([e, from, to]) => e.dataset.from === String(from) && e.dataset.to === String(to),
    [await traffic.elementHandle(), r.from, r.to], { timeout: 30000, polling: 50 });
  const d = await traffic.evaluate((e) => ({ ...e.dataset }));
  const want = expected(r.from, r.to);
  check(Number(d.messages) === want.messages, `${what}: ${d.messages} messages shown, the .prv has ${want.messages} in ${r.from}-${r.to}`);
  check(Number(d.bytes) === want.bytes, `${what}: ${d.bytes} bytes shown, the .prv has ${want.bytes}`);
  const [ax, , aw] = await panel.evaluate((e) => window.parallax.panels.find((p) => p.root === e).canvas.list.area);
  check(Number(d.columns) === Math.round(aw), `${what}: ${d.columns} time columns for a time area of ${aw} px`);
  for (const [cls, label] of [['nodes', 'node'], ['tasks', 'task']]) {
    const cells = await traffic.locator(`table.${cls} td`).evaluateAll((tds) => tds.map((t) => [Number(t.dataset.bytes), Number(t.dataset.messages)]));
    check(cells.length === 16, `${what}: the ${label} matrix has ${cells.length} cells, not 4 x 4`);
    // Each task runs on its own node (cpu i of node i): both matrices are the task x task sums.
    check(JSON.stringify(cells.map((c) => c[0])) === JSON.stringify(want.matrix.flat()),
      `${what}: ${label} bytes ${cells.map((c) => c[0])} are not the .prv's ${want.matrix.flat()}`);
    check(JSON.stringify(cells.map((c) => c[1])) === JSON.stringify(want.counts.flat()),
      `${what}: ${label} messages ${cells.map((c) => c[1])} are not the .prv's ${want.counts.flat()}`);
  }
  // The chart was drawn: some pixels of the time area are not white.
  const painted = await panel.evaluate((e, x0) => {
    const c = window.parallax.panels.find((p) => p.root === e).traffic.canvas;
    const d = c.getContext('2d').getImageData(x0, 12, c.width - x0, c.height - 12).data;
    let n = 0;
    for (let i = 0; i < d.length; i += 4) if (d[i] !== 255 || d[i + 1] !== 255 || d[i + 2] !== 255) n += 1;
    return n;
  }, Math.ceil(ax));
  check(want.bytes === 0 || painted > 0, `${what}: the chart is blank with ${want.bytes} bytes sent`);
  return want;
}

const steps = [
  ['open a trace with communications between 4 tasks on 4 nodes', async () => {
    await page.setViewportSize({ width: 1280, height: 720 });
    await page.goto(server.url);
    await page.locator('#files li.dir', { hasText: 'qsort' }).click();
    await page.locator('#files li.trace', { hasText: 'qsort_beo3.prv' }).click();
    panel = page.locator('#windows > section.timeline').first();
    await waitFrame(panel);
    traffic = panel.locator('.traffic');
    check(await traffic.isHidden(), 'the communication views are shown before being asked for');
  }],
  ['the Traffic button shows bytes over time and the matrices of the whole range', async () => {
    await panel.locator('button.traffic-toggle').click();
    const want = await checkViews('whole trace');
    check(want.messages === comms.length, `the whole trace shows ${want.messages} of ${comms.length} messages`);
    const legend = await traffic.locator('.traffic-legend').innerText();
    check(legend.includes(`${comms.length} messages`) && legend.includes('TASK 1.4'), `the legend reads:\n${legend}`);
    await shot('01-whole');
  }],
  ['a zoom of the window updates the views to the new range', async () => {
    const before = await range(), n = await frames(panel);
    await dragZoom(page, panel, 0.45, 0.75);
    await waitFrame(panel, n);
    const after = await range();
    check(after.to - after.from < before.to - before.from, `the zoom kept the range ${after.from}-${after.to}`);
    const want = await checkViews('zoomed');
    check(want.messages > 0 && want.messages < comms.length, `the zoomed range has ${want.messages} messages: pick another range`);
    await shot('02-zoomed');
  }],
  ['CPUs opens the window at cpu level, synchronised, with each cpu\'s Running share', async () => {
    await panel.locator('button.open-cpus').click();
    const cpus = page.locator('#windows > section.timeline').nth(1);
    await waitFrame(cpus);
    const r = await range();
    const c = { from: Number(await cpus.getAttribute('data-from')), to: Number(await cpus.getAttribute('data-to')) };
    check(c.from === r.from && c.to === r.to, `the cpu window shows ${c.from}-${c.to}, not ${r.from}-${r.to}`);
    const names = await cpus.evaluate((e) => window.parallax.panels.find((p) => p.root === e).window.level);
    check(names === 'cpu', `the new window is at level ${names}`);
    const use = cpus.locator('.cpu-use');
    const shares = async (from, to) => {
      await page.waitForFunction(([e, f, t]) => e.dataset.from === String(f) && e.dataset.to === String(t) && e.dataset.shares,
        [await use.elementHandle(), from, to], { timeout: 30000, polling: 50 });
      return JSON.parse(await use.getAttribute('data-shares'));
    };
    let got = await shares(r.from, r.to);
    check(Object.keys(got).length === 4, `shares for ${Object.keys(got)}`);
    Object.values(got).forEach((v, i) => {
      const want = runningShare(i + 1, r.from, r.to);
      check(Math.abs(v - want) < 1e-9, `cpu ${i + 1} is Running ${v} of the range, the .prv says ${want}`);
    });
    check(Object.values(got).some((v) => v > 0), 'no cpu is Running in the range');
    await use.scrollIntoViewIfNeeded();
    await page.screenshot({ path: path.join(out, 'prove-03-cpus.png') });
    // A zoom of the first window moves the cpu window and its shares with it.
    await dragZoom(page, panel, 0.1, 0.4);
    const z = await movedTogether(cpus, r);
    got = await shares(z.from, z.to);
    Object.values(got).forEach((v, i) => {
      const want = runningShare(i + 1, z.from, z.to);
      check(Math.abs(v - want) < 1e-9, `after the zoom, cpu ${i + 1} is Running ${v}, the .prv says ${want}`);
    });
  }],
  ['a request whose connection failed, or that a full server refused (429), is made again', async () => {
    const cpus = page.locator('#windows > section.timeline').nth(1);
    const use = cpus.locator('.cpu-use');
    const asked = [];
    await page.route('**/api/utilisation', async (route) => {
      asked.push(route.request().method());
      if (asked.length === 1) return route.abort('connectionreset');
      if (asked.length === 2) {
        return route.fulfill({ status: 429, headers: { 'Retry-After': '1' }, contentType: 'application/json',
          body: '{"error":"the server is busy: too many connections","status":429,"hint":"retry in a moment"}' });
      }
      return route.continue();
    });
    const known = problems.length;
    const before = await range();
    await dragZoom(page, panel, 0.2, 0.6);
    const z = await movedTogether(cpus, before);
    await page.waitForFunction(([e, f, t]) => e.dataset.from === String(f) && e.dataset.to === String(t) && e.dataset.shares,
      [await use.elementHandle(), z.from, z.to], { timeout: 30000, polling: 50 });
    await page.unroute('**/api/utilisation');
    check(asked.length === 3, `the utilisation was asked ${asked.length} times, not 3 (a reset, a 429, an answer)`);
    check(!(await use.locator('.error').count()), 'the cpu shares show an error');
    const got = JSON.parse(await use.getAttribute('data-shares'));
    Object.values(got).forEach((v, i) => {
      const want = runningShare(i + 1, z.from, z.to);
      check(Math.abs(v - want) < 1e-9, `after the retries, cpu ${i + 1} is Running ${v}, the .prv says ${want}`);
    });
    // The browser logs both failed attempts; they were the point of this step.
    const logged = problems.splice(known);
    check(logged.every((m) => /ERR_CONNECTION_RESET|ERR_FAILED|status of 429/.test(m)), `unexpected problems:\n${logged.join('\n')}`);
  }],
  ['the Traffic button hides the views again', async () => {
    await panel.locator('button.traffic-toggle').click();
    check(await traffic.isHidden(), 'the views are still shown');
  }],
];

await runSteps('PROVE view', steps, { browser, server, problems, shot, root });
