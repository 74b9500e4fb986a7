#!/usr/bin/env node
// labels.mjs — the browser suite for issue 11's labels, presets and honest tokenization, in
// English and German (lang=de), driving the built page in headless Chromium:
//   - the decoder-input step is titled "Decoder input…", also where the decoder's Q/K/V and
//     first residual list what they are computed from;
//   - the padding preset opens on the padded sentence, and every batch row's column headers
//     and explanations name that sentence's own tokens;
//   - every preset opens on the step it reproduces (from the select, a preset= link, the JS
//     API), and a link's own step= wins;
//   - "I ❤️ 🤖 transformers": the skipped characters are marked in the sentence, with the reason;
//   - BPE says what its merges were learned on (this sentence; the model file's corpus; the
//     masked-word model's training corpus);
//   - a config error is shown from the catalog, with no "config." prefix;
//   - no ⟦missing key⟧ on the page. Screenshots go to artifacts/labels-*.png.
//
//   node tests/browser/labels.mjs [--dist dist] [--node-module build/wasm/node/encoder_walkthrough_node.js]
//                                 [--chromium /usr/bin/chromium] [--artifacts artifacts]
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import process from 'node:process';
import { chromium } from 'playwright-core';
import { startServer } from '../../scripts/serve.mjs';
import { root, arg, launchChromium, loadWasmModule, checks, assert, requireFiles } from '../harness.mjs';

const dist = path.resolve(root, arg('--dist', 'dist'));
const nodeModule = path.resolve(root, arg('--node-module', 'build/wasm/node/encoder_walkthrough_node.js'));
const exe = arg('--chromium', process.env.CHROMIUM || '/usr/bin/chromium');
const artifacts = path.resolve(root, arg('--artifacts', 'artifacts'));
requireFiles('labels', [['built site', path.join(dist, 'index.html')], ['Node module', nodeModule], ['Chromium', exe]]);
mkdirSync(artifacts, { recursive: true });

const { check, results } = checks(8);
// The presets as the core exports them (name, model, title).
const M = await loadWasmModule(nodeModule);
const PRESETS = JSON.parse(M.presetsJson());
// The step each preset opens on, and why: what its tutorial prints (../shared/seeds/), kept
// here rather than read from the preset list under test, so a preset that loses or changes
// its step fails. `batch`: the sentence shown (0 = the first). A preset the core adds must be
// added here (the check fails on a preset missing from this table, and on a stale row).
const OPENS_ON = {
  'default': { step: null, why: 'the page’s own default: no tutorial step (the page opens on its first step)' },
  'seed000-d300': { step: 'layer0.head0.weights', why: 'the notebook’s d = 300 encoder prints its attention weights' },
  'seed000-softmax': { step: 'layer0.head0.weights', why: 'its printed scaled scores through softmax: the printed normalized attention' },
  'seed001-attention-3x3': { step: 'layer0.head0.weights', why: 'the worked example’s softmax of the raw dot products (row 0: 0.468, 0.063, 0.468)' },
  'seed001-despite': { step: 'layer0.head0.scores', why: 'the raw scores of “Despite” with “the”, “heavy” and itself (0.684, 1.4976, 1.6848)' },
  'seed001-bpe': { step: 'token_ids', why: 'the five merges and the subwords of the sentence' },
  'seed002-causal': { step: 'layer0.head0.weights', why: 'the causal-masked softmax weights of “I love you so much”' },
  'seed003-y2': { step: 'layer0.head0.context', why: 'row 2 of the weighted sum is the notebook’s y₂' },
  'seed004-bert': { step: 'layer0.head0.scaled', why: 'each head scales its 5×5 scores by √2' },
  'trained-number-words': { step: 'decoder0.cross.head0.weights', why: 'the cross-attention alignment of a held-out number' },
  'trained-dates': { step: 'decoder0.cross.head0.weights', why: 'the crossing cross-attention alignment of a held-out date' },
  'trained-brackets': { step: 'cls.probs', why: 'the classifier’s verdict on a held-out hard negative' },
  'trained-masked-words': { step: 'mlm.probs', why: 'the fills of the [MASK] in a held-out sentence' },
  'padding-batch': { step: 'layer0.head0.scaled', batch: 1, why: 'the padded second sentence, where the mask’s −∞ shows' },
};

const { server, url: base } = await startServer(dist, 0);
const browser = await launchChromium(chromium, exe);
const problems = [];
async function newPage(viewport = { width: 1400, height: 1000 }) {
  const page = await browser.newPage({ viewport });
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  return page;
}
const api = (page, fn, ...args) => page.evaluate(fn, ...args);
async function open(page, query = '') {
  await page.goto(base + 'index.html' + query);
  await page.waitForFunction(() => window.encoderWalkthrough, null, { timeout: 30000 });
  await page.evaluate(() => window.encoderWalkthrough.ready);
  await page.waitForSelector('#view .result', { timeout: 30000 });
}
const text = (page, sel) => page.textContent(sel);
const stepId = (page) => api(page, () => window.encoderWalkthrough.getState().step);
async function noMissingKeys(page, what) {
  const body = await page.evaluate(() => document.body.innerText + [...document.querySelectorAll('[title],[aria-label]')]
    .map((e) => (e.getAttribute('title') || '') + (e.getAttribute('aria-label') || '')).join(' '));
  const m = /⟦[^⟧]*⟧/.exec(body);
  assert(!m, `${what}: a message is missing from the catalog: ${m && m[0]}`);
}
async function goTo(page, id) {
  await api(page, (x) => window.encoderWalkthrough.goTo(x), id);
  await page.waitForFunction((x) => window.encoderWalkthrough.getState().step === x, id, { timeout: 10000 });
  await page.waitForSelector('#view .result');
}
async function shot(page, name) {
  await page.screenshot({ path: path.join(artifacts, `labels-${name}.png`) });
}

const page = await newPage();

// ---- 1. the decoder input is titled as such, also where it is an input -----------------------
await check('decoder input: its title, and "computed from" of the decoder Q/K/V and first residual', async () => {
  await open(page, '?lang=en&preset=default');
  await goTo(page, 'decoder_input');
  const title = await text(page, '#step-title');
  assert(/Decoder input/.test(title) && !/Encoder input/.test(title), `decoder_input titled "${title}"`);
  for (const id of ['decoder0.self.q', 'decoder0.self.k', 'decoder0.self.v', 'decoder0.residual1']) {
    await goTo(page, id);
    const from = await text(page, '#view .inputs-col');
    assert(/Decoder input/.test(from) && !/Encoder input/.test(from), `${id} computed from: "${from.slice(0, 200)}"`);
  }
  await shot(page, 'decoder-input-from');
  await noMissingKeys(page, 'decoder steps');
});

// ---- 2. the padding preset: opens on sentence 2; every row's columns are its own tokens -------
async function columnHeads(page) {
  return page.$$eval('#view .result th.col-h', (x) => x.map((e) => [Number(e.dataset.c), e.textContent]));
}
await check('padding preset: opens on the padded sentence; each batch row labels its columns with its own tokens', async () => {
  const want = OPENS_ON['padding-batch'];
  await open(page, '?preset=padding-batch');
  assert((await stepId(page)) === want.step, `opened on ${await stepId(page)}, not ${want.step}`);
  const label = await page.getAttribute('#view .result table.grid', 'aria-label');
  assert(label.includes(`sentence ${want.batch + 1}`), `the first table shows "${label}", not sentence ${want.batch + 1}`);
  const tr = await api(page, () => window.encoderWalkthrough.getTrace().text.source_tokens);
  const padded = (b) => [...tr[b], ...Array(Math.max(...tr.map((t) => t.length)) - tr[b].length).fill('<pad>')];
  await shot(page, 'padding-open');
  for (const id of ['layer0.head0.weights', 'layer0.head1.scaled', 'attention_mask']) {
    await goTo(page, id);
    for (const b of [0, 1]) {
      await page.click(`#view .result .batch-switch button:nth-child(${b + 1})`);
      const heads = await columnHeads(page);
      const want = padded(b);
      assert(heads.length >= 4 && heads.every(([c, h]) => h === want[c]), `${id} sentence ${b + 1}: column heads ${heads} vs ${want}`);
      // Point at cells of every row: the explanation names this sentence's key word.
      // Rows 0, 1, 5 and 7 (the last two are padding in sentence 2), first and last column shown.
      for (const [r, k] of [[0, 1], [1, 0], [5, 1], [7, -1]]) {
        const row = page.locator('#view .result table.grid tbody tr:not(.gap-row)').nth(r).locator('td.cell');
        await (k < 0 ? row.last() : row.nth(k)).hover();
        const where = await text(page, '#view .explain-head');
        const m = /column (\d+) “([^”]*)”/.exec(where);
        assert(m, `${id}: no column label in "${where}"`);
        assert(m[2] === want[Number(m[1])] && where.includes(`sentence ${b + 1}`), `${id} sentence ${b + 1}: "${where}" (column ${m[1]} is “${want[Number(m[1])]}”)`);
      }
    }
  }
  await shot(page, 'padding-sentence2');
});

// ---- 3. every preset opens on its step -------------------------------------------------------
await check('every preset opens on the step it reproduces: the select, a preset= link, the JS API; a link\'s step= wins', async () => {
  const names = PRESETS.map((p) => p.name);
  const untabled = names.filter((n) => !OPENS_ON[n]), stale = Object.keys(OPENS_ON).filter((n) => !names.includes(n));
  assert(!untabled.length && !stale.length, `presets without an expected opening step here: ${untabled.join(', ') || '-'}; rows for no preset: ${stale.join(', ') || '-'}`);
  await open(page);
  const withStep = Object.entries(OPENS_ON).filter(([, w]) => w.step);
  for (const [name, w] of withStep) {
    await page.selectOption('#preset', name);
    await page.waitForFunction((x) => window.encoderWalkthrough.getState().preset === x.name && document.getElementById('step-title').textContent.length > 0,
      { name }, { timeout: 60000 }).catch(() => {});
    await page.waitForFunction((x) => window.encoderWalkthrough.getState().preset === x.name && window.encoderWalkthrough.getState().step === x.step,
      { name, step: w.step }, { timeout: 30000 }).catch(() => {});
    const st = await api(page, () => window.encoderWalkthrough.getState());
    assert(st.preset === name && st.step === w.step, `${name}: opened on ${st.step}, expected ${w.step} (${w.why})`);
    // The step on screen (its number in the counter and the document title), not only the state.
    const n = await api(page, async (id) => (await window.encoderWalkthrough.getTrace()).steps.findIndex((s) => s.id === id) + 1, w.step);
    const shown = await page.evaluate(() => document.title);
    assert(n > 0 && shown.startsWith(`${n}. `), `${name}: the page shows "${shown}", expected step ${n} (${w.step})`);
  }
  await open(page, '?preset=seed001-attention-3x3');
  assert((await stepId(page)) === 'layer0.head0.weights', `preset= link opened on ${await stepId(page)}`);
  const w = await api(page, async () => (await window.encoderWalkthrough.getTrace()).steps.find((s) => s.id === 'layer0.head0.weights').data);
  // The first row of the weights as the tutorial prints them.
  const printed = [0.46831053, 0.06337894, 0.46831053];
  assert(printed.every((x, j) => Math.abs(w[j] - x) < 1e-6), `row 0 of the weights ${Array.from(w).slice(0, 3)}`);
  await shot(page, 'preset-3x3');
  await open(page, '?preset=seed001-attention-3x3&step=layer0.head0.scores');
  assert((await stepId(page)) === 'layer0.head0.scores', `a link's own step lost: ${await stepId(page)}`);
  await api(page, () => window.encoderWalkthrough.setState({ preset: 'seed003-y2' }));
  await page.waitForFunction(() => window.encoderWalkthrough.getState().step === 'layer0.head0.context', null, { timeout: 30000 });
});

// ---- 4. honest tokenization: what the regex skipped ------------------------------------------
async function skipped(page) {
  return page.$$eval('#view mark.skipped', (x) => x.map((e) => e.textContent));
}
await check('"I ❤️ 🤖 transformers": the skipped characters are marked in the sentence, with the reason (en, de)', async () => {
  for (const [lang, reason] of [['en', /neither pattern of the regex matches/], ['de', /keines der beiden Muster/]]) {
    await open(page, `?lang=${lang}&text=${encodeURIComponent('I ❤️ 🤖 transformers')}&tokenizer=regex&step=token_ids`);
    const marks = await skipped(page);
    assert(JSON.stringify(marks) === JSON.stringify(['❤️', '🤖']), `${lang}: marked ${JSON.stringify(marks)}`);
    const src = await text(page, '#view .token-source');
    assert(src === 'I ❤️ 🤖 transformers', `${lang}: the sentence shown is "${src}"`);
    const why = await text(page, '#view .skip-reason');
    assert(reason.test(why) && why.includes('\\b\\w+\\b') && why.includes('[.,!?;]'), `${lang}: reason "${why}"`);
    const chips = await page.$$eval('#view .token-chips .chip-tok', (x) => x.map((e) => e.textContent));
    assert(JSON.stringify(chips) === '["I","transformers"]', `${lang}: tokens ${chips}`);
    await noMissingKeys(page, `skipped (${lang})`);
    await shot(page, `skipped-${lang}`);
  }
  await open(page, `?text=${encodeURIComponent('hello, world.')}&step=token_ids`);
  assert((await skipped(page)).length === 0, 'a sentence with nothing skipped marks something');
  assert(/Every character other than white space/.test(await text(page, '#view .skip-reason')), 'no "nothing skipped" note');
});

// ---- 5. BPE: what the merges were learned on -------------------------------------------------
await check('BPE says what its merges were learned on: this sentence, the model file\'s corpus, the model\'s training (en, de)', async () => {
  const zh = '我爱自然语言处理';
  await open(page, `?text=${encodeURIComponent(zh)}&tokenizer=bpe&bpe_merges=10&step=token_ids`);
  const chips = await page.$$eval('#view .token-chips .chip-tok', (x) => x.map((e) => e.textContent));
  assert(chips.length === 1 && chips[0] === zh + '</w>', `the sentence's one word after 10 merges: ${chips}`);
  let note = await text(page, '#view .bpe-learned-on');
  assert(/learned on this sentence alone \(1 word\)/.test(note) && note.includes(zh), `sentence note "${note}"`);
  await shot(page, 'bpe-sentence');
  await open(page, '?preset=seed001-bpe');
  note = await text(page, '#view .bpe-learned-on');
  assert(/5 merges were learned on the model file’s own corpus \(4 words\)/.test(note), `corpus note "${note}"`);
  await open(page, '?preset=trained-masked-words&step=token_ids');
  note = await text(page, '#view .bpe-learned-on');
  assert(/2000 merges were learned when the model was trained/.test(note) && /State of the Union/.test(note), `model note "${note}"`);
  await open(page, '?lang=de&preset=trained-masked-words&step=token_ids');
  note = await text(page, '#view .bpe-learned-on');
  assert(/2000 Merges wurden beim Training/.test(note) && /State of the Union/.test(note), `German model note "${note}"`);
  await noMissingKeys(page, 'bpe (de)');
  await shot(page, 'bpe-model-de');
});

// ---- 6. errors from the catalog, without internal prefixes -----------------------------------
await check('a config error is shown from the catalog, with no "config." prefix (en, de)', async () => {
  for (const [lang, want] of [['en', 'The number of heads (3) must divide d_model (10)'], ['de', 'Die Anzahl der Köpfe (3) muss d_model (10) teilen']]) {
    await open(page, `?lang=${lang}`);
    await api(page, () => window.encoderWalkthrough.setState({ d_model: 10, num_heads: 3 }).catch(() => {}));
    await page.waitForSelector('#msg:not([hidden])', { timeout: 30000 });
    const msg = await text(page, '#msg');
    assert(msg.includes(want) && !msg.includes('config.'), `${lang}: error "${msg}"`);
    await api(page, () => window.encoderWalkthrough.setState({ d_model: 8, d_ff: 0 }).catch(() => {}));
    await page.waitForFunction(() => /d_ff/.test(document.getElementById('msg').textContent), null, { timeout: 30000 });
    const range = await text(page, '#msg');
    assert(!range.includes('config.') && range.includes('16384'), `${lang}: range error "${range}"`);
    await noMissingKeys(page, `error (${lang})`);
    await shot(page, `error-${lang}`);
  }
});

// ---- 7. preset titles from the catalog -------------------------------------------------------
await check('preset titles: the English catalog says what the core says; German from its catalog; tutorials by title', async () => {
  await open(page, '?lang=en');
  const en = await page.$$eval('#preset option', (x) => x.map((e) => [e.value, e.textContent]));
  for (const p of PRESETS) {
    const o = en.find(([v]) => v === p.name);
    assert(o && o[1] === p.title, `${p.name}: English title "${o && o[1]}" vs the core's "${p.title}"`);
    assert(!/seed 00\d/i.test(p.title + p.description), `${p.name} still says "seed 00N"`);
  }
  await open(page, '?lang=de');
  const de = await page.$$eval('#preset option', (x) => x.map((e) => [e.value, e.textContent]));
  const pad = de.find(([v]) => v === 'padding-batch');
  assert(pad && pad[1] === 'Zwei Sätze: die Padding-Maske', `German padding title "${pad && pad[1]}"`);
  const same = de.filter(([v, t]) => v && v !== 'default' && t === (en.find(([w]) => w === v) || [])[1]);
  assert(same.length === 0, `German titles left in English: ${same.map(([v]) => v)}`);
});

// ---- 8. phone width ---------------------------------------------------------------------------
await check('phone width: the skipped characters and the padding preset at 390×844', async () => {
  const phone = await newPage({ width: 390, height: 844 });
  await open(phone, `?text=${encodeURIComponent('I ❤️ 🤖 transformers')}&step=token_ids`);
  assert((await skipped(phone)).length === 2, 'skipped marks at phone width');
  await shot(phone, 'skipped-phone');
  await open(phone, '?preset=padding-batch');
  await shot(phone, 'padding-phone');
  await phone.close();
});

await browser.close();
server.close();
const { passed, failed } = results();
if (problems.length) console.log(`labels: page errors:\n  ${problems.join('\n  ')}`);
console.log(`labels: ${passed} passed, ${failed} failed`);
process.exit(failed || problems.length ? 1 : 0);
