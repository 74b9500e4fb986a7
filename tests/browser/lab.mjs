#!/usr/bin/env node
// lab.mjs — the browser suite for the "What if?" lab (issue 20, item 5; issue 29, item 5: the
// lab for a reader), driving the built page in headless Chromium like a person on the trained
// number-words model: turn the lab on, click cross-attention head 2 in the map to switch it off
// (the lab names it as the map does, "head 2, cross-attention, decoder layer 0", never by its
// id), click a number of a matrix and type a new value into that cell (Enter; Escape cancels),
// patch the step on screen from a second sentence with "Patch this step" (and, as the fallback,
// typed ids), run the patching sweep and click one of its cells, and Reset. After each, the
// page's intervened trace (getTrace(): every step, with its "intervened" mark) is compared with
// the native CLI's --json for the same flags (--ablate, --set, --patch-from, --patch,
// --generate), to |a − b| ≤ 1e-5·|b| + 1e-5·max|B| + 1e-6 per step B (tests/wasm/compare.mjs),
// and the prediction before → after with the CLI's "baseline_prediction"; the sweeps' tables with
// the CLI's analyze tables (1e-4 absolute: they are ratios of logit differences). Also: the link
// reproduces the interventions (a fresh page on it computes the same trace); a bad id, letters,
// nothing and 1e400 typed into a cell and bad URL values each show their own message and change
// nothing; the lab sits beside the step card at 1280 px and right under it at 390 px, in English
// and German; no two labels run together; the JS API's intervene() and sweep(). Must-fail: a
// planted raw-id label in the lab is caught by the same naming check. Screenshots at 1280 and
// 390 px go to artifacts/lab-*.png. Bounded: ~40 s.
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

const { check, results } = checks(13);
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
  // The whole panel (beside the card it scrolls inside its sticky slot: unclipped for the picture).
  const unclip = (on) => page.$eval('#lab-slot', (e, v) => { for (const k of ['maxHeight', 'overflow', 'position']) e.style[k] = v ? { maxHeight: 'none', overflow: 'visible', position: 'static' }[k] : ''; }, on);
  await unclip(true);
  await page.locator('#lab-panel').screenshot({ path: path.join(artifacts, `lab-${name}-${width}-panel.png`) });
  await unclip(false);
}
async function noNaN() {
  const text = await page.evaluate(() => document.body.innerText);
  assert(!/\bNaN\b|\bundefined\b|Infinity|⟦/.test(text), 'the page shows NaN, undefined, Infinity or a missing message');
}

// The lab's words for what it acts on: no raw step or head id in any text the reader reads
// (the ids stay in titles, as the CLI's names); [] when clean.
const RAW_ID = /\b(layer|decoder)\d+\.[\w.]*(head\d+|W_\w+|weights|context)\b/;
async function rawIdsShown(p = page) {
  return p.$$eval('#lab-panel li, #lab-panel button, #lab-panel th, #lab-tools button, #lab-panel .lab-note',
    (els, re) => els.map((e) => [e.textContent, e.getAttribute('aria-label') || '', e.tagName === 'BUTTON' ? e.title : '']).flat().filter((x) => new RegExp(re).test(x)), RAW_ID.source);
}
// Opens the cell `sel` for a new value by clicking it; → the input in it.
async function openCell(sel) {
  await page.click(sel);
  const input = `${sel} input.lab-cell-input`;
  await page.waitForSelector(input);
  assert(await page.$eval(input, (i) => i === document.activeElement), 'the input in the cell has the focus');
  return input;
}
const stepBox = (p = page) => p.evaluate(() => {
  const r = (sel) => { const b = document.querySelector(sel).getBoundingClientRect(); return { left: b.left, right: b.right, top: b.top, bottom: b.bottom }; };
  return { card: r('.step-card'), lab: r('#lab-panel') };
});

let linkWithEdits = '', traceWithEdits = null, cellName = '', headLabel = '';

await check('the lab turns on; clicking cross head 2 in the map switches it off, as --ablate does', async () => {
  await page.goto(`${base}?preset=${PRESET}&step=${HEAD}.weights`);
  await api(page, () => window.encoderWalkthrough.ready);
  assert((await api(page, () => window.encoderWalkthrough.getState().text)) === TEXT, 'the preset\'s own sentence');
  await page.click('#lab-tools .lab-toggle');
  assert(await page.isVisible('#lab-panel'), 'the lab panel opens');
  headLabel = await page.getAttribute('#map a.map-head:text-is("2")', 'title');
  assert(headLabel === 'head 2, cross-attention, decoder layer 0', `the map names the head "${headLabel}"`);
  await page.click('#map a.map-head:text-is("2")');
  await page.waitForFunction(() => document.querySelector('.lab-list li[title="decoder0.cross.head2"]'));
  const item = await page.$eval('.lab-list li[title="decoder0.cross.head2"]', (li) => li.firstChild.textContent.trim());
  assert(item === `${headLabel} switched off`, `the lab names the head "${item}", the map "${headLabel}"`);
  await page.waitForFunction(() => /→/.test(document.querySelector('.lab-prediction')?.textContent || ''));
  const tr = await getTrace();
  const nat = sameAsCli(tr, ['--ablate', HEAD, '--generate'], 'head 2 off');
  const line = await labText('.lab-prediction');
  assert(line.includes(`${answer(nat.baseline_prediction)} → ${answer(nat)}`), `prediction "${line}" vs CLI ${answer(nat.baseline_prediction)} → ${answer(nat)}`);
  assert(await page.$eval(`#map a.map-head.lab-off`, (a) => a.textContent.trim() === '2'), 'head 2 is marked off in the map');
  assert((await page.getAttribute('#map a.map-head.lab-off', 'title')) === `${headLabel}: switched off`, 'the map\'s head says it is off, by name');
  const raw = await rawIdsShown();
  assert(!raw.length, `raw ids in the lab's words: ${raw.join(' | ')}`);
  await noNaN();
});

await check('must fail: a planted raw-id label in the lab is caught by the naming check', async () => {
  await page.$eval('.lab-list', (ul) => { const li = document.createElement('li'); li.id = 'planted'; li.textContent = 'decoder0.cross.head2 switched off'; ul.append(li); });
  const raw = await rawIdsShown();
  await page.$eval('#planted', (li) => li.remove());
  assert(raw.some((x) => x.includes('decoder0.cross.head2')), `the planted raw id went unnoticed: ${raw}`);
});

await check('a number is typed into its own cell (click, or Enter on it; Escape cancels), marked "was …", as --set does', async () => {
  await api(page, (id) => window.encoderWalkthrough.goTo(id), CELL_STEP);
  const cell = `#view [data-tensor="${CELL_STEP}"] td.cell[data-r="2"][data-c="0"]`;
  await page.waitForSelector(cell);
  const old = Number(await page.$eval(cell, (td) => td.textContent));
  // Escape cancels: the number comes back, the focus returns to the cell, nothing is applied.
  let input = await openCell(cell);
  const label = await page.getAttribute(input, 'aria-label');
  assert(/^New value for .*, row 2, column 0$/.test(label) && !RAW_ID.test(label), `the input is labelled "${label}"`);
  await page.keyboard.type('5');
  await page.keyboard.press('Escape');
  assert(!(await page.$(`${cell} input`)) && Number(await page.$eval(cell, (td) => td.textContent)) === old, 'Escape puts the number back');
  assert(await page.$eval(cell, (td) => td === document.activeElement), 'Escape gives the focus back to the cell');
  assert(!(await labText('.lab-list')).includes('='), 'Escape applies nothing');
  // The keyboard: Enter on the focused number opens it with its value; typing replaces it.
  await page.keyboard.press('Enter');
  await page.waitForSelector(`${cell} input.lab-cell-input`);
  await page.keyboard.type('1');
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => /=\s*1 \(was /.test(document.querySelector('.lab-list')?.textContent || ''));
  const li = await page.$('.lab-list li[title*="weights["]');
  const name = cellName = await li.getAttribute('title');
  assert(/^layer0\.head0\.weights\[(0,)?2,0\]$/.test(name), `cell id ${name}`);
  const text = await li.evaluate((e) => e.firstChild.textContent.trim());
  assert(/, row 2, column 0 = 1 \(was /.test(text) && !RAW_ID.test(text), `the cell is named "${text}"`);
  const tr = await getTrace();
  sameAsCli(tr, ['--ablate', HEAD, '--set', `${name}=1`, '--generate'], 'head 2 off and one cell set');
  assert(tr.steps.find((s) => s.id === CELL_STEP).data[2 * tr.steps.find((s) => s.id === CELL_STEP).shape.at(-1)] === 1, 'the cell holds 1 in the trace');
  await page.waitForSelector(`${cell}.lab-changed`);
  await page.waitForFunction((sel) => document.activeElement === document.querySelector(sel), cell);
  // Traceable: the cell's arithmetic says what it gives and that the lab put 1 there instead.
  const why = await page.$eval('#view .explain .arith', (e) => e.textContent);
  assert(/= \S+ by this arithmetic; the what-if lab put 1 here instead/.test(why), `the explanation of the set cell: ${why.slice(-160)}`);
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
  // Letters, nothing and 1e400 typed into a cell: each its own message, the editor stays open
  // (marked invalid, described by the message), nothing changes.
  const cell = `#view [data-tensor="${CELL_STEP}"] td.cell[data-r="1"][data-c="1"]`;
  const input = await openCell(cell);
  for (const [typed, why] of [['abc', /must be a finite number, got "abc"/], ['', /the box is empty/], ['1e400', /1e400 is too large for .*float32/]]) {
    await page.fill(input, typed);
    await page.press(input, 'Enter');
    await page.waitForFunction((re) => new RegExp(re).test(document.getElementById('lab-cell-hint').textContent), why.source);
    assert(why.test(await page.$eval(input, (i) => i.validationMessage)), `"${typed}": the message is not shown at the cell`);
    assert((await page.getAttribute(input, 'aria-invalid')) === 'true' && (await page.getAttribute(input, 'aria-describedby')) === 'lab-cell-hint', `"${typed}": the input is marked invalid and described`);
  }
  await page.press(input, 'Escape');
  // A float32 value whose consequences overflow: the engine refuses it, the lab says why beside
  // the cell, and the run before it stays (no inf or NaN computed from it on screen).
  await openCell(cell);
  await page.keyboard.type('3e38');
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => /cannot use 3e38 for .*no longer a finite number/.test(document.getElementById('lab-cell-hint').textContent));
  assert(!(await page.$(`${cell} input`)), 'the editor closes when the engine refuses');
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

await check('Reset, then "Patch this step" on the card patches the step on screen from the second sentence, as --patch-from/--patch do', async () => {
  await page.click('.lab-reset');
  await page.waitForFunction(() => !/=/.test(document.querySelector('.lab-list')?.textContent || '=') && !/ablate=/.test(location.search));
  await page.fill('.lab-donor', DONOR);
  const target = `${HEAD}.context`;
  await api(page, (id) => window.encoderWalkthrough.goTo(id), target);
  await page.waitForFunction((id) => window.encoderWalkthrough.getState().step === id, target);
  // The card drawn for it (the state names the step before the card is redrawn: on the threaded
  // build the title was once read from the step before).
  await page.waitForFunction((id) => document.querySelector('#step-meta .meta-v.mono')?.textContent === id, target);
  const title = (await page.$eval('#step-title', (h) => h.textContent)).trim();
  await page.click('#lab-tools .lab-patch-here');
  await page.waitForFunction((id) => document.querySelector(`.lab-list li[title="${id}"]`) && document.getElementById('status').hidden, target);
  await page.waitForFunction(() => /→/.test(document.querySelector('.lab-prediction')?.textContent || ''));
  const item = await page.$eval(`.lab-list li[title="${target}"]`, (li) => li.firstChild.textContent.trim());
  assert(item === `${title} patched from “${DONOR}”`, `the target is named "${item}" (the step's title "${title}")`);
  assert(await page.$eval('#lab-tools .lab-patch-here', (b) => b.disabled), '"Patch this step" says the step is patched');
  const tr = await getTrace();
  const nat = sameAsCli(tr, ['--patch-from', DONOR, '--patch', target], 'head 2 context patched by clicking');
  const line = await labText('.lab-prediction');
  assert(line.includes(`${answer(nat.baseline_prediction)} → ${answer(nat)}`), `prediction "${line}" vs CLI`);
  // Removable: its ✕ takes the target away again.
  await page.click(`.lab-list li[title="${target}"] button`);
  await page.waitForFunction((id) => !document.querySelector(`.lab-list li[title="${id}"]`) && document.getElementById('status').hidden, target);
  assert(!(await getTrace()).steps.some((s) => s.intervened), 'nothing patched after the removal');
});

await check('the typed fallback: ID@positions under "Advanced", as --patch-from/--patch do', async () => {
  await page.click('.lab-advanced summary');
  await page.fill('.lab-patch-ids', `${HEAD}.context@3`);
  await page.click('.lab-patch button[type="submit"]');
  await page.waitForFunction(() => /patched from/.test(document.querySelector('.lab-list')?.textContent || '') && document.getElementById('status').hidden);
  const item = await page.$eval(`.lab-list li[title="${HEAD}.context@3"]`, (li) => li.firstChild.textContent.trim());
  assert(/ at positions 3 patched from/.test(item) && !RAW_ID.test(item), `the typed target is named "${item}"`);
  sameAsCli(await getTrace(), ['--patch-from', DONOR, '--patch', `${HEAD}.context@3`], 'head 2 context row 3 patched');
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
  await page.click(`.lab-sweep-view button[title^="${headLabel}:"]`);
  const raw = await rawIdsShown();
  assert(!raw.length, `raw ids in the sweep's words: ${raw.slice(0, 4).join(' | ')}`);
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
  const layers = await page.$$eval('.lab-lens th[scope="row"]', (ths) => ths.map((th) => th.textContent));
  assert(layers.join() === 'encoder layer 0,decoder layer 0' || layers.join() === 'decoder layer 0', `the lens's layers: ${layers}`);
  const parts = await page.$$eval('.lab-attr .lab-bar-name', (ns) => ns.map((n) => n.textContent));
  assert(parts.includes(headLabel) && !(await rawIdsShown()).length, `attribution parts named by ids: ${parts.join(' | ')}`);
  sameAsCli(await getTrace(), ['--ablate', HEAD, '--ablate-mode', 'mean', '--lens', '--attribute', '--generate'], 'mean ablation, lens and attribution');
  assert(/ablate_mode=mean/.test(page.url()) && /lens=1/.test(page.url()) && /attribute=1/.test(page.url()), `link ${page.url()}`);
  await noNaN();
  await shot('lens', 1280);
  await page.click('.lab-reset');
  await page.waitForFunction(() => !/ablate=|lens=/.test(location.search));
});

await check('the lab sits beside the step card at 1280 px and right under it at 390 px, in English and German', async () => {
  for (const lang of ['en', 'de']) {
    const p = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    p.on('pageerror', (e) => problems.push(`page error (${lang}): ${e.message}`));
    await p.goto(`${base}?preset=${PRESET}&step=${CELL_STEP}&lab=1&ablate=${HEAD}&lang=${lang}`);
    await api(p, () => window.encoderWalkthrough.ready);
    await p.waitForSelector('#lab-panel:not([hidden])');
    for (const width of [1280, 390]) {
      await p.setViewportSize({ width, height: width < 500 ? 844 : 800 });
      await p.evaluate(() => window.scrollTo(0, 0));
      await p.waitForTimeout(100);
      const { card, lab } = await stepBox(p);
      if (width === 1280) assert(lab.left >= card.right - 1 && Math.abs(lab.top - card.top) <= 24 && lab.right <= width,
        `${lang} 1280: the lab is not beside the card (card ${JSON.stringify(card)}, lab ${JSON.stringify(lab)})`);
      else assert(lab.top >= card.bottom - 1 && lab.top - card.bottom <= 32 && Math.abs(lab.left - card.left) <= 2,
        `${lang} 390: the lab is not right under the card (card ${JSON.stringify(card)}, lab ${JSON.stringify(lab)})`);
      await p.screenshot({ path: path.join(artifacts, `lab-beside-${width}-${lang}.png`), fullPage: true });
      // Under a tall card the card says what the lab holds and links down to it; beside, it need not.
      assert((await p.isVisible('#lab-tools .lab-brief')) === (width < 1180), `${lang} ${width}: the lab's brief on the card`);
      if (width < 1180) {
        const brief = await p.textContent('#lab-tools .lab-brief');
        assert(brief.startsWith(lang === 'de' ? '1 Eingriff · ' : '1 intervention · ') && /→/.test(brief), `${lang}: the brief says "${brief}"`);
        await p.click('#lab-tools .lab-brief a');
        await p.waitForFunction(() => Math.abs(document.getElementById('lab-panel').getBoundingClientRect().top) < 40);
        await p.screenshot({ path: path.join(artifacts, `lab-under-${width}-${lang}.png`) });
      }
    }
    // Scrolled down the card at 1280, the lab stays in view beside it (sticky).
    await p.setViewportSize({ width: 1280, height: 800 });
    await p.evaluate(() => window.scrollTo(0, 900));
    await p.waitForTimeout(100);
    const { lab } = await stepBox(p);
    assert(lab.top >= 0 && lab.top <= 24, `${lang}: scrolled, the lab left the screen (top ${lab.top})`);
    await p.close();
  }
});

await check('no two labels run together: each field has one label of its own, named in the catalog\'s words', async () => {
  const text = await page.$eval('#lab-panel', (e) => e.innerText);
  assert(!/first\s*new value|click a number in a matrix first/i.test(text), 'the old "cell: click a number in a matrix first new value" line is back');
  const fields = await page.$$eval('#lab-panel .lab-field', (fs) => fs.map((f) => ({
    labels: f.querySelectorAll('label').length, text: f.querySelector('label')?.textContent || '',
    control: !!document.getElementById(f.querySelector('label')?.htmlFor || '-'), others: [...f.childNodes].filter((n) => n.nodeType === 3 && n.textContent.trim()).length,
  })));
  assert(fields.length >= 2 && fields.every((f) => f.labels === 1 && f.control && !f.others && f.text.trim()), `fields: ${JSON.stringify(fields)}`);
});

await check('no console errors or page errors', async () => {
  assert(!problems.length, problems.join('\n'));
});

const { passed, failed } = results();
console.log(`lab: ${passed} passed, ${failed} failed`);
await browser.close();
server.close();
process.exit(failed ? 1 : 0);
