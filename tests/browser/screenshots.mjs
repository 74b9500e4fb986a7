#!/usr/bin/env node
// screenshots.mjs — one PNG per step group (tokens, embedding, positional, mask, Q/K/V, scores,
// scaled, weights, context, concat, W_O, add & norm, FFN, layer output, decoder masked
// self-attention, cross-attention, logits, probs, loss, a gradient, AdamW) for the first load
// and the padding preset, at 1400×1000 and 390×844, into the directory given (the owner
// commits the ones that changed under docs/screenshots/). Not part of scripts/test.sh: it
// asserts nothing but that every group was found and drawn.
//
//   node tests/browser/screenshots.mjs OUT_DIR [--cli build/native-release/encoder-walkthrough]
//                                      [--dist dist] [--chromium /usr/bin/chromium] [--lang de]
// The steps are chosen from the native CLI's trace by role, kind and place (never by id).
import { mkdirSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import process from 'node:process';
import { chromium } from 'playwright-core';
import { startServer } from '../../scripts/serve.mjs';
import { root, arg, launchChromium, requireFiles } from '../harness.mjs';

const out = process.argv[2] && !process.argv[2].startsWith('--') ? path.resolve(process.argv[2]) : null;
if (!out) {
  console.error('usage: node tests/browser/screenshots.mjs OUT_DIR [--cli …] [--dist …] [--chromium …]');
  process.exit(2);
}
const cli = path.resolve(root, arg('--cli', 'build/native-release/encoder-walkthrough'));
const dist = path.resolve(root, arg('--dist', 'dist'));
const exe = arg('--chromium', process.env.CHROMIUM || '/usr/bin/chromium');
requireFiles('screenshots', [['native CLI', cli], ['built site', path.join(dist, 'index.html')], ['Chromium', exe]]);
mkdirSync(out, { recursive: true });

// The step of each group in a native trace: [name, test(step, place, trace)], first match.
const enc0 = (p) => p.section === 'encoder' && p.layer === 0;
const GROUPS = [
  ['tokens', (s) => s.role === 'token_ids'],
  ['embedding', (s) => s.role === 'embedding'],
  ['positional', (s) => s.role === 'positional'],
  ['mask', (s) => s.role === 'attention_mask'],
  ['qkv', (s, p) => enc0(p) && s.role === 'q'],
  ['scores', (s, p) => enc0(p) && p.head === 0 && s.role === 'scores'],
  ['scaled', (s, p) => enc0(p) && p.head === 0 && s.role === 'scaled'],
  ['weights', (s, p) => enc0(p) && p.head === 0 && s.role === 'weights'],
  ['context', (s, p) => enc0(p) && p.head === 0 && s.role === 'context'],
  ['concat', (s, p) => enc0(p) && s.role === 'concat'],
  ['wo', (s, p) => enc0(p) && s.role === 'attn_out'],
  ['add-norm', (s, p) => enc0(p) && p.block === 'add_norm' && s.kind === 'layernorm' && (s.role === 'ln2' || s.role === 'ln1') && s.afterAttention],
  ['ffn', (s, p) => enc0(p) && s.role === 'ffn_hidden'],
  ['layer-output', (s, p) => enc0(p) && s.role === 'output'],
  ['decoder-masked-self-attention', (s, p) => p.section === 'decoder' && p.layer === 0 && p.block === 'self_attention' && p.head === 0 && s.role === 'weights'],
  ['cross-attention', (s, p) => p.section === 'decoder' && p.layer === 0 && p.block === 'cross_attention' && p.head === 0 && s.role === 'weights'],
  ['logits', (s, p) => p.section !== 'backward' && s.role === 'logits'],
  ['probs', (s, p) => p.section !== 'backward' && s.role === 'probs'],
  ['loss', (s) => s.role === 'loss'],
  ['gradient', (s, p, tr) => s.role === 'grad' && tr.stepIds.has(s.of) && p.block === 'ffn'],
  ['adamw', (s, p, tr) => s.role === 'grad' && tr.paramIds.has(s.of)],
];

function cliTrace(preset, text) {
  const args = ['--preset', preset, '--json', ...(text ? ['--text', text] : [])];
  const run = (extra) => JSON.parse(execFileSync(cli, [...args, ...extra], { maxBuffer: 1 << 30, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }));
  let tr;
  try {
    tr = run(['--backward']);
  } catch {
    tr = run([]); // a model with nothing to predict has no backward pass
  }
  tr.stepIds = new Set(tr.steps.map((s) => s.id));
  tr.paramIds = new Set((tr.params || []).map((p) => p.id));
  let seen = false; // an add & norm after the layer's attention output
  for (const s of tr.steps) {
    if (enc0(s.place) && s.role === 'attn_out') seen = true;
    s.afterAttention = seen;
  }
  return tr;
}
function pick(tr) {
  return GROUPS.map(([name, f]) => [name, tr.steps.find((s) => f(s, s.place, tr))]);
}

const { server, url: base } = await startServer(dist, 0);
const browser = await launchChromium(chromium, exe);
const VIEWS = [['desktop', { width: 1400, height: 1000 }], ['phone', { width: 390, height: 844 }]];
const LANG = arg('--lang', '');
const langQ = (q) => (LANG ? `${q ? `${q}&` : '?'}lang=${encodeURIComponent(LANG)}` : q);
const LOADS = [['first-load', ''], ['padding', '?preset=padding-batch']].map(([n, q]) => [LANG ? `${n}-${LANG}` : n, langQ(q)]);
let missing = 0, written = 0;
for (const [load, query] of LOADS)
  for (const [view, viewport] of VIEWS) {
    const ctx = await browser.newContext({ viewport });
    const page = await ctx.newPage();
    // The opening is shot once (first-load-*-intro.png); the steps without it.
    await page.goto(base + query);
    await page.waitForFunction(() => window.encoderWalkthrough, null, { timeout: 20000 });
    await page.evaluate(() => window.encoderWalkthrough.ready);
    if (load.startsWith('first-load')) await page.screenshot({ path: path.join(out, `${load}-${view}-intro.png`) });
    if (await page.isVisible('.intro-close')) await page.click('.intro-close');
    const st = await page.evaluate(() => window.encoderWalkthrough.getState());
    // the switch sits in the input panel, closed on phones: click it as the form does
    await page.evaluate(() => { const b = document.getElementById('backward'); if (!b.checked) b.click(); });
    await page.waitForFunction(() => window.encoderWalkthrough.getTrace()?.config && document.querySelector('#map .map-sec-backward'), null, { timeout: 10000 })
      .catch(() => console.log(`  (${load}: no backward pass for this model)`));
    const tr = cliTrace(st.preset || 'default', st.text);
    for (const [name, step] of pick(tr)) {
      if (!step) {
        console.log(`  ${load}/${view}: no step for “${name}” in this model`);
        missing++;
        continue;
      }
      const n = tr.steps.indexOf(step) + 1;
      await page.evaluate((id) => window.encoderWalkthrough.goTo(id), step.id);
      await page.waitForFunction((k) => document.title.startsWith(`${k}. `), n, { timeout: 15000 });
      await page.evaluate(() => window.scrollTo(0, 0));
      const file = path.join(out, `${load}-${view}-${name}.png`);
      await page.screenshot({ path: file });
      written++;
      console.log(`  ${path.relative(process.cwd(), file)}  (${step.id})`);
    }
    await ctx.close();
  }
await browser.close();
server.close();
console.log(`${written} screenshots written to ${out}; ${missing} groups this model does not have`);
