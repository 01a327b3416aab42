// Shared set-up of the browser tests and the zoom benchmark: a root folder with traces and cfgs,
// `parallax serve` on a free port, and Debian's chromium driven by playwright-core.

import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

let chromium;
try {
  ({ chromium } = await import('playwright-core'));
} catch (e) {
  console.error('error: playwright-core is not installed\n  hint: run `npm ci` in the repository (scripts/setup.sh does)');
  process.exit(1);
}

export const CHROMIUM = process.env.PARALLAX_CHROMIUM || '/usr/bin/chromium';

export function fail(message) {
  throw new Error(message);
}

export function check(condition, message) {
  if (!condition) fail(message);
}

// A temporary root holding copies of `files` ([source, name under the root]).
export function makeRoot(files) {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'parallax-e2e-'));
  for (const [src, dst] of files) {
    const to = path.join(root, dst);
    fs.mkdirSync(path.dirname(to), { recursive: true });
    fs.copyFileSync(src, to);
  }
  return root;
}

// Starts `parallax serve` and resolves with {url, proc} once it prints its URL.
export function startServer(binary, root, extraArgs = []) {
  return new Promise((resolve, reject) => {
    const proc = spawn(binary, ['serve', '--root', root, '--port', '0', ...extraArgs], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    const timer = setTimeout(() => reject(new Error(`parallax serve printed no URL in 120 s:\n${out}`)), 120000);
    const onData = (d) => {
      out += d;
      const m = /(http:\/\/\S+\?token=\w+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve({ url: m[1], proc, output: () => out });
      }
    };
    proc.stdout.on('data', onData);
    proc.stderr.on('data', onData);
    proc.on('exit', (code) => { clearTimeout(timer); reject(new Error(`parallax serve exited with ${code}:\n${out}`)); });
  });
}

export async function launch() {
  check(fs.existsSync(CHROMIUM), `${CHROMIUM} not found (hint: apt-get install chromium, as scripts/setup.sh does)`);
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--disable-dev-shm-usage', '--disable-background-networking',
      '--disable-component-update', '--disable-sync', '--no-first-run', '--font-render-hinting=none'],
  });
  const context = await browser.newContext({ viewport: { width: 1500, height: 1000 }, acceptDownloads: true });
  const page = await context.newPage();
  const problems = [];
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  // Chromium logs every failed fetch; a 409 is the expected answer to saving over a file.
  page.on('console', (m) => {
    if (m.type() === 'error' && !/status of 409/.test(m.text())) problems.push(`console error: ${m.text()}`);
  });
  return { browser, page, problems };
}

// Waits until the panel's frame counter passes `after` (a new image was painted). Polls every
// 25 ms rather than at every animation frame, which would keep a core busy and slow the server.
export async function waitFrame(panel, after = 0, timeout = 60000) {
  await panel.page().waitForFunction(([el, n]) => Number(el.dataset.frames || 0) > n,
    [await panel.elementHandle(), after], { timeout, polling: 25 });
  return Number(await panel.getAttribute('data-frames'));
}

export async function frames(panel) {
  return Number((await panel.getAttribute('data-frames')) || 0);
}

// Zooms a panel to the range between two fractions of its canvas' width, by a drag at mid
// height: with Paraver's mouse convention the drag zooms; with today's viewers' (the default)
// it selects an area, and Z zooms to it.
export async function dragZoom(page, panel, f0, f1) {
  const box = await panel.locator('canvas').boundingBox();
  const y = box.y + box.height / 2;
  await page.mouse.move(box.x + box.width * f0, y);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width * ((f0 + f1) / 2), y, { steps: 3 });
  await page.mouse.move(box.x + box.width * f1, y, { steps: 3 });
  await page.mouse.up();
  if (await page.evaluate(() => window.parallax.mouse !== 'paraver')) await page.keyboard.press('z');
}

// How many canvas pixels differ from the background colour at (0, 0) of the timeline area.
export async function paintedPixels(panel) {
  return panel.locator('canvas').evaluate((c) => {
    const g = c.getContext('2d');
    const d = g.getImageData(0, 0, c.width, c.height).data;
    let n = 0;
    for (let i = 0; i < d.length; i += 4) if (d[i] || d[i + 1] || d[i + 2]) n += 1;
    return n;
  });
}

// The command line of a browser test, [binary, data, out] (out created), or its usage and exit 2.
export function testArgs(script) {
  const [binary, data, out] = process.argv.slice(2);
  if (!binary || !data || !out) {
    console.error(`usage: node tests/e2e/${script} PARALLAX_BINARY TESTS_DATA_DIR OUT_DIR`);
    process.exit(2);
  }
  fs.mkdirSync(out, { recursive: true });
  return [binary, data, out];
}

// Runs `steps` ([name, async fn]) in order and stops at the first failure, printing it with
// the page's problems and the server's output (and a `failure` screenshot); then checks that
// the page logged no error, closes the browser, stops the server, removes `root` and exits 0 or 1.
export async function runSteps(what, steps, { browser, server, problems, shot, root }) {
  let step = 'start', code = 0;
  try {
    for (const [name, fn] of steps) {
      step = name;
      await fn();
      console.log(`ok: ${name}`);
    }
    step = 'no browser errors';
    check(problems.length === 0, `the page reported problems:\n${problems.join('\n')}`);
    console.log(`e2e: all ${what} steps passed`);
  } catch (e) {
    code = 1;
    console.error(`e2e: ${e.message} (step: ${step})`);
    try { await shot('failure'); } catch (x) { /* the page may be gone */ }
    if (problems.length) console.error(problems.join('\n'));
    console.error(`server output:\n${server.output()}`);
  } finally {
    await browser.close();
    server.proc.kill();
    fs.rmSync(root, { recursive: true, force: true });
  }
  process.exit(code);
}
