#!/usr/bin/env node
// lab.mjs — the browser suite for the "What if?" lab (issue 20, item 5), driving the built page
// in headless Chromium like a person on the trained number-words model: turn the lab on, click
// cross-attention head 2 in the map to switch it off, click a number of a matrix and type a new
// value (Enter), patch one step from a second sentence typed into the lab, run the patching
// sweep and click one of its cells, and Reset. After each, the page's intervened trace
// (getTrace(): every step, with its "intervened" mark) is compared with the native CLI's --json
// for the same flags (--ablate, --set, --patch-from, --patch, --generate), to
// |a − b| ≤ 1e-5·|b| + 1e-5·max|B| + 1e-6 per step B (tests/wasm/compare.mjs), and the
// prediction before → after with the CLI's "baseline_prediction"; the sweeps' tables with the
// CLI's analyze tables (1e-4 absolute: they are ratios of logit differences). Also: the link
// reproduces the interventions (a fresh page on it computes the same trace), a bad id, a bad
// cell value and bad URL values each show their message with no crash, the JS API's intervene()
// and sweep(). Screenshots at 1280 and 390 px go to artifacts/lab-*.png. Bounded: ~20 s.
//
//   node tests/browser/lab.mjs [--cli build/native-release/encoder-walkthrough] [--dist dist]
//                              [--chromium /usr/bin/chromium] [--artifacts artifacts]
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import process from 'node:process';
import { execFileSync } from 'node:child_process';
import { chromium } from 'playwright-core';
import { startServer } from '../../scripts/serve.mjs';
import { root, arg, launchChromium, checks, assert, requireFiles, serverOptions, checkBuildMode } from '../harness.mjs';
import { compareTrace } from '../wasm/compare.mjs';

const cli = path.resolve(root, arg('--cli', 'build/native-release/encoder-walkthrough'));
const dist = path.resolve(root, arg('--dist', 'dist'));
const exe = arg('--chromium', process.env.CHROMIUM || '/usr/bin/chromium');
const artifacts = path.resolve(root, arg('--artifacts', 'artifacts'));
requireFiles('lab', [['native CLI', cli], ['built site', path.join(dist, 'index.html')], ['Chromium', exe]]);
mkdirSync(artifacts, { recursive: true });

const PRESET = 'trained-number-words';
const TEXT = 'six hundred ninety three thousand nine hundred twenty five';
const DONOR = 'six hundred ninety three thousand four hundred twenty five';
const HEAD = 'decoder0.cross.head2';
const CELL_STEP = 'layer0.head0.weights';

const { check, results } = checks(8);
const nativeRun = (flags) => JSON.parse(execFileSync(cli, ['--preset', PRESET, '--json', ...flags], { maxBuffer: 1 << 30, encoding: 'utf8' }));
const nativeAnalyze = (flags) => JSON.parse(execFileSync(cli, ['analyze', '--preset', PRESET, ...flags], { maxBuffer: 1 << 30, encoding: 'utf8' }));

const { server, url: base } = await startServer(dist, 0, '127.0.0.1', serverOptions);
const browser = await launchChromium(chromium, exe);
await checkBuildMode(check, browser, base);
const problems = [];
const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
page.on('console', (m) => { if (m.type() === 'error') problems.push(`console error: ${m.text()}`); });
page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));

const api = (p, fn, ...args) => p.evaluate(fn, ...args);
async function getTrace(p = page) {
  const t = await api(p, async () => {
    const tr = await window.encoderWalkthrough.getTrace();
    return { ...tr, steps: tr.steps.map((s) => ({ ...s, data: Array.from(s.data, (v) => (v === -Infinity ? null : v)) })) };
  });
  t.steps.forEach((s) => { s.data = s.data.map((v) => (v === null ? -Infinity : v)); });
  return t;
}
// The page's trace vs the CLI's with the same flags: every value, and which steps are marked.
function sameAsCli(trace, flags, what) {
  const nat = nativeRun(flags);
  const p = compareTrace(trace, nat, { params: false });
  const marked = (t) => t.steps.filter((s) => s.intervened).map((s) => s.id).join(' ');
  if (marked(trace) !== marked(nat)) p.push(`intervened steps: page [${marked(trace)}] vs native [${marked(nat)}]`);
  assert(!p.length, `${what}: the page's trace differs from the CLI's (${flags.join(' ')}):\n  ${p.slice(0, 6).join('\n  ')}`);
  return nat;
}
const answer = (r) => (r.generated || r.next_tokens || []).join(' ');
const labText = (sel) => page.$eval(sel, (e) => e.textContent);
// The viewport at the step's matrix (its marked cells), and the whole lab panel.
async function shot(name, width) {
  await page.setViewportSize({ width, height: width < 500 ? 844 : 800 });
  await page.$eval('#view', (e) => e.scrollIntoView());
  await page.screenshot({ path: path.join(artifacts, `lab-${name}-${width}.png`), fullPage: false });
  await page.locator('#lab-panel').screenshot({ path: path.join(artifacts, `lab-${name}-${width}-panel.png`) });
}
async function noNaN() {
  const text = await page.evaluate(() => document.body.innerText);
  assert(!/\bNaN\b|\bundefined\b|Infinity|⟦/.test(text), 'the page shows NaN, undefined, Infinity or a missing message');
}

let linkWithEdits = '', traceWithEdits = null, cellName = '';

await check('the lab turns on; clicking cross head 2 in the map switches it off, as --ablate does', async () => {
  await page.goto(`${base}?preset=${PRESET}&step=${HEAD}.weights`);
  await api(page, () => window.encoderWalkthrough.ready);
  assert((await api(page, () => window.encoderWalkthrough.getState().text)) === TEXT, 'the preset\'s own sentence');
  await page.click('#lab-slot .lab-toggle');
  assert(await page.isVisible('#lab-panel'), 'the lab panel opens');
  await page.click('#map a.map-head:text-is("2")');
  await page.waitForFunction(() => document.querySelector('.lab-list')?.textContent.includes('decoder0.cross.head2'));
  await page.waitForFunction(() => /→/.test(document.querySelector('.lab-prediction')?.textContent || ''));
  const tr = await getTrace();
  const nat = sameAsCli(tr, ['--ablate', HEAD, '--generate'], 'head 2 off');
  const line = await labText('.lab-prediction');
  assert(line.includes(`${answer(nat.baseline_prediction)} → ${answer(nat)}`), `prediction "${line}" vs CLI ${answer(nat.baseline_prediction)} → ${answer(nat)}`);
  assert(await page.$eval(`#map a.map-head.lab-off`, (a) => a.textContent.trim() === '2'), 'head 2 is marked off in the map');
  await noNaN();
});

await check('typing into a cell of a matrix sets it (Enter), marked "was …", as --set does', async () => {
  await api(page, (id) => window.encoderWalkthrough.goTo(id), CELL_STEP);
  const cell = `#view [data-tensor="${CELL_STEP}"] td.cell[data-r="2"][data-c="0"]`;
  await page.waitForSelector(cell);
  const old = Number(await page.$eval(cell, (td) => td.textContent));
  await page.click(cell);
  await page.keyboard.press('1');
  assert(await page.$eval('.lab-cell-input', (i) => i === document.activeElement && i.value === '1'), 'the typed digit lands in the value box');
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => /=\s*1 \(was /.test(document.querySelector('.lab-list')?.textContent || ''));
  const name = cellName = await labText('.lab-cell-name');
  assert(/^layer0\.head0\.weights\[(0,)?2,0\]$/.test(name), `cell id ${name}`);
  const tr = await getTrace();
  sameAsCli(tr, ['--ablate', HEAD, '--set', `${name}=1`, '--generate'], 'head 2 off and one cell set');
  await page.waitForSelector(`${cell}.lab-changed`);
  const title = await page.$eval(`${cell}.lab-changed`, (td) => td.title);
  assert(title.startsWith('was ') && Math.abs(Number(title.slice(4)) - old) < 0.01, `the changed cell says "${title}" (old ${old})`);
  linkWithEdits = page.url();
  traceWithEdits = tr;
  assert(/ablate=decoder0\.cross\.head2/.test(linkWithEdits) && /set=/.test(linkWithEdits), `link ${linkWithEdits}`);
  await shot('edits', 1280);
  await shot('edits', 390);
  await page.setViewportSize({ width: 1280, height: 800 });
});

await check('the link reproduces the interventions: a fresh page on it computes the same trace', async () => {
  const p2 = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  p2.on('pageerror', (e) => problems.push(`page error (reload): ${e.message}`));
  await p2.goto(linkWithEdits);
  await api(p2, () => window.encoderWalkthrough.ready);
  const tr = await getTrace(p2);
  const p = compareTrace(tr, { ...traceWithEdits, steps: traceWithEdits.steps.map((s) => ({ ...s, data: s.data })) }, { params: false });
  assert(!p.length, `the reloaded trace differs:\n  ${p.slice(0, 4).join('\n  ')}`);
  assert(await p2.isVisible('#lab-panel'), 'the lab is open after the reload');
  await p2.close();
});

await check('a bad id, a non-number typed into a cell and bad URL values show their messages; nothing breaks', async () => {
  const before = await getTrace();
  const err = await api(page, () => window.encoderWalkthrough.intervene({ ablate: ['layer9.head0'] }).then(() => 'resolved', (e) => e.message));
  assert(/cannot ablate "layer9\.head0"/.test(err), `intervene with a bad id: ${err}`);
  assert((await labText('#msg')).includes('layer9.head0'), 'the page shows the message');
  const bad = await api(page, () => window.encoderWalkthrough.intervene({ set: { 'layer0.W_q[99,0]': 1 } }).then(() => 'resolved', (e) => e.message));
  assert(/W_q/.test(bad) && bad !== 'resolved', `a cell out of range: ${bad}`);
  await page.fill('.lab-cell-input', 'abc');
  await page.press('.lab-cell-input', 'Enter');
  await page.waitForFunction(() => /must be a finite number, got "abc"/.test(document.getElementById('msg').textContent));
  const after = await getTrace();
  assert(!compareTrace(after, before, { params: false }).length, 'the last good trace stays');
  // What the page fetches after a refusal is the last good run's (the engine holds it again).
  sameAsCli(after, ['--ablate', HEAD, '--set', `${cellName}=1`, '--generate'], 'after the refusals');
  const p2 = await browser.newPage();
  const errs = [];
  p2.on('pageerror', (e) => errs.push(e.message));
  await p2.goto(`${base}?preset=${PRESET}&ablate=layer9.head0&set=nonsense`);
  await api(p2, () => window.encoderWalkthrough.ready);
  const notice = await p2.$eval('#notice', (n) => n.textContent);
  assert(/set: "nonsense" is not CELL=NUMBER/.test(notice) && /cannot ablate "layer9\.head0"/.test(notice), `URL notice: ${notice}`);
  assert(!errs.length, errs.join('; '));
  await p2.close();
  await noNaN();
});

await check('Reset, then patching from a second sentence typed into the lab, as --patch-from/--patch do', async () => {
  await page.click('.lab-reset');
  await page.waitForFunction(() => !/=/.test(document.querySelector('.lab-list')?.textContent || '=') && !/ablate=/.test(location.search));
  await page.fill('.lab-donor', DONOR);
  await page.fill('.lab-patch-ids', `${HEAD}.context@3`);
  await page.click('.lab-patch button[type="submit"]');
  await page.waitForFunction(() => /patched from/.test(document.querySelector('.lab-list')?.textContent || '') && document.getElementById('status').hidden);
  await page.waitForFunction(() => /→/.test(document.querySelector('.lab-prediction')?.textContent || ''));
  const tr = await getTrace();
  const nat = sameAsCli(tr, ['--patch-from', DONOR, '--patch', `${HEAD}.context@3`], 'head 2 context row 3 patched');
  const line = await labText('.lab-prediction');
  assert(line.includes(`${answer(nat.baseline_prediction)} → ${answer(nat)}`), `prediction "${line}" vs CLI`);
});

await check('the patching sweep runs in the Worker, equals analyze --patch-sweep, and a cell click applies it', async () => {
  await page.click('.lab-reset');
  await page.waitForFunction(() => !/patched/.test(document.querySelector('.lab-list')?.textContent || 'patched'));
  await page.fill('.lab-donor', DONOR);
  await page.click('.lab-sweeps button:nth-child(2)');
  await page.waitForSelector('.lab-sweep-view', { timeout: 20000 });
  const r = await api(page, (d) => window.encoderWalkthrough.sweep({ kind: 'patch', patchFrom: d }), DONOR);
  const nat = nativeAnalyze(['--patch-sweep', '--text', TEXT, '--patch-from', DONOR]);
  assert(JSON.stringify(r.heads.heads) === JSON.stringify(nat.heads.heads), 'the same heads');
  const worst = Math.max(...r.heads.restored.map((v, i) => Math.abs(v - nat.heads.restored[i])),
    ...r.residual.flatMap((row, i) => row.restored.map((v, p) => Math.abs(v - nat.residual[i].restored[p]))));
  assert(worst <= 1e-4, `the sweep differs from the CLI's by ${worst}`);
  await shot('sweep', 1280);
  await page.click(`.lab-sweep-view button[aria-label^="${HEAD}:"]`);
  await page.waitForFunction(() => /patched from/.test(document.querySelector('.lab-list')?.textContent || '') && document.getElementById('status').hidden);
  await page.waitForFunction(() => /→/.test(document.querySelector('.lab-prediction')?.textContent || ''));
  sameAsCli(await getTrace(), ['--patch-from', DONOR, '--patch', `${HEAD}.context`], 'the sweep cell applied');
  await shot('sweep', 390);
  await page.setViewportSize({ width: 1280, height: 800 });
});

await check('the ablation sweep (API, 20 held-out examples) equals analyze --ablate-sweep; mean ablation with lens and attribution drawn', async () => {
  const r = await api(page, () => window.encoderWalkthrough.sweep({ kind: 'ablate', n: 20 }));
  const nat = nativeAnalyze(['--task', 'number-words', '--n', '20', '--ablate-sweep']);
  assert(Math.abs(r.accuracy - nat.accuracy) < 1e-9 && JSON.stringify(r.ablations) === JSON.stringify(nat.ablations),
    `ablation sweep ${JSON.stringify(r.ablations.slice(0, 3))} vs CLI ${JSON.stringify(nat.ablations.slice(0, 3))}`);
  await api(page, (h) => window.encoderWalkthrough.intervene({ ablate: [h], ablateMode: 'mean', lens: true, attribute: true }), HEAD);
  await page.waitForSelector('.lab-lens table');
  await page.waitForSelector('.lab-attr li');
  sameAsCli(await getTrace(), ['--ablate', HEAD, '--ablate-mode', 'mean', '--lens', '--attribute', '--generate'], 'mean ablation, lens and attribution');
  assert(/ablate_mode=mean/.test(page.url()) && /lens=1/.test(page.url()) && /attribute=1/.test(page.url()), `link ${page.url()}`);
  await noNaN();
  await shot('lens', 1280);
  await page.click('.lab-reset');
  await page.waitForFunction(() => !/ablate=|lens=/.test(location.search));
});

await check('no console errors or page errors', async () => {
  assert(!problems.length, problems.join('\n'));
});

const { passed, failed } = results();
console.log(`lab: ${passed} passed, ${failed} failed`);
await browser.close();
server.close();
process.exit(failed ? 1 : 0);
