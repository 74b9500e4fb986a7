#!/usr/bin/env node
// measure.mjs — how long a recompute takes in the page itself (headless Chromium, the built
// dist/), end to end and in parts, for each build of the module the page can load: the
// relaxed-SIMD build (Chromium's default: it validates relaxed SIMD) and the plain SIMD128
// build (a second page whose requests for the relaxed files get a 404, so the Worker falls
// back to the next build, as it would on a host without them). Both pages run in one
// interleaved loop: every round takes one sample of each build, so a noisy machine slows
// both alike.
//
// Sizes: the default model; d_model 512, 8 heads, d_ff 2048, 128 tokens (new seeded weights
// every run, and "typing": only the sentence changes, the weights are kept); BERT-base size
// (d_model 768, 12 heads, d_ff 3072, 128 tokens, one layer), typing.
// Per sample: end to end — the time from setState() to the new step on screen, measured in
// the page (worker compute + transfer of the shown step + render; setState resolves once the
// step's DOM is built), also up to the next frame's layout and paint (rAF, then a task: up
// to one 16.7 ms frame of waiting is included in that one) — and the page's own
// readout (#perf and its title: forward pass, parse + forward in the worker, copy of the
// shown step's data, render). Summarised as median/min/max. Then the bare matmul
// 128×512×2048 of both builds in Chromium (GFLOP/s). A measurement to report, not a
// test: it asserts nothing about speed (the machine is shared). Used for the README.
// --isolated: the site is served cross-origin isolated (scripts/serve.mjs --isolated) and one
// page runs the threaded build ("threads": relaxed_mt); the script fails unless that page is
// crossOriginIsolated and its readout names the threaded build on more than one thread.
//
//   node tests/browser/measure.mjs [--runs 9] [--dist dist] [--chromium /usr/bin/chromium]
//                                  [--builds relaxed,simd] [--isolated] [--json] [--js-flags=V8 flags]
import path from 'node:path';
import process from 'node:process';
import { chromium } from 'playwright-core';
import { startServer } from '../../scripts/serve.mjs';
import { root, arg, launchChromium } from '../harness.mjs';

const runs = Number(arg('--runs', '9'));
const dist = path.resolve(root, arg('--dist', 'dist'));
const exe = arg('--chromium', process.env.CHROMIUM || '/usr/bin/chromium');
const isolated = process.argv.includes('--isolated');
const builds = arg('--builds', isolated ? 'threads' : 'relaxed,simd').split(',');
const json = process.argv.includes('--json');
const extraFlags = arg('--js-flags') ? [arg('--js-flags')] : [];
const BUILDS = isolated ? ['threads'] : ['relaxed', 'simd'];
const log = (...m) => (json ? process.stderr : process.stdout).write(m.join(' ') + '\n');

// "1.23 ms" / "850 µs" / "1.2 s" → ms
const toMs = (s) => {
  const m = /([\d.]+)\s*(µs|ms|s)/.exec(s);
  if (!m) return NaN;
  return Number(m[1]) * (m[2] === 'µs' ? 1e-3 : m[2] === 's' ? 1e3 : 1);
};
const stats = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return { median: s[Math.floor(s.length / 2)], min: s[0], max: s[s.length - 1] };
};
const fmt = ({ median, min, max }) => `${median.toFixed(2)} ms (min ${min.toFixed(2)}, max ${max.toFixed(2)})`;

const words = 'the quick brown fox jumps over the lazy dog while snow falls on frozen hills'.split(' ');
const sentence = (shift) => Array.from({ length: 128 }, (_, i) => words[(i + shift) % words.length]).join(' ');
const D512 = { d_model: 512, num_heads: 8, d_ff: 2048, num_layers: 1, decoder_layers: 0 };
const BERT = { d_model: 768, num_heads: 12, d_ff: 3072, num_layers: 1, decoder_layers: 0 };
const sizes = [
  ['default: d_model 8, 2 heads, d_ff 32, 1+1 layers, "in the bleak midwinter"', { preset: '', text: 'in the bleak midwinter' }, 'seed'],
  ['d_model 512, 8 heads, d_ff 2048, 1 encoder layer, 128 tokens, new weights', { ...D512, text: sentence(0) }, 'seed'],
  ['d_model 512, 128 tokens, a sentence edit (seeded weights kept)', D512, 'typing'],
  ['BERT-base: d_model 768, 12 heads, d_ff 3072, 1 layer, 128 tokens, a sentence edit', BERT, 'typing'],
];

// One page per build, in one Chromium.
const { server, url } = await startServer(dist, 0, '127.0.0.1', { isolated });
const browser = await launchChromium(chromium, exe, extraFlags.length ? [`--js-flags=${extraFlags.join(' ')}`] : []);
const pages = {};
for (const b of builds) {
  if (!BUILDS.includes(b)) throw new Error(`unknown build ${b} (${BUILDS.join(', ')})`);
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 }, serviceWorkers: 'block' });
  // The split SIMD128 build leads (engine/build-pick.js): the relaxed build runs where its files are missing.
  if (b === 'relaxed') await context.route(/\/encoder_walkthrough(\.deferred)?\.(js|wasm)$/, (r) => r.fulfill({ status: 404, body: 'not here' }));
  const page = await context.newPage();
  await page.goto(url);
  await page.evaluate(() => window.encoderWalkthrough.ready);
  const perf = await page.evaluate(() => document.getElementById('perf').textContent);
  const threads = Number((/on (\d+) threads/.exec(perf) || [])[1] || 0);
  const shown = threads > 1 ? 'threads' : /relaxed-SIMD build/.test(perf) ? 'relaxed' : /SIMD128 build/.test(perf) ? 'simd' : '?';
  if (shown !== b) throw new Error(`the ${b} page runs the ${shown} build ("${perf}")`);
  if (await page.evaluate(() => window.crossOriginIsolated) !== isolated) throw new Error(`the ${b} page's crossOriginIsolated is not ${isolated}`);
  pages[b] = { page };
}
log(`page: ${url}${isolated ? ' (cross-origin isolated)' : ''}; builds: ${builds.join(', ')}; ${runs} runs per size, interleaved; ${new Date().toISOString()}`);

// One recompute on `page`: end-to-end time measured in the page, and its readout.
async function sample(page, state) {
  const [e2e, painted] = await page.evaluate(async (s) => {
    const t0 = performance.now();
    await window.encoderWalkthrough.setState(s);
    const t1 = performance.now();
    // The next frame: rAF runs before its layout and paint, a task queued there runs after.
    await new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
    return [t1 - t0, performance.now() - t0];
  }, state);
  const title = await page.evaluate(() => document.getElementById('perf').title);
  const text = await page.evaluate(() => document.getElementById('perf').textContent);
  const m = /forward pass ([^;]+); seeded weights ([^;]+); parse \+ weights \+ forward in the worker ([^;]+); copy to the page (.+)$/.exec(title);
  if (!m) throw new Error(`unexpected #perf title: ${title}`);
  return { e2e, painted, forward: toMs(m[1]), weights: toMs(m[2]), worker: toMs(m[3]), copy: toMs(m[4]), render: toMs(/rendered in ([^·]+)/.exec(text)[1]) };
}

const out = [];
for (const [name, state, mode] of sizes) {
  const rows = Object.fromEntries(builds.map((b) => [b, []]));
  for (let r = 0; r < runs + 1; r++) {
    const vary = mode === 'typing' ? { text: sentence(r + 1), seed: 100 } : { seed: 100 + (r % 2) };
    const order = r % 2 ? [...builds].reverse() : builds;
    for (const b of order) {
      const s = await sample(pages[b].page, { ...state, ...vary, step: 'layer0.head0.weights' });
      if (r > 0) rows[b].push(s); // the first one warms up the size
    }
  }
  log(`\n${name} — ${runs} recomputes per build`);
  for (const b of builds) {
    const col = (k) => stats(rows[b].map((x) => x[k]));
    const res = { size: name, build: b, runs };
    for (const k of ['e2e', 'painted', 'forward', 'weights', 'worker', 'copy', 'render']) res[k] = col(k);
    out.push(res);
    log(`  [${b}] end to end (setState → step on screen): ${fmt(res.e2e)}`);
    log(`  [${b}]   … and its frame painted:               ${fmt(res.painted)}`);
    log(`  [${b}]   forward pass (ew::run in the worker):  ${fmt(res.forward)}`);
    log(`  [${b}]   drawing the seeded weights:            ${fmt(res.weights)}`);
    log(`  [${b}]   parse + weights + forward (worker):    ${fmt(res.worker)}`);
    log(`  [${b}]   copy of the shown step's data:         ${fmt(res.copy)}`);
    log(`  [${b}]   render of the step (head 0 weights):   ${fmt(res.render)}`);
  }
}
// The bare matmul 128×512×2048 in Chromium (main thread of the relaxed page, both builds' web
// modules loaded side by side, Module.MatmulBench: B packed once), interleaved rounds.
const matmul = await pages[builds[0]].page.evaluate(async (rounds) => {
  const mods = {};
  for (const [b, file] of [['relaxed', 'encoder_walkthrough_relaxed.js'], ['simd', 'encoder_walkthrough.js']]) {
    const { default: factory } = await import(`/${file}`);
    const M = await factory({ locateFile: (p) => `/${p}`, print: () => {}, printErr: () => {} });
    const mb = new M.MatmulBench(128, 512, 2048);
    for (let i = 0; i < 5; i++) mb.run();
    mods[b] = { mb, isa: M.kernelIsa(), ms: [] };
  }
  for (let r = 0; r < rounds; r++) {
    for (const b of r % 2 ? ['simd', 'relaxed'] : ['relaxed', 'simd']) {
      const t0 = performance.now();
      for (let i = 0; i < 10; i++) mods[b].mb.run();
      mods[b].ms.push((performance.now() - t0) / 10);
    }
  }
  const med = (a) => [...a].sort((x, y) => x - y)[a.length >> 1];
  const sum = (b) => mods[b].mb.checksum();
  return Object.fromEntries(Object.entries(mods).map(([b, m]) => [b, { isa: m.isa, ms: med(m.ms), checksum: sum(b) }]));
}, Math.max(9, runs * 2 + 1)).catch((e) => ({ error: String(e.message || e) }));
if (matmul.error) log(`\nmatmul in Chromium: not measured (${matmul.error})`);
else {
  log('\nmatmul 128×512×2048 in Chromium (main thread, interleaved, median)');
  for (const [b, m] of Object.entries(matmul))
    log(`  [${b}] ${m.ms.toFixed(2)} ms = ${(2 * 128 * 512 * 2048 / m.ms / 1e6).toFixed(1)} GFLOP/s (kernels ${m.isa}, ΣC ${m.checksum.toFixed(3)})`);
}
if (json) process.stdout.write(JSON.stringify({ url, date: new Date().toISOString(), runs, results: out, matmul }, null, 1) + '\n');
await browser.close();
server.close();
