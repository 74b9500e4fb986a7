#!/usr/bin/env node
// threads.mjs — threads_vs_one (issue 21) in the browser the page runs in: headless Chromium
// (V8 TurboFan only, as run.mjs) on a cross-origin-isolated origin (scripts/serve.mjs' isolated
// headers, serving the repository) runs dist/'s threaded module (encoder_walkthrough_relaxed_mt.js)
// on the BERT-base-sized layer (T 128, d 768, 12 heads, ff 3072; bench/node/suite.mjs's model
// and input) and times Engine.rerun() with 1 thread and with N (2 and
// navigator.hardwareConcurrency, at most 4) in interleaved rounds: the same module, the same
// Engine, only Module.setThreads changes. Timed in a module Worker (threads-worker.mjs), as the
// page's engine runs. It also checks that the layer's output is bit-identical for every thread
// count (exit status 2 if not). Stdout: one JSON object {threads_vs_one: {"2": ratio, ...},
// ms: {"1": median, ...}, hardware_concurrency, rounds, bit_identical}; bench/run.sh --browser
// puts threads_vs_one into the browser object's ratios.
//
//   node bench/browser/threads.mjs [--quick] [--rounds N] [--chromium /usr/bin/chromium]
import path from 'node:path';
import { root, arg, launchChromium, requireFiles } from '../../tests/harness.mjs';
import { startServer } from '../../scripts/serve.mjs';
import { LAYER_SHAPES, layerModelJson, seededArray } from '../node/suite.mjs';

const quick = process.argv.includes('--quick');
const rounds = Number(arg('--rounds', quick ? 5 : 15));
const exe = arg('--chromium', process.env.CHROMIUM || '/usr/bin/chromium');
const dist = path.join(root, 'dist');
requireFiles('bench/browser/threads.mjs', [['our threaded module (cmake --build --preset wasm)', path.join(dist, 'encoder_walkthrough_relaxed_mt.wasm')], ['Chromium', exe]]);
const log = (...m) => process.stderr.write(`threads: ${m.join(' ')}\n`);

const shape = LAYER_SHAPES.find((s) => s.d === 768);
const model = layerModelJson(shape, seededArray(1, 'bench.input', shape.T * shape.d));
// The repository root (as run.mjs serves it): /dist/ for the module, /bench/browser/ for the Worker.
const { server, url } = await startServer(root, 0, '127.0.0.1', { isolated: true });
const { chromium } = await import('playwright-core');
const browser = await launchChromium(chromium, exe, ['--js-flags=--no-liftoff']); // TurboFan only, as bench/browser/run.mjs
const page = await browser.newPage();
page.on('console', (m) => log(`[page] ${m.text()}`));
await page.goto(url + 'bench-threads'); // any same-origin document with the isolation headers (a 404 will do)
const out = await page.evaluate(({ model, rounds }) => new Promise((resolve, reject) => {
  if (!crossOriginIsolated) reject(new Error('the page is not cross-origin isolated'));
  const w = new Worker('/bench/browser/threads-worker.mjs', { type: 'module' });
  w.onmessage = ({ data }) => (data.error ? reject(new Error(data.error)) : resolve(data));
  w.onerror = (e) => reject(new Error(e.message || 'worker error'));
  w.postMessage({ model, rounds });
}), { model, rounds });
if (out.error) throw new Error(out.error);
await browser.close();
server.close();

const median = (xs) => { const s = [...xs].sort((a, b) => a - b); return s[s.length >> 1]; };
const ms = Object.fromEntries(out.counts.map((n) => [n, Number(median(out.times[n]).toFixed(2))]));
const ratios = Object.fromEntries(out.counts.filter((n) => n > 1).map((n) => [n, Number((ms[1] / ms[n]).toFixed(3))]));
const result = { layer: shape.label, threads_vs_one: ratios, ms, hardware_concurrency: out.hc, rounds, bit_identical: out.same };
process.stdout.write(JSON.stringify(result, null, 1) + '\n');
process.exit(out.same ? 0 : 2);
