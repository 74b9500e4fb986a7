#!/usr/bin/env node
// measure.mjs — how long a recompute takes in the page itself (headless Chromium, the built
// dist/), at the default size and at d_model 512, 8 heads, d_ff 2048, 128 tokens: for each size,
// N recomputes (alternating seeds, so each is a real recompute; and, as when typing, a
// changing sentence with the same seed), and the page's own readout
// (#perf and its title: the worker's forward pass, parse + forward, copy, and the render time)
// summarised as median/min/max. A measurement to report, not a test: it asserts nothing about
// speed (the machine is shared). Used for the README's numbers.
//
//   node tests/browser/measure.mjs [--runs 9] [--dist dist] [--chromium /usr/bin/chromium]
//                                  [--js-flags=V8 flags, e.g. --no-liftoff]
import path from 'node:path';
import process from 'node:process';
import { chromium } from 'playwright-core';
import { startServer } from '../../scripts/serve.mjs';
import { root, arg, launchChromium } from '../harness.mjs';

const runs = Number(arg('--runs', '9'));
const dist = path.resolve(root, arg('--dist', 'dist'));
const exe = arg('--chromium', process.env.CHROMIUM || '/usr/bin/chromium');

const { server, url } = await startServer(dist, 0);
const browser = await launchChromium(chromium, exe, arg('--js-flags') ? [`--js-flags=${arg('--js-flags')}`] : []);
const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
await page.goto(url);
await page.evaluate(() => window.encoderWalkthrough.ready);
const isa = await page.evaluate(() => document.getElementById('perf').textContent);

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
const sizes = [
  ['default: d_model 8, 2 heads, d_ff 32, 1+1 layers, "in the bleak midwinter"',
    { preset: '', text: 'in the bleak midwinter' }],
  ['d_model 512, 8 heads, d_ff 2048, 1 encoder layer, 128 tokens',
    { text: Array.from({ length: 128 }, (_, i) => words[i % words.length]).join(' '), d_model: 512, num_heads: 8,
      d_ff: 2048, num_layers: 1, decoder_layers: 0 }],
  ['the same, typing: only the sentence changes (seeded weights are kept)',
    { d_model: 512, num_heads: 8, d_ff: 2048, num_layers: 1, decoder_layers: 0 }, 'typing'],
];
console.log(`page: ${url}  (${isa})`);
for (const [name, state, mode] of sizes) {
  const rows = { forward: [], weights: [], worker: [], copy: [], render: [] };
  for (let r = 0; r < runs + 1; r++) {
    const vary = mode === 'typing'
      ? { text: Array.from({ length: 128 }, (_, i) => words[(i + r) % words.length]).join(' '), seed: 100 }
      : { seed: 100 + (r % 2) };  // a new seed: new weights, a real recompute
    await page.evaluate((s) => window.encoderWalkthrough.setState(s), { ...state, ...vary, step: 'layer0.head0.weights' });
    const title = await page.evaluate(() => document.getElementById('perf').title);
    const text = await page.evaluate(() => document.getElementById('perf').textContent);
    if (r === 0) continue; // the first one warms up the size
    const m = /forward pass ([^;]+); seeded weights ([^;]+); parse \+ weights \+ forward in the worker ([^;]+); copy to the page (.+)$/.exec(title);
    if (!m) throw new Error(`unexpected #perf title: ${title}`);
    rows.forward.push(toMs(m[1]));
    rows.weights.push(toMs(m[2]));
    rows.worker.push(toMs(m[3]));
    rows.copy.push(toMs(m[4]));
    rows.render.push(toMs(/rendered in (.+)$/.exec(text)[1]));
  }
  console.log(`\n${name} — ${runs} recomputes`);
  console.log(`  forward pass (ew::run in the worker):     ${fmt(stats(rows.forward))}`);
  console.log(`  drawing + packing the seeded weights:     ${fmt(stats(rows.weights))}`);
  console.log(`  parse + weights + forward (worker):       ${fmt(stats(rows.worker))}`);
  console.log(`  copy of the trace to the page:            ${fmt(stats(rows.copy))}`);
  console.log(`  render of the step (weights of head 0):   ${fmt(stats(rows.render))}`);
}
await browser.close();
server.close();
