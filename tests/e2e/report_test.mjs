// Browser test of `parallax report` (issue 35, docs/report.md): the report of each trace of
// tests/data (Paraver, OTF2, Paje and trace-event JSON; and of the epoch scaling series) opens in Chromium with no console error and no
// request but the file itself; every number it marks (data-source, data-run, data-path,
// data-value) equals the value at that path of the JSON the named command prints for that run
// (`parallax info --json`, `pop --format json` of the same traces, `diagnose`, `structure`);
// a trace that cannot be loaded gives an error and no file. Screenshots: OUT_DIR/report-*.png.
//
//   node tests/e2e/report_test.mjs PARALLAX_BINARY TESTS_DATA_DIR OUT_DIR

import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { check, launch, testArgs } from './lib.mjs';

const [binary, data, out] = testArgs('report_test.mjs');
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'parallax_report_'));
const env = { ...process.env, PARALLAX_CACHE: 'off' };
const run = (args) => execFileSync(binary, args, { env, maxBuffer: 1 << 28 }).toString();

const traces = [];
for (const dir of fs.readdirSync(data).sort()) {
  if (['oracles', 'cfg'].includes(dir)) continue;
  const full = path.join(data, dir);
  if (!fs.statSync(full).isDirectory()) continue;
  for (const f of fs.readdirSync(full).sort())
    if (/\.prv(\.gz)?$|\.trace$|\.json$/.test(f)) traces.push([path.join(full, f)]);
}
for (const d of ['ping-pong-otf2', 'ping-pong-otf2-papi']) traces.push([path.join(data, 'otf2', d, 'traces.otf2')]);
traces.push(['epoch_1proc', 'epoch_2proc', 'epoch_4proc'].map((n) => path.join(data, 'epoch', `${n}.prv.gz`)));
check(traces.length >= 30, `only ${traces.length} traces found under ${data}`);

// The value at a JSON path: segments split by '/', "key=NAME" picks the list element whose key
// is NAME.
function at(json, p) {
  let v = json;
  for (const seg of p.split('/')) {
    if (v === undefined || v === null) return undefined;
    if (seg.startsWith('key=')) v = v.find((x) => x.key === seg.slice(4));
    else v = v[seg];
  }
  return v;
}

const { browser, page, problems } = await launch();
const requests = [];
page.on('request', (r) => requests.push(r.url()));
let failures = 0;
let checked = 0;
try {
  for (const [k, list] of traces.entries()) {
    const name = list.length > 1 ? 'epoch-series' : `${k}-${path.basename(list[0]).replace(/\W+/g, '_')}`;
    const html = path.join(work, `${name}.html`);
    const r = spawnSync(binary, ['report', ...list, '-o', html], { env, maxBuffer: 1 << 26 });
    if (r.status !== 0) {
      // Only a trace that cannot be loaded may fail, with an error and no file.
      const loads = spawnSync(binary, ['info', list[0]], { env }).status === 0;
      check(!loads && /error/.test(r.stderr.toString()) && !fs.existsSync(html),
        `report of ${list.join(' ')} failed: ${r.stderr}`);
      console.log(`ok ${name}: not loadable, an error and no report`);
      continue;
    }
    requests.length = 0;
    problems.length = 0;
    await page.goto(`file://${html}`);
    await page.waitForLoadState('load');
    check(problems.length === 0, `${name}: ${problems.join('; ')}`);
    check(requests.length === 1 && requests[0] === `file://${html}`, `${name}: requests ${requests.join(', ')}`);
    const images = await page.locator('img').evaluateAll((xs) => xs.map((i) => i.complete && i.naturalWidth > 0));
    check(images.every((x) => x), `${name}: an image did not load`);
    check(await page.locator('h2#pop').count() === 1, `${name}: no POP section`);
    const cells = await page.locator('[data-source]').evaluateAll((xs) => xs.map((x) => ({
      source: x.dataset.source, run: Number(x.dataset.run), path: x.dataset.path, value: Number(x.dataset.value),
      text: x.textContent,
    })));
    // The commands' JSON, once per (source, run).
    const json = new Map();
    const cli = (source, i) => {
      const key = `${source}/${i}`;
      if (!json.has(key)) {
        const args = source === 'info' ? ['info', list[i], '--json'] : source === 'pop' ? ['pop', ...list, '--format', 'json']
          : [source, list[i], '--format', 'json'];
        json.set(key, JSON.parse(run(args)));
      }
      return json.get(key);
    };
    for (const c of cells) {
      const want = at(cli(c.source, c.source === 'pop' ? 0 : c.run), c.path);
      const ok = typeof want === 'number' && (want === c.value || Math.abs(want - c.value) <= 1e-12 * Math.abs(want));
      if (!ok) {
        failures++;
        console.log(`FAIL ${name}: ${c.source} ${c.path} (run ${c.run}) shows ${c.value} ("${c.text}"), the command prints ${want}`);
      }
      check(c.text.trim() !== '', `${name}: an empty number at ${c.path}`);
    }
    checked += cells.length;
    const sources = new Set(cells.map((c) => c.source));
    console.log(`ok ${name}: ${cells.length} numbers equal the commands' (${[...sources].join(', ')}), no request, no console error`);
    if (k % 4 === 0 || list.length > 1) await page.screenshot({ path: path.join(out, `report-${name}.png`), fullPage: true });
  }
  check(failures === 0, `${failures} numbers differ from the commands'`);
  check(checked > 300, `only ${checked} numbers checked`);
  console.log(`ok report: ${checked} numbers checked`);
} finally {
  await browser.close();
  fs.rmSync(work, { recursive: true, force: true });
}
