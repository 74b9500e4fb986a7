#!/usr/bin/env node
// decoders.mjs — the modern decoders (Llama, Qwen2, Qwen3, Gemma 3; issue 30 items 2 and 5) in the
// built page, against the native CLI. Random checkpoints of each family as Hugging Face saves them
// (tests/reference/decoder_checkpoints.py: grouped K/V heads, head_dim ≠ d/H, q/k norms, biases,
// untied heads, Gemma's √d scale, (1 + γ), sliding window, two shards with an index) are served
// beside dist/ and opened by ?model=URL (the sharded one also by the file picker); every step of
// getTrace() must equal `CLI --checkpoint DIR --text … --json` to TOL × the step's largest |value|.
// Every step of a Gemma and a Qwen3 model is walked in English and German: its title, note and
// formula must hold no raw catalog key (⟦…⟧), no raw byte-level or SentencePiece piece (Ġ, ▁), no
// NaN, and the console no i18n miss or error (a planted missing title, served by a rewritten
// catalog, must be reported: run every time). The map must draw RMSNorm, RoPE with grouped K/V
// heads, the gated feed-forward network and Gemma's sliding layers; the head picker says which K/V
// head each query head reads. Bad checkpoints (a missing shard, an unknown model_type, a refused
// rope_scaling) show the core's own message (the CLI's). Screenshots at 1280 and 390 px, English
// and German, go to artifacts/decoders-*.png.
// The chat-template switch (issue 30; page/chat.js): the sharded Qwen2 case given SmolLM2-Instruct's
// ChatML template and <|im_start|>/<|im_end|> as special added tokens (ids in its padded rows):
// chat=1 wraps the text — the prompt shown is the template's, the trace equals the CLI's on that
// prompt, the special tokens are marked chips with their ids, generation runs on it as the CLI's;
// a template that does not parse and one that raises turn the switch off with the catalog's
// message (English and German) and the page goes on with the text as typed.
//
//   node tests/browser/decoders.mjs [--cli build/native-release/encoder-walkthrough] [--dist dist]
//                                   [--chromium /usr/bin/chromium] [--artifacts artifacts] [--only TEXT]
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, cpSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import process from 'node:process';
import { chromium } from 'playwright-core';
import { startServer } from '../../scripts/serve.mjs';
import { root, arg, launchChromium, checks, assert, requireFiles, serverOptions } from '../harness.mjs';

const TOL = 1e-5; // relative to each step's largest |value|, as checkpoints.mjs
const cli = path.resolve(root, arg('--cli', 'build/native-release/encoder-walkthrough'));
const dist = path.resolve(root, arg('--dist', 'dist'));
const exe = arg('--chromium', process.env.CHROMIUM || '/usr/bin/chromium');
const artifacts = path.resolve(root, arg('--artifacts', 'artifacts'));
requireFiles('decoders', [['built site', path.join(dist, 'index.html')], ['CLI', cli], ['Chromium', exe]]);
mkdirSync(artifacts, { recursive: true });

const ck = path.join(root, 'build', 'dec-test');
rmSync(ck, { recursive: true, force: true });
execFileSync('/usr/bin/python3', [path.join(root, 'tests/reference/decoder_checkpoints.py'), ck], { stdio: 'ignore' });
const site = path.join(root, 'build', 'dec-site');
rmSync(site, { recursive: true, force: true });
mkdirSync(site, { recursive: true });
for (const e of readdirSync(dist)) symlinkSync(path.join(dist, e), path.join(site, e));
symlinkSync(ck, path.join(site, 'ck'));

// SmolLM2-135M-Instruct's chat_template (its tokenizer_config.json), and two bad ones.
const CHATML = "{% for message in messages %}{% if loop.first and messages[0]['role'] != 'system' %}{{ '<|im_start|>system\\nYou are a helpful AI assistant named SmolLM, trained by Hugging Face<|im_end|>\\n' }}{% endif %}{{'<|im_start|>' + message['role'] + '\\n' + message['content'] + '<|im_end|>' + '\\n'}}{% endfor %}{% if add_generation_prompt %}{{ '<|im_start|>assistant\\n' }}{% endif %}";
const CHAT_CASES = { 'chat-qwen2': CHATML, 'chat-broken': '{% for m in messages %}{{ m.content }', 'chat-raises': "{{ raise_exception('Conversation roles must alternate user/assistant/user/assistant/...') }}" };
for (const [name, template] of Object.entries(CHAT_CASES)) {
  const dir = path.join(ck, name);
  cpSync(path.join(ck, 'qwen2-sharded-f32'), dir, { recursive: true });
  const tok = JSON.parse(readFileSync(path.join(dir, 'tokenizer.json'), 'utf8'));
  const free = Object.keys(tok.model.vocab).length;  // 292, 293: rows of the padded embedding (vocab_size 298)
  for (const [k, content] of ['<|im_start|>', '<|im_end|>'].entries())
    tok.added_tokens.push({ id: free + k, content, single_word: false, lstrip: false, rstrip: false, normalized: false, special: true });
  writeFileSync(path.join(dir, 'tokenizer.json'), JSON.stringify(tok));
  const added = Object.fromEntries(tok.added_tokens.map((a) => [String(a.id), { content: a.content, special: true }]));
  writeFileSync(path.join(dir, 'tokenizer_config.json'), JSON.stringify({ added_tokens_decoder: added, bos_token: null, eos_token: '<|im_end|>', pad_token: '<|im_end|>', chat_template: template, model_max_length: 128 }));
}

const TEXT = 'the cat sat on the mat and the dog ran';

// A Llama big enough that its 32 rounds take long enough to watch (≈ 10 M parameters, 6 layers,
// 6 query heads sharing 2 K/V heads of 64): random F32 weights written here (a seeded uniform
// stream), with the tokenizer and rotary settings of llama-llama3-f32. Streaming is proved on it.
function writeStreamLlama(dir) {
  const from = path.join(ck, 'llama-llama3-f32');
  mkdirSync(dir, { recursive: true });
  for (const f of ['tokenizer.json', 'tokenizer_config.json']) copyFileSync(path.join(from, f), path.join(dir, f));
  const cfg = JSON.parse(readFileSync(path.join(from, 'config.json'), 'utf8'));
  Object.assign(cfg, { hidden_size: 384, num_attention_heads: 6, num_key_value_heads: 2, head_dim: 64, num_hidden_layers: 6, intermediate_size: 1024 });
  writeFileSync(path.join(dir, 'config.json'), JSON.stringify(cfg, null, 2));
  const d = cfg.hidden_size, q = cfg.num_attention_heads * cfg.head_dim, kv = cfg.num_key_value_heads * cfg.head_dim, ff = cfg.intermediate_size;
  const tensors = [['model.embed_tokens.weight', [cfg.vocab_size, d]], ['model.norm.weight', [d]]];
  for (let i = 0; i < cfg.num_hidden_layers; i++) {
    const p = `model.layers.${i}.`;
    tensors.push([p + 'input_layernorm.weight', [d]], [p + 'self_attn.q_proj.weight', [q, d]], [p + 'self_attn.k_proj.weight', [kv, d]],
      [p + 'self_attn.v_proj.weight', [kv, d]], [p + 'self_attn.o_proj.weight', [d, q]], [p + 'post_attention_layernorm.weight', [d]],
      [p + 'mlp.gate_proj.weight', [ff, d]], [p + 'mlp.up_proj.weight', [ff, d]], [p + 'mlp.down_proj.weight', [d, ff]]);
  }
  let seed = 20261128;
  const uniform = () => {  // mulberry32
    seed = (seed + 0x6d2b79f5) | 0;
    let x = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
  const header = {}, parts = [];
  let off = 0;
  for (const [name, shape] of tensors) {
    const n = shape.reduce((a, b) => a * b, 1), a = new Float32Array(n);
    const norm = shape.length === 1, scale = 1.7 / Math.sqrt(shape[1] || 1);
    for (let i = 0; i < n; i++) a[i] = norm ? 1 : (2 * uniform() - 1) * scale;
    header[name] = { dtype: 'F32', shape, data_offsets: [off, off + 4 * n] };
    parts.push(Buffer.from(a.buffer));
    off += 4 * n;
  }
  let h = JSON.stringify(header);
  h += ' '.repeat((8 - (h.length % 8)) % 8);
  const len = Buffer.alloc(8);
  len.writeBigUInt64LE(BigInt(h.length));
  writeFileSync(path.join(dir, 'model.safetensors'), Buffer.concat([len, Buffer.from(h), ...parts]));
}
const STREAM = 'llama-stream-f32';
writeStreamLlama(path.join(ck, STREAM));
const CASES = ['llama-llama3-f32', 'qwen2-sharded-f32', 'qwen3-qknorm-untied-bf16', 'gemma3-layertypes-f32', 'gemma3-bare-f16', 'llama-bare-mqa-f16', 'gemma3-v5-pattern-bf16'];
const cliDoc = (dir) => JSON.parse(execFileSync(cli, ['--checkpoint', path.join(ck, dir), '--text', TEXT, '--json'], { maxBuffer: 1 << 30 }).toString());

// Every step of the page's trace against the CLI's document; returns the problems.
function compare(what, trace, doc) {
  const bad = [];
  const ids = trace.steps.map((s) => s.id), want = doc.steps.map((s) => s.id);
  if (ids.join() !== want.join()) return [`${what}: step ids differ: page ${ids.length} [${ids.slice(0, 6)}…], CLI ${want.length}`];
  doc.steps.forEach((w, k) => {
    const s = trace.steps[k];
    if (s.shape.join() !== w.shape.join()) return bad.push(`${what}: ${w.id} shape ${s.shape} vs ${w.shape}`);
    const data = w.data.flat(Infinity);
    const scale = data.reduce((m, v) => (v === null ? m : Math.max(m, Math.abs(v))), 1e-30);
    for (let i = 0; i < data.length; i++) {
      const a = s.data[i], b = data[i];
      if (b === null ? a !== -Infinity : !(Math.abs(a - b) <= TOL * scale)) {
        bad.push(`${what}: ${w.id}[${i}] page ${a}, CLI ${b} (scale ${scale.toExponential(2)})`);
        break;
      }
    }
  });
  return bad;
}

const { server, url: base } = await startServer(site, 0, '127.0.0.1', serverOptions);
const browser = await launchChromium(chromium, exe);
const problems = [];
const { check: checkAll, results } = checks(8);
// --plant-batched-stream (a must-fail run, in the test command): the served Worker holds every
// generation round back and posts them all after the run, before its result (the page then gets
// each round in order, only not while it is computed); only the streaming check runs, and it must fail.
const PLANT = process.argv.includes('--plant-batched-stream');
let planted = 0;
const only = PLANT ? 'generation streams token by token' : arg('--only', '');
const check = (name, fn) => (name.includes(only) ? checkAll(name, fn) : Promise.resolve());
async function newPage(viewport = { width: 1280, height: 900 }) {
  const page = await browser.newPage({ viewport });
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  page.on('console', (m) => { if (m.type() === 'error') problems.push(`console error: ${m.text()}`); });
  return page;
}
async function open(page, query = '') {
  await page.goto(base + 'index.html' + query);
  await page.waitForFunction(() => window.encoderWalkthrough, null, { timeout: 30000 });
  await page.evaluate(() => window.encoderWalkthrough.ready);
}
const isCheckpoint = (page) => page.evaluate(() => window.encoderWalkthrough.getState().preset === 'checkpoint');
// The page's trace, each step's float32 values as base64.
async function trace(page) {
  const t = await page.evaluate(async () => {
    const tr = await window.encoderWalkthrough.getTrace();
    const b64 = (f) => {
      const u = new Uint8Array(f.buffer, f.byteOffset, f.byteLength);
      let bin = '';
      for (let i = 0; i < u.length; i += 0x8000) bin += String.fromCharCode.apply(null, u.subarray(i, i + 0x8000));
      return btoa(bin);
    };
    return { steps: tr.steps.map((s) => ({ id: s.id, shape: s.shape, data: b64(s.data) })) };
  });
  for (const s of t.steps) {
    const b = Buffer.from(s.data, 'base64');
    s.data = new Float32Array(b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength));
  }
  return t;
}
// What a reader sees of the step card and the map: no raw key, piece or NaN (the problems, by element).
const DIRT_IDS = ['step-title', 'note', 'map', 'step-meta'];
async function dirt(page) {
  return dirtOf(await page.evaluate((ids) => ids.map((id) => [id, document.getElementById(id)?.innerText || '']), DIRT_IDS));
}
function dirtOf(texts) {
  const out = [];
  for (const [id, text] of texts)
    for (const [re, why] of [[/⟦[^⟧]*⟧/, 'a raw catalog key'], [/[Ġ▁]/, 'a raw Ġ/▁ piece'], [/\bNaN\b|\bundefined\b/, 'NaN or undefined']])
      if (re.test(text)) out.push(`#${id}: ${why}: …${text.slice(Math.max(0, text.search(re) - 50), text.search(re) + 30)}…`);
  return out;
}
async function clean(page, what) {
  const bad = await dirt(page);
  assert(!bad.length, `${what}: ${bad.join('; ')}`);
}
const goTo = async (page, id) => {
  await page.evaluate((s) => window.encoderWalkthrough.setState({ step: s }), id);
  await page.waitForFunction((s) => document.querySelector('#step-meta .mono')?.textContent === s && document.getElementById('note'), id, { timeout: 15000 });
};

const docs = PLANT ? {} : Object.fromEntries(CASES.map((c) => [c, cliDoc(c)]));  // the plant runs one check: no CLI documents for the others
const page = await newPage();
const url = (dir, extra = '') => `?lang=en&model=${encodeURIComponent(`/ck/${dir}/`)}&text=${encodeURIComponent(TEXT)}${extra}`;

for (const c of CASES) {
  await check(`${c}: ?model=URL opens it; every step equals the CLI's`, async () => {
    await open(page, url(c));
    assert(await isCheckpoint(page), `not opened: ${await page.textContent('#notice')}`);
    const bad = compare(c, await trace(page), docs[c]);
    assert(!bad.length, bad.slice(0, 5).join('\n'));
    // The settings summary names the model as its config.json does: RMSNorm, the gated FFN of its
    // hidden_act, rotary positions with its θ (it said "ReLU" and "none positions" for every one).
    const cfg = JSON.parse(readFileSync(path.join(ck, c, 'config.json'), 'utf8'));
    const act = cfg.hidden_activation || cfg.hidden_act || (c.startsWith('gemma') ? 'gelu_pytorch_tanh' : 'silu');
    const theta = cfg.rope_theta ?? cfg.rope_parameters?.rope_theta ?? cfg.rope_parameters?.full_attention?.rope_theta;
    const [summary, hidden] = await page.evaluate(() => [document.getElementById('settings-summary').textContent,
      ['activation', 'positional'].map((k) => document.getElementById(`f-${k}`).closest('.setting').hidden)]);
    for (const want of ['RMSNorm', act === 'silu' ? 'SwiGLU' : 'GeGLU', 'rotary positions', ...(theta !== undefined ? [`θ = ${theta}`] : [])])
      assert(summary.includes(want), `settings summary "${summary}" lacks "${want}" (hidden_act ${act}, rope_theta ${theta})`);
    assert(!/ReLU|none positions/.test(summary), `settings summary "${summary}" names what the model is not`);
    assert(hidden.every(Boolean), `the form's activation and positions rows are shown for a rotary decoder: ${hidden}`);
    // The checkpoint line names the file's own precision (it said "16-bit files stay 16-bit" for a float32 file too).
    const info = await page.textContent('#ckpt-info'), dtype = c.match(/-(f32|bf16|f16)$/)[1];
    const wantInfo = dtype === 'f32' ? 'float32 as in the file' : `${dtype.toUpperCase()} matrices kept 16-bit`;
    assert(info.includes(wantInfo) && !(dtype === 'f32' && /16-bit/.test(info)), `the checkpoint line "${info}" does not say "${wantInfo}"`);
  });
}

await check('qwen2-sharded-f32: the file picker (index + two shards) opens it; equal to the CLI', async () => {
  await open(page, '?lang=en');
  await page.click('#checkpoint-box > summary');
  const dir = path.join(ck, 'qwen2-sharded-f32');
  await page.setInputFiles('#ckpt-files', readdirSync(dir).map((f) => path.join(dir, f)));
  await page.waitForFunction(() => window.encoderWalkthrough.getState().preset === 'checkpoint' && document.getElementById('ckpt-info').textContent, null, { timeout: 20000 });
  await page.evaluate((t) => window.encoderWalkthrough.setState({ text: t }), TEXT);
  const bad = compare('sharded by the picker', await trace(page), docs['qwen2-sharded-f32']);
  assert(!bad.length, bad.slice(0, 5).join('\n'));
});

// Every step titled, noted and drawn without a raw key or piece, in both languages; once more with
// the lab's lens and attribution on (their steps through the final RMSNorm: lens.layerN.final_norm,
// attr.scale — the lens's RMSNorm step had no title in either language until this walk).
const LAB_ARGS = ['--lens', '--attribute'];
const labDoc = (c) => JSON.parse(execFileSync(cli, ['--checkpoint', path.join(ck, c), '--text', TEXT, '--json', ...LAB_ARGS], { maxBuffer: 1 << 30 }).toString());
// (The bare Gemma in English only, 13 s of the suite: the Gemma with the lens walks every kind of
// Gemma step in German but the bare model's last one, its hidden state, whose German message the
// catalog check in Node holds to the English keys: tests/web/i18n.mjs --all.)
for (const [c, lab, langs] of [['gemma3-bare-f16', false, ['en']], ['qwen3-qknorm-untied-bf16', false, ['en', 'de']], ['gemma3-layertypes-f32', true, ['en', 'de']]]) {
  for (const lang of langs) {
    await check(`${c}${lab ? ' with the lens and attribution' : ''} (${lang}): every step has a title and a note; no ⟦, Ġ/▁, NaN, console i18n miss`, async () => {
      const before = problems.length;
      await open(page, url(c, lab ? '&lens=1&attribute=1' : '').replace('lang=en', `lang=${lang}`));
      const ids = (lab ? labDoc(c) : docs[c]).steps.map((s) => s.id);
      if (lab) {
        const got = (await page.evaluate(() => window.encoderWalkthrough.getTrace())).steps.map((s) => s.id);
        const k = got.findIndex((id, i) => id !== ids[i]);
        assert(got.length === ids.length && k < 0, `the link's lens=1&attribute=1 gave ${got.length} steps, the CLI's ${LAB_ARGS.join(' ')} ${ids.length}; first difference at ${k}: ${got[k]} vs ${ids[k]}`);
      }
      const noNote = [];
      // Every step in one round trip (as goTo, then dirt, then the title and note: four each,
      // 131 s of the suite's 234 under load): what each step shows, read in the page.
      const shown = await page.evaluate(([stepIds, dirtIds]) => (async () => {
        const out = [];
        for (const id of stepIds) {
          await window.encoderWalkthrough.setState({ step: id });
          for (const t0 = performance.now(); !(document.querySelector('#step-meta .mono')?.textContent === id && document.getElementById('note'));) {
            if (performance.now() - t0 > 15000) throw new Error(`step ${id} never shown`);
            await new Promise((r) => requestAnimationFrame(r));
          }
          out.push({ texts: dirtIds.map((d) => [d, document.getElementById(d)?.innerText || '']),
            title: document.getElementById('step-title').innerText, note: document.getElementById('note').innerText });
        }
        return out;
      })(), [ids, DIRT_IDS]);
      for (const [k, id] of ids.entries()) {
        const { texts, title, note } = shown[k];
        for (const b of dirtOf(texts)) noNote.push(`${id} ${b}`);
        if (!title.trim()) noNote.push(`${id}: no title`);
        if (!note.trim() && !/\.head\d+\.(rowmax|rowsum)$/.test(id)) noNote.push(`${id}: no note`);
      }
      assert(!noNote.length, `${noNote.length} problems:\n  ${noNote.slice(0, 12).join('\n  ')}`);
      assert(problems.length === before, problems.slice(before).join('\n'));
      if (lab) await frozenRmsSentence(page, lang, labDoc(c).attribution);
    });
  }
}

// The lab panel's attribution says, in the page's language, that its split is exact with the
// final RMSNorm's 1/rms frozen, and at which value: the CLI's (lab/attribution.js; the lab writes
// four decimals). A Gemma model is an RMSNorm model; a LayerNorm one (GPT-2) shows no such line.
async function frozenRmsSentence(page, lang, attribution) {
  const WORDS = { en: /final RMSNorm’s scale 1\/rms frozen at the clean run’s value \(([^)]+)\)/,
    de: /Skalenfaktor 1\/rms der letzten RMSNorm auf seinem Wert im ungestörten Lauf \(([^)]+)\) festgehalten/ };
  const notes = await page.$$eval('.lab-attr .lab-note', (ns) => ns.map((n) => n.textContent));
  const m = notes.map((t) => t.match(WORDS[lang])).find(Boolean);
  assert(m, `the lab's attribution has no sentence on the frozen RMSNorm scale in ${lang}: ${JSON.stringify(notes)}`);
  assert(attribution && attribution.norm === 'rmsnorm', `the CLI's attribution is not an RMSNorm one: ${JSON.stringify(attribution)}`);
  const shown = Number(m[1]);
  assert(Math.abs(shown - attribution.frozen) <= 5e-5 + 1e-4 * Math.abs(attribution.frozen),
    `the frozen scale shown, ${m[1]}, is not the CLI's ${attribution.frozen}`);
}

// The walk's check can fail: the served English catalog without one of the decoders' titles must
// show a raw key on that step and a console i18n miss (a planted defect, run every time).
await check('planted: a decoders title missing from the served catalog is reported by the walk (⟦…⟧ and a console i18n miss)', async () => {
  const p2 = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  const misses = [];
  p2.on('console', (m) => { if (m.type() === 'error' && /i18n: no message/.test(m.text())) misses.push(m.text()); });
  // (the served catalogs are bundled and minified: the key is renamed wherever a script holds it)
  let planted = 0;
  await p2.route(/\.m?js(\?|$)/, async (route) => {
    try {
      const r = await route.fetch();
      const body = await r.text();
      const out = body.replace(/(['"])decoders\.steps\.q_rot\1(\s*:)/g, "'decoders.steps.q_rot.planted'$2");
      if (out !== body) planted++;
      await route.fulfill({ response: r, body: out });
    } catch { /* the page is gone */ }
  });
  await open(p2, url('gemma3-bare-f16'));
  await goTo(p2, 'layer0.q_rot');
  const found = await dirt(p2);
  await p2.close();
  assert(planted > 0, 'the plant found no decoders.steps.q_rot in the served scripts: nothing was planted');
  assert(found.some((b) => b.includes('raw catalog key')) && misses.length > 0, `the planted missing title went unreported: ${found} / ${misses}`);
});

await check('the map draws Gemma as it is: RMSNorm boxes, its post-norms, RoPE with grouped K/V heads, sliding layers, the gated FFN', async () => {
  await open(page, url('gemma3-layertypes-f32', '&step=layer0.head1.weights'));
  const map = await page.textContent('#map');
  for (const want of ['RMSNorm', 'RMSNorm after attention', 'RMSNorm after the feed-forward', 'RoPE on q, k', 'sliding window', 'Gated feed-forward', 'Final RMSNorm', '4 query heads, 2 K/V heads', 'Embedding × √d'])
    assert(map.includes(want), `the map lacks "${want}": ${map.slice(0, 400)}`);
  assert(!/LayerNorm/.test(map), 'the map calls an RMSNorm a LayerNorm');
  const heads = await page.$$eval('.map-heads a.map-head', (as) => as.map((a) => `${a.textContent}|${a.getAttribute('aria-label')}`));
  assert(heads.join() === '0→0|0→0: head 0, reads K/V head 0,1→0|1→0: head 1, reads K/V head 0,2→1|2→1: head 2, reads K/V head 1,3→1|3→1: head 3, reads K/V head 1', `head picker: ${heads}`);
  await page.screenshot({ path: path.join(artifacts, 'decoders-gemma-map-1280.png') });
});

// axe-core over a modern decoder's page (the presets' pages are a11y.mjs'): the head picker's
// K/V groups and the RoPE step's pair-by-pair panel, German, light and dark. (It found the
// head links named without the "0→0" they show.)
const axeSource = readFileSync(path.join(root, 'node_modules/axe-core/axe.min.js'), 'utf8');
await check('axe: no violations on a Qwen3 RoPE step (GQA head picker, the pair-by-pair panel), German, light and dark', async () => {
  const found = [];
  for (const theme of ['light', 'dark']) {
    await open(page, url('qwen3-qknorm-untied-bf16', `&theme=${theme}&step=layer0.k_rot`).replace('lang=en', 'lang=de'));
    await page.waitForSelector('.rope-pairs tr.current', { timeout: 20000 });
    await page.evaluate(axeSource);
    const r = await page.evaluate(() => window.axe.run(document, { resultTypes: ['violations'] }));
    for (const v of r.violations) found.push(`${theme}: ${v.id} ×${v.nodes.length} (${v.nodes.slice(0, 2).map((n) => n.target.join(' ')).join(' | ')})`);
  }
  assert(!found.length, found.join('\n'));
});

// Screenshots of the new steps, both widths, both languages.
const SHOTS = [['gemma3-layertypes-f32', 'layer0.q_rot'], ['gemma3-layertypes-f32', 'sliding_mask'], ['qwen3-qknorm-untied-bf16', 'layer0.ffn_hidden'], ['qwen3-qknorm-untied-bf16', 'layer0.attn_norm']];
await check('screenshots: RoPE, the sliding mask, the gated product, RMSNorm at 1280 and 390 px in English and German', async () => {
  let opened = '';
  for (const lang of ['en', 'de'])
    for (const [c, id] of SHOTS) {
      if (opened !== c + lang) await open(page, url(c).replace('lang=en', `lang=${lang}`));
      opened = c + lang;
      await goTo(page, id);
      await clean(page, `${c} ${id} ${lang}`);
      const name = `decoders-${c.split('-')[0]}-${id.replace(/\./g, '_')}-${lang}`;
      await page.setViewportSize({ width: 1280, height: 900 });
      await page.screenshot({ path: path.join(artifacts, `${name}-1280.png`) });
      if (await page.$('.rope-pairs')) {  // the rotation's pair-by-pair panel, below the first screen
        await page.$eval('.rope-pairs', (n) => n.scrollIntoView({ block: 'center' }));
        await page.screenshot({ path: path.join(artifacts, `${name}-pairs-1280.png`) });
      }
      await page.setViewportSize({ width: 390, height: 844 });
      await page.screenshot({ path: path.join(artifacts, `${name}-390.png`), fullPage: true });
      await page.setViewportSize({ width: 1280, height: 900 });
    }
});

// The rotation's before and after, pair by pair (render/rope.js): the cell pointed at moves the
// panel to its row, head and pair, and each shown pair is the trace's input and result at those
// columns, its angle the angles step's, its length kept (read here from the trace, at the
// panel's three significant digits). Qwen3 (head_dim 8 ≠ hidden/heads) and Gemma (6), q and k.
await check('RoPE: the pair-by-pair panel follows the cell pointed at; its before, after, θ and lengths are the trace’s (Qwen3, Gemma; q and k)', async () => {
  const near = (shown, v) => Math.abs(shown - v) <= 0.006 * Math.max(Math.abs(v), 1e-2) + 1e-4;
  const nums = (s) => (s.match(/[−-]?\d+(?:\.\d+)?(?:e[−-]?\d+)?/g) || []).map((x) => Number(x.replace(/−/g, '-')));
  // (cells the grid shows: Qwen3's q has 6 heads of 8 columns, 0–7 and 43–47 shown; Gemma's k 2 of 6)
  for (const [c, id, R, col] of [['qwen3-qknorm-untied-bf16', 'layer0.q_rot', 4, 45], ['gemma3-layertypes-f32', 'layer1.k_rot', 6, 10]]) {
    await open(page, url(c));
    await goTo(page, id);
    // (as the pointer does: the matrix listens for pointerover; a real hover can land on the sticky explanation)
    await page.$eval(`#view .matrix.result td.cell[data-r="${R}"][data-c="${col}"]`, (td) => td.dispatchEvent(new PointerEvent('pointerover', { bubbles: true })));
    const got = await page.evaluate(async (sid) => {
      const tr = await window.encoderWalkthrough.getTrace();
      const st = tr.steps.find((x) => x.id === sid), X = tr.steps.find((x) => x.id === st.inputs[0]), A = tr.steps.find((x) => x.id === st.inputs[1]);
      const rows = [...document.querySelectorAll('.rope-pairs tr')].slice(1).map((r) => ({ current: r.classList.contains('current'), cells: [...r.cells].map((td) => td.textContent) }));
      return { shape: st.shape, y: Array.from(st.data), x: Array.from(X.data), a: Array.from(A.data), half: A.shape[1], rows, title: document.querySelector('.rope-pairs h3').textContent };
    }, id);
    const cols = got.shape[1], hd = 2 * got.half, h = Math.floor(col / hd), p = (col % hd) % got.half;
    assert(got.title.includes(`row ${R} `) && got.title.endsWith(`head ${h}`), `${c} ${id}: the panel says "${got.title}" for row ${R}, head ${h}`);
    const cur = got.rows.filter((r) => r.current);
    assert(cur.length === 1 && Number(cur[0].cells[0]) === p, `${c} ${id}: the marked pair is ${cur.map((r) => r.cells[0])}, not ${p}`);
    assert(got.rows.length === Math.min(got.half, 16), `${c} ${id}: ${got.rows.length} pairs shown of ${got.half}`);
    // What the shown pairs get wrong against the trace's row `r`, head `hh`.
    const wrong = (r, hh) => got.rows.flatMap((row) => {
      const q = Number(row.cells[0]), a = hh * hd + q, b = a + got.half;
      const [ca, cb] = nums(row.cells[1]), [th] = nums(row.cells[2]), bx = nums(row.cells[3]), ay = nums(row.cells[4]), [l0, l1] = nums(row.cells[5]);
      const x = [got.x[r * cols + a], got.x[r * cols + b]], y = [got.y[r * cols + a], got.y[r * cols + b]], theta = got.a[r * got.half + q];
      return [ca !== a || cb !== b ? `columns ${row.cells[1]} (want ${a}, ${b})` : '', !near(th, theta) ? `θ ${th} (trace ${theta})` : '',
        !(near(bx[0], x[0]) && near(bx[1], x[1])) ? `before ${row.cells[3]} (trace ${x})` : '', !(near(ay[0], y[0]) && near(ay[1], y[1])) ? `after ${row.cells[4]} (trace ${y})` : '',
        !(near(l0, Math.hypot(...x)) && near(l1, Math.hypot(...y)) && near(l0, l1)) ? `lengths ${row.cells[5]}` : ''].filter(Boolean).map((w) => `pair ${q}: ${w}`);
    });
    const bad = wrong(R, h);
    assert(!bad.length, `${c} ${id} row ${R}, head ${h}: ${bad.slice(0, 4).join('; ')}`);
    // The comparison can fail: the neighbouring row's and head's numbers are not what is shown.
    assert(wrong(R + 1, h).length && wrong(R, h ^ 1).length, `${c} ${id}: the panel's numbers also match row ${R + 1} or head ${h ^ 1}: the check cannot tell`);
  }
});

for (const c of ['llama-llama3-f32', 'gemma3-layertypes-f32']) {
  await check(`${c} generates in the page as the CLI's --generate does: the same tokens, rounds streamed, the final trace equal`, async () => {
    await open(page, url(c));
    assert(await page.isVisible('#generate'), 'no Generate button');
    const want = JSON.parse(execFileSync(cli, ['--checkpoint', path.join(ck, c), '--text', TEXT, '--generate', '--json'], { maxBuffer: 1 << 30 }).toString());
    const tokens = await page.evaluate(() => window.encoderWalkthrough.generate({ maxTokens: 6 }));
    assert(tokens.join(' ') === want.generated.slice(0, 6).join(' ') && tokens.length > 0, `page ${tokens.join(' ')}, CLI ${want.generated.join(' ')}`);
    const rounds = await page.$$eval('#rounds .round', (bs) => bs.map((b) => b.textContent));
    assert(rounds.length === tokens.length, `${rounds.length} rounds shown for ${tokens.length} tokens`);
    await page.evaluate(() => document.getElementById('gen-box').scrollIntoView());
    await page.screenshot({ path: path.join(artifacts, `decoders-${c.split('-')[0]}-generate-1280.png`) });
  });
}

// Generation streams (issues 30 item 5, 31 item 1). In the page, before it loads: every Worker
// message's stream round is logged with the Worker's time (`at`, when the round ended) and the time
// it arrived; each round added to #rounds with the time it appeared; and a hold that queues every
// message from round `hold` on (in order) until __release(), for screenshots mid-stream.
const STREAM_PROBE = () => {
  const S = (window.__stream = { log: [], shown: [], hold: null, queue: [] });
  const desc = Object.getOwnPropertyDescriptor(Worker.prototype, 'onmessage');
  Object.defineProperty(Worker.prototype, 'onmessage', {
    configurable: true,
    get() { return desc.get.call(this); },
    set(fn) {
      const w = this;
      desc.set.call(this, (e) => {
        const d = e.data;
        if (d && d.stream) S.log.push({ round: d.stream.round, at: d.stream.at, received: performance.timeOrigin + performance.now() });
        if (S.queue.length || (S.hold !== null && d && d.stream && d.stream.round >= S.hold)) return S.queue.push(() => fn.call(w, e));
        fn.call(w, e);
      });
    },
  });
  window.__release = () => {
    S.hold = null;
    for (const f of S.queue.splice(0)) f();
  };
  document.addEventListener('DOMContentLoaded', () => {
    new MutationObserver((ms) => {
      for (const m of ms) for (const n of m.addedNodes) if (n.nodeName === 'LI') S.shown.push({ text: n.textContent, at: performance.timeOrigin + performance.now() });
    }).observe(document.getElementById('rounds'), { childList: true });
  });
};
// axe-core (npm) over the generation panel, as a11y.mjs runs it over the page (colour contrast
// included), evaluated in the page (its CSP allows no injected <script>).
async function panelViolations(page) {
  if (!(await page.evaluate(() => !!window.axe))) await page.evaluate(axeSource);
  const r = await page.evaluate(() => window.axe.run(document.getElementById('gen-box'), { resultTypes: ['violations'] }));
  return r.violations.map((v) => `${v.id} ×${v.nodes.length}: ${v.nodes.slice(0, 2).map((n) => n.target.join(' ')).join(', ')}`);
}
const streamWant = JSON.parse(execFileSync(cli, ['--checkpoint', path.join(ck, STREAM), '--text', TEXT, '--generate', '--json'], { maxBuffer: 1 << 30 }).toString());
const HOLD = 4;
// Generates with the stream checkpoint in `lang` and `theme`: screenshots held at round HOLD and at
// the end (1280 and 390 px), then what the page shows against the CLI's generation.
async function streamRun(lang, theme, after = async () => {}) {
  const sp = await newPage();
  await sp.addInitScript(STREAM_PROBE);
  if (PLANT)
    await sp.route(/\/js\/engine\/worker\.js$/, async (r) => {
      const body = await (await r.fetch()).text();
      const out = body.replace(/postMessage\(\{id:(\w+)\.id,stream:/, '(self.__held=self.__held||[]).push({id:$1.id,stream:')
        .replace(/,postMessage\(\{id:(\w+)\.id,result:/, ',(self.__held||[]).splice(0).forEach((m)=>postMessage(m)),postMessage({id:$1.id,result:');
      if (out !== body) planted++;
      r.fulfill({ status: 200, contentType: 'text/javascript', body: out });
    });
  await open(sp, url(STREAM).replace('lang=en', `lang=${lang}`) + (theme === 'dark' ? '&theme=dark' : ''));
  assert(await isCheckpoint(sp), `not opened: ${await sp.textContent('#notice')}`);
  await sp.evaluate((h) => { window.__stream.hold = h; }, HOLD);
  const gen = sp.evaluate(() => window.encoderWalkthrough.generate());
  const shot = async (when) => {
    for (const width of [1280, 390]) {
      await sp.setViewportSize({ width, height: width === 390 ? 844 : 900 });
      // On a phone the panel opens from "Input & settings".
      if (width === 390 && (await sp.getAttribute('#show-input', 'aria-expanded')) !== 'true') await sp.click('#show-input');
      await sp.evaluate(() => document.getElementById('gen-live').scrollIntoView({ block: 'start' }));
      await sp.screenshot({ path: path.join(artifacts, `decoders-stream-${when}-${lang}-${theme}-${width}.png`) });
    }
    await sp.setViewportSize({ width: 1280, height: 900 });
  };
  const n = streamWant.rounds.length;
  if (n > HOLD + 1) {
    await sp.waitForFunction((h) => window.__stream.queue.length > 0 && document.querySelectorAll('#rounds li').length === h, HOLD, { timeout: 20000 });
    const mid = await sp.evaluate(() => [document.getElementById('gen-progress-text').textContent, document.getElementById('kv-strip').children.length]);
    await shot('mid');
    await sp.evaluate(() => window.__release());
    if (lang === 'en') assert(mid[0] === `Round ${HOLD} of at most 32…`, `mid-stream progress: "${mid[0]}"`);
    const prompt0 = streamWant.rounds[0].decoder_input.split(' ').length;
    assert(mid[1] === prompt0 + HOLD - 1, `mid-stream the strip has ${mid[1]} rows, want ${prompt0} + ${HOLD} − 1`);
  }
  const tokens = await gen;
  await shot('end');
  const got = await sp.evaluate(() => ({
    S: window.__stream,
    output: document.getElementById('gen-output').textContent,
    progress: document.getElementById('gen-progress-text').textContent,
    rows: document.querySelectorAll('#kv-strip .kv-row').length,
    newest: [...document.querySelectorAll('#kv-strip .kv-row')].findIndex((c) => c.classList.contains('kv-new')),
    size: document.getElementById('kv-size').textContent,
    alt: document.getElementById('kv-strip').getAttribute('aria-label'),
    timing: document.getElementById('gen-timing').textContent,
  }));
  got.axe = await panelViolations(sp);
  await after(sp);
  await sp.close().catch(() => {});
  return { tokens, got };
}

await check(`${STREAM}: generation streams token by token — the CLI's tokens, the first on the page before the last round is computed; the cache strip and its size; prefill and decode apart`, async () => {
  const { tokens, got } = await streamRun('en', 'light', async (sp) => {
    await sp.click('#kv-strip');  // the strip opens the final trace's K cache
    await sp.waitForFunction(() => document.querySelector('#step-meta .mono')?.textContent === 'layer0.k_cache', null, { timeout: 15000 });
  });
  const want = streamWant, n = want.rounds.length;
  assert(n >= 12, `the stream checkpoint generates only ${n} rounds (an early end token): pick another seed`);
  assert(tokens.join(' ') === want.generated.join(' '), `page ${tokens.join(' ')}\nCLI  ${want.generated.join(' ')}`);
  const { log, shown } = got.S;
  assert(log.map((r) => r.round).join() === [...Array(n).keys()].join(), `stream rounds ${log.map((r) => r.round)} for ${n} rounds`);
  // Streaming, not a list drawn at the end: round 1 was on the page before the Worker ended the last round.
  const first = shown[0].at, lastDone = log[n - 1].at;
  console.log(`  stream: round 1 on the page ${(first - log[0].at).toFixed(1)} ms after the Worker ended it; the last round ended ${(lastDone - first).toFixed(1)} ms after that`);
  assert(first < lastDone, `round 1 appeared ${(first - lastDone).toFixed(1)} ms after the last round was computed: not streamed`);
  // The cache: the prompt's rows and one per generated token but the last (its K and V would be
  // the next round's) — the final trace's layer0.k_cache, as the CLI records it.
  const prompt = want.rounds[0].decoder_input.split(' ').length, rows = prompt + n - 1;
  const kc = want.steps.find((st) => st.id === 'layer0.k_cache');
  assert(kc && kc.shape[0] === rows && kc.shape[1] === 2 * 64, `CLI k_cache ${kc && kc.shape}, want [${rows}, 128]`);
  assert(got.rows === rows && got.newest === rows - 1, `strip: ${got.rows} rows (newest ${got.newest}), want ${rows}`);
  const numbers = rows * 6 * 2 * 64;
  for (const part of [`${rows} rows × 6 layers × 2 K/V heads × 64 numbers per head = ${numbers.toLocaleString('en')} numbers for K and as many for V: ${(2 * numbers * 4 / 1024).toFixed(1)} KiB in float32`,
    'The 6 query heads share 2 K/V heads'])
    assert(got.size.includes(part), `size: "${got.size}" lacks "${part}"`);
  assert(got.alt.startsWith(`Key/value cache with ${rows} rows: rows 0–${prompt - 1} are the prompt's ${prompt} tokens`), `text alternative: ${got.alt}`);
  // every round after the prompt's through the cache, the last one too (reported before its input is recorded whole)
  assert(want.timing.decode_rounds === n - 1, `CLI decode rounds ${want.timing.decode_rounds} for ${n} rounds`);
  assert(new RegExp(`^Prefill \\(the prompt, ${prompt} tokens\\): [\\d.,]+ ms · decode: [\\d.,]+ ms per token \\(${n - 1} tokens through the cache, [\\d.,]+ tokens/s\\) · last round recorded whole for the walkthrough: [\\d.,]+ ms$`).test(got.timing),
    `readout: "${got.timing}"`);
  assert(/^\d+ rounds: /.test(got.progress), `progress at the end: "${got.progress}"`);
  assert(!got.axe.length, `axe over the generation panel (light): ${got.axe.join('; ')}`);
});
await check(`${STREAM} (de, dark): the stream in German and the dark theme; the strip's rows, size and readout`, async () => {
  const { tokens, got } = await streamRun('de', 'dark');
  const n = streamWant.rounds.length, prompt = streamWant.rounds[0].decoder_input.split(' ').length, rows = prompt + n - 1;
  assert(tokens.join(' ') === streamWant.generated.join(' '), `page ${tokens.join(' ')}`);
  assert(got.rows === rows, `strip: ${got.rows} rows, want ${rows}`);
  assert(got.size.includes(`${rows} Zeilen × 6 Schichten × 2 K/V-Köpfe × 64`) && got.size.includes((rows * 768).toLocaleString('de')), `size: "${got.size}"`);
  assert(!got.axe.length, `axe over the generation panel (dark, de): ${got.axe.join('; ')}`);
  assert(got.timing.startsWith(`Prefill (der Prompt, ${prompt} Tokens): `) && got.timing.includes(`(${n - 1} Tokens durch den Cache, `), `readout: "${got.timing}"`);
});

await check(`${STREAM}: a stale stream draws nothing — the reader types while it streams`, async () => {
  const sp = await newPage();
  await sp.addInitScript(STREAM_PROBE);
  await open(sp, url(STREAM));
  await sp.evaluate(() => { window.__stream.hold = 2; });
  const gen = sp.evaluate(() => window.encoderWalkthrough.generate().then(() => 'resolved', (e) => e.message));
  await sp.waitForFunction(() => window.__stream.queue.length > 0 && document.querySelectorAll('#rounds li').length === 2, null, { timeout: 20000 });
  // A new text (app.state replaced at once), then the rest of the stream: none of it may be drawn.
  const after = await sp.evaluate(async () => {
    const typed = window.encoderWalkthrough.setState({ text: 'the dog sat' });
    await new Promise((r) => setTimeout(r, 0));  // setState replaces the state after its first await
    window.__release();
    window.__typed = typed;
    return { rows: document.querySelectorAll('#rounds li').length, live: document.getElementById('gen-live').hidden, out: document.getElementById('gen-output').textContent };
  });
  assert(after.rows === 2 && after.live, `after typing, the old stream still drew: ${after.rows} rounds listed, panel hidden ${after.live}`);
  await gen;
  await sp.evaluate(() => window.__typed);
  const end = await sp.evaluate(() => ({ text: window.encoderWalkthrough.getState().text, live: document.getElementById('gen-live').hidden,
    rows: document.querySelectorAll('#rounds li').length }));
  assert(end.text === 'the dog sat' && end.live && end.rows === 0, `the new text's page: ${JSON.stringify(end)}`);
  await sp.close();
});

if (PLANT) {
  await browser.close();
  server.close();
  const { passed, failed } = results();
  const caught = failed === 1 && passed === 0 && planted > 0;
  console.log(`decoders --plant-batched-stream: ${caught ? 'caught' : `FAIL: not caught (planted ${planted}, ${passed} passed, ${failed} failed)`}`);
  process.exit(caught ? 0 : 1);
}

// The chat-template switch.
const ASK = 'the cat sat on the mat?';
const CHAT_PROMPT = `<|im_start|>system\nYou are a helpful AI assistant named SmolLM, trained by Hugging Face<|im_end|>\n<|im_start|>user\n${ASK}<|im_end|>\n<|im_start|>assistant\n`;
const chatUrl = (dir, lang = 'en') => `?lang=${lang}&model=${encodeURIComponent(`/ck/${dir}/`)}&text=${encodeURIComponent(ASK)}&chat=1`;
await check('chat template: chat=1 wraps the text in the checkpoint\'s template; the trace, the special tokens\' chips and generation equal the CLI on the prompt; en and de at 1280 and 390 px', async () => {
  const want = JSON.parse(execFileSync(cli, ['--checkpoint', path.join(ck, 'chat-qwen2'), '--text', CHAT_PROMPT, '--generate', '--json'], { maxBuffer: 1 << 30 }).toString());
  const plain = JSON.parse(execFileSync(cli, ['--checkpoint', path.join(ck, 'chat-qwen2'), '--text', CHAT_PROMPT, '--json'], { maxBuffer: 1 << 30 }).toString());
  const before = problems.length;
  for (const lang of ['en', 'de']) {
    await open(page, chatUrl('chat-qwen2', lang));
    const chat = await page.evaluate(() => window.encoderWalkthrough.getChat());
    assert(chat.on && chat.prompt === CHAT_PROMPT, `getChat: ${JSON.stringify(chat)}`);
    assert(await page.isVisible('#chat-field') && await page.isChecked('#chat'), 'the switch is not shown on');
    const shown = await page.textContent('#chat-prompt pre');
    assert(shown === CHAT_PROMPT, `the prompt shown: ${JSON.stringify(shown)}`);
    assert(new URL(page.url()).searchParams.get('chat') === '1', `the link lost chat=1: ${page.url()}`);
    if (lang === 'en') {
      const bad = compare('chat', await trace(page), plain);
      assert(!bad.length, bad.slice(0, 5).join('\n'));
    }
    await goTo(page, plain.steps[0].id);
    const chips = await page.$$eval('#view .token-chips .chip.special', (cs) => cs.map((c) => `${c.querySelector('.chip-tok').textContent}|${c.querySelector('.chip-id').textContent}`));
    const ids = plain.tokens.map((tk, i) => [tk, i]).filter(([tk]) => tk === '<|im_start|>' || tk === '<|im_end|>');
    assert(chips.length === 5 && ids.length === 5 && chips.every((c) => /^<\|im_(start|end)\|>\|.*\b29[23]\b/.test(c)), `special chips: ${chips.join(', ')}`);
    const label = await page.textContent('#chat-field label');
    assert(label.includes(lang === 'de' ? 'Chat-Vorlage' : 'chat template'), `the switch's label in ${lang}: ${label}`);
    await page.evaluate(() => document.getElementById('chat-field').scrollIntoView());
    await page.screenshot({ path: path.join(artifacts, `decoders-chat-${lang}-1280.png`) });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.screenshot({ path: path.join(artifacts, `decoders-chat-tokens-${lang}-390.png`), fullPage: true });
    await page.click('#show-input');  // the phone's input panel, where the switch is
    await page.evaluate(() => document.getElementById('chat-field').scrollIntoView());
    assert(await page.isVisible('#chat-prompt pre'), 'the prompt is not shown on a phone');
    await page.screenshot({ path: path.join(artifacts, `decoders-chat-${lang}-390.png`) });
    await page.click('#show-input');
    await page.setViewportSize({ width: 1280, height: 900 });
  }
  await clean(page, 'chat');
  const tokens = await page.evaluate(() => window.encoderWalkthrough.generate({ maxTokens: 4 }));
  assert(tokens.length > 0 && tokens.join(' ') === want.generated.slice(0, 4).join(' '), `generated: page ${tokens.join(' ')}, CLI ${want.generated.join(' ')}`);
  // off again: the text as typed
  await page.evaluate(() => window.encoderWalkthrough.setChat(false));
  const toks = await page.evaluate(() => window.encoderWalkthrough.getTrace().tokens);
  assert(!toks.includes('<|im_start|>') && (await page.isHidden('#chat-prompt')), `switched off, still wrapped: ${toks.join(' ')}`);
  assert(problems.length === before, problems.slice(before).join('\n'));
});
await check('chat template: one that does not parse and one that raises turn the switch off with the catalog\'s message; the page goes on (en, de)', async () => {
  const before = problems.length;
  await open(page, chatUrl('chat-broken'));
  let notice = await page.textContent('#notice');
  assert(/The chat template is off: the chat template in tokenizer_config\.json does not parse/.test(notice), `notice: ${notice}`);
  assert(!(await page.isChecked('#chat')) && (await isCheckpoint(page)), 'the switch stayed on, or the checkpoint is gone');
  const toks = await page.evaluate(() => window.encoderWalkthrough.getTrace().tokens);
  assert(!toks.includes('<|im_start|>') && toks.length > 3, `not the text as typed: ${toks.join(' ')}`);
  const err = await page.evaluate(async () => {
    await window.encoderWalkthrough.loadCheckpoint('/ck/chat-raises/');
    return window.encoderWalkthrough.setChat(true).then(() => 'resolved', (e) => e.message);
  });
  assert(/refused the conversation, saying: “Conversation roles must alternate/.test(err), `setChat(true): ${err}`);
  assert(!(await page.isChecked('#chat')), 'the switch stayed on');
  await open(page, chatUrl('chat-broken', 'de'));
  notice = await page.textContent('#notice');
  assert(/Die Chat-Vorlage ist aus: die Chat-Vorlage in tokenizer_config\.json lässt sich nicht lesen/.test(notice), `notice (de): ${notice}`);
  await page.evaluate(() => document.getElementById('notice').scrollIntoView());
  await page.screenshot({ path: path.join(artifacts, 'decoders-chat-broken-de-1280.png') });
  assert(problems.length === before, problems.slice(before).join('\n'));
});

// Bad checkpoints: the page shows the core's message, which is the CLI's.
const cliError = (dir) => {
  const r = spawnSync(cli, ['--checkpoint', path.join(ck, dir), '--text', TEXT], { encoding: 'utf8' });
  return (r.stderr || r.stdout).trim().replace(/^encoder-walkthrough:\s*/, '');
};
for (const dir of ['bad-unknown-model-type', 'bad-rope-scaling-yarn', 'bad-missing-q-norm']) {
  await check(`${dir}: loadCheckpoint rejects with the core's message (the CLI's), shown on the page`, async () => {
    const want = cliError(dir);
    await open(page, '?lang=en');
    const err = await page.evaluate((u) => window.encoderWalkthrough.loadCheckpoint(u).then(() => 'resolved', (e) => e.message), `/ck/${dir}/`);
    const core = want.split('\n').pop();
    assert(err.includes(core.slice(0, 60)), `page: ${err}\nCLI: ${want}`);
    assert((await page.textContent('#msg')).includes(core.slice(0, 60)), 'the message is not shown on the page');
  });
}
await check('bad-missing-shard: ?model= names the missing shard (HTTP 404)', async () => {
  await open(page, '?lang=en&model=/ck/bad-missing-shard/');
  const notice = await page.textContent('#notice');
  assert(/model-00002-of-00002\.safetensors/.test(notice) && /404/.test(notice), `notice: ${notice}`);
});

await browser.close();
server.close();
const { passed, failed } = results();
if (problems.length) console.log(`decoders: page errors:\n  ${problems.join('\n  ')}`);
console.log(`decoders: ${passed} passed, ${failed} failed`);
process.exit(failed || problems.length ? 1 : 0);
