#!/usr/bin/env node
// trained.mjs — the browser suite for trained models (issue 10), driving the built page in
// headless Chromium like a person: the first load (a trained encoder–decoder, its alignment),
// typing an input with an unknown word, Generate and revisiting a round, the backward pass
// switch with gradient cells' explanations read off the page, one AdamW update, the trained
// classifier's prediction, training a model in the page (pause, resume; the page stays
// usable), downloading its weights and loading them back (file picker, and a bad file
// dropped on the page), and the JS API. Every trace the page shows — forward steps, generated
// tokens with their probabilities, and gradients — is compared with the native CLI's
// (--json, --generate, --backward) for the same model and input, to 1e-5 relative.
// Screenshots of every new view go to artifacts/trained-*.png.
//
//   node tests/browser/trained.mjs [--cli build/native-release/encoder-walkthrough] [--dist dist]
//                                  [--chromium /usr/bin/chromium] [--artifacts artifacts]
import { mkdirSync, mkdtempSync, writeFileSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import process from 'node:process';
import { execFileSync } from 'node:child_process';
import { chromium } from 'playwright-core';
import { startServer } from '../../scripts/serve.mjs';
import { root, arg, launchChromium, checks, assert, requireFiles } from '../harness.mjs';
import { compareTrace, REL, ABS } from '../wasm/compare.mjs';

const cli = path.resolve(root, arg('--cli', 'build/native-release/encoder-walkthrough'));
const dist = path.resolve(root, arg('--dist', 'dist'));
const exe = arg('--chromium', process.env.CHROMIUM || '/usr/bin/chromium');
const artifacts = path.resolve(root, arg('--artifacts', 'artifacts'));
requireFiles('trained', [['native CLI', cli], ['built site', path.join(dist, 'index.html')], ['Chromium', exe]]);
mkdirSync(artifacts, { recursive: true });
const tmp = mkdtempSync(path.join(tmpdir(), 'ew-trained-'));

// ---- harness ------------------------------------------------------------------------------
const { check, results } = checks(8);
const near = (a, b) => Math.abs(a - b) <= REL * Math.abs(b) + ABS;

// The native CLI on a model file; flags: --generate, --backward.
function native(model, flags = []) {
  const file = path.join(tmp, 'model.json');
  writeFileSync(file, JSON.stringify(model));
  return JSON.parse(execFileSync(cli, ['--model', file, '--json', ...flags], { maxBuffer: 1 << 30, encoding: 'utf8' }));
}
// Forward steps and the loss: compare.mjs's 1e-5 rule. Gradients: |a − b| ≤ 1e-5·|b| +
// GRAD_SCALE·max|B| + 1e-6 — the backward pass subtracts nearly equal float32 numbers (the
// softmax's p·(g − Σpg) at a confident answer, LayerNorm's mean and variance terms), so wasm
// (no FMA, 4 lanes) and native (FMA, 8 lanes) differ there by a few 1e-5 of the tensor's
// scale; 1e-4 of each tensor's scale is the tolerance of the project's gradient check against
// PyTorch (tests/reference/check_gradients.py). The worst ratio seen is printed.
const GRAD_SCALE = 1e-4;
let gradWorst = 0;
function sameTrace(trace, nat, what) {
  const fwd = (t) => ({ ...t, steps: t.steps.filter((s) => s.kind !== 'grad') });
  const p = compareTrace(fwd(trace), fwd(nat), { params: false });
  const grads = trace.steps.filter((s) => s.kind === 'grad');
  const ng = nat.steps.filter((s) => s.kind === 'grad');
  if (grads.length !== ng.length) p.push(`${grads.length} gradient steps vs native ${ng.length}`);
  else grads.forEach((s, i) => {
    const n = ng[i];
    if (s.id !== n.id || s.data.length !== n.data.length) return p.push(`${s.id} vs native ${n.id}`);
    const scale = Math.max(...n.data.map(Math.abs));
    s.data.forEach((v, k) => {
      const err = Math.abs(v - n.data[k]);
      if (scale > 1e-3) gradWorst = Math.max(gradWorst, (err - 1e-5 * Math.abs(n.data[k]) - 1e-6) / scale);
      if (!(err <= 1e-5 * Math.abs(n.data[k]) + GRAD_SCALE * scale + 1e-6)) p.push(`${s.id}[${k}] = ${v} vs native ${n.data[k]} (scale ${scale})`);
    });
  });
  assert(!p.length, `${what}: the page's trace differs from the native CLI's:\n  ${p.slice(0, 6).join('\n  ')}`);
}

const { server, url: base } = await startServer(dist, 0);
const browser = await launchChromium(chromium, exe);
const problems = [];
const page = await browser.newPage({ viewport: { width: 1400, height: 1000 }, acceptDownloads: true });
await page.exposeFunction('__reportCsp', (v) => problems.push(`CSP violation: ${v}`));
await page.addInitScript(() => {
  document.addEventListener('securitypolicyviolation', (e) => window.__reportCsp(`${e.violatedDirective} ${e.blockedURI}`));
});
page.on('console', (m) => { if (m.type() === 'error') problems.push(`console error: ${m.text()}`); });
page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
page.on('request', (r) => { if (!r.url().startsWith(base) && !r.url().startsWith('data:') && !r.url().startsWith('blob:')) problems.push(`request outside the site: ${r.url()}`); });

const api = (fn, ...args) => page.evaluate(fn, ...args);
async function getTrace() {
  const t = await api(async () => {
    const tr = await window.encoderWalkthrough.getTrace(); // the Worker keeps the trace: awaiting fetches it
    return { ...tr, steps: tr.steps.map((s) => ({ ...s, data: Array.from(s.data, (v) => (v === -Infinity ? null : v)) })) };
  });
  t.steps.forEach((s) => { s.data = s.data.map((v) => (v === null ? -Infinity : v)); });
  return t;
}
const getState = () => api(() => window.encoderWalkthrough.getState());
// Polls the whole trace until pred(trace) holds (waitForFunction cannot await getTrace()).
async function waitForTrace(pred, what, timeout = 20000) {
  const t0 = Date.now();
  for (;;) {
    // While the page recomputes, a trace can be replaced before its data arrive ("stale data
    // request"): poll again.
    const tr = await api(async () => {
      const t = await window.encoderWalkthrough.getTrace();
      return t && { steps: t.steps.map((s) => ({ id: s.id, kind: s.kind })) };
    }).catch((e) => (/stale data request/.test(e.message) ? null : Promise.reject(e)));
    if (tr && pred(tr)) return;
    if (Date.now() - t0 > timeout) throw new Error(`timed out after ${timeout} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
async function shot(name, full = true) {
  await page.screenshot({ path: path.join(artifacts, `trained-${name}.png`), fullPage: full });
}
async function noNaN() {
  const text = await page.evaluate(() => document.body.innerText);
  assert(!/\bNaN\b|\bundefined\b|Infinity/.test(text), 'the page shows NaN, undefined or Infinity');
}
// The rounds the page lists: [{input, token, p}] read from the buttons' text.
const pageRounds = () => page.$$eval('#rounds .round', (bs) => bs.map((b) => ({
  input: b.querySelector('.round-in').textContent, token: b.querySelector('.round-tok').textContent,
  p: Number(b.querySelector('.round-p').textContent.replace(/[^0-9.]/g, '')) })));

// ---- 1. first load ------------------------------------------------------------------------
const NW = 'builtin:number-words';
await check('first load: the trained number-words model, its answer and the cross-attention alignment', async () => {
  await page.goto(base);
  await page.waitForFunction(() => window.encoderWalkthrough);
  await api(() => window.encoderWalkthrough.ready);
  const st = await getState();
  assert(st.preset === 'trained-number-words' && st.d_model === 32 && st.decoder_layers === 1, `first state ${JSON.stringify(st)}`);
  const tr = await getTrace();
  const nat = native({ weights: NW, text: st.text }, ['--generate']);
  sameTrace(tr, nat, 'first load');
  const out = await page.textContent('#gen-output');
  assert(out === `Output: ${nat.generated.join(' ')}`, `output "${out}" vs native ${nat.generated}`);
  await api(() => window.encoderWalkthrough.goTo('decoder0.cross.head1.weights'));
  await page.waitForSelector('.alignment .align-head');
  const heads = await page.$$eval('.alignment .align-head', (x) => x.length);
  assert(heads === st.num_heads, `${heads} alignment pictures for ${st.num_heads} heads`);
  const prov = await page.textContent('#provenance');
  assert(/^Trained on number words → digits \(4,000 steps, seed 1\)\./.test(prov), `provenance "${prov}"`);
  // Point at a cell: it names the output token, the source word and the weight.
  const cell = (await page.$$('.align-head.current .align-cell'))[0];
  const title = await cell.$eval('title', (t) => t.textContent);
  const A = tr.steps.find((s) => s.id === 'decoder0.cross.head1.weights');
  assert(title.includes(`A[0, 0] = ${A.data[0].toPrecision(6)}`), `cell title "${title}" vs ${A.data[0]}`);
  await cell.click();
  await page.waitForFunction(() => /A\[0, 0\]/.test(document.querySelector('#view .explain')?.textContent || ''));
  await noNaN();
  await shot('alignment');
});

// ---- 2. type like a person: an unknown word, then generation -------------------------------
const typed = 'four hundred twelve thousand zillion eight';
let generated = null;
await check('typing an input with an unknown word: shown as <unk> with a note; the page generates as the CLI does', async () => {
  await page.fill('#text', '');
  await page.type('#text', typed, { delay: 5 });
  await page.waitForFunction((t) => window.encoderWalkthrough.getState().text === t, typed);
  await page.waitForFunction(() => /zillion/.test(document.getElementById('text-note').textContent));
  const note = await page.textContent('#text-note');
  assert(/“zillion” is not in this model’s vocabulary .*<unk>/.test(note), `note "${note}"`);
  await page.click('#generate'); // disables itself until the last round is listed
  await page.waitForFunction(() => !document.getElementById('generate').disabled && document.querySelectorAll('#rounds .round').length > 1 &&
    document.querySelector('#rounds li:last-child .round-tok').textContent === '</s>');
  const nat = native({ weights: NW, text: typed }, ['--generate']);
  generated = nat.generated;
  const rounds = await pageRounds();
  assert(rounds.length === nat.rounds.length, `${rounds.length} rounds vs native ${nat.rounds.length}`);
  rounds.forEach((r, k) => {
    const n = nat.rounds[k];
    assert(r.token === n.token && r.input === ['<s>', ...(n.decoder_input ? n.decoder_input.split(' ') : [])].join(' '), `round ${k}: ${JSON.stringify(r)} vs ${JSON.stringify(n)}`);
    assert(Math.abs(r.p - n.prob) <= 5e-4, `round ${k}: p ${r.p} vs native ${n.prob} (shown to 3 decimals)`);
  });
  const tr = await getTrace();
  sameTrace(tr, nat, 'generated (final round)');
  const unk = tr.steps.find((s) => s.id === 'token_ids').data[4];
  assert(tr.text.vocab[unk] === '<unk>', `zillion's id ${unk} is ${tr.text.vocab[unk]}`);
  const viaApi = await api(() => window.encoderWalkthrough.generate());
  assert(JSON.stringify(viaApi) === JSON.stringify(nat.generated), `generate() ${viaApi} vs native ${nat.generated}`);
  await shot('generate', false);
});

await check('the link of a trained model reopens the same model, input and step', async () => {
  const link = page.url();
  assert(/preset=trained-number-words/.test(link), `link ${link}`);
  const before = await getState();
  const p2 = await browser.newPage({ viewport: { width: 1000, height: 800 } });
  p2.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  await p2.goto(link);
  await p2.waitForFunction(() => window.encoderWalkthrough);
  await p2.evaluate(() => window.encoderWalkthrough.ready);
  const after = await p2.evaluate(() => window.encoderWalkthrough.getState());
  assert(JSON.stringify(after) === JSON.stringify(before), `reopened ${JSON.stringify(after)} vs ${JSON.stringify(before)}`);
  assert(!(await p2.textContent('#notice')).trim() && !(await p2.textContent('#msg')).trim(), 'the reopened link shows a message');
  await p2.close();
});

await check('revisiting a round shows that round (the decoder input of that round) as the CLI computes it', async () => {
  await page.click('#rounds li:nth-child(3) .round');
  await page.waitForFunction(() => window.encoderWalkthrough.getTrace().tokens && document.querySelector('#rounds li:nth-child(3) .round[aria-current]'));
  await page.waitForFunction((n) => window.encoderWalkthrough.getTrace().text.target_tokens.length === n, 3);
  const tr = await getTrace();
  const target = generated.slice(0, 2).join(' ');
  assert(JSON.stringify(tr.text.target_tokens) === JSON.stringify(['<s>', ...generated.slice(0, 2)]), `round 3 reads ${tr.text.target_tokens}`);
  sameTrace(tr, native({ weights: NW, text: typed, target }), 'round 3');
  // Its last row's argmax is round 3's token.
  const probs = tr.steps.find((s) => s.id === 'probs');
  const V = probs.shape[1], last = probs.data.slice((probs.shape[0] - 1) * V);
  assert(tr.text.vocab[last.indexOf(Math.max(...last))] === generated[2], 'round 3 chooses its token');
});

// ---- 3. the backward pass ---------------------------------------------------------------------
await check('the backward pass: the switch adds loss and gradients equal to the CLI’s; gradient cells explain themselves with the trace’s numbers', async () => {
  await page.click('#rounds li:last-child .round');
  await page.check('#backward');
  await waitForTrace((t) => t.steps.some((s) => s.kind === 'grad'), 'gradient steps');
  const tr = await getTrace();
  const nat = native({ weights: NW, text: typed, target: generated.join(' ') }, ['--backward']);
  sameTrace(tr, nat, 'backward');
  const grads = tr.steps.filter((s) => s.kind === 'grad').length;
  assert(grads > 100, `${grads} grad steps`);
  // A few gradient cells, pointed at like a person: the explanation's result and its float64
  // sum of the chain-rule terms both equal the native gradient.
  for (const [id, r, c] of [['grad.decoder0.cross.head1.weights', 1, 2], ['grad.decoder0.cross.W_q', 3, 5],
    ['grad.layer0.ffn_hidden', 2, 7], ['grad.logits', 0, 4], ['grad.embedding_table', 10, 0]]) {
    await api((x) => window.encoderWalkthrough.goTo(x), id);
    await page.waitForFunction((x) => document.querySelector('#step-meta .mono')?.textContent === x, id);
    const cells = await page.$$('#view .result td.cell');
    const s = tr.steps.find((x) => x.id === id), n = nat.steps.find((x) => x.id === id);
    const cols = s.shape[s.shape.length - 1];
    // The table may elide rows/columns: use the cell whose data attributes name (r, c), else the first.
    const target = await page.$(`#view .result td.cell[data-r="${r}"][data-c="${c}"]`);
    await (target || cells[0]).hover();
    const rc = target ? [r, c] : [0, 0];
    await page.waitForFunction(() => /check: float64 sum of the terms/.test(document.querySelector('#view .explain')?.textContent || ''));
    const text = await page.textContent('#view .explain');
    const num = (s) => Number(s.replace(/−/g, '-'));
    const shown = num((await page.textContent('#view .explain .line.result')).replace(/^= /, ''));
    const sum = num(text.match(/float64 sum of the terms = ([−\-0-9.e+]+);/)[1]);
    const want = n.data[rc[0] * cols + rc[1]];
    const scale = Math.max(...n.data.map(Math.abs));
    assert(Math.abs(sum - want) <= 1e-5 * Math.abs(want) + 1e-6 * (1 + scale), `${id}[${rc}]: the terms sum to ${sum}, native ${want}`);
    assert(near(shown, want), `${id}[${rc}]: shown ${shown}, native ${want}`);
    // A term is named by its forward step's symbol and place: “from C_h (decoder layer 0, head 1): …”.
    assert(/from [^\s:]+(?: \([^)]*\))?: /.test(text), `${id}: no chain-rule term names its forward step: ${text.slice(0, 200)}`);
  }
  await shot('backward');
  await api(() => window.encoderWalkthrough.goTo('grad.decoder0.cross.W_q'));
  await page.waitForSelector('#view .adamw .line.result');
  const adam = await page.textContent('#view .adamw');
  assert(/m̂ = m\/\(1 − β₁\)/.test(adam) && /w′ = /.test(adam), `AdamW panel "${adam.slice(0, 200)}"`);
  await shot('adamw');
  await page.uncheck('#backward');
  await waitForTrace((t) => !t.steps.some((s) => s.kind === 'grad'), 'a trace without gradients');
});

// ---- 4. the masked-word model --------------------------------------------------------------------
await check('the trained masked-word model: the page lists the top 5 fills of each [MASK] as the CLI computes them', async () => {
  await api(() => window.encoderWalkthrough.setState({ preset: 'trained-masked-words' }));
  const st = await getState();
  const nat = native({ weights: 'builtin:masked-words', text: st.text });
  assert(Array.isArray(nat.fills) && nat.fills.length === 1, `the CLI's fills: ${JSON.stringify(nat.fills)}`);
  assert(await api(() => window.encoderWalkthrough.goTo('mlm.probs')), 'no step mlm.probs');
  await page.waitForFunction(() => document.querySelector('#step-meta .mono')?.textContent === 'mlm.probs');
  const shown = await page.$$eval('.predictions li', (lis) => lis.map((li) => ({
    ctx: li.querySelector('.pred-ctx').textContent,
    fills: Array.from(li.querySelectorAll('.pred'), (p) => [p.querySelector('.chip-tok').textContent, Number(p.querySelector('.num').textContent)]),
  })));
  assert(shown.length === 1 && /\[MASK\]/.test(shown[0].ctx), `rows listed: ${JSON.stringify(shown)}`);
  const want = nat.fills[0];
  assert(shown[0].fills.length === 5, `${shown[0].fills.length} fills shown`);
  shown[0].fills.forEach(([tok, p], k) => {
    assert(tok === want[k].token, `fill ${k}: "${tok}", the CLI's "${want[k].token}"`);
    assert(Math.abs(p - want[k].p) <= 5e-3 * Math.max(1, want[k].p), `fill ${k}: p ${p} (as shown), the CLI's ${want[k].p}`);
  });
  sameTrace(await getTrace(), nat, 'trained-masked-words');
  await shot('masked');
});

// ---- 4b. the trained classifier ---------------------------------------------------------------
await check('the trained brackets classifier shows its prediction and probabilities, as the CLI', async () => {
  await api(() => window.encoderWalkthrough.setState({ preset: 'trained-brackets' }));
  await page.waitForSelector('#prediction:not([hidden])');
  const st = await getState();
  const nat = native({ weights: 'builtin:brackets', text: st.text });
  const text = await page.textContent('#prediction');
  const p = nat.prediction;
  assert(text.includes(p.label) && p.labels.every((l, i) => text.includes(`${l} ${(100 * p.probs[i]).toFixed(1)}%`)), `prediction "${text}" vs ${JSON.stringify(p)}`);
  assert(await page.isHidden('#gen-box'), 'a classifier has no Generate');
  await api(() => window.encoderWalkthrough.goTo('cls.probs'));
  await page.waitForFunction(() => document.querySelector('#step-meta .mono')?.textContent === 'cls.probs');
  const view = await page.textContent('#view');
  assert(p.labels.every((l) => view.includes(l)), `the label probabilities name ${p.labels}: "${view.slice(0, 200)}"`);
  sameTrace(await getTrace(), nat, 'trained-brackets');
  await shot('classifier', false);
});

// ---- 5. training in the page -----------------------------------------------------------------
let trainedResult = null;
await check('training in the page: set up like a person, pause and resume, the page stays usable, it learns', async () => {
  await page.click('#train-box > summary');
  await page.selectOption('#t-task', 'brackets');
  // A size beyond the panel's limits is refused with a message naming the field.
  await page.fill('#t-d_model', '1000');
  await page.click('#t-start');
  await page.waitForFunction(() => /d_model must be a number from 8 to 64/.test(document.getElementById('t-status').textContent));
  for (const [k, v] of [['d_model', 16], ['num_heads', 2], ['d_ff', 32], ['num_layers', 2], ['steps', 400], ['batch', 16], ['lr', 0.005], ['seed', 1]])
    await page.fill(`#t-${k}`, String(v));
  const t0 = Date.now();
  await page.click('#t-start');
  await page.waitForFunction(() => /step \d+/.test(document.getElementById('t-status').textContent));
  // A second run while one goes is refused clearly.
  const second = await api(() => window.encoderWalkthrough.train({ task: 'brackets', steps: 10 }).then(() => 'resolved', (e) => e.message));
  assert(/already going/.test(second), `a second train(): ${second}`);
  // Pause: the step count stops; resume: it goes on.
  await page.click('#t-pause');
  await page.waitForTimeout(400);
  const s1 = await page.textContent('#t-status');
  await page.waitForTimeout(600);
  const s2 = await page.textContent('#t-status');
  assert(s1 === s2 && /paused/.test(s2), `paused: "${s1}" then "${s2}"`);
  // The page answers while training runs: navigate and recompute.
  const tq = Date.now();
  await api(() => window.encoderWalkthrough.goTo('layer0.head0.weights'));
  await api(() => window.encoderWalkthrough.setState({ text: '( ( ) )' }));
  const answer = Date.now() - tq;
  assert(answer < 3000, `a recompute during training took ${answer} ms`);
  await page.click('#t-pause');
  await page.waitForFunction(() => document.getElementById('t-plot').querySelector('.plot-acc'));
  await shot('training');
  await page.waitForFunction(() => /^Done at step/.test(document.getElementById('t-status').textContent), null, { timeout: 120000 });
  const status = await page.textContent('#t-status');
  const acc = Number(status.match(/held-out accuracy ([0-9.]+)%/)[1]) / 100;
  trainedResult = { acc, ms: Date.now() - t0 };
  console.log(`     ${status}`);
  assert(acc >= 0.75, `held-out accuracy ${acc} after 400 steps (chance is 0.5)`);
  const st = await getState();
  assert(st.preset === 'your-weights', `the walked model is ${st.preset}`);
  const prov = await api(() => { window.encoderWalkthrough.goTo('cls.probs'); return document.getElementById('provenance').textContent; });
  assert(/trained in this page: task brackets, 400 steps/.test(prov), `provenance "${prov}"`);
  await shot('trained');
});

// ---- 6. download, load back, a bad file -----------------------------------------------------------
await check('download the trained weights, load them back with the file picker; the page runs them as the CLI does', async () => {
  const [dl] = await Promise.all([page.waitForEvent('download'), page.click('#w-download')]);
  const file = path.join(tmp, 'trained.safetensors');
  await dl.saveAs(file);
  const bytes = readFileSync(file);
  const viaApi = await api(async () => Array.from(new Uint8Array(await window.encoderWalkthrough.exportWeights())));
  assert(bytes.length > 1000 && Buffer.compare(bytes, Buffer.from(viaApi)) === 0, `downloaded ${bytes.length} bytes, exportWeights ${viaApi.length}`);
  await api(() => window.encoderWalkthrough.setState({ preset: 'trained-number-words' }));
  await page.setInputFiles('#w-file', file);
  await page.waitForFunction(() => window.encoderWalkthrough.getState().preset === 'your-weights');
  await waitForTrace((t) => t.steps.some((s) => s.id === 'cls.probs'), 'the loaded classifier');
  const st = await getState();
  sameTrace(await getTrace(), native({ weights: file, text: st.text }), 'loaded weights');
  const prov = await api(() => { window.encoderWalkthrough.goTo('cls.probs'); return document.getElementById('provenance').textContent; });
  assert(/loaded from “trained.safetensors”/.test(prov), `provenance "${prov}"`);
});

await check('a bad weights file (picker, drop, loadWeights) gets the core’s clear message; the last model stays', async () => {
  const bad = path.join(tmp, 'bad.safetensors');
  const good = readFileSync(path.join(tmp, 'trained.safetensors'));
  writeFileSync(bad, good.subarray(0, good.length - 100)); // truncated
  await page.setInputFiles('#w-file', bad);
  await page.waitForFunction(() => !document.getElementById('msg').hidden);
  await page.$eval('#msg', (m) => m.scrollIntoView());
  const msg = await page.textContent('#msg');
  assert(/“bad.safetensors” cannot be used as weights: safetensors/.test(msg), `message "${msg}"`);
  // Dropped on the page, like a person would.
  await page.evaluate(() => {
    const dt = new DataTransfer();
    dt.items.add(new File([new Uint8Array([9, 0, 0, 0, 0, 0, 0, 0, 123, 34, 120, 34, 58, 49, 125])], 'dropped.safetensors'));
    document.body.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
  });
  await page.waitForFunction(() => /dropped.safetensors/.test(document.getElementById('msg').textContent));
  const m2 = await page.textContent('#msg');
  assert(/“dropped.safetensors” cannot be used as weights: safetensors: /.test(m2), `drop message "${m2}"`);
  const err = await api(() => window.encoderWalkthrough.loadWeights(new ArrayBuffer(4)).then(() => 'resolved', (e) => e.message));
  assert(/cannot be used as weights: safetensors/.test(err), `loadWeights: ${err}`);
  assert((await getState()).preset === 'your-weights', 'the loaded model stays');
  await noNaN();
  await page.$eval('#msg', (m) => m.scrollIntoView());
  await shot('bad-file', false);
});

await check('stopTraining() stops a run early; train() resolves with {steps, loss, accuracy, ms}', async () => {
  const p = api(() => window.encoderWalkthrough.train({ task: 'number-words', steps: 2000, d_model: 16, num_heads: 2, d_ff: 32 },
    null).then((r) => r, (e) => ({ error: e.message })));
  await page.waitForFunction(() => /step \d+/.test(document.getElementById('t-status').textContent));
  assert(await api(() => window.encoderWalkthrough.stopTraining()), 'stopTraining() while training');
  const r = await p;
  assert(!r.error && r.steps > 0 && r.steps < 2000 && Number.isFinite(r.loss) && r.accuracy >= 0 && r.ms > 0, `train() → ${JSON.stringify(r)}`);
  const bad = await api(() => window.encoderWalkthrough.train({ steps: -3 }).then(() => 'resolved', (e) => e.message));
  assert(/steps must be a number from 10 to 5000/.test(bad), `train({steps: -3}): ${bad}`);
});

await check('no console errors, page errors, CSP violations or requests outside the site', async () => {
  assert(!problems.length, problems.join('\n'));
});

console.log(`trained: gradients vs native: worst difference ${gradWorst.toExponential(2)} of the tensor's scale beyond 1e-5 relative (tensors with scale > 1e-3; allowed ${GRAD_SCALE})`);
const { passed, failed } = results();
console.log(`trained: ${passed} passed, ${failed} failed${trainedResult ? ` (in-page training: ${(100 * trainedResult.acc).toFixed(1)}% in ${(trainedResult.ms / 1000).toFixed(1)} s)` : ''}`);
await browser.close();
server.close();
rmSync(tmp, { recursive: true, force: true });
process.exit(failed ? 1 : 0);
