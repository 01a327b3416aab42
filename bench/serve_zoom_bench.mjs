// Zoom latency of the browser UI: time from a zoom (drag released) to the new frame painted on
// the canvas, measured in the page (request + core render + JSON transfer + canvas paint).
//
//   node bench/serve_zoom_bench.mjs build/bin/parallax bench/out/synth_100M_s1.prv [ZOOMS]
//
// Zooms repeatedly into a third of the view (deeper and deeper, at a different place each time,
// so that no frame comes from the page's cache), then fits again, and prints the latency of
// each kind of step: median, 90th percentile and maximum.

import path from 'node:path';
import { dragZoom, frames, launch, startServer, waitFrame } from '../tests/e2e/lib.mjs';

const [binary, trace, zoomsArg] = process.argv.slice(2);
if (!binary || !trace) {
  console.error('usage: node bench/serve_zoom_bench.mjs PARALLAX_BINARY TRACE.prv [ZOOMS]');
  process.exit(2);
}
const zooms = Number(zoomsArg || 30);
const root = path.dirname(path.resolve(trace));
const server = await startServer(binary, root);
const { browser, page } = await launch();

function stats(xs) {
  const s = [...xs].sort((a, b) => a - b);
  const q = (f) => s[Math.min(s.length - 1, Math.floor(f * s.length))];
  return `median ${q(0.5).toFixed(1)} ms, p90 ${q(0.9).toFixed(1)} ms, max ${s[s.length - 1].toFixed(1)} ms (n=${s.length})`;
}

try {
  await page.goto(server.url);
  const t0 = Date.now();
  await page.evaluate((p) => window.parallax.loadTrace(p), path.basename(trace));
  const panel = page.locator('#windows > section.timeline').first();
  await panel.waitFor({ timeout: 600000 });
  let n = await waitFrame(panel, 0, 600000);
  const updates = await page.evaluate(() => window.parallax.progressUpdates || 0);
  console.log(`load progress updates shown: ${updates}`);
  console.log(`open + first frame: ${((Date.now() - t0) / 1000).toFixed(2)} s; canvas ${await panel.locator('canvas').evaluate((c) => `${c.width}x${c.height}`)}`);
  const zoomIn = [], fit = [], wall = [], fetches = [];
  for (let i = 0; i < zooms; ++i) {
    const deep = i % 6 === 5;
    const w0 = Date.now();
    if (deep) await panel.locator('button.fit').click();
    else {
      const a = 0.05 + ((i * 0.137) % 0.6);  // a new range each time: no frame from the page's cache
      await dragZoom(page, panel, a, a + 0.32);
    }
    n = await waitFrame(panel, n);
    wall.push(Date.now() - w0);
    (deep ? fit : zoomIn).push(Number(await panel.getAttribute('data-latency')));
    if (!deep) fetches.push(Number(await panel.getAttribute('data-fetch-ms')));
  }
  console.log(`zoom in (1/3 of the view): ${stats(zoomIn)}`);
  console.log(`  of which the request: ${stats(fetches)}`);
  console.log(`fit (whole trace):        ${stats(fit)}`);
  console.log(`as the test driver saw it (drag + frame): ${stats(wall)}`);
  console.log(`frames: ${await frames(panel)}`);
  const timing = await page.evaluate(() => performance.getEntriesByType('resource').filter((e) => e.name.includes('/api/timeline'))
    .map((e) => [e.responseStart - e.requestStart, e.responseEnd - e.responseStart, e.requestStart - e.startTime]));
  console.log(`server (request sent -> first byte): ${stats(timing.map((t) => t[0]))}`);
  console.log(`transfer: ${stats(timing.map((t) => t[1]))}; queueing: ${stats(timing.map((t) => t[2]))}`);
} finally {
  await browser.close();
  server.proc.kill();
}
