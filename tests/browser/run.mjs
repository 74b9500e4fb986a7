#!/usr/bin/env node
// run.mjs — the browser suite: the built site (dist/) served by scripts/serve.mjs on a free
// 127.0.0.1 port, driven in Debian's headless Chromium through playwright-core. It types
// like a person, steps through every step with the buttons and keys, compares the page's
// trace with the native CLI's --json trace (1e-5 relative), checks the URL round-trip,
// the presets' numbers against the seed tutorials' printed values, injection attempts,
// bad input, keyboard use, console errors and CSP violations, and saves screenshots.
//
//   node tests/browser/run.mjs [--cli build/native-release/encoder-walkthrough] [--dist dist]
//                              [--chromium /usr/bin/chromium] [--artifacts artifacts]
// Prints `N passed, M failed`; exits non-zero on failure.
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import process from 'node:process';
import { chromium } from 'playwright-core';
import { startServer } from '../../scripts/serve.mjs';
import { root, arg, launchChromium, checks, assert, serverOptions, checkBuildMode } from '../harness.mjs';
import { runCli, runCliPreset, compareTrace } from '../wasm/compare.mjs';
import { execFileSync } from 'node:child_process';
import { defaults, buildModel, useSchema } from '../../web/js/model/settings.js';
import { KINDS } from '../../web/js/view/kinds/index.js';

const cli = path.resolve(root, arg('--cli', 'build/native-release/encoder-walkthrough'));
// The page's settings come from the core's config schema; the test's own model files too.
useSchema(JSON.parse(execFileSync(cli, ['--config-schema'], { encoding: 'utf8' })));
const dist = path.resolve(root, arg('--dist', 'dist'));
const exe = arg('--chromium', process.env.CHROMIUM || '/usr/bin/chromium');
const artifacts = path.resolve(root, arg('--artifacts', 'artifacts'));
for (const [what, p] of [['native CLI', cli], ['built site', path.join(dist, 'index.html')], ['built module', path.join(dist, 'encoder_walkthrough.wasm')], ['Chromium', exe]]) {
  if (!existsSync(p)) {
    console.error(`browser suite: ${what} not found at ${p}`);
    process.exit(2);
  }
}
mkdirSync(artifacts, { recursive: true });

// ---- harness ------------------------------------------------------------------------------
const { check: checkOne, results } = checks(6);
// --plant-offline-no-worker (a must-fail run, isolated-suites.sh) runs the offline check alone: it
// opens its own context, and the other 29 checks (a minute and a half on the threaded build) do
// not touch what it plants.
const plantNoWorker = process.argv.includes('--plant-offline-no-worker');
const check = (name, fn) => (!plantNoWorker || name.startsWith('offline:') ? checkOne(name, fn) : undefined);
// The step kinds whose explanation is a sum of shown terms and ends in a float64 check line
// (web/js/view/kinds/linear.js, attention.js): every explanation of theirs must have that line.
const CHECK_LINE_KINDS = ['linear', 'logits', 'scores', 'context'];
function close(a, b, tol, what) {
  assert(a.length === b.length, `${what}: length ${a.length} vs ${b.length}`);
  a.forEach((x, i) => assert(Math.abs(x - b[i]) <= tol, `${what}[${i}] = ${x}, expected ${b[i]} (±${tol}); got [${a.join(', ')}]`));
}

const { server, url: base } = await startServer(dist, 0, '127.0.0.1', serverOptions);
const browser = await launchChromium(chromium, exe);
await checkBuildMode(check, browser, base);

const problems = []; // console errors, page errors, CSP violations, foreign requests, dialogs
const pages = [];
async function newPage(viewport = { width: 1400, height: 900 }) {
  const page = await browser.newPage({ viewport });
  pages.push(page);
  await page.exposeFunction('__reportCsp', (v) => problems.push(`CSP violation: ${v}`));
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => window.__reportCsp(`${e.violatedDirective} ${e.blockedURI}`));
  });
  page.on('console', (m) => { if (m.type() === 'error') problems.push(`console error: ${m.text()}`); });
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  page.on('dialog', async (d) => { problems.push(`dialog opened: ${d.message()}`); await d.dismiss(); });
  page.on('request', (r) => { if (!r.url().startsWith(base) && !r.url().startsWith('data:')) problems.push(`request outside the site: ${r.url()}`); });
  return page;
}
async function open(page, query = '') {
  await page.goto(base + query);
  await page.waitForFunction(() => window.encoderWalkthrough, null, { timeout: 20000 });
  await page.evaluate(() => window.encoderWalkthrough.ready);
}
const api = (page, fn, ...args) => page.evaluate(fn, ...args);
const getState = (page) => api(page, () => window.encoderWalkthrough.getState());
// The page's trace with -Infinity kept (page.evaluate's serialization would lose it).
async function getTrace(page) {
  const t = await api(page, async () => {
    const tr = await window.encoderWalkthrough.getTrace(); // fetches the steps the page has not shown
    return { ...tr, steps: tr.steps.map((s) => ({ ...s, data: Array.from(s.data, (v) => (v === -Infinity ? null : v)) })) };
  });
  t.steps.forEach((s) => { s.data = s.data.map((v) => (v === null ? -Infinity : v)); });
  return t;
}
function modelOf(state) {
  return buildModel({ ...defaults(), ...state }, []);
}
function step(trace, id) {
  const s = trace.steps.find((x) => x.id === id);
  assert(s, `no step ${id}`);
  return s;
}
function row(s, r) {
  const n = s.shape[s.shape.length - 1];
  return s.data.slice(r * n, (r + 1) * n);
}
async function noNaN(page) {
  const text = await page.evaluate(() => document.body.innerText);
  assert(!/\bNaN\b/.test(text), 'the page shows NaN');
  assert(!/\bundefined\b/.test(text), 'the page shows "undefined"');
  assert(!/Infinity/.test(text), 'the page shows "Infinity" (should be −∞)');
}
async function checkVsNative(page, what) {
  const state = await getState(page);
  const trace = await getTrace(page);
  const native = runCli(cli, modelOf(state));
  const p = compareTrace(trace, native, { params: false });
  assert(!p.length, `${what}: page trace differs from the native CLI:\n  ${p.slice(0, 6).join('\n  ')}`);
  return trace;
}
async function openSettings(page) {
  if (!(await page.evaluate(() => document.getElementById('settings').open))) await page.click('#settings > summary');
}

const page = await newPage();
const t0 = Date.now();

// ---- 1. first load ------------------------------------------------------------------------
await check('loads and shows the default sentence (engine in a Worker, wasm SIMD)', async () => {
  await open(page);
  // The first load opens on a trained model (issue 10; tests/browser/trained.mjs); the rest
  // of this suite starts from the default settings, one click away.
  const first = await getState(page);
  assert(first.preset === 'trained-number-words', `first load on preset ${first.preset}`);
  await api(page, () => window.encoderWalkthrough.setState({ preset: '' }));
  const st = await getState(page);
  assert(st.text === 'in the bleak midwinter', `default text ${st.text}`);
  const tr = await getTrace(page);
  assert(JSON.stringify(tr.tokens) === JSON.stringify(['in', 'the', 'bleak', 'midwinter']), `tokens ${tr.tokens}`);
  const perf = await page.textContent('#perf');
  assert(/computed in .* ms \(wasm simd\)( \+ seeded weights .* ms)? · rendered in .* ms/.test(perf), `perf readout "${perf}"`);
  await noNaN(page);
  console.log(`     first load ${Date.now() - t0} ms; ${perf}`);
});

// ---- 2. type like a person ----------------------------------------------------------------
const typed = 'The frosty wind made moan, earth stood hard as iron.';
await check('typing a sentence recomputes (debounced) and matches the native CLI', async () => {
  await page.click('#text');
  await page.keyboard.press('Control+A');
  await page.keyboard.press('Backspace');
  await page.keyboard.type(typed, { delay: 25 });
  const native = runCli(cli, modelOf({ ...(await getState(page)), text: typed }));
  await page.waitForFunction((toks) => JSON.stringify(window.encoderWalkthrough.getTrace().tokens) === toks, JSON.stringify(native.tokens), { timeout: 20000 });
  const st = await getState(page);
  assert(st.text === typed, `state text "${st.text}"`);
  await checkVsNative(page, 'typed sentence');
  // The address bar is written just after the step is drawn (url.js: a timer, one pending write),
  // so it is awaited in the page, not read once from the harness's last navigation event (which
  // lagged it once under load, 2026-11-29).
  const inURL = await page.waitForFunction((t) => new URLSearchParams(location.search).get('text') === t, typed, { timeout: 10000 })
    .then(() => true, () => false);
  assert(inURL, `the URL does not carry the text: ${await page.evaluate(() => location.search)}`);
});

// ---- 3. every step --------------------------------------------------------------------------
await check('steps through every step with Next, →, j (each renders numbers, no NaN)', async () => {
  const trace = await getTrace(page);
  const n = trace.steps.length;
  await page.keyboard.press('Tab'); // leave the text box
  await api(page, () => window.encoderWalkthrough.goTo('token_ids'));
  for (let i = 0; i < n; i++) {
    await page.waitForFunction((k) => document.getElementById('counter').textContent.startsWith(`Step ${k} of`), i + 1, { timeout: 10000 });
    const title = await page.textContent('#step-title');
    // The title is the catalog's (notes/title.js: by role and place), not the engine's English one.
    const want = await page.evaluate(async (id) => {
      const [{ stepTitle }, { app }] = await Promise.all([import('./js/model/titles.js'), import('./js/page/app.js')]);
      return stepTitle(app.trace.get(id), app.trace);
    }, trace.steps[i].id);
    assert(title && title === want && !title.includes('⟦'), `step ${i}: title "${title}" ≠ "${want}"`);
    const cells = await page.$$eval('#view table.grid td.cell', (x) => x.length);
    assert(cells > 0, `step ${i} (${trace.steps[i].id}) shows no numbers`);
    const formula = await page.$$eval('#formula .katex, #formula.mono', (x) => x.length);
    assert(formula > 0, `step ${i}: no formula`);
    const text = await page.textContent('#view');
    assert(!/\bNaN\b|undefined|Infinity/.test(text), `step ${i} (${trace.steps[i].id}) shows NaN/undefined/Infinity`);
    if (i === n - 1) break;
    if (i % 3 === 0) await page.click('#next');
    else await page.keyboard.press(i % 3 === 1 ? 'ArrowRight' : 'j');
  }
  await page.keyboard.press('Home');
  await page.waitForFunction(() => document.getElementById('counter').textContent.startsWith('Step 1 of'));
  await page.keyboard.press('End');
  await page.waitForFunction((n) => document.getElementById('counter').textContent.startsWith(`Step ${n} of`), n);
  await page.keyboard.press('k');
  await page.waitForFunction((n) => document.getElementById('counter').textContent.startsWith(`Step ${n - 1} of`), n);
});

// ---- 4. more settings against the CLI --------------------------------------------------------
const configs = [
  ['padded batch (text2) → padding mask', { text: 'in the bleak midwinter frosty wind made moan', text2: 'earth stood hard', decoder_layers: 1 }],
  ['pre-norm, GELU, learned positions, causal, 2+2 layers', { text: 'snow had fallen, snow on snow', norm: 'pre', activation: 'gelu', positional: 'learned', causal: true, num_layers: 2, decoder_layers: 2, d_model: 12, num_heads: 3, d_ff: 20, seed: 5, layer_norm_eps: 1e-6 }],
  ['BPE tokenizer, scaling off, no positions', { text: 'lower newest widest lowest', tokenizer: 'bpe', bpe_merges: 6, scale: false, positional: 'none', num_layers: 1, decoder_layers: 0, d_model: 8, num_heads: 4, d_ff: 16, norm: 'post', activation: 'relu', causal: false, text2: '' }],
];
for (const [name, st] of configs) {
  await check(`setState: ${name} matches the native CLI`, async () => {
    await api(page, (s) => window.encoderWalkthrough.setState({ preset: '', ...s }), st);
    await checkVsNative(page, name);
    await noNaN(page);
  });
}
await check('padding mask: −∞ shown with its pattern for <pad> keys', async () => {
  await api(page, () => window.encoderWalkthrough.setState({ preset: 'padding-batch' }));
  const tr = await getTrace(page);
  const m = step(tr, 'attention_mask');
  assert(m.shape.length === 3 && m.shape[0] === 2, `mask shape ${m.shape}`);
  assert(m.data.some((v) => v === -Infinity), 'no masked entries');
  await api(page, () => window.encoderWalkthrough.goTo('attention_mask'));
  await page.click('#view .batch-switch button:nth-child(2)');
  const masked = await page.$$eval('#view td.masked', (x) => x.map((e) => e.textContent));
  assert(masked.length > 0 && masked.every((t) => t === '−∞'), `masked cells ${masked.slice(0, 3)}`);
  const native = runCliPreset(cli, 'padding-batch');
  const p = compareTrace(tr, native, { params: false });
  assert(!p.length, p.join('\n'));
});

// ---- 5. every number explains itself -----------------------------------------------------------
await check('hover and keyboard focus explain a cell and highlight its inputs', async () => {
  await api(page, () => window.encoderWalkthrough.setState({ preset: '', text: 'in the bleak midwinter', text2: '', d_model: 8, num_heads: 2, d_ff: 32, num_layers: 1, decoder_layers: 1, tokenizer: 'regex', scale: true, positional: 'sinusoidal', bpe_merges: 10 }));
  await api(page, () => window.encoderWalkthrough.goTo('layer0.q'));
  await page.hover('#view .result td.cell[data-r="2"][data-c="1"]');
  let head = await page.textContent('#view .explain-head');
  assert(/\[2, 1\]/.test(head), `explanation head "${head}"`);
  const arith = await page.textContent('#view .arith');
  assert(/Σ/.test(arith) && /W_Q/.test(arith) && /bias/.test(arith), `arithmetic "${arith.slice(0, 200)}"`);
  const hlCols = await page.$$eval('#view .matrix[data-tensor="layer0.W_q"] td.hl-col', (x) => x.length);
  const hlRows = await page.$$eval('#view .matrix[data-tensor="input"] td.hl-row', (x) => x.length);
  const shownInRow = await page.$$eval('#view .matrix[data-tensor="input"] td.cell[data-r="2"]', (x) => x.length);
  assert(hlCols === 8 && hlRows === shownInRow && hlRows >= 3, `highlighted W_q column cells ${hlCols}, input row cells ${hlRows}/${shownInRow}`);
  // Keyboard: Tab from Next into the grid, then arrows move between numbers.
  await page.focus('#next');
  let inGrid = false;
  for (let i = 0; i < 60 && !inGrid; i++) {
    await page.keyboard.press('Tab');
    inGrid = await page.evaluate(() => !!document.activeElement.closest('.result [role="grid"]'));
  }
  assert(inGrid, 'Tab never reached the result grid');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowDown');
  head = await page.textContent('#view .explain-head');
  const at = await page.evaluate(() => [document.activeElement.dataset.r, document.activeElement.dataset.c]);
  assert(head.includes(`[${at[0]}, ${at[1]}]`), `focused cell ${at} but explanation "${head}"`);
  const visible = await page.evaluate(() => getComputedStyle(document.activeElement).outlineStyle !== 'none');
  assert(visible, 'focused cell has no visible focus outline');
  // Other kinds explain too.
  for (const [id, re] of [['layer0.head0.weights', /exp\(/], ['layer0.ln1', /√\(/], ['layer0.head0.scores', /Σₜ/], ['layer0.residual1', /\+/], ['embedding', /row \d+ of the embedding table/], ['decoder_mask', /query/], ['layer0.head1.context', /Σⱼ/]]) {
    await api(page, (s) => window.encoderWalkthrough.goTo(s), id);
    await page.waitForFunction((s) => document.querySelector('#step-meta .mono').textContent === s, id);
    await page.hover('#view .result td.cell[data-r="1"][data-c="1"]');
    const t = await page.textContent('#view .explain');
    assert(re.test(t), `${id}: explanation "${t.slice(0, 160)}"`);
  }
});

await check('every step of a batch + classifier + decoder trace explains its cells (no fallbacks)', async () => {
  await api(page, () => window.encoderWalkthrough.setState({ preset: 'seed004-bert', text2: 'an arrow flies', decoder_layers: 1 }));
  const tr = await getTrace(page);
  const kinds = new Set(tr.steps.map((s) => s.kind));
  // Every registered kind but 'given' (explicit input rows), 'positional' (this model's
  // positions are learned), the backward pass's (trained.mjs) and the modern decoders' and the
  // generation cache's (RMSNorm, RoPE, the gated FFN, kv_cache: a BERT-style preset has none;
  // tests/web/kinds.mjs recomputes every cell of theirs, decoders.mjs walks them in the page)
  // occurs in this trace.
  const elsewhere = ['positional', 'given', 'grad', 'loss', 'rms', 'rmsnorm', 'rope', 'rope_angles', 'mul', 'scale', 'kv_cache'];
  for (const k of Object.keys(KINDS))
    if (!kinds.has(k) && !elsewhere.includes(k)) throw new Error(`kind ${k} missing from this trace`);
  for (const k of CHECK_LINE_KINDS) assert(kinds.has(k), `kind ${k} (has a check line) missing from this trace`);
  let checkLines = 0;
  // Each step in one round trip (it was six, 47 s of the suite): go to it, then point at its
  // first and last cell as the pointer does (the matrix listens for pointerover and explains
  // at once), reading the explanation each time.
  const readCells = (id) => (async () => {
    const meta = () => (document.querySelector('#step-meta .mono') || {}).textContent;
    await window.encoderWalkthrough.goTo(id);
    for (const t0 = performance.now(); meta() !== id;) {
      if (performance.now() - t0 > 30000) throw new Error(`step ${id} never shown (meta "${meta()}")`);
      await new Promise((r) => setTimeout(r, 4));
    }
    const cells = document.querySelectorAll('#view .result td.cell');
    return [cells[0], cells[cells.length - 1]].map((td) => {
      if (!td) return { t: `no cell in ${id}`, head: '' };
      td.dispatchEvent(new PointerEvent('pointerover', { bubbles: true, pointerType: 'mouse' }));
      return { t: document.querySelector('#view .explain').textContent, head: document.querySelector('#view .explain-head').textContent, n: cells.length };
    });
  })();
  for (const s of tr.steps) {
    const read = await page.evaluate(readCells, s.id);
    // (the pointer reached the last cell: its explanation is not the first's)
    assert(read[0].n < 2 || read[0].head !== read[1].head, `${s.id}: the last cell explains as the first: "${read[1].head}"`);
    for (const { t, head } of read) {
      assert(!/cannot explain/.test(t) && /=/.test(t), `${s.id}: explanation "${t.slice(0, 200)}"`);
      assert(!/\bNaN\b|undefined|Infinity/.test(t), `${s.id}: explanation shows NaN/undefined/Infinity: ${t.slice(0, 200)}`);
      // The shown terms must add up to the recorded value (catches wrong rows/columns/heads).
      // The kinds whose explanation is a sum of shown terms print its float64 check line: there
      // it must be present (CHECK_LINE_KINDS), not only checked when it happens to be.
      const chk = /float64 (?:check|sum of the shown terms =) (−?[\d.e+−-]+)/.exec(t);
      assert(chk || !CHECK_LINE_KINDS.includes(s.kind), `${s.id} (${s.kind}): no float64 check line in "${t.slice(0, 300)}"`);
      if (chk) {
        checkLines++;
        const num = (x) => Number(x.replace(/−/g, '-'));
        const recorded = num(/= (−?[\d.e+−-]+)/.exec(head)[1]);
        const sum = num(chk[1]);
        assert(Math.abs(sum - recorded) <= 1e-4 * Math.max(1, Math.abs(recorded)), `${s.id}: terms add up to ${sum}, recorded ${recorded}`);
      }
    }
  }
  assert(checkLines >= 2 * tr.steps.filter((x) => CHECK_LINE_KINDS.includes(x.kind)).length, `${checkLines} check lines`);
  // The second sentence: switch the batch item and the explanation follows.
  await api(page, () => window.encoderWalkthrough.goTo('layer0.head1.weights'));
  await page.click('#view .result .batch-switch button:nth-child(2)');
  await page.hover('#view .result td.cell >> nth=0');
  const t = await page.textContent('#view .explain-head');
  assert(/sentence 2/.test(t), `batch item 2 explanation "${t}"`);
  // seed004-bert gives only config and text, so the CLI's echo of its config rebuilds it.
  const base = runCliPreset(cli, 'seed004-bert');
  const st = await getState(page);
  const model = { config: { ...base.config, decoder_layers: 1 }, text: st.text, text2: 'an arrow flies' };
  const p = compareTrace(tr, runCli(cli, model), { params: false });
  assert(!p.length, p.slice(0, 4).join('\n'));
});

await check('attention: head view lines (SVG) and all heads side by side', async () => {
  await api(page, () => window.encoderWalkthrough.goTo('layer0.head1.weights'));
  const lines = await page.$$eval('#view .headview-svg line', (x) => x.length);
  assert(lines > 0, 'no attention lines');
  const multiples = await page.$$eval('#view .multiple', (x) => x.length);
  const cfg = await api(page, () => window.encoderWalkthrough.getTrace().config);
  assert(multiples === cfg.num_layers * cfg.num_heads, `small multiples ${multiples} for ${cfg.num_layers} layers × ${cfg.num_heads} heads`);
  await page.click('#view .multiple:first-child');
  await page.waitForFunction(() => document.querySelector('#step-meta .mono').textContent === 'layer0.head0.weights');
});

// ---- 6. URL round trip ----------------------------------------------------------------------
await check('a URL with parameters sets the state; its link reproduces the same trace', async () => {
  const q = '?text=the+cat+sat+on+the+mat&d_model=12&num_heads=3&d_ff=24&num_layers=2&decoder_layers=0&norm=pre&activation=gelu&layer_norm_eps=0.000001&causal=true&positional=learned&scale=false&seed=5&tokenizer=whitespace&step=layer1.head2.weights';
  const p2 = await newPage();
  await open(p2, q);
  const st = await getState(p2);
  const want = { text: 'the cat sat on the mat', d_model: 12, num_heads: 3, d_ff: 24, num_layers: 2, decoder_layers: 0, norm: 'pre', activation: 'gelu', layer_norm_eps: 1e-6, causal: true, positional: 'learned', scale: false, seed: 5, tokenizer: 'whitespace', step: 'layer1.head2.weights' };
  assert(JSON.stringify(st) === JSON.stringify(want), `getState ${JSON.stringify(st)}\n  expected ${JSON.stringify(want)}`);
  assert((await p2.textContent('#step-title')).startsWith('Attention weights A (head 2, self-attention, encoder layer 1)'), 'opens on the chosen step');
  const tr = await checkVsNative(p2, 'URL state');
  await p2.click('#next');
  await p2.keyboard.press('j');
  // The address bar follows the shown step once it is drawn (url.js): wait for it.
  await p2.waitForFunction(() => new URLSearchParams(location.search).get('step') === window.encoderWalkthrough.getState().step);
  const link = p2.url();
  const st2 = await getState(p2);
  const p3 = await newPage();
  await open(p3, new URL(link).search);
  const tr3 = await getTrace(p3);
  assert(JSON.stringify(await getState(p3)) === JSON.stringify(st2), 'state from the link differs');
  const diff = compareTrace(tr3, { tokens: tr.tokens, steps: tr.steps }, { params: false });
  assert(!diff.length && tr3.steps.every((s, i) => s.data.every((v, j) => Object.is(v, tr.steps[i].data[j]))), 'the link does not reproduce the same numbers');
  assert((await p3.textContent('#step-title')) === (await p2.textContent('#step-title')), 'the link opens another step');
  await p2.close();
  await p3.close();
});

await check('invalid URL values: clear message, defaults, no crash', async () => {
  const p2 = await newPage();
  await open(p2, '?d_model=abc&norm=sideways&seed=-4&text=ok+then&step=nonsense');
  const st = await getState(p2);
  assert(st.d_model === 8 && st.norm === 'post' && st.seed === 66 && st.text === 'ok then', `state ${JSON.stringify(st)}`);
  const note = await p2.textContent('#notice');
  assert(/d_model/.test(note) && /norm/.test(note) && /seed/.test(note), `notice "${note}"`);
  await open(p2, '?d_model=8&num_heads=3');
  const note2 = await p2.textContent('#notice');
  assert(/number of heads \(3\)/.test(note2), `notice for an impossible combination "${note2}"`);
  assert((await getState(p2)).num_heads === 2, 'falls back to the defaults');
  await open(p2, '?preset=nope&text=hello');
  assert(/unknown preset/.test(await p2.textContent('#notice')), 'unknown preset reported');
  await noNaN(p2);
  await p2.close();
});

// ---- 7. presets reproduce the seeds ---------------------------------------------------------------
const seeds = [
  ['seed001-attention-3x3', (t) => close(row(step(t, 'layer0.head0.weights'), 0), [0.46831053, 0.06337894, 0.46831053], 1e-7, 'weights row 0')],
  ['seed003-y2', (t) => close(row(step(t, 'layer0.head0.context'), 1), [0.11782318, 0.39491105, -2.4440105, 0.5687822], 2e-6, 'context row 1 (y₂)')],
  ['seed001-despite', (t) => {
    const s = row(step(t, 'layer0.head0.scores'), 0);
    close([s[1], s[2], s[0]], [0.684, 1.4976, 1.6848], 5e-5, 'scores[0][1,2,0]');
  }],
  ['seed000-softmax', (t) => close(row(step(t, 'layer0.head0.weights'), 0), [0.25064936, 0.24955489, 0.24989569, 0.24990009], 1e-7, 'weights row 0')],
  ['seed002-causal', (t) => {
    const w = step(t, 'layer0.head0.weights');
    const want = [[0.1606, 0.8394], [0.2814, 0.2604, 0.4582], [0.4101, 0.0907, 0.1385, 0.3607]];
    want.forEach((r, k) => {
      const got = row(w, k + 1);
      // The preset feeds q and k as the notebook prints them (4 decimals), so its softmax
      // can differ from the notebook's full-precision one in the last printed digit.
      close(Array.from(got.slice(0, r.length)), r, 1e-4, `weights row ${k + 1}`);
      assert(Array.from(got.slice(r.length)).every((v) => v === 0), `row ${k + 1}: masked (future) weights are not 0`);
    });
    assert(row(step(t, 'layer0.head0.scaled'), 1).slice(2).every((v) => v === -Infinity), 'future scores are −∞');
  }],
  ['seed001-bpe', (t) => {
    const m = t.text.bpe.merges.map((x) => x.pair.join(' '));
    assert(JSON.stringify(m) === JSON.stringify(['l o', 'lo w', 'e r', 'er </w>', 'low </w>']), `merges ${JSON.stringify(m)}`);
  }],
];
await check('presets menu lists every preset with description and source', async () => {
  const opts = await page.$$eval('#preset option', (x) => x.map((o) => o.value));
  for (const [name] of seeds) assert(opts.includes(name), `preset ${name} missing from the menu (${opts})`);
  await page.selectOption('#preset', 'seed001-despite');
  await page.waitForFunction(() => window.encoderWalkthrough.getState().preset === 'seed001-despite');
  const desc = await page.textContent('#preset-desc');
  assert(/Despite/.test(desc) && /Transformers - Fundamental Concepts with Python Implementation/.test(desc), `description "${desc}"`);
});
await check('a preset chosen while the sentence box has focus replaces its text', async () => {
  await page.focus('#text');
  await api(page, () => window.encoderWalkthrough.setState({ preset: 'seed001-bpe' }));
  const shown = await page.inputValue('#text');
  const want = await api(page, () => window.encoderWalkthrough.getState().text);
  assert(shown === want && /lowest/.test(shown), `sentence box shows "${shown}", state text "${want}"`);
});
for (const [name, test] of seeds) {
  await check(`preset ${name} shows the seed's numbers and matches the native CLI`, async () => {
    await api(page, (n) => window.encoderWalkthrough.setState({ preset: n }), name);
    const tr = await getTrace(page);
    test(tr);
    const native = runCliPreset(cli, name);
    const p = compareTrace(tr, native, { params: false });
    assert(!p.length, p.slice(0, 4).join('\n'));
    await api(page, () => window.encoderWalkthrough.goTo('layer0.head0.weights'));
    await noNaN(page);
  });
}
await check('a preset with given weights: changing d_model falls back to seeded weights with a notice', async () => {
  await api(page, () => window.encoderWalkthrough.setState({ preset: 'seed001-attention-3x3' }));
  assert(await page.isDisabled('#text'), 'text box should be locked for a preset without text');
  await openSettings(page);
  await page.fill('#f-d_model', '6');
  await page.press('#f-d_model', 'Tab');
  await page.waitForFunction(() => !document.getElementById('notice').hidden, null, { timeout: 15000 });
  const note = await page.textContent('#notice');
  assert(/seeded weights/.test(note), `notice "${note}"`);
  const st = await getState(page);
  assert(!st.preset && st.d_model === 6, `state ${JSON.stringify(st)}`);
  await checkVsNative(page, 'fallback');
});

// ---- 8. injection ----------------------------------------------------------------------------
await check('markup typed into the sentence is shown literally and runs nothing', async () => {
  await api(page, () => window.encoderWalkthrough.setState({ preset: '', tokenizer: 'whitespace', d_model: 8, num_heads: 2, text: 'x', text2: '' }));
  const evil = '<img src=x onerror=alert(1)> <b>bold</b>';
  await page.click('#text');
  await page.keyboard.press('Control+A');
  await page.keyboard.type(evil, { delay: 10 });
  await page.waitForFunction((t) => window.encoderWalkthrough.getState().text === t, evil, { timeout: 15000 });
  await api(page, () => window.encoderWalkthrough.goTo('token_ids'));
  // goTo returns at once; the step's data comes from the Worker (the new trace's, once computed).
  await page.waitForFunction(() => [...document.querySelectorAll('#view .chip-tok')].some((e) => e.textContent === '<img'), null, { timeout: 15000 })
    .catch(() => {});
  const chips = await page.$$eval('#view .chip-tok', (x) => x.map((e) => e.textContent));
  assert(chips.includes('<img') && chips.includes('onerror=alert(1)>') && chips.includes('<b>bold</b>'), `chips ${JSON.stringify(chips)}`);
  const injected = await page.evaluate(() => document.querySelectorAll('img, b').length);
  assert(injected === 0, `${injected} injected elements`);
});
await check('markup in the URL is shown literally and runs nothing', async () => {
  const p2 = await newPage();
  const evil = '<script>alert(1)</script><img src=x onerror=alert(2)>';
  await open(p2, `?tokenizer=whitespace&text=${encodeURIComponent(evil)}&text2=${encodeURIComponent('<svg onload=alert(3)>')}&step=token_ids`);
  assert((await p2.inputValue('#text')) === evil, 'text box does not hold the literal text');
  const toks = await p2.$$eval('#view .token-chips .chip-tok', (x) => x.map((e) => e.textContent));
  assert(toks.join(' ').startsWith(evil + ' <svg onload=alert(3)>'), `token chips ${JSON.stringify(toks)}`);
  const n = await p2.evaluate(() => [document.querySelectorAll('script').length, document.querySelectorAll('img, body svg:not(.headview-svg):not(.train-plot)').length]);
  assert(n[0] === 2 && n[1] === 0, `script/img elements ${n}`);
  await p2.close();
});

// ---- 9. bad input ------------------------------------------------------------------------------
await check('bad input: a clear message, the last good trace stays (dimmed), then recovers', async () => {
  await api(page, () => window.encoderWalkthrough.setState({ preset: '', tokenizer: 'regex', text: 'in the bleak midwinter', d_model: 8, num_heads: 2 }));
  const before = await getTrace(page);
  let err = null;
  await api(page, () => window.encoderWalkthrough.setState({ num_heads: 3 })).catch((e) => { err = e; });
  assert(err && /number of heads \(3\)/.test(err.message), `setState should reject naming num_heads, got ${err}`);
  assert(await page.isVisible('#msg'), 'no message shown');
  assert(/number of heads \(3\)/.test(await page.textContent('#msg')), 'message does not name num_heads');
  assert(await page.evaluate(() => document.body.classList.contains('stale')), 'old trace not dimmed');
  const after = await getTrace(page);
  assert(after.steps.length === before.steps.length, 'the last good trace was dropped');
  // Through the form, as a person would.
  await openSettings(page);
  await page.fill('#f-num_heads', '2');
  await page.press('#f-num_heads', 'Tab');
  await page.waitForFunction(() => document.getElementById('msg').hidden, null, { timeout: 10000 });
  await page.fill('#f-d_model', '0');
  await page.press('#f-d_model', 'Tab');
  await page.waitForFunction(() => !document.getElementById('msg').hidden, null, { timeout: 10000 });
  assert(/d_model/.test(await page.textContent('#msg')), 'message for d_model = 0');
  await page.fill('#f-d_model', '8');
  await page.press('#f-d_model', 'Tab');
  await page.waitForFunction(() => document.getElementById('msg').hidden, null, { timeout: 10000 });
  // An empty sentence.
  await page.fill('#text', '');
  await page.waitForFunction(() => !document.getElementById('msg').hidden, null, { timeout: 10000 });
  await page.fill('#text', 'in the bleak midwinter');
  await page.waitForFunction(() => document.getElementById('msg').hidden, null, { timeout: 10000 });
  await noNaN(page);
});

// ---- 10. a big size stays responsive (measured, not asserted) -----------------------------------
await check('d_model 512, 8 heads, 128 tokens: computes off the main thread (timing printed)', async () => {
  const words = 'the quick brown fox jumps over the lazy dog while snow falls on frozen hills'.split(' ');
  const text = Array.from({ length: 128 }, (_, i) => words[i % words.length]).join(' ');
  await api(page, (t) => window.encoderWalkthrough.setState({ text: t, d_model: 512, num_heads: 8, d_ff: 2048, num_layers: 1, decoder_layers: 0 }), text);
  const tr = await api(page, () => window.encoderWalkthrough.getTrace().tokens.length);
  assert(tr === 128, `tokens ${tr}`);
  await api(page, () => window.encoderWalkthrough.goTo('layer0.head3.weights'));
  const cells = await page.$$eval('#view td', (x) => x.length);
  assert(cells < 6000, `${cells} DOM cells for a 128×128 step`);
  console.log(`     ${await page.textContent('#perf')}; ${cells} table cells on the 128×128 weights step`);
  await api(page, () => window.encoderWalkthrough.setState({ text: 'in the bleak midwinter', d_model: 8, num_heads: 2, d_ff: 32, num_layers: 1, decoder_layers: 1 }));
  console.log(`     default size: ${await page.textContent('#perf')}`);
});

// ---- offline ---------------------------------------------------------------------------------------
// --plant-offline-no-worker (a must-fail run, isolated-suites.sh): the page's code no longer names
// the threaded build's .worker.js to the service worker, so this check must fail.
await check('offline: after one visit the page reloads and recomputes with no network (service worker)', async () => {
  const ctx = await browser.newContext({ viewport: { width: 1200, height: 800 } });
  let planted = 0;
  if (plantNoWorker)
    await ctx.route(/\/js\/.*\.js(\?|$)/, async (route) => {
      try {
        const r = await route.fetch();
        const body = await r.text(), out = body.replaceAll("'.worker.js'", "'.js'").replaceAll('".worker.js"', '".js"');
        if (out !== body) planted++;
        await route.fulfill({ response: r, body: out });
      } catch { /* the context is gone */ }
    });
  const p = await ctx.newPage();
  p.on('pageerror', (e) => problems.push(`page error (offline check): ${e.message}`));
  await p.goto(`${base}?text=${encodeURIComponent('the frost was hard')}`);
  await p.evaluate(() => window.encoderWalkthrough.ready);
  await p.evaluate(() => navigator.serviceWorker.ready.then(() => true));
  await p.waitForFunction(() => !!navigator.serviceWorker.controller || caches.keys().then((k) => k.length > 0));
  await ctx.setOffline(true);
  await p.reload();
  // Bounded: an engine that cannot load offline (a file the service worker did not keep) must fail
  // this check, not hang the run.
  await p.waitForFunction(() => window.encoderWalkthrough, null, { timeout: 30000 });
  if (plantNoWorker) assert(planted > 0, 'plant: no ".worker.js" in the page\'s served code: nothing was planted');
  // (The plant's engine never comes: 10 s show that as well as 30 and spare the run 20 s.)
  const bound = plantNoWorker ? 10 : 30;
  await Promise.race([p.evaluate(() => window.encoderWalkthrough.ready),
    new Promise((_, no) => setTimeout(() => no(new Error(`offline: the engine was not ready after ${bound} s (a file the service worker did not keep?)`)), bound * 1000))]);
  await p.evaluate(() => window.encoderWalkthrough.setState({ text: 'snow on snow on snow' }));
  const tokens = await p.evaluate(() => window.encoderWalkthrough.getTrace().tokens);
  assert(JSON.stringify(tokens) === JSON.stringify(['snow', 'on', 'snow', 'on', 'snow']), `offline tokens ${tokens}`);
  const katex = await p.evaluate(() => document.querySelectorAll('.katex').length);
  assert(katex > 0, 'no KaTeX formula rendered offline');
  await ctx.setOffline(false);
  await ctx.close();
});

// ---- 11. screenshots ------------------------------------------------------------------------------
await check('screenshots (desktop, phone, embed) saved under artifacts/', async () => {
  await api(page, () => window.encoderWalkthrough.setState({ preset: '', text: 'in the bleak midwinter', tokenizer: 'regex' }));
  await api(page, () => window.encoderWalkthrough.goTo('layer0.head0.weights'));
  await page.hover('#view .result td.cell[data-r="2"][data-c="1"]');
  await page.screenshot({ path: path.join(artifacts, 'desktop-attention.png'), fullPage: true });
  await api(page, () => window.encoderWalkthrough.goTo('layer0.ffn_pre'));
  await page.hover('#view .result td.cell[data-r="1"][data-c="2"]');
  await page.screenshot({ path: path.join(artifacts, 'desktop-linear.png'), fullPage: false });
  await api(page, () => window.encoderWalkthrough.setState({ preset: 'seed001-bpe', step: 'token_ids' }));
  await page.screenshot({ path: path.join(artifacts, 'desktop-bpe.png'), fullPage: true });
  const phone = await newPage({ width: 390, height: 844 });
  await open(phone, '?step=layer0.head0.weights');
  await phone.screenshot({ path: path.join(artifacts, 'phone-attention.png'), fullPage: true });
  await open(phone, '?step=layer0.q');
  await phone.screenshot({ path: path.join(artifacts, 'phone-linear.png'), fullPage: false });
  const sw = await phone.evaluate(() => document.documentElement.scrollWidth);
  assert(sw <= 392, `phone layout scrolls sideways (${sw}px wide)`);
  const emb = await newPage({ width: 760, height: 620 });
  await open(emb, '?embed=1&text=in+the+bleak+midwinter&step=layer0.head0.weights');
  await emb.screenshot({ path: path.join(artifacts, 'embed.png'), fullPage: false });
  assert(!(await emb.isVisible('.site')), 'embed mode shows the header');
});

// ---- the builds the Worker falls back to (issue 13) ---------------------------------------------
// The Worker loads the split SIMD128 build → relaxed SIMD → scalar (build-pick.js), skipping a
// build whose file fails to load; here the earlier builds' files answer 404 (a host without them;
// Chromium itself validates all).
await check('fallback builds: without the threaded build SIMD128 runs, without the SIMD128 files relaxed SIMD, without any SIMD file the scalar build; each matches the native CLI', async () => {
  for (const [build, hide, label] of [
    // (_mt: the threaded build, which leads when the suite runs isolated, EW_ISOLATED=1)
    ['simd', /encoder_walkthrough_relaxed_mt\.(js|wasm)$/, /SIMD128 build/],
    ['relaxed', /encoder_walkthrough(_relaxed_mt|\.deferred)?\.(js|wasm)$/, /relaxed-SIMD build/],
    ['scalar', /encoder_walkthrough(_relaxed(_mt)?|\.deferred)?\.(js|wasm)$/, /scalar build/],
  ]) {
    const ctx = await browser.newContext({ viewport: { width: 1200, height: 800 }, serviceWorkers: 'block' });
    await ctx.route(hide, (r) => r.fulfill({ status: 404, body: 'not here' }));
    const p = await ctx.newPage();
    p.on('pageerror', (e) => problems.push(`page error (${build} fallback): ${e.message}`));
    await p.goto(`${base}?text=${encodeURIComponent('the frost was hard and the snow lay deep')}&d_model=16&num_heads=4`);
    await p.evaluate(() => window.encoderWalkthrough.ready);
    const perf = await p.textContent('#perf');
    assert(label.test(perf), `${build}: the readout says "${perf}"`);
    await checkVsNative(p, `${build} build`);
    await ctx.close();
  }
});

// ---- 12. hygiene ---------------------------------------------------------------------------------
await check('no console errors, page errors, CSP violations, dialogs or requests outside the site', async () => {
  assert(!problems.length, problems.slice(0, 10).join('\n     '));
});

await browser.close();
server.close();
const { passed, failed } = results();
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
