#!/usr/bin/env node
// measure-lab.mjs — timings of the what-if lab in headless Chromium (issue 20's targets;
// measured, never asserted): the patching sweep (layer × position of the residual stream and
// layer × head, one call) on the trained number-words preset, the head-ablation sweep over 200
// held-out examples, one cell edited to the page updated at the default preset, and the
// longest main-thread task while a sweep runs. Prints medians of a few runs.
//   node tests/browser/measure-lab.mjs [--dist dist] [--chromium /usr/bin/chromium] [--runs 5]
import path from 'node:path';
import process from 'node:process';
import { chromium } from 'playwright-core';
import { startServer } from '../../scripts/serve.mjs';
import { root, arg, launchChromium } from '../harness.mjs';

const dist = path.resolve(root, arg('--dist', 'dist'));
const exe = arg('--chromium', process.env.CHROMIUM || '/usr/bin/chromium');
const runs = Number(arg('--runs', '5'));
const DONOR = 'six hundred ninety three thousand four hundred twenty five';

const { server, url: base } = await startServer(dist, 0);
const browser = await launchChromium(chromium, exe);
const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
await page.goto(`${base}?preset=trained-number-words`);
await page.evaluate(() => window.encoderWalkthrough.ready);
const median = (xs) => xs.slice().sort((a, b) => a - b)[Math.floor(xs.length / 2)];

// Times fn (in the page) `runs` times; also the longest main-thread task meanwhile.
async function time(what, fn, arg0) {
  const r = await page.evaluate(async ([src, a, n]) => {
    const f = new Function('a', `return (${src})(a)`);
    let longest = 0;
    const obs = new PerformanceObserver((l) => { for (const e of l.getEntries()) longest = Math.max(longest, e.duration); });
    obs.observe({ entryTypes: ['longtask'] });
    const ms = [];
    for (let i = 0; i < n; i++) {
      const t0 = performance.now();
      await f(a);
      ms.push(performance.now() - t0);
    }
    obs.disconnect();
    return { ms, longest };
  }, [fn.toString(), arg0, runs]);
  console.log(`${what}: median ${median(r.ms).toFixed(1)} ms (runs: ${r.ms.map((x) => x.toFixed(1)).join(', ')}); longest main-thread task ${r.longest.toFixed(0)} ms`);
}

const isa = await page.evaluate(() => document.getElementById('perf').textContent);
console.log(`build: ${isa}`);
await time('patching sweep (residual layer × position + layer × head), number-words', (d) => window.encoderWalkthrough.sweep({ kind: 'patch', patchFrom: d }), DONOR);
await time('ablation sweep, 200 held-out examples, number-words', () => window.encoderWalkthrough.sweep({ kind: 'ablate', n: 200 }));
await page.evaluate(() => window.encoderWalkthrough.setState({ preset: '' }));
await time('one cell set → page updated, default preset', () => window.encoderWalkthrough.intervene({ set: { 'layer0.W_q[1,2]': Math.round(Math.random() * 100) / 100 } }));
await browser.close();
server.close();
