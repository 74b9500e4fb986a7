#!/usr/bin/env node
// profile.mjs — where the page's main thread spends a recompute: the d_model 512 / 128-token
// sentence edit of measure.mjs, run --runs times under the Chrome DevTools sampling profiler
// (CDP Profiler, playwright-core's newCDPSession), summarised per function: self time and
// total time (the function and what it calls), summed over the runs and divided by them, so
// the numbers read as milliseconds per edit. Only the page's thread is profiled (the Worker's
// compute is measure.mjs's "worker" part). A tool for finding what to fix, not a test.
//
//   node tests/browser/profile.mjs [--runs 20] [--top 40] [--dist dist] [--isolated]
//                                  [--step layer0.head0.weights] [--chromium /usr/bin/chromium]
import path from 'node:path';
import process from 'node:process';
import { chromium } from 'playwright-core';
import { startServer } from '../../scripts/serve.mjs';
import { root, arg, launchChromium } from '../harness.mjs';

const runs = Number(arg('--runs', '20'));
const top = Number(arg('--top', '40'));
const dist = path.resolve(root, arg('--dist', 'dist'));
const exe = arg('--chromium', process.env.CHROMIUM || '/usr/bin/chromium');
const step = arg('--step', 'layer0.head0.weights');
const isolated = process.argv.includes('--isolated');

const words = 'the quick brown fox jumps over the lazy dog while snow falls on frozen hills'.split(' ');
const sentence = (shift) => Array.from({ length: 128 }, (_, i) => words[(i + shift) % words.length]).join(' ');
const D512 = { d_model: 512, num_heads: 8, d_ff: 2048, num_layers: 1, decoder_layers: 0, seed: 100, step };

const { server, url } = await startServer(dist, 0, '127.0.0.1', { isolated });
const browser = await launchChromium(chromium, exe);
const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
await page.goto(url);
await page.evaluate(() => window.encoderWalkthrough.ready);
// Each edit is bracketed by two functions that spin 1 ms, so that the samples say where it
// starts and where its step is on screen (the page's clock and the profile's are not the same).
await page.evaluate(() => {
  const spin = () => { const t = performance.now(); while (performance.now() - t < 1); };
  window.__ewEditStart = function __ewEditStart() { spin(); };
  window.__ewEditShown = function __ewEditShown() { spin(); };
});
const edit = (r) => page.evaluate(async (s) => {
  window.__ewEditStart();
  const t0 = performance.now();
  await window.encoderWalkthrough.setState(s);
  const t1 = performance.now();
  window.__ewEditShown();
  await new Promise((res) => requestAnimationFrame(() => setTimeout(res, 0)));
  return t1 - t0;
}, { ...D512, text: sentence(r) });
for (let r = 0; r < 3; r++) await edit(r); // warm up: the size, the JIT

const cdp = await page.context().newCDPSession(page);
await cdp.send('Profiler.enable');
await cdp.send('Profiler.setSamplingInterval', { interval: 100 }); // µs
await cdp.send('Profiler.start');
const e2e = [];
for (let r = 0; r < runs; r++) e2e.push(await edit(r + 10));
const { profile } = await cdp.send('Profiler.stop');

// Self time per node from the samples, then per function (name + file:line), and total time:
// a function's time counted once per sample however often it recurs on the stack.
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const parent = new Map();
for (const n of profile.nodes) for (const c of n.children || []) parent.set(c, n.id);
const key = (n) => {
  const f = n.callFrame;
  const file = f.url ? f.url.replace(/^.*\/js\//, 'js/').replace(/^https?:\/\/[^/]+\//, '') : '';
  return `${f.functionName || '(anonymous)'} ${file}${file ? ':' + (f.lineNumber + 1) : ''}`;
};
// Each sample's phase: 'e2e' (setState → step on screen: from __ewEditStart to __ewEditShown)
// or 'after' (from there to the next edit: the frame that paints it, the script's round trips).
const self = new Map(), total = new Map(), inE2e = new Map(), byPhase = new Map();
const dts = profile.timeDeltas;
let ph = 'before';
for (let i = 0; i < profile.samples.length; i++) {
  const dt = (dts[i + 1] ?? 0) / 1000; // ms until the next sample
  let n = byId.get(profile.samples[i]);
  const fn = n.callFrame.functionName;
  let mark = null;
  for (let m = n; m && !mark; m = byId.get(parent.get(m.id))) if (m.callFrame.functionName.startsWith('__ewEdit')) mark = m.callFrame.functionName;
  if (mark) {
    ph = mark === '__ewEditStart' ? 'e2e' : 'after';
    continue;
  }
  const busy = !['(idle)', '(program)', '(root)'].includes(n.callFrame.functionName);
  const pk = `${ph} ${busy ? 'js' : fn}`;
  byPhase.set(pk, (byPhase.get(pk) || 0) + dt);
  if (ph === 'e2e') {
    const seen = new Set();
    for (let m = n; m; m = byId.get(parent.get(m.id))) {
      const k = key(m);
      if (!seen.has(k)) inE2e.set(k, (inE2e.get(k) || 0) + dt);
      seen.add(k);
    }
  }
  self.set(key(n), (self.get(key(n)) || 0) + dt);
  const seen = new Set();
  for (; n; n = byId.get(parent.get(n.id))) {
    const k = key(n);
    if (seen.has(k)) continue;
    seen.add(k);
    total.set(k, (total.get(k) || 0) + dt);
  }
}
const med = [...e2e].sort((a, b) => a - b)[e2e.length >> 1];
console.log(`${url}${isolated ? ' (isolated)' : ''}: ${runs} edits, end to end median ${med.toFixed(1)} ms; ms per edit:`);
const rows = (m) => [...m].sort((a, b) => b[1] - a[1]).slice(0, top).map(([k, v]) => `  ${(v / runs).toFixed(2).padStart(7)}  ${k}`).join('\n');
console.log(`\nself time\n${rows(self)}`);
console.log(`\ntotal time\n${rows(total)}`);
console.log(`\ntotal time within setState → step on screen \n${rows(inE2e)}`);
console.log(`\nby phase\n${rows(byPhase)}`);
await browser.close();
server.close();
