#!/usr/bin/env node
// bytes.mjs — what a first visit costs (issue 29, item 2), counted at the server: every file the
// built site (dist/) sends to a fresh headless Chromium (empty cache, service worker allowed) until
// the page is ready and nothing more is asked for 2 s — the page, its Worker, the wasm build it
// picks, the shipped model it opens on, KaTeX and its fonts, the service worker's install. Bytes are
// those on the wire: the .gz twin where scripts/serve.mjs sends one (as a compressing static host
// would); a 304 counts as a request of 0 bytes.
//   issue 29's targets: default page (a bare link) ≤ 30 requests and ≤ 600 KiB; figure ≤ 400 KiB.
//   Held by default at issue 29's targets, which both meet (2026-11-29: the core's recording and
//   session code compiled at -Os, the first-paint half of the module 278 → 240 KiB gzip'd; a
//   figure's formulas typeset at build time, formulas-mathml.js, so a figure loads no KaTeX: default
//   590 → 553 KiB, figure 545 → 392). Neither visit may fetch the deferred half; a sweep
//   afterwards must load it, once. A figure must typeset its formula as MathML without fetching
//   any KaTeX file; without formulas-mathml.js it must load KaTeX's script alone. Each visit prints
//   how far it is from issue 29's target.
// --expect-over: the same visits served uncompressed (startServer's gzip: false) must exceed the
// byte limits — the suite's must-fail mode, in the test command, showing that the check can fail.
//
//   node tests/browser/bytes.mjs [--dist dist] [--chromium /usr/bin/chromium] [--expect-over]
import path from 'node:path';
import process from 'node:process';
import { chromium } from 'playwright-core';
import { startServer } from '../../scripts/serve.mjs';
import { root, arg, launchChromium, checks, assert, requireFiles } from '../harness.mjs';

const dist = path.resolve(root, arg('--dist', 'dist'));
const exe = arg('--chromium', process.env.CHROMIUM || '/usr/bin/chromium');
const expectOver = process.argv.includes('--expect-over');
requireFiles('bytes suite', [['built site', path.join(dist, 'index.html')], ['Chromium', exe]]);

const KIB = 1024;
const VISITS = [
  { name: 'default page (bare link)', query: '', maxRequests: 30, maxKiB: 600 },
  { name: 'figure embed', query: '?view=figure&step=layer0.head0.weights', maxRequests: 30, maxKiB: 400 },
];
const QUIET_MS = 2000;
const DEFERRED = /encoder_walkthrough\.deferred\.wasm$/;

function kind(file) {
  if (/\.wasm$/.test(file)) return 'wasm';
  if (/^encoder_walkthrough.*\.js$/.test(file)) return 'wasm glue';
  if (/\.woff2?$|\.ttf$/.test(file)) return 'fonts';
  if (/^vendor\/katex\//.test(file)) return 'KaTeX';
  if (/\.js$/.test(file)) return 'js';
  if (/\.css$/.test(file)) return 'css';
  if (/\.safetensors$/.test(file)) return 'models';
  return 'other';
}

// One visit in a fresh context: [{file, bytes, encoding}] of everything the server sent.
async function visit(browser, query, gzip, figure = /view=figure/.test(query)) {
  const served = [];
  let last = Date.now();
  const { server, url } = await startServer(dist, 0, '127.0.0.1', {
    gzip, onServed: (file, bytes, encoding) => { served.push({ file, bytes, encoding }); last = Date.now(); },
  });
  const ctx = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  try {
    const page = await ctx.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(url + query);
    await page.evaluate(() => window.encoderWalkthrough.ready);
    await page.evaluate(() => navigator.serviceWorker.ready.then(() => true));
    while (Date.now() - last < QUIET_MS) await new Promise((r) => setTimeout(r, 200));
    assert(errors.length === 0, `page errors: ${errors.join('; ')}`);
    const katex = await page.$$eval('#formula .katex', (x) => x.length);
    assert(katex > 0, 'the formula is not typeset (KaTeX did not load)');
    if (figure) {
      // Typeset by the build (formulas-mathml.js, scripts/formulas.mjs), as MathML: no KaTeX at all.
      const mathml = await page.$$eval('#formula .katex math', (x) => x.length);
      assert(mathml > 0, "the figure's formula is not MathML");
      const kx = served.filter((f) => /^vendor\/katex\//.test(f.file)).map((f) => f.file);
      assert(kx.length === 0, `the figure loaded KaTeX (${kx.join(', ')}): its formula is in formulas-mathml.js`);
    }
    return served;
  } finally {
    await ctx.close();
    server.close();
  }
}

function report(name, served) {
  const by = {};
  for (const s of served) {
    const k = kind(s.file);
    by[k] = by[k] || { n: 0, bytes: 0 };
    by[k].n++;
    by[k].bytes += s.bytes;
  }
  const total = served.reduce((a, s) => a + s.bytes, 0);
  const parts = Object.entries(by).sort((a, b) => b[1].bytes - a[1].bytes)
    .map(([k, v]) => `${k} ${v.n}/${(v.bytes / KIB).toFixed(0)}`).join(', ');
  console.log(`     ${name}: ${served.length} requests, ${(total / KIB).toFixed(1)} KiB (${parts})`);
  return total / KIB;
}

const browser = await launchChromium(chromium, exe);
const { check, results } = checks();
for (const v of VISITS) {
  if (expectOver) {
    await check(`must fail: ${v.name} served uncompressed exceeds ${v.maxKiB} KiB`, async () => {
      const kib = report(`${v.name}, uncompressed`, await visit(browser, v.query, false));
      assert(kib > v.maxKiB, `${kib.toFixed(1)} KiB uncompressed is within ${v.maxKiB} KiB: the limit cannot catch a lost compression`);
    });
    continue;
  }
  await check(`${v.name}: ≤ ${v.maxRequests} requests and ≤ ${v.maxKiB} KiB (gzip)`, async () => {
    const served = await visit(browser, v.query, true);
    const kib = report(v.name, served);
    console.log(`     issue 29's target ${v.maxKiB} KiB: ${kib > v.maxKiB ? `missed by ${(kib - v.maxKiB).toFixed(0)} KiB` : `met, ${(v.maxKiB - kib).toFixed(0)} KiB to spare`}`);
    assert(served.length <= v.maxRequests, `${served.length} requests > ${v.maxRequests}: ${served.map((s) => s.file).join(' ')}`);
    assert(kib <= v.maxKiB, `${kib.toFixed(1)} KiB > ${v.maxKiB} KiB`);
    assert(!served.some((f) => DEFERRED.test(f.file)), 'the first visit fetched the deferred half of the module: a first paint calls a function wasm/tools/split.mjs did not profile');
  });
}
// A page of the gzip'd site in a fresh context (no service worker), ready: body(page, served) runs
// on it — served: the files the server sent, so far — and it must end without a page error.
// before(page) runs ahead of the navigation (a route).
async function onPage(query, body, before = async () => {}) {
  const served = [];
  const { server, url } = await startServer(dist, 0, '127.0.0.1', { gzip: true, onServed: (file) => served.push(file) });
  const ctx = await browser.newContext({ serviceWorkers: 'block' });
  try {
    const page = await ctx.newPage();
    await before(page);
    const errors = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(url + query);
    await page.evaluate(() => window.encoderWalkthrough.ready);
    await body(page, served);
    assert(errors.length === 0, `page errors: ${errors.join('; ')}`);
  } finally {
    await ctx.close();
    server.close();
  }
}

if (!expectOver) {
  // The deferred half, on first need: a sweep (the what-if lab's; not in a first paint) loads it
  // once, and its table comes back whole.
  await check('the split module: typed sentences run without the deferred half; a sweep then loads it once, and the sweep completes', () => onPage('', async (page, served) => {
    assert(!served.some((f) => DEFERRED.test(f)), 'the deferred half was fetched before anything needed it');
    // Sentences a reader types are a first paint's code too (wasm/tools/split.mjs READER_TEXTS;
    // these are others): none may load the deferred half.
    for (const text of ['frost on frost on frost', 'Snow had FALLEN, snow on snow: 7 days!', 'bleak']) {
      await page.evaluate((t) => window.encoderWalkthrough.setState({ text: t }), text);
      assert(!served.some((f) => DEFERRED.test(f)), `typing "${text}" loaded the deferred half (a function split.mjs's profile did not run)`);
    }
    const table = await page.evaluate(() => window.encoderWalkthrough.sweep({ kind: 'ablate' }));
    const rows = table && Array.isArray(table.ablations) ? table.ablations.length : 0;
    assert(rows > 0, `the sweep returned ${JSON.stringify(table).slice(0, 200)}`);
    await page.evaluate(() => window.encoderWalkthrough.sweep({ kind: 'ablate' }));
    const fetched = served.filter((f) => DEFERRED.test(f)).length;
    assert(fetched === 1, `the deferred half was fetched ${fetched} times for two sweeps (want once)`);
    console.log(`     a sweep of ${rows} ablations after loading the deferred half`);
  }));
  // A figure whose formula the build's table lacks (here: no table at all, as an old build would
  // be): KaTeX's script alone typesets it as MathML — no stylesheet, no fonts.
  await check('a figure without formulas-mathml.js: KaTeX\'s script alone typesets its formula as MathML', () => onPage(VISITS[1].query, async (page, served) => {
    const mathml = await page.$$eval('#formula .katex math', (x) => x.length);
    assert(mathml > 0, 'the formula is not typeset');
    const kx = served.filter((f) => /^vendor\/katex\//.test(f));
    assert(kx.length === 1 && /katex\.min\.js$/.test(kx[0]), `KaTeX files fetched: ${kx.join(', ') || 'none'} (want its script only)`);
  }, (page) => page.route('**/formulas-mathml.js', (r) => r.fulfill({ status: 404, body: '' }))));
  // The full page draws its first step before KaTeX comes (after the first paint): meanwhile its
  // formula is the build's MathML, not LaTeX source. KaTeX blocked stands for "not yet"; with the
  // table blocked too, the LaTeX as text is what is left (the same query must then see it).
  const formulaState = (page) => page.$eval('#formula', (f) => ({ mono: f.classList.contains('mono'), math: !!f.querySelector('.katex > math'),
    html: !!f.querySelector('.katex-html'), text: f.textContent.slice(0, 60) }));
  const noKatex = (page) => page.route('**/vendor/katex/**', (r) => r.fulfill({ status: 404, body: '' }));
  await check('the full page before KaTeX: its formula is the build\'s MathML, not LaTeX; without the table too, the LaTeX as text; with KaTeX, KaTeX\'s HTML', async () => {
    await onPage('', async (page) => {
      const f = await formulaState(page);
      assert(f.math && !f.mono && !f.html, `KaTeX blocked: the formula is ${JSON.stringify(f)} (want the table's MathML)`);
    }, noKatex);
    await onPage('', async (page) => {
      const f = await formulaState(page);
      assert(f.mono && !f.math, `KaTeX and the table blocked: the formula is ${JSON.stringify(f)} (want its LaTeX as text)`);
    }, async (page) => { await noKatex(page); await page.route('**/formulas-mathml.js', (r) => r.fulfill({ status: 404, body: '' })); });
    await onPage('', async (page) => {
      const f = await formulaState(page);
      assert(f.html && !f.mono, `with KaTeX: the formula is ${JSON.stringify(f)} (want KaTeX's HTML)`);
    });
  });
}
await browser.close();
const { passed, failed } = results();
console.log(`bytes: ${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
