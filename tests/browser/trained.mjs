#!/usr/bin/env node
// trained.mjs — the browser suite for trained models (issue 10), driving the built page in
// headless Chromium like a person: the first load (a trained encoder–decoder, its alignment),
// typing an input with an unknown word, Generate and revisiting a round, the backward pass
// switch with gradient cells' explanations read off the page, one AdamW update, the trained
// classifier's prediction (brackets typed with and without spaces, unknown tokens named beside
// it), training a model in the page (number-words to 99% on 1,000 held-out examples within the
// README's step budget; pause, resume; the page stays usable), a file whose numbers overflow
// (the overflow named, the last trace kept), downloading its weights and loading them back (file picker, and a bad file
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
import { root, arg, launchChromium, checks, assert, requireFiles, serverOptions, checkBuildMode } from '../harness.mjs';
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
// GRAD_SCALE·max|B| + 1e-12, GRAD_SCALE = 1e-4 of each tensor's scale, the tolerance of the
// project's gradient check against PyTorch (tests/reference/check_gradients.py). The forward
// steps of wasm (no FMA, 4 lanes) and native (FMA, 8 lanes) differ in their last digits, and a
// logit that moves by Δz moves p = exp(z − logsumexp z) by Δz relative: the gradients differ by
// up to ~4e-5 of their scale on the trained models; and a step computed from gradients inherits
// their differences, so its scale is the largest of its own and its gradient operands' scales
// (the inputs named grad.*, each with its own such scale) — e.g. a confident attention row's
// grad.….scaled = p·(g − Σpg) is 2e-5 where its operand grad.….weights is 1e-3, and differs by
// the operand's digits, not its own. The worst ratio seen, and where, is printed. The softmax
// the loss reads is differentiated as one function, dL/dz = (p − onehot)/N with p_y − 1 =
// −Σ_{j≠y} p_j (core/trace/backward.cpp): through its separate steps, −1/N + p_y/N cancelled in
// float32 at a confident answer, and the two differed by up to 6.6e-4 of the scale. One
// exception, by the mathematics: a softmax's shift (….rowmax) has gradient 0 exactly
// (softmax(z − m) does not depend on m), so its computed value is the cancellation noise of Σ
// over the row of terms the size of the incoming gradient (inputs[0], e.g. grad.probs) — 1e-8
// where that gradient is 1e-3. There both must be 0 to ROWMAX_ZERO of the incoming gradient's
// scale, and they are compared to that scale.
const GRAD_SCALE = 1e-4, ROWMAX_ZERO = 1e-5;
const maxAbs = (d) => d.reduce((m, v) => Math.max(m, Math.abs(v)), 0);
let gradWorst = 0, gradWorstAt = '';
function sameTrace(trace, nat, what) {
  const fwd = (t) => ({ ...t, steps: t.steps.filter((s) => s.kind !== 'grad') });
  const p = compareTrace(fwd(trace), fwd(nat), { params: false });
  const grads = trace.steps.filter((s) => s.kind === 'grad');
  const ng = nat.steps.filter((s) => s.kind === 'grad');
  const scales = new Map();  // gradient id → the scale it is compared to (its own, or its operands')
  if (grads.length !== ng.length) p.push(`${grads.length} gradient steps vs native ${ng.length}`);
  else grads.forEach((s, i) => {
    const n = ng[i];
    if (s.id !== n.id || s.data.length !== n.data.length) return p.push(`${s.id} vs native ${n.id}`);
    const operands = (n.inputs || []).filter((id) => id.startsWith('grad.')).map((id) => scales.get(id));
    if (operands.some((g) => g === undefined)) return p.push(`${s.id}: an operand of ${n.inputs} comes later in the trace`);
    const scale = Math.max(maxAbs(n.data), ...operands);
    scales.set(n.id, scale);
    if (/\.rowmax$/.test(s.id)) {
      const zero = ROWMAX_ZERO * scales.get(n.inputs[0]);
      if (!(maxAbs(s.data) <= zero && maxAbs(n.data) <= zero)) p.push(`${s.id} is not 0 to ${zero}: ${maxAbs(s.data)} (native ${maxAbs(n.data)})`);
    }
    s.data.forEach((v, k) => {
      const err = Math.abs(v - n.data[k]);
      const r = scale > 0 ? (err - 1e-5 * Math.abs(n.data[k])) / scale : 0;
      if (r > gradWorst) [gradWorst, gradWorstAt] = [r, `${s.id}[${k}]`];
      if (!(err <= 1e-5 * Math.abs(n.data[k]) + GRAD_SCALE * scale + 1e-12)) p.push(`${s.id}[${k}] = ${v} vs native ${n.data[k]} (scale ${scale})`);
    });
  });
  assert(!p.length, `${what}: the page's trace differs from the native CLI's:\n  ${p.slice(0, 6).join('\n  ')}`);
}

const { server, url: base } = await startServer(dist, 0, '127.0.0.1', serverOptions);
const browser = await launchChromium(chromium, exe);
await checkBuildMode(check, browser, base);
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
  // Streamed like a decoder-only model's, without a cache: each round a whole recorded run.
  const panel = await page.evaluate(() => ({ progress: document.getElementById('gen-progress-text').textContent, timing: document.getElementById('gen-timing').textContent,
    cache: document.getElementById('kv-box').hidden }));
  assert(panel.progress === `${nat.rounds.length} rounds: the model chose its end token.` && panel.cache &&
    new RegExp(`^each round a whole recorded run: [\\d.,]+ ms per round \\(${nat.rounds.length} rounds\\)$`).test(panel.timing), `generation panel: ${JSON.stringify(panel)}`);
  await page.locator('#gen-box').screenshot({ path: path.join(artifacts, 'trained-generate-panel.png') });
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

await check('brackets typed as people type them: “(())” reads as “( ( ) )”; unknown tokens are named beside the prediction, as the CLI names them', async () => {
  const prediction = async (text) => {
    await api((x) => window.encoderWalkthrough.setState({ preset: 'trained-brackets', text: x }), text);
    const [tr, st] = [await getTrace(), await getState()];
    assert(st.text === text, `the page shows "${st.text}", not "${text}"`);
    return { tokens: tr.tokens, text: await page.textContent('#prediction') };
  };
  const spaced = await prediction('( ( ) ) ( )'), typed = await prediction('(())()');
  assert(JSON.stringify(typed.tokens) === JSON.stringify(spaced.tokens) && typed.tokens.length === 6, `tokens ${JSON.stringify(typed.tokens)} vs ${JSON.stringify(spaced.tokens)}`);
  assert(typed.text === spaced.text, `prediction "${typed.text}" vs "${spaced.text}"`);
  const nat = native({ weights: 'builtin:brackets', text: '(())()' });
  assert(typed.text.includes(nat.prediction.label), `the CLI predicts ${nat.prediction.label}: "${typed.text}"`);
  // An unknown token: the page's note beside the prediction says what the CLI prints.
  const odd = await prediction('( [ ) ]');
  const file = path.join(tmp, 'odd.json');
  writeFileSync(file, JSON.stringify({ weights: 'builtin:brackets', text: '( [ ) ]' }));
  const cliText = execFileSync(cli, ['--model', file], { encoding: 'utf8', maxBuffer: 1 << 28 });
  const line = cliText.split('\n').find((l) => /not in this model’s vocabulary/.test(l));
  assert(line && /“\[”, “\]” are not in this model’s vocabulary of 6 tokens: it reads them as <unk>/.test(line), `the CLI says "${line}"`);
  assert(odd.text.includes(line.trim()), `beside the prediction: "${odd.text}", the CLI: "${line}"`);
  assert((native({ weights: 'builtin:brackets', text: '( [ ) ]' }).unknown || {}).tokens.join() === '[,]', 'the CLI\'s --json "unknown"');
  await shot('classifier-unknown', false);
});

// ---- 5. training in the page -----------------------------------------------------------------
// The README's claim, held by optimizer steps (load cannot change them; the wall-time cap only
// catches a hang): number-words at the panel's defaults (d_model 32, 4 heads, d_ff 64, 1+1
// layers, batch 16, lr 0.006, seed 1) reaches 99% held-out exact match on 1,000 examples within
// the 3,000 steps the README quotes, checked every ~100 steps as the panel does.
const STEP_BUDGET = 3000;
let trainedResult = null;
await check(`training in the page: number-words at the panel's defaults reaches 99% on 1,000 held-out examples within ${STEP_BUDGET} steps`, async () => {
  const log = [];
  await page.exposeFunction('__trainProgress', (p) => { if (p.accuracy !== undefined) log.push([p.steps, p.accuracy]); });
  const t0 = Date.now();
  const run = api((n) => window.encoderWalkthrough.train({ task: 'number-words', steps: n, evalN: 1000, finalEvalN: 1000, stopAt: 0.99 },
    (p) => window.__trainProgress({ steps: p.steps, accuracy: p.accuracy })).then((r) => r, (e) => ({ error: e.message })), STEP_BUDGET);
  const WALL_CAP = 600e3; // a hang, not a speed: the steps are the budget
  const r = await Promise.race([run, new Promise((res) => setTimeout(() => res({ error: `no result after ${WALL_CAP / 1000} s` }), WALL_CAP))]);
  trainedResult = { acc: r.accuracy, steps: r.steps, ms: Date.now() - t0 };
  console.log(`     ${JSON.stringify(r)}; evaluations: ${log.slice(-3).map(([s, a]) => `step ${s}: ${(100 * a).toFixed(1)}%`).join(', ')}`);
  assert(!r.error, `train(): ${r.error}`);
  assert(r.steps <= STEP_BUDGET && r.accuracy >= 0.99, `${(100 * r.accuracy).toFixed(1)}% on 1,000 held-out examples after ${r.steps} steps (the README: 99% within ${STEP_BUDGET})`);
  assert(log.some(([s, a]) => s === r.steps && a >= 0.99), 'the run stopped without an evaluation at 99%');
});

// Pause and resume like a person, on a run that cannot end before the pause: the panel's
// largest step count at a size that takes seconds to do it (the pause is clicked once the
// status shows a step; a finished run would be named in the assertion, not pass as paused).
await check('training in the page: set up like a person, pause and resume, the page stays usable', async () => {
  if (!(await page.evaluate(() => document.getElementById('train-box').open))) await page.click('#train-box > summary');
  await page.selectOption('#t-task', 'brackets');
  // A size beyond the panel's limits is refused with a message naming the field.
  await page.fill('#t-d_model', '1000');
  await page.click('#t-start');
  await page.waitForFunction(() => /d_model must be a number from 8 to 64/.test(document.getElementById('t-status').textContent));
  for (const [k, v] of [['d_model', 16], ['num_heads', 2], ['d_ff', 32], ['num_layers', 2], ['steps', 5000], ['batch', 16], ['lr', 0.005], ['seed', 1]])
    await page.fill(`#t-${k}`, String(v));
  await page.click('#t-start');
  await page.waitForFunction(() => /step \d+/.test(document.getElementById('t-status').textContent));
  // A second run while one goes is refused clearly.
  const second = await api(() => window.encoderWalkthrough.train({ task: 'brackets', steps: 10 }).then(() => 'resolved', (e) => e.message));
  assert(/already going/.test(second), `a second train(): ${second}`);
  // Pause: the step count stops; resume: it goes on.
  await page.click('#t-pause');
  // The Worker finishes its chunk (~0.1 s) before it pauses; then the status says so, and stays.
  await page.waitForFunction(() => /paused|^Done at step/.test(document.getElementById('t-status').textContent));
  const s1 = await page.textContent('#t-status');
  assert(!/^Done at step/.test(s1), `the run ended before the pause was clicked: "${s1}"`);
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
  const steps = (s) => Number((s.match(/step ([\d,]+)/) || [])[1]?.replace(/,/g, ''));
  await page.waitForFunction((n) => { const m = document.getElementById('t-status').textContent.match(/step ([\d,]+)/); return m && Number(m[1].replace(/,/g, '')) > n; }, steps(s2));
  await shot('training');
  await page.waitForFunction(() => /^Done at step/.test(document.getElementById('t-status').textContent), null, { timeout: 300000 });
  const status = await page.textContent('#t-status');
  console.log(`     ${status}`);
  const acc = Number(status.match(/held-out accuracy ([0-9.]+)%/)[1]) / 100;
  assert(acc >= 0.9, `held-out accuracy ${acc} after 5,000 steps (chance is 0.5)`);
  const st = await getState();
  assert(st.preset === 'your-weights', `the walked model is ${st.preset}`);
  const prov = await api(() => { window.encoderWalkthrough.goTo('cls.probs'); return document.getElementById('provenance').textContent; });
  assert(/trained in this page: task brackets, 5,?000 steps/.test(prov), `provenance "${prov}"`);
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

await check('weights whose numbers overflow: the page names the step the CLI names, and keeps the last trace', async () => {
  // The trained classifier's file with W_q and W_k of every layer at 1e20: each is a finite
  // float32, their products are not.
  const good = readFileSync(path.join(tmp, 'trained.safetensors'));
  const huge = Buffer.from(good);
  const n = Number(huge.readBigUInt64LE(0));
  const header = JSON.parse(huge.subarray(8, 8 + n).toString('utf8'));
  const scaled = Object.keys(header).filter((k) => /W_[qk]$/.test(k));
  assert(scaled.length >= 2 && scaled.every((k) => header[k].dtype === 'F32'), `tensors ${Object.keys(header)}`);
  for (const k of scaled)
    for (let o = header[k].data_offsets[0]; o < header[k].data_offsets[1]; o += 4) huge.writeFloatLE(1e20, 8 + n + o);
  const file = path.join(tmp, 'huge.safetensors');
  writeFileSync(file, huge);
  const spec = path.join(tmp, 'huge.json');
  const st = await getState();
  writeFileSync(spec, JSON.stringify({ weights: file, text: st.text }));
  let cliErr = '';
  try {
    execFileSync(cli, ['--model', spec], { encoding: 'utf8', stdio: ['ignore', 'ignore', 'pipe'] });
  } catch (e) {
    cliErr = String(e.stderr);
    assert(e.status === 1, `the CLI exited ${e.status}`);
  }
  const step = (cliErr.match(/overflow: step (\S+) \(/) || [])[1];
  assert(step, `the CLI's message: "${cliErr}"`);
  const before = await getTrace();
  const err = await api((bytes) => window.encoderWalkthrough.loadWeights(new Uint8Array(bytes).buffer).then(() => 'resolved', (e) => e.message), Array.from(huge));
  assert(err.includes(`Overflow: step ${step} (`) && /from finite inputs/.test(err), `loadWeights: "${err}" (the CLI: "${cliErr.trim()}")`);
  await page.waitForFunction(() => !document.getElementById('msg').hidden);
  const msg = await page.textContent('#msg');
  assert(msg.includes(`Overflow: step ${step} (`), `the page's message: "${msg}"`);
  const after = await getTrace();
  assert(after.steps.length === before.steps.length && after.steps.every((s, i) => s.id === before.steps[i].id && s.data.every((v, k) => Object.is(v, before.steps[i].data[k]))),
    'the trace on screen changed');
  await noNaN();
  await page.$eval('#msg', (m) => m.scrollIntoView());
  await shot('overflow', false);
  await api(() => window.encoderWalkthrough.setState({ preset: 'trained-brackets' }));  // a good model again
});

await check('stopTraining() stops a run early; train() resolves with {steps, loss, accuracy, ms}', async () => {
  // The panel's largest run at its largest size: minutes of steps, so the stop always comes first.
  const p = api(() => window.encoderWalkthrough.train({ task: 'number-words', steps: 5000, d_model: 64, num_heads: 4, d_ff: 256,
    num_layers: 2, decoder_layers: 2, batch: 128 }, null).then((r) => r, (e) => ({ error: e.message })));
  await page.waitForFunction(() => /step \d+/.test(document.getElementById('t-status').textContent));
  assert(await api(() => window.encoderWalkthrough.stopTraining()), 'stopTraining() while training');
  const r = await p;
  assert(!r.error && r.steps > 0 && r.steps < 5000 && Number.isFinite(r.loss) && r.accuracy >= 0 && r.ms > 0, `train() → ${JSON.stringify(r)}`);
  const bad = await api(() => window.encoderWalkthrough.train({ steps: -3 }).then(() => 'resolved', (e) => e.message));
  assert(/steps must be a number from 10 to 5000/.test(bad), `train({steps: -3}): ${bad}`);
});

await check('no console errors, page errors, CSP violations or requests outside the site', async () => {
  assert(!problems.length, problems.join('\n'));
});

console.log(`trained: gradients vs native: worst difference ${gradWorst.toExponential(2)} of the scale beyond 1e-5 relative, at ${gradWorstAt} (allowed ${GRAD_SCALE})`);
const { passed, failed } = results();
console.log(`trained: ${passed} passed, ${failed} failed${trainedResult ? ` (in-page training: ${(100 * trainedResult.acc).toFixed(1)}% at step ${trainedResult.steps}, ${(trainedResult.ms / 1000).toFixed(1)} s wall)` : ''}`);
await browser.close();
server.close();
rmSync(tmp, { recursive: true, force: true });
process.exit(failed ? 1 : 0);
