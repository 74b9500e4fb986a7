#!/usr/bin/env node
// names.mjs — every step of every model the page opens is named (issue 29, item 3): each preset
// of the page's own preset list (the trained ones among them) and each checkpoint family (BERT
// masked LM and classifier with a second sentence, GPT-2, DistilBERT in float16: random
// checkpoints written by write_checkpoints.py), in English and German, walked step by step
// with the Next button on the built page. The suite fails on
//   - any "⟦" (a message key the catalog lacks) in the step card, or anywhere on the page on
//     the first and last step (text and attributes alike: the HTML is scanned);
//   - a console message "i18n: no message …", or any console error or page error;
//   - a raw byte-level or SentencePiece symbol — Ġ (the space byte), Ċ (newline), ĉ (tab),
//     ▁ — anywhere in the same HTML (the chips, the labels, the vocabulary list, top-k lists,
//     notes, explanations); on GPT-2 a chip must show the space mark ␣ instead;
//   - a step without a title or a note, or a note that names no tutorial by its title;
//   - an explanation that names the wrong thing:
//       a checkpoint's token step whose heading is not its own tokenizer (WordPiece + vocab.txt
//       for BERT and DistilBERT, byte-level BPE + vocab.json for GPT-2) or that names one of
//       the page's tutorial tokenizers or "every character other than white space …";
//       a BERT pair's second sentence explained as a padded batch (any of the catalog's
//       padding messages on the page), without the segment-B note on the token step, or a
//       token-type cell explained as a vocabulary id (the first cell of token_type_ids must
//       say "type 0 (sentence A)", of token_type_embedding "row 0 of the token-type table");
//       a decoder called an encoder: on GPT-2 no title, crumb or note says "encoder" and the token
//       step is titled as one sequence's, not "(source)"; on any
//       page no title of a step in the decoder section says "Encoder";
//   - in German: a counter, a note or a tutorial line left in English (a note equal to the
//     English walk's note of the same step, or without „Nach “).
// The expected texts come from the message catalog itself (imported in Node), never retyped.
// Then the must-fail runs: the same checks on a page whose served JavaScript is rewritten to
// plant one defect each (a missing key, GPT-2 pieces left raw, a checkpoint's token step citing
// the whitespace tokenizer, segment B explained as padding, GPT-2's token step titled as an
// encoder–decoder's source, GPT-2's output called an encoder's);
// each must be reported by the check that names it, else the suite fails. A plant whose
// pattern is not found in the served code fails too (never a silent pass).
// Screenshots of the token step of each checkpoint family and of a preset's attention step, en
// and de, at 1280 and 390 px: artifacts/names-*.png.
//
// German walks every step of the checkpoints and of a cover of the presets' kinds of step (the
// rest: three steps); each job reuses one page.
//
//   node tests/browser/names.mjs [--dist dist] [--chromium /usr/bin/chromium] [--artifacts artifacts]
//                                [--only TEXT] [--jobs 3] [--no-plants | --plants-only]
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import process from 'node:process';
import { chromium } from 'playwright-core';
import { startServer } from '../../scripts/serve.mjs';
import { root, arg, launchChromium, checks, assert, requireFiles, serverOptions } from '../harness.mjs';
import { CATALOGS, fill, loadAllLangs } from '../../web/js/lib/i18n.js';
await loadAllLangs(); // the German catalog too (the page fetches a language's catalog when asked: i18n.js)

const dist = path.resolve(root, arg('--dist', 'dist'));
const exe = arg('--chromium', process.env.CHROMIUM || '/usr/bin/chromium');
const artifacts = path.resolve(root, arg('--artifacts', 'artifacts'));
const only = arg('--only', '');
const jobs = Number(arg('--jobs', '3'));
requireFiles('names', [['built site', path.join(dist, 'index.html')], ['Chromium', exe]]);
mkdirSync(artifacts, { recursive: true });

// The checkpoints, and a site of dist/'s entries (symlinks) plus ck/ → them (as checkpoints.mjs).
const ck = path.join(root, 'build', 'names-ck');
execFileSync('/usr/bin/python3', [path.join(root, 'tests/browser/write_checkpoints.py'), '--small', ck], { stdio: 'inherit' });
const site = path.join(root, 'build', 'names-site');
rmSync(site, { recursive: true, force: true });
mkdirSync(site, { recursive: true });
for (const e of readdirSync(dist)) symlinkSync(path.join(dist, e), path.join(site, e));
symlinkSync(ck, path.join(site, 'ck'));

const CHECKPOINTS = [
  { name: 'bert-mlm', family: 'bert', text: 'the cat sat on the [MASK] .', text2: 'it ran in the park .' },
  { name: 'bert-cls', family: 'bert', text: 'the cat sat on the mat .', text2: 'the dog ran .' },
  { name: 'gpt2-lm', family: 'gpt2', text: 'the cat sat on the mat' },
  { name: 'distil-f16', family: 'distilbert', text: 'the dog ran in the park .', text2: 'it sat on a mat .' },
];
const ckQuery = (c) => `?model=${encodeURIComponent(`/ck/${c.name}/`)}&text=${encodeURIComponent(c.text)}${c.text2 ? `&text2=${encodeURIComponent(c.text2)}` : ''}`;

// A message of the catalog in a language, its placeholders filled (or left as {name}).
const msg = (lang, key, params = {}) => {
  const m = CATALOGS[lang][key];
  assert(m !== undefined, `the catalog has no ${key} in ${lang}`);
  return typeof m === 'function' ? m(params) : fill(m, params);
};
// The text of a message before its first placeholder (for messages quoted with other words).
const lead = (lang, key) => msg(lang, key).split('{')[0];
const RAW = /[\u0120\u010a\u0109\u2581]/;

const { server, url: base } = await startServer(site, 0, '127.0.0.1', serverOptions);
const browser = await launchChromium(chromium, exe);
const { check, results } = checks(8);

// Walks every step of the page with the Next button (Home first) and reads what each step
// shows; the HTML of the step (and, on the first and last, of the whole page) is scanned in the
// page for ⟦ and raw symbols, with some context around each find.
function walkInPage([RAW_SOURCE, upTo]) {
  const $ = (id) => document.getElementById(id);
  const counter = () => (($('counter').textContent || '').match(/(\d+)\D+(\d+)/) || []).slice(1).map(Number);
  const finds = (html) => {
    const out = [];
    for (const re of [/⟦[^⟧]{0,60}⟧?/g, new RegExp(`.{0,40}${RAW_SOURCE}.{0,20}`, 'gs')]) {
      for (const m of html.matchAll(re)) if (out.length < 4) out.push(m[0].replace(/\s+/g, ' '));
    }
    return out;
  };
  const text = (sel) => [...document.querySelectorAll(sel)].map((n) => n.textContent).join(' | ');
  const waitFor = (i) => new Promise((res, rej) => {
    const t0 = performance.now();
    const tick = () => {
      if (counter()[0] === i) return res();
      if (performance.now() - t0 > 30000) return rej(new Error(`step ${i} never came (counter "${$('counter').textContent}")`));
      setTimeout(tick, 4);
    };
    tick();
  });
  return (async () => {
    document.body.focus();
    document.dispatchEvent(new KeyboardEvent('keydown', { key: 'Home', bubbles: true }));
    await waitFor(1);
    const n = Math.min(counter()[1], upTo || Infinity), rows = [];
    for (let i = 1; i <= n; i++) {
      if (i > 1) {
        $('next').click();
        await waitFor(i);
      }
      const whole = i === 1 || i === n;
      const note = $('note');
      rows.push({
        i, n, counter: $('counter').textContent,
        id: (document.querySelector('#step-meta .meta-v.mono') || {}).textContent || '',
        title: $('step-title').textContent, crumbs: $('crumbs').textContent,
        note: note.hidden ? '' : note.textContent,
        explain: text('#view .explain'), rule: text('#view .tokenize > h3'),
        tokenView: text('#view .tokenize'), chips: [...document.querySelectorAll('#view .token-chips .chip-tok')].map((c) => c.textContent),
        finds: finds((whole ? document.body : $('step')).innerHTML),
        page: whole ? document.body.textContent : '',
      });
    }
    return rows;
  })();
}

// Opens `query` in `page` (a new page of `context` when none is given; a job's walks reuse one
// page: a fresh tab cost about a second of CPU more than a navigation, measured 2026-11-29),
// walks it, and returns {page, rows, console: [...]} (the console lines of this walk only).
async function walk(context, query, upTo = 0, reuse = null) {
  const page = reuse || await context.newPage();
  const consoleLines = [];
  const onConsole = (m) => { if (m.type() === 'error' || /i18n/.test(m.text())) consoleLines.push(`console ${m.type()}: ${m.text()}`); };
  const onError = (e) => consoleLines.push(`page error: ${e.message}`);
  page.on('console', onConsole);
  page.on('pageerror', onError);
  try {
    await page.goto(base + 'index.html' + query);
    await page.waitForFunction(() => window.encoderWalkthrough, null, { timeout: 30000 });
    await page.evaluate(() => window.encoderWalkthrough.ready);
    if (/model=/.test(query))
      await page.waitForFunction(() => window.encoderWalkthrough.getState().preset === 'checkpoint' && /\d/.test(document.getElementById('counter').textContent), null, { timeout: 30000 });
    const rows = await page.evaluate(walkInPage, [RAW.source, upTo]);
    return { page, rows, console: consoleLines };
  } finally {
    page.off('console', onConsole);
    page.off('pageerror', onError);
  }
}

// What is wrong with one walk: a list of problems, each naming the check that found it.
function problemsOf(spec, lang, { rows, console: lines }, english) {
  const bad = [];
  const say = (what, s) => bad.push(`[${what}] ${s}`);
  for (const l of lines) say(/i18n/.test(l) ? 'i18n miss' : 'console', l);
  const tuts = ['encoder', 'fundamentals', 'understanding', 'math', 'anatomy'].map((k) => msg(lang, `notes.tut.${k}`));
  const decoderWord = msg(lang, 'steps.section.decoder'), encoderWord = msg(lang, 'steps.section.encoder');
  for (const r of rows) {
    const at = `step ${r.i} ${r.id}`;
    for (const f of r.finds) say(/⟦/.test(f) ? 'raw key' : 'raw symbol', `${at}: …${f}…`);
    if (!r.title.trim()) say('untitled', `${at}: no title`);
    if (!r.note.trim()) say('no note', `${at}: no note`);
    else if (!tuts.some((tt) => r.note.includes(tt))) say('no tutorial', `${at}: the note names no tutorial: ${r.note.slice(0, 120)}`);
    if (r.crumbs.startsWith(decoderWord) && r.title.includes(encoderWord)) say('decoder called an encoder', `${at}: "${r.title}" in ${r.crumbs}`);
    // (the tutorial a note follows may have "Encoder" in its title)
    if (spec.family === 'gpt2' && /encoder/i.test((r.title + r.crumbs + r.note).replaceAll(msg(lang, 'notes.tut.encoder'), ''))) say('decoder called an encoder', `${at}: "${r.title}" / ${r.crumbs} / ${r.note.slice(0, 100)}`);
    if (lang === 'de') {
      if (!/^Schritt \d+ von \d+$/.test(r.counter)) say('untranslated', `${at}: counter "${r.counter}"`);
      if (r.note && !r.note.includes('Nach „')) say('untranslated', `${at}: no German tutorial line: ${r.note.slice(-80)}`);
      const en = english && english.find((e) => e.id === r.id);
      if (en && r.note && en.note === r.note) say('untranslated', `${at}: the note is the English one: ${r.note.slice(0, 80)}`);
    }
  }
  if (spec.family) checkpointProblems(spec, lang, rows, say);
  return bad;
}

// The checks only a checkpoint has: its own tokenizer, BERT's segments, GPT-2's pieces.
function checkpointProblems(spec, lang, rows, say) {
  const tok = rows.find((r) => r.id === 'token_ids');
  if (!tok) return say('token step', 'no token_ids step');
  const want = spec.family === 'gpt2' ? msg(lang, 'tokens.ckpt.bytes.name', { source: 'vocab.json + merges.txt' })
    : msg(lang, 'tokens.ckpt.wordpiece.name', { source: 'vocab.txt' });
  if (tok.rule !== want) say('wrong tokenizer', `the token step's heading is "${tok.rule}", not "${want}"`);
  for (const key of ['tokens.rule.whitespace.name', 'tokens.rule.regex.name', 'tokens.rule.chars.name', 'tokens.rule.bpe.name', 'tokens.skipped.none'])
    if (tok.tokenView.includes(msg(lang, key))) say('wrong tokenizer', `the token step says "${msg(lang, key)}"`);
  if (spec.family === 'gpt2' && !tok.chips.some((c) => c.startsWith('␣'))) say('raw symbol', `no GPT-2 chip shows the space mark ␣: ${tok.chips.join(' ')}`);
  // one sequence, no source and target: "Token ids (source)" is an encoder–decoder's title
  if (spec.family === 'gpt2' && tok.title !== msg(lang, 'steps.token_ids.decoderOnly')) say('decoder called an encoder', `the token step is titled "${tok.title}"`);
  if (spec.family === 'bert' && spec.text2) segmentProblems(lang, rows, tok, say);
}
function segmentProblems(lang, rows, tok, say) {
  const page = rows[0].page + rows[rows.length - 1].page;
  for (const key of ['tokens.padNote', 'shell.text2.summary', 'shell.text2.note', 'explain.tokens.pad'])
    if (page.includes(msg(lang, key)) || tok.tokenView.includes(msg(lang, key))) say('segment as padding', `"${msg(lang, key)}" on a BERT pair`);
  if (!tok.tokenView.includes(msg(lang, 'tokens.pairSegments'))) say('segment as padding', 'the token step does not explain segment B');
  const ids = rows.find((r) => r.id === 'token_type_ids'), emb = rows.find((r) => r.id === 'token_type_embedding');
  if (!ids || !emb) return say('segment', 'no token_type_ids / token_type_embedding step');
  if (!ids.explain.includes(msg(lang, 'explain.segment.value', { v: 0, s: 'A' })) || ids.explain.includes(lead(lang, 'explain.tokens.vocab')))
    say('segment explained as a vocabulary id', `token_type_ids's first cell: ${ids.explain.slice(0, 160)}`);
  if (!emb.explain.includes(msg(lang, 'explain.lookup.segment', { i: 0, s: 'A', id: 0 })))
    say('segment explained as a vocabulary id', `token_type_embedding's first cell: ${emb.explain.slice(0, 160)}`);
}

// The pages: the page's own preset list (its <select>), then the checkpoints; each en and de.
async function presetNames() {
  const page = await browser.newPage();
  await page.goto(base + 'index.html');
  await page.waitForFunction(() => window.encoderWalkthrough, null, { timeout: 30000 });
  await page.evaluate(() => window.encoderWalkthrough.ready);
  const names = await page.$$eval('#preset option', (os) => os.map((o) => o.value).filter((v) => v && !['checkpoint', 'user'].includes(v)));
  await page.close();
  return names;
}
const SPECS = [...(await presetNames()).map((p) => ({ name: p, query: `?preset=${p}` })), ...CHECKPOINTS.map((c) => ({ ...c, query: ckQuery(c) }))]
  .filter((s) => !only || s.name.includes(only));

// English walks every step of every spec. German walks every step of each checkpoint and of
// the presets that between them show every kind of step the English walks met (step ids with
// their numbers dropped; a greedy cover chosen from the English walks, so a preset with a new
// kind of step joins it by itself); the other presets' German walks stop after three steps (the
// whole page is scanned on the first and the last: the shell, the preset's description, the
// token step). The catalog's German keys are checked whole in Node (tests/web/i18n.mjs --all).
const stepKind = (id) => id.replace(/\d+/g, 'N');
function germanFull(specs, walks) {
  const full = new Set(specs.filter((s) => s.family).map((s) => s.name)), seen = new Set();
  for (;;) {
    let best = null, gain = 0;
    for (const s of specs.filter((x) => !full.has(x.name))) {
      const g = new Set(walks.get(s.name).en.rows.map((r) => stepKind(r.id)).filter((k) => !seen.has(k))).size;
      if (g > gain) { best = s; gain = g; }
    }
    if (!best) return full;
    full.add(best.name);
    for (const r of walks.get(best.name).en.rows) seen.add(stepKind(r.id));
  }
}
// Runs `fn(spec, page)` over `specs`, `jobs` at a time, each job on one page it reuses.
async function inJobs(context, specs, fn) {
  const queue = specs.slice();
  await Promise.all(Array.from({ length: jobs }, async () => {
    const page = await context.newPage();
    for (let s; (s = queue.shift());) await fn(s, page);
    await page.close();
  }));
}

const t0 = Date.now();
const walks = new Map();
const plantsOnly = process.argv.includes('--plants-only');
if (!plantsOnly) await check(`${SPECS.length} models (${SPECS.filter((s) => s.family).length} checkpoints), en and de: every step titled, noted, explained, translated; no ⟦, no i18n miss, no raw Ġ/▁, nothing named wrong`, async () => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  await inJobs(context, SPECS, async (s, page) => {
    const w = await walk(context, `${s.query}&lang=en`, 0, page);
    walks.set(s.name, { en: { ...w, problems: problemsOf(s, 'en', w, null) } });
  });
  const full = germanFull(SPECS, walks);
  await inJobs(context, SPECS, async (s, page) => {
    const w = await walk(context, `${s.query}&lang=de`, full.has(s.name) ? 0 : 3, page);
    walks.get(s.name).de = { ...w, problems: problemsOf(s, 'de', w, walks.get(s.name).en.rows) };
  });
  await context.close();
  console.log(`     German walked whole on ${[...full].join(', ')}; its first three steps elsewhere`);
  const lines = [];
  let steps = 0;
  for (const s of SPECS) {
    const w = walks.get(s.name);
    steps += w.en.rows.length + w.de.rows.length;
    for (const lang of ['en', 'de']) for (const p of w[lang].problems) lines.push(`${s.name} (${lang}): ${p}`);
  }
  console.log(`     ${steps} steps walked on ${SPECS.length * 2} pages in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  assert(!lines.length, `${lines.length} problems:\n  ${lines.slice(0, 14).join('\n  ')}`);
});

// Screenshots: the token step of each checkpoint family and a preset's step, en and de, 1280 and 390 px.
if (!only && !plantsOnly) await check('screenshots of each family’s token step (en, de; 1280 and 390 px)', async () => {
  const shots = [...CHECKPOINTS.filter((c) => c.name !== 'bert-cls').map((c) => [c.name, ckQuery(c), 'token_ids']),
    ['bert-segments', ckQuery(CHECKPOINTS[0]), 'token_type_ids'], ['preset-default', '?preset=default', 'token_ids']];
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  for (const [name, query, step] of shots)
    for (const lang of ['en', 'de']) {
      await page.setViewportSize({ width: 1280, height: 900 });
      await page.goto(`${base}index.html${query}&lang=${lang}&step=${step}`);
      await page.waitForFunction(() => window.encoderWalkthrough, null, { timeout: 30000 });
      await page.evaluate(() => window.encoderWalkthrough.ready);
      await page.waitForFunction((id) => (document.querySelector('#step-meta .meta-v.mono') || {}).textContent === id, step, { timeout: 30000 });
      for (const width of [1280, 390]) {
        await page.setViewportSize({ width, height: width > 800 ? 900 : 844 });
        await page.$eval('#step-title', (n) => n.scrollIntoView());
        await page.screenshot({ path: path.join(artifacts, `names-${name}-${lang}-${width}.png`) });
      }
    }
  await page.close();
});

// ---- must-fail runs: a planted defect in the served code must be reported by its check ----
// Each: [name, the spec walked, language, [pattern, replacement] on the served JavaScript,
// the check that must report it, the steps walked (0: all; the defect shows on the first few)].
// Patterns match the served, minified bundle too (esbuild renames functions: `this.style = pieceStyle(…)`
// is served as `this.style=_(…)`).
const enKey = (key) => new RegExp(`(['"]${key.replace(/\./g, '\\.')}['"]\\s*:\\s*)`);
const PLANTS = [
  ['a message key missing from the catalog', 'bert-mlm', 'en', [/(['"])steps\.token_type_ids\1(\s*:)/, "'steps.token_type_ids.planted'$2"], /\[raw key\][\s\S]*\[i18n miss\]|\[i18n miss\][\s\S]*\[raw key\]/, 3],
  ['GPT-2 pieces left raw (no piece style found)', 'gpt2-lm', 'en', [/(this\.style\s*=\s*)[\w$]+\(this\.text\.vocab\)/, "$1''"], /\[raw symbol\]/, 2],
  ['a checkpoint’s token step citing the whitespace tokenizer', 'distil-f16', 'en', [enKey('tokens.ckpt.wordpiece.name'), `$1${JSON.stringify(msg('en', 'tokens.rule.whitespace.name'))} || `], /\[wrong tokenizer\]/, 2],
  ['BERT’s segment B explained as padding', 'bert-cls', 'de', [enKey('tokens.pairSegments'), `$1${JSON.stringify(msg('de', 'tokens.padNote'))} || `], /\[segment as padding\]/, 3],
  ['GPT-2’s token step titled as an encoder–decoder’s source', 'gpt2-lm', 'de', [enKey('steps.token_ids.decoderOnly'), `$1${JSON.stringify(msg('de', 'steps.token_ids'))} || `], /\[decoder called an encoder\]/, 2],
  ['GPT-2’s output called an encoder’s', 'gpt2-lm', 'en', [enKey('steps.output.stack.final.decoderOnly'), `$1${JSON.stringify(msg('en', 'steps.output.stack.final'))} || `], /\[decoder called an encoder\]/, 0],
];
if (!process.argv.includes('--no-plants') && !only)
  for (const [what, name, lang, [re, rep], want, upTo] of PLANTS)
    await check(`must fail: ${what} is reported`, async () => {
      const spec = SPECS.find((s) => s.name === name) || CHECKPOINTS.find((c) => c.name === name);
      const context = await browser.newContext();
      let planted = 0;
      await context.route(/\.m?js(\?|$)/, async (route) => {
        // (a module the page loads late may still be in flight when the context closes)
        try {
          const resp = await route.fetch();
          const body = await resp.text();
          const out = body.replace(new RegExp(re.source, 'g'), rep);   // every language's catalog (one bundle may hold several)
          if (out !== body) planted++;
          await route.fulfill({ response: resp, body: out });
        } catch { /* the context is gone */ }
      });
      const w = await walk(context, `${spec.query || ckQuery(spec)}&lang=${lang}`, upTo);
      await context.unrouteAll({ behavior: 'ignoreErrors' });
      await context.close();
      assert(planted > 0, `the plant's pattern ${re} is not in the served code: nothing was planted`);
      const problems = problemsOf(spec, lang, w, null);
      assert(want.test(problems.join('\n')), `the planted defect was not reported as ${want}; problems: ${problems.slice(0, 4).join(' / ') || 'none'}`);
      console.log(`     reported: ${problems.find((p) => want.test(p)) || problems[0]}`.slice(0, 220));
    });

await browser.close();
server.close();
const r = results();
console.log(`names: ${r.passed} passed, ${r.failed} failed (${((Date.now() - t0) / 1000).toFixed(0)} s)`);
process.exit(r.failed ? 1 : 0);
