// Benchmark (not a test: it prints numbers) of navigation in the browser on a generated trace:
// the time one gesture step takes to repaint from what the browser holds (the frame stretched
// on the canvas: data-paint-ms of the window), and the latency from a gesture's last step to
// the refined frame of its final range on screen (data-refined-at − data-preview-at). Issue 36
// asks ≤ 16 ms per repaint and ≤ 100 ms median latency on the 100 MB generated trace.
//
//   node tests/e2e/nav_bench.mjs BUILD_DIR [SIZE=100M] [GESTURES=20]
//
// The trace is made by BUILD_DIR/bin/parallax-gen in a temporary folder, removed at the end.

import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { launch, startServer, waitFrame } from './lib.mjs';

const [build, size = '100M', gestures = '20'] = process.argv.slice(2);
if (!build) {
  console.error('usage: node tests/e2e/nav_bench.mjs BUILD_DIR [SIZE=100M] [GESTURES=20]');
  process.exit(2);
}
const binary = path.join(build, 'bin', 'parallax');
const root = fs.mkdtempSync(path.join(os.tmpdir(), 'parallax-navbench-'));
const load = () => fs.readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
let server, browser;
try {
  execFileSync(path.join(build, 'bin', 'parallax-gen'), ['--size', size, '--seed', '1', '--out', path.join(root, 'synth')], { stdio: 'ignore' });
  const mb = fs.statSync(path.join(root, 'synth.prv')).size / 1048576;
  server = await startServer(binary, root);
  const launched = await launch();
  browser = launched.browser;
  const { page } = launched;
  await page.goto(server.url);
  await page.locator('#files li.trace', { hasText: 'synth.prv' }).click();
  const panel = page.locator('#windows > section.timeline').first();
  await waitFrame(panel, 0, 300000);
  const box = await panel.locator('canvas').boundingBox();
  const paints = [], latencies = [];
  let n = await panel.evaluate((e) => Number(e.dataset.frames));
  for (let g = 0; g < Number(gestures); g += 1) {
    const x = box.x + box.width * (0.2 + 0.6 * ((g * 37) % 100) / 100), y = box.y + box.height / 2;
    await page.mouse.move(x, y);
    if (g % 2 === 0) await page.keyboard.down('Control');
    else await page.keyboard.down('Shift');
    for (let s = 0; s < 5; s += 1) {
      await page.mouse.wheel(0, g % 4 < 2 ? -120 : 120);
      paints.push(await panel.evaluate((e) => Number(e.dataset.paintMs)));
    }
    await page.keyboard.up(g % 2 === 0 ? 'Control' : 'Shift');
    // The refined frame of the final range: the gesture's last preview's range is shown.
    const last = await panel.evaluate((e) => {
      const p = window.parallax.panels.find((x) => x.root === e);
      const r = p.pending || p.zoom.range;
      return { range: `${r.from}-${r.to}`, at: Number(e.dataset.previewAt) };
    });
    await page.waitForFunction(([e, r]) => e.dataset.refined === r || `${e.dataset.from}-${e.dataset.to}` === r,
      [await panel.elementHandle(), last.range], { timeout: 60000, polling: 'raf' });
    const shown = await panel.evaluate((e) => Number(e.dataset.refinedAt || performance.now()));
    latencies.push(Math.max(0, shown - last.at));
    n = await waitFrame(panel, n);  // the burst's commit, before the next gesture
  }
  const stats = (v) => {
    const s = [...v].sort((a, b) => a - b);
    const q = (f) => s[Math.min(s.length - 1, Math.floor(f * s.length))];
    return `median ${q(0.5).toFixed(2)} ms, p95 ${q(0.95).toFixed(2)} ms, max ${s[s.length - 1].toFixed(2)} ms (${s.length})`;
  };
  console.log(`trace: ${mb.toFixed(0)} MB generated (parallax-gen --size ${size}); load average ${load()}`);
  console.log(`repaint of a gesture step from the browser's frame: ${stats(paints)}`);
  console.log(`last step to the refined frame on screen:        ${stats(latencies)}`);
} finally {
  if (browser) await browser.close();
  if (server) server.proc.kill();
  fs.rmSync(root, { recursive: true, force: true });
}
