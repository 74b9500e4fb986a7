#!/usr/bin/env node
// measure-long-text.mjs — how long a text a big-vocabulary checkpoint's trace can take in the
// built page (issue 30: the page's wasm memory, 4 GiB since wasm/CMakeLists.txt's MAXIMUM_MEMORY;
// 2 GiB before). Opens the checkpoint (loadCheckpoint('/ck/')), then for each word count sets a
// text of that many words and reads the whole trace back (getTrace(): every step's data, asked
// of the Worker in requests of at most 1 GiB), printing the tokens, the time, the wasm memory
// (its peak: it never shrinks) and any message the page shows. A measurement: it asserts nothing.
// Write the checkpoint once (988 MB, not committed):
//   /usr/bin/python3 wasm/tools/write_big_checkpoint.py /tmp/qwen05      (Qwen2.5-0.5B-sized, BF16)
//   node tests/browser/measure-long-text.mjs [--dir /tmp/qwen05] [--words 30,60,100] [--dist dist]
import { mkdirSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import process from 'node:process';
import { chromium } from 'playwright-core';
import { startServer } from '../../scripts/serve.mjs';
import { root, arg, launchChromium, workerMemory } from '../harness.mjs';

const dir = path.resolve(arg('--dir', '/tmp/qwen05'));
const words = arg('--words', '30,60,100').split(',').map(Number);
const dist = path.resolve(root, arg('--dist', 'dist'));
const site = path.join(root, 'build', 'long-text-site');
rmSync(site, { recursive: true, force: true });
mkdirSync(site, { recursive: true });
for (const e of readdirSync(dist)) symlinkSync(path.join(dist, e), path.join(site, e));
symlinkSync(dir, path.join(site, 'ck'));
const { server, url: base } = await startServer(site, 0, '127.0.0.1', {});
const browser = await launchChromium(chromium, arg('--chromium', process.env.CHROMIUM || '/usr/bin/chromium'));
const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
page.on('pageerror', (e) => console.log(`page error: ${e.message}`));
await page.goto(base + 'index.html?lang=en');
await page.evaluate(() => window.encoderWalkthrough.ready);

const memory = () => workerMemory(page);
const mb = async () => Math.round((await memory()).wasmBytes / 2 ** 20);

const info = await page.evaluate(() => window.encoderWalkthrough.loadCheckpoint('/ck/'));
console.log(`${path.basename(dir)}: ${(info.file_bytes / 1e6).toFixed(0)} MB file; wasm memory ${await mb()} MB once open`);
for (const n of words) {
  const text = Array.from({ length: n }, (_, i) => ['the', 'cat', 'sat', 'on', 'a', 'mat', 'and', 'dog'][i % 8]).join(' ');
  const t0 = Date.now();
  const r = await page.evaluate(async (t) => {
    try {
      await window.encoderWalkthrough.setState({ text: t });
      return { tokens: (await window.encoderWalkthrough.getTrace()).tokens.length };
    } catch (e) {
      return { error: String(e.message || e) };
    }
  }, text);
  const shown = await page.evaluate(() => document.querySelector('#error, [role=alert]')?.textContent.trim() || '');
  console.log(`${n} words: ${r.tokens ? `${r.tokens} tokens, whole trace read` : `failed: ${r.error}`} in ${Date.now() - t0} ms; ` +
    `wasm memory ${await mb()} MB${shown ? `; the page shows: ${shown.slice(0, 160)}` : ''}`);
}
await browser.close();
server.close();
