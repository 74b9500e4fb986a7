#!/usr/bin/env node
// isolated.mjs — the threaded build (issue 21): the site served cross-origin isolated
// (scripts/serve.mjs --isolated: COOP same-origin + COEP require-corp) must be isolated, load
// dist/encoder_walkthrough_relaxed_mt.js with more than one thread, say so in the readout, and
// give the native CLI's --json trace (tests/wasm/compare.mjs: 1e-5 of each step's scale) on a
// model big enough for the kernels to split their work; the same site served plainly must not
// be isolated and must run the unthreaded build every browser starts on (the split SIMD128
// build, engine/build-pick.js); and served plainly but
// reloaded under the service worker (web/sw.js adds the headers, for static hosts), isolated
// again. No console errors, no CSP violations. ≤ 60 s.
//
//   node tests/browser/isolated.mjs [--cli build/native-release/encoder-walkthrough] [--dist dist]
//                                   [--chromium /usr/bin/chromium] [--artifacts artifacts]
// Prints `N passed, M failed`; exits non-zero on failure.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import process from 'node:process';
import { execFileSync } from 'node:child_process';
import { chromium } from 'playwright-core';
import { startServer } from '../../scripts/serve.mjs';
import { root, arg, launchChromium, checks, assert, requireFiles } from '../harness.mjs';
import { runCli, compareTrace } from '../wasm/compare.mjs';
import { defaults, buildModel, useSchema } from '../../web/js/model/settings.js';

const cli = path.resolve(root, arg('--cli', 'build/native-release/encoder-walkthrough'));
const dist = path.resolve(root, arg('--dist', 'dist'));
const exe = arg('--chromium', process.env.CHROMIUM || '/usr/bin/chromium');
const artifacts = path.resolve(root, arg('--artifacts', 'artifacts'));
requireFiles('isolated suite', [['native CLI', cli], ['threaded module', path.join(dist, 'encoder_walkthrough_relaxed_mt.wasm')], ['Chromium', exe]]);
useSchema(JSON.parse(execFileSync(cli, ['--config-schema'], { encoding: 'utf8' })));
mkdirSync(artifacts, { recursive: true });

const { check, results } = checks(6);
const browser = await launchChromium(chromium, exe);
// A model whose matmuls are split over the threads (≥ 2^21 flops each, core/kernels/kernels_simd.cpp).
const BIG = {
  preset: '', d_model: 128, num_heads: 4, d_ff: 512, num_layers: 2, decoder_layers: 1, seed: 9,
  text: 'the quick brown fox jumps over the lazy dog while snow falls on the bleak midwinter hills and every word of this long sentence makes the layers wide',
};

async function session(isolated) {
  const { server, url } = await startServer(dist, 0, '127.0.0.1', { isolated });
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  const problems = [];
  await page.exposeFunction('__reportCsp', (v) => problems.push(`CSP violation: ${v}`));
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => window.__reportCsp(`${e.violatedDirective} ${e.blockedURI}`));
  });
  page.on('console', (m) => { if (m.type() === 'error') problems.push(`console error: ${m.text()}`); });
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  await page.goto(url);
  await page.waitForFunction(() => window.encoderWalkthrough, null, { timeout: 20000 });
  await page.evaluate(() => window.encoderWalkthrough.ready);
  return { server, page, problems };
}

async function pageTrace(page) {
  const t = await page.evaluate(async () => {
    const tr = await window.encoderWalkthrough.getTrace();
    return { ...tr, steps: tr.steps.map((s) => ({ ...s, data: Array.from(s.data, (v) => (v === -Infinity ? null : v)) })) };
  });
  t.steps.forEach((s) => { s.data = s.data.map((v) => (v === null ? -Infinity : v)); });
  return t;
}

const perf = (page) => page.evaluate(() => document.getElementById('perf').textContent);

for (const isolated of [true, false]) {
  const what = isolated ? 'isolated' : 'not isolated';
  const { server, page, problems } = await session(isolated);
  await check(`${what}: crossOriginIsolated is ${isolated}`, async () => {
    assert(await page.evaluate(() => window.crossOriginIsolated) === isolated, `crossOriginIsolated ≠ ${isolated}`);
  });
  await check(`${what}: the readout names the build${isolated ? ' and more than one thread' : ' without threads'}`, async () => {
    await page.waitForFunction(() => /build/.test(document.getElementById('perf').textContent), null, { timeout: 10000 });
    const text = await perf(page);
    const m = /on (\d+) threads/.exec(text);
    if (isolated) assert(m && Number(m[1]) > 1, `readout "${text}" names no thread count > 1`);
    else assert(!m && /SIMD128 build/.test(text), `readout "${text}" is not the unthreaded SIMD128 build`);
  });
  await check(`${what}: a d_model 128, 2-layer encoder-decoder trace equals the native CLI's`, async () => {
    await page.evaluate((s) => window.encoderWalkthrough.setState(s), BIG);
    await page.waitForFunction(() => /build/.test(document.getElementById('perf').textContent), null, { timeout: 20000 });
    const state = await page.evaluate(() => window.encoderWalkthrough.getState());
    const trace = await pageTrace(page);
    const p = compareTrace(trace, runCli(cli, buildModel({ ...defaults(), ...state }, [])), { params: false });
    assert(trace.steps.length > 20, `only ${trace.steps.length} steps`);
    assert(!p.length, `page trace differs from the native CLI:\n  ${p.slice(0, 6).join('\n  ')}`);
    await page.screenshot({ path: path.join(artifacts, `isolated-${isolated ? 'on' : 'off'}.png`) });
  });
  await check(`${what}: no console errors or CSP violations`, async () => {
    assert(!problems.length, problems.slice(0, 5).join('\n'));
  });
  await page.close();
  server.close();
}

// A static host that cannot send headers: the service worker (web/sw.js) adds them, so the
// page it controls (the second load) is isolated and threaded; the first load is not.
{
  const { server, url } = await startServer(dist, 0, '127.0.0.1', { isolated: false });
  const ctx = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await ctx.newPage();
  const problems = [];
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  page.on('console', (m) => { if (m.type() === 'error') problems.push(`console error: ${m.text()}`); });
  await check('service worker: the first load is not isolated, the reload it controls is, on the threaded build', async () => {
    await page.goto(url);
    await page.evaluate(() => window.encoderWalkthrough.ready);
    assert(await page.evaluate(() => window.crossOriginIsolated) === false, 'the first load is already isolated');
    await page.evaluate(() => navigator.serviceWorker.ready.then(() => true));
    await page.waitForFunction(() => !!navigator.serviceWorker.controller, null, { timeout: 20000 });
    await page.reload();
    await page.evaluate(() => window.encoderWalkthrough.ready);
    assert(await page.evaluate(() => window.crossOriginIsolated) === true, 'the reload under the service worker is not isolated');
    await page.waitForFunction(() => /build/.test(document.getElementById('perf').textContent), null, { timeout: 10000 });
    const text = await perf(page);
    assert(/on \d+ threads/.test(text), `readout "${text}" names no threads`);
    assert(!problems.length, problems.slice(0, 5).join('\n'));
  });
  await ctx.close();
  server.close();
}

await browser.close();
const { passed, failed } = results();
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
