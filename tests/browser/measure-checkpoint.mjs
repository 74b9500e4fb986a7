#!/usr/bin/env node
// measure-checkpoint.mjs — a BERT-base-sized checkpoint in the built page, headless Chromium
// (issue 19's targets: the full trace of 128 tokens on screen in ≤ 1.0 s, peak wasm heap ≤ 1.5×
// the weights). Write the checkpoint once (~440 MB, not committed):
//   /usr/bin/python3 tests/browser/write_checkpoints.py --bert-base /tmp/ck-bert-base
// then
//   node tests/browser/measure-checkpoint.mjs [--dir /tmp/ck-bert-base] [--runs 3] [--dist dist] [--isolated]
// A GPT-2 checkpoint (write_checkpoints.py --gpt2-small DIR; --dir DIR) is timed generating
// instead: generate({maxTokens: 20}) from a short prompt, until the last round is on screen.
// Reports: the load time (loadCheckpoint(url) to the first trace on screen: download from
// 127.0.0.1, the core's loading, the first run of a short sentence), the time from setState()
// with a new 128-token sentence to its trace on screen (each run a different sentence; the
// page's own forward-pass readout beside it), and the wasm memory's size (its peak: it never
// shrinks) against the weights' float32 bytes. A measurement, not a test: it asserts nothing.
// A modern decoder (write_checkpoints.py --smollm2-135m DIR; issues 30 and 31) is timed twice:
// a 64-token trace from setState() to on screen (the text grown or cut until the page's own
// tokenizer gives 64 tokens), and generate({maxTokens: 64}) from a 16-token prompt, streamed, in
// tokens per second (--isolated: the threaded build on 2 threads); its memory is also put against
// the file's bytes.
import { mkdirSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import process from 'node:process';
import { chromium } from 'playwright-core';
import { startServer } from '../../scripts/serve.mjs';
import { root, arg, launchChromium, workerMemory } from '../harness.mjs';

const dir = path.resolve(arg('--dir', '/tmp/ck-bert-base'));
const runs = Number(arg('--runs', '3'));
const dist = path.resolve(root, arg('--dist', 'dist'));
const exe = arg('--chromium', process.env.CHROMIUM || '/usr/bin/chromium');

const site = path.join(root, 'build', 'ck-measure-site');
rmSync(site, { recursive: true, force: true });
mkdirSync(site, { recursive: true });
for (const e of readdirSync(dist)) symlinkSync(path.join(dist, e), path.join(site, e));
symlinkSync(dir, path.join(site, 'ck'));
// --isolated: COOP/COEP, so the page runs its threaded build (readout: "on N threads").
const { server, url: base } = await startServer(site, 0, '127.0.0.1', { isolated: process.argv.includes('--isolated') });
const browser = await launchChromium(chromium, exe);
const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
page.on('pageerror', (e) => console.log(`page error: ${e.message}`));
await page.goto(base + 'index.html?lang=en');
await page.evaluate(() => window.encoderWalkthrough.ready);

const memory = () => workerMemory(page);

const before = await memory();
const t0 = Date.now();
const info = await page.evaluate(() => window.encoderWalkthrough.loadCheckpoint('/ck/'));
const loadMs = Date.now() - t0;
const afterLoad = await memory();
// 126 words of the vocabulary's own tokens (tok… are whole words) + [CLS] … [SEP] = 128.
const sentence = (k) => Array.from({ length: 126 }, (_, i) => `tok${(i * 7 + k * 131) % 30000}`).join(' ');
const samples = [];
const gens = [];
const modern = !!info.decoder;  // llama, qwen2, qwen3, gemma3_text
const tokensOf = (text) => page.evaluate(async (t) => { await window.encoderWalkthrough.setState({ text: t }); return (await window.encoderWalkthrough.getTrace()).tokens.length; }, text);
// A text of exactly n tokens by the checkpoint's own tokenizer (k varies the words).
async function textOf(n, k) {
  const words = 'the cat sat on the mat and a dog ran to the red door while it rained'.split(' ');
  let len = n, text = '';
  for (let i = 0; i < 8; i++) {
    text = Array.from({ length: len }, (_, j) => words[(j + k) % words.length]).join(' ').slice(0, Math.max(1, len * 4));
    const T = await tokensOf(text);
    if (T === n) return text;
    len = Math.max(1, Math.round(len * n / T));
  }
  return text;
}
const decGens = [];
for (let k = 0; modern && k < runs; k++) {
  const text = await textOf(64, k);
  await page.evaluate(() => window.encoderWalkthrough.setState({ text: 'x' }));
  const ms = await page.evaluate(async (t) => { const a = performance.now(); await window.encoderWalkthrough.setState({ text: t }); return performance.now() - a; }, text);
  const perf = await page.evaluate(() => document.getElementById('perf')?.textContent || '');
  samples.push({ ms: Math.round(ms), tokens: await page.evaluate(async () => (await window.encoderWalkthrough.getTrace()).tokens.length), perf });
  await page.evaluate((t) => window.encoderWalkthrough.setState({ text: t }), await textOf(16, k + 3));
  const g = await page.evaluate(async () => {
    // when each round reaches the page's list (streamed, before the last round's whole trace is recorded)
    const shown = [], list = document.getElementById('rounds');
    const obs = new MutationObserver(() => shown.push([list.querySelectorAll('.round').length, performance.now()]));
    obs.observe(list, { childList: true, subtree: true });
    const a = performance.now();
    const tokens = await window.encoderWalkthrough.generate({ maxTokens: 64 });
    const ms = performance.now() - a;
    obs.disconnect();
    const last = shown.find(([n]) => n >= tokens.length);
    return { ms, n: tokens.length, lastShownMs: last ? last[1] - a : null, readout: document.querySelector('.gen-timing, #gen-timing')?.textContent || '' };
  });
  decGens.push({ ...g, prompt: await page.evaluate(async () => (await window.encoderWalkthrough.getTrace()).tokens.length) });
}
for (let k = 0; info.architecture === 'GPT2LMHeadModel' && k < runs; k++) {
  await page.evaluate(async (text) => window.encoderWalkthrough.setState({ text }), `Once, ${k}`);
  const T = await page.evaluate(() => window.encoderWalkthrough.getTrace().tokens.length);
  const g = await page.evaluate(async () => {
    const a = performance.now();
    const tokens = await window.encoderWalkthrough.generate({ maxTokens: 20 });
    return { ms: performance.now() - a, n: tokens.length };
  });
  gens.push({ ...g, prompt: T });
}
for (let k = 0; info.architecture !== 'GPT2LMHeadModel' && !modern && k < runs; k++) {
  const ms = await page.evaluate(async (text) => {
    const a = performance.now();
    await window.encoderWalkthrough.setState({ text });
    return performance.now() - a;
  }, sentence(k));
  const perf = await page.evaluate(() => document.getElementById('perf')?.textContent || '');
  const T = await page.evaluate(() => window.encoderWalkthrough.getTrace().tokens.length);
  samples.push({ ms: Math.round(ms), tokens: T, perf });
}
const peak = await memory();
const mb = (b) => (b / 1e6).toFixed(0);
console.log(`checkpoint: ${info.name}, ${info.architecture}, ${(info.params / 1e6).toFixed(1)} M parameters, weights ${mb(info.bytes)} MB (file ${mb(info.file_bytes)} MB)`);
console.log(`load (download from 127.0.0.1 + core load + first short trace on screen): ${loadMs} ms`);
for (const s of samples) console.log(`trace of ${s.tokens} tokens on screen: ${s.ms} ms   (page readout: ${s.perf})`);
for (const g of gens) console.log(`generate({maxTokens: 20}) from a ${g.prompt}-token prompt: ${g.n} tokens in ${(g.ms / 1000).toFixed(2)} s (${(g.ms / g.n).toFixed(0)} ms per token), the last round on screen`);
for (const g of decGens) console.log(`generate({maxTokens: 64}) from a 16-token prompt: ${g.n} tokens in ${(g.ms / 1000).toFixed(2)} s = ${(g.n / g.ms * 1000).toFixed(1)} tokens/s until generate() resolved (the last round's whole trace recorded and drawn); the ${g.n}th token on the page after ${g.lastShownMs === null ? '?' : (g.lastShownMs / 1000).toFixed(2) + ' s = ' + (g.n / g.lastShownMs * 1000).toFixed(1) + ' tokens/s streamed'} (page readout: ${g.readout})`);
if (modern) console.log(`wasm memory against the file: ${(peak.wasmBytes / info.file_bytes).toFixed(2)}× its ${mb(info.file_bytes)} MB`);
console.log(`wasm memory: ${mb(before.wasmBytes)} MB at start, ${mb(afterLoad.wasmBytes)} MB after load, ${mb(peak.wasmBytes)} MB after the runs (peak) = ${(peak.wasmBytes / info.bytes).toFixed(2)}× the weights; C++ heap in use now ${mb(peak.heapInUse)} MB`);
console.log(`targets: trace ≤ 1000 ms, peak heap ≤ 1.5× weights (${mb(1.5 * info.bytes)} MB)${gens.length ? ', 20 generated tokens ≤ 6 s' : ''}`);
await browser.close();
server.close();
