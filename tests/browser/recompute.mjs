#!/usr/bin/env node
// recompute.mjs — what the page skips on a recompute (an unchanged formula left typeset, the
// columns a matrix fitted before, lab marks with the lab off) must not change what is drawn: a page brought to a state by sentence edits and
// steps back and forth (d_model 512, 128 tokens, as measure.mjs) shows the same title, formula
// (KaTeX's TeX annotation), note, step view text and matrix columns as a fresh load of its link.
// And the skip happens: the same step recomputed keeps its typeset formula node.
//
//   node tests/browser/recompute.mjs [--dist dist] [--chromium /usr/bin/chromium]
import path from 'node:path';
import process from 'node:process';
import { chromium } from 'playwright-core';
import { startServer } from '../../scripts/serve.mjs';
import { root, arg, launchChromium, checks, assert, requireFiles } from '../harness.mjs';

const dist = path.resolve(root, arg('--dist', 'dist'));
const exe = arg('--chromium', process.env.CHROMIUM || '/usr/bin/chromium');
requireFiles('recompute suite', [['site', path.join(dist, 'index.html')], ['Chromium', exe]]);
const { check, results } = checks(6);
const { server, url } = await startServer(dist, 0);
const browser = await launchChromium(chromium, exe);
const problems = [];
const open = async (href) => {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  page.on('pageerror', (e) => problems.push(e.message));
  await page.goto(href);
  await page.evaluate(() => window.encoderWalkthrough.ready);
  return page;
};
const settle = (page) => page.evaluate(() => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 50))));
// What the step card shows, as text: title, formula's TeX, note, the view's text, each matrix's columns.
const shown = async (page) => {
  await settle(page);
  return page.evaluate(() => ({
    title: document.getElementById('step-title').textContent,
    tex: document.querySelector('#formula annotation')?.textContent ?? document.getElementById('formula').textContent,
    note: document.getElementById('note').textContent,
    view: document.getElementById('view').textContent,
    columns: [...document.querySelectorAll('#view figure.matrix')].map((f) => f.querySelectorAll('th.col-h').length),
  }));
};

const words = 'the quick brown fox jumps over the lazy dog while snow falls on frozen hills'.split(' ');
const sentence = (shift) => Array.from({ length: 128 }, (_, i) => words[(i + shift) % words.length]).join(' ');
const D512 = { d_model: 512, num_heads: 8, d_ff: 2048, num_layers: 1, decoder_layers: 0, seed: 100 };

const page = await open(url + '?lang=en');
await page.evaluate((s) => window.encoderWalkthrough.setState(s), { ...D512, text: sentence(0), step: 'layer0.head0.weights' });
const ids = await page.evaluate(() => window.encoderWalkthrough.getTrace().then((t) => t.steps.map((s) => s.id)));
const other = ids.find((id) => /ffn|linear|norm/.test(id) && !/head/.test(id)) || ids[ids.length - 1];

await check('the same step recomputed keeps its typeset formula (KaTeX is not run again)', async () => {
  await page.evaluate(() => { window.__formula = document.getElementById('formula').firstChild; });
  await page.evaluate((s) => window.encoderWalkthrough.setState(s), { text: sentence(1) });
  assert(await page.evaluate(() => document.getElementById('formula').firstChild === window.__formula), 'the formula was typeset again');
});

for (const [what, steps] of [
  ['two sentence edits on the attention weights', [{ text: sentence(2) }, { text: sentence(3) }]],
  [`to ${other} and back to head 0's weights, then an edit`, [{ step: other }, { step: 'layer0.head0.weights' }, { text: sentence(4) }]],
  [`an edit, then to ${other}`, [{ text: sentence(5) }, { step: other }]],
]) {
  await check(`${what}: the step card equals a fresh load of the page's link`, async () => {
    for (const s of steps) await page.evaluate((x) => window.encoderWalkthrough.setState(x), s);
    const a = await shown(page);
    const fresh = await open(page.url());
    const b = await shown(fresh);
    await fresh.close();
    if (process.env.DEBUG) console.log(JSON.stringify({ a: { ...a, view: a.view.slice(0, 150) }, b: { ...b, view: b.view.slice(0, 150) } }, null, 1));
    for (const k of Object.keys(a)) assert(JSON.stringify(a[k]) === JSON.stringify(b[k]), `${k} differs: ${JSON.stringify(a[k]).slice(0, 200)} vs fresh ${JSON.stringify(b[k]).slice(0, 200)}`);
    assert(a.columns.length > 0 || !/head/.test(a.title), 'no matrix on the attention step');
  });
}
await check('no page errors', async () => assert(!problems.length, problems.join('; ')));
await browser.close();
server.close();
const { passed, failed } = results();
console.log(`recompute: ${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
