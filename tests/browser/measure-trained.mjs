#!/usr/bin/env node
// measure-trained.mjs — the trained-model targets of issue 10, measured in the page itself
// (headless Chromium, the built dist/): a measurement to report in the README, not a test (it
// asserts nothing about speed; the machine is shared).
//   1. The cost of the backward pass at the default trained model's size (number-words,
//      d_model 32): N recomputes with the switch off and on, interleaved, alternating two
//      sentences; the Worker's own readout (forward ms, backward ms) and the wall time from
//      setState() to the trace on screen; medians.
//   2. Training number-words at its default size in the page until the held-out exact match
//      (1,000 examples, every 100 steps) reaches 99%, or the step budget ends: time to 99%
//      (optimizer steps only, and wall time with the evaluations), steps/s, the final accuracy
//      on 1,000 held-out examples, and the longest main-thread task while it trained
//      (PerformanceObserver 'longtask': tasks over 50 ms; none means none over 50 ms).
//
//   node tests/browser/measure-trained.mjs [--runs 15] [--steps 3000] [--skip-train]
import path from 'node:path';
import process from 'node:process';
import { execSync } from 'node:child_process';
import { chromium } from 'playwright-core';
import { startServer } from '../../scripts/serve.mjs';
import { root, arg, launchChromium } from '../harness.mjs';

const runs = Number(arg('--runs', '15'));
const steps = Number(arg('--steps', '3000'));
const dist = path.resolve(root, arg('--dist', 'dist'));
const exe = arg('--chromium', process.env.CHROMIUM || '/usr/bin/chromium');

const { server, url } = await startServer(dist, 0);
const browser = await launchChromium(chromium, exe);
const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
await page.addInitScript(() => {
  window.__longTasks = [];
  new PerformanceObserver((l) => { for (const e of l.getEntries()) window.__longTasks.push({ t: e.startTime, ms: e.duration }); })
    .observe({ type: 'longtask', buffered: true });
});
await page.goto(url);
await page.evaluate(() => window.encoderWalkthrough.ready);
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
console.log(`load: ${execSync('uptime').toString().trim()}`);

// ---- 1. the backward pass's cost ----------------------------------------------------------
const texts = ['six hundred ninety three thousand nine hundred twenty five', 'four hundred twelve thousand eight'];
const rows = { off: { wall: [], fwd: [] }, on: { wall: [], fwd: [], back: [] } };
for (let i = 0; i < runs; i++)
  for (const mode of ['off', 'on']) {
    if ((await page.isChecked('#backward')) !== (mode === 'on')) await page.click('#backward');
    await page.waitForTimeout(50);
    const r = await page.evaluate(async (text) => {
      const t0 = performance.now();
      await window.encoderWalkthrough.setState({ text });
      return { wall: performance.now() - t0, perf: document.getElementById('perf').textContent, back: document.getElementById('backward-ms').textContent };
    }, texts[i % 2]);
    rows[mode].wall.push(r.wall);
    rows[mode].fwd.push(Number(/computed in ([\d.]+) ms/.exec(r.perf)?.[1]));
    if (mode === 'on') rows.on.back.push(Number(/backward pass ([\d.]+) ms/.exec(r.back)?.[1]));
  }
console.log(`backward pass at the default trained model (number-words, d_model 32, 1+1 layers; the generating recompute, ${runs} interleaved runs, medians):`);
console.log(`  switch off: ${median(rows.off.wall).toFixed(1)} ms from setState to the trace on screen (engine: ${median(rows.off.fwd).toFixed(2)} ms)`);
console.log(`  switch on:  ${median(rows.on.wall).toFixed(1)} ms (engine forward ${median(rows.on.fwd).toFixed(2)} ms + backward ${median(rows.on.back).toFixed(2)} ms)`);
console.log(`  added by the backward pass: ${(median(rows.on.wall) - median(rows.off.wall)).toFixed(1)} ms wall, ${median(rows.on.back).toFixed(2)} ms in the engine`);
if (await page.isChecked('#backward')) await page.click('#backward');

// ---- 2. training number-words to 99% ---------------------------------------------------------
if (!process.argv.includes('--skip-train')) {
  await page.evaluate(() => { window.__longTasks = []; });
  const t0 = Date.now();
  const r = await page.evaluate((n) => window.encoderWalkthrough.train(
    { task: 'number-words', steps: n, evalN: 1000, finalEvalN: 1000, stopAt: 0.99 },
    (p) => {
      window.__lastProgress = performance.now();
      if (p.accuracy !== undefined) window.__trainLog = [...(window.__trainLog || []), p];
    }), steps);
  const wall = Date.now() - t0;
  const log = await page.evaluate(() => (window.__trainLog || []).map((p) => ({ steps: p.steps, acc: p.accuracy, ms: p.ms, sps: p.stepsPerSec })));
  // Tasks while training ran (before its last progress message), apart from the switch to
  // the trained model afterwards (a recompute and a render, as for any new model).
  const lt = await page.evaluate(() => window.__longTasks.filter((x) => x.t < window.__lastProgress));
  const after = await page.evaluate(() => window.__longTasks.filter((x) => x.t >= window.__lastProgress));
  const hit = log.find((p) => p.acc >= 0.99);
  for (const p of log) console.log(`  step ${p.steps}: held-out ${(100 * p.acc).toFixed(1)}% (1,000), ${(p.ms / 1000).toFixed(1)} s of steps, ${p.sps.toFixed(1)} steps/s`);
  console.log(`training number-words (d_model 32, 4 heads, d_ff 64, 1+1 layers; the panel's defaults: batch 16, lr 0.006) in the page:`);
  console.log(hit ? `  99% held-out (1,000) at step ${hit.steps}: ${(hit.ms / 1000).toFixed(1)} s of optimizer steps`
    : `  99% not reached in ${r.steps} steps (${(100 * r.accuracy).toFixed(1)}%)`);
  console.log(`  run: ${r.steps} steps, ${(r.ms / 1000).toFixed(1)} s of steps, ${(wall / 1000).toFixed(1)} s wall with evaluations; final held-out exact match ${(100 * r.accuracy).toFixed(1)}% on 1,000 examples`);
  console.log(`  longest main-thread task while training: ${lt.length ? Math.max(...lt.map((x) => x.ms)).toFixed(0) + ' ms' : 'none over 50 ms'} (${lt.length} tasks over 50 ms); switching to the trained model afterwards: ${after.length ? Math.max(...after.map((x) => x.ms)).toFixed(0) + ' ms' : 'no task over 50 ms'}`);
}
console.log(`load: ${execSync('uptime').toString().trim()}`);
await browser.close();
server.close();
