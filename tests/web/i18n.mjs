// i18n.mjs — the message catalog (web/js/lib/i18n.js) in Node, no browser: every language has
// exactly English's keys, each area file holds only its own area's keys, the same
// placeholders per key in every language, function messages callable with their params, no
// empty message; and a static scan of the page's modules for reader-visible English written
// into the code instead of the catalog (el(…, 'text'), textContent =, title =, aria-label …).
//
//   node tests/web/i18n.mjs            catalog checks + the scan; fails on the UI files' hits
//                                      (UI_FILES below), reports every other file's
//   node tests/web/i18n.mjs --all      fails on a hit in any file (after every area is converted)
import { readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import process from 'node:process';
import { root, checks, assert } from '../harness.mjs';
import { CATALOGS, LANG_NAMES, chooseLang, setLang, t, num, fill, loadAllLangs } from '../../web/js/lib/i18n.js';

await loadAllLangs(); // every catalog (the page fetches a language's when it is asked for)

const { check, results } = checks(6);
const ALL = process.argv.includes('--all');

// ---- the catalogs ------------------------------------------------------------------------------
// The placeholders a message uses: {name} of a string, the destructured params of a function.
function placeholders(m) {
  if (typeof m === 'string') return [...new Set([...m.matchAll(/\{(\w+)\}/g)].map((x) => x[1]))].sort();
  const src = String(m);
  const d = src.match(/^\s*\(\s*\{([^}]*)\}\s*\)\s*=>/);
  if (!d) throw new Error(`a function message must take one destructured object, ({a, b}) => …: ${src.slice(0, 60)}`);
  return d[1].split(',').map((s) => s.trim().split(/[\s=:]/)[0]).filter(Boolean).sort();
}
const langs = Object.keys(CATALOGS);
const EN = CATALOGS.en;

await check('two languages, each named in itself', async () => {
  assert(langs.length >= 2 && langs.includes('en') && langs.includes('de'), `languages: ${langs}`);
  for (const l of langs) assert(LANG_NAMES[l], `no name for ${l}`);
});

await check('every language has exactly the keys English has', async () => {
  for (const l of langs) {
    const missing = Object.keys(EN).filter((k) => !(k in CATALOGS[l]));
    const extra = Object.keys(CATALOGS[l]).filter((k) => !(k in EN));
    assert(!missing.length && !extra.length, `${l}: missing ${missing.join(', ') || '-'}; extra ${extra.join(', ') || '-'}`);
  }
});

await check('each area file (i18n/<lang>/<area>.js) has a counterpart in every language and only keys <area>.*', async () => {
  const dir = path.join(root, 'web/js/lib/i18n');
  const files = (l) => readdirSync(path.join(dir, l)).filter((f) => f.endsWith('.js')).sort();
  for (const l of langs) assert(files(l).join() === files('en').join(), `${l} has areas ${files(l)}, en has ${files('en')}`);
  for (const l of langs)
    for (const f of files(l)) {
      const area = f.replace(/\.js$/, '');
      const msgs = (await import(path.join(dir, l, f))).default;
      const prefix = area === 'core' ? 'i18n.' : `${area}.`;
      const wrong = Object.keys(msgs).filter((k) => !k.startsWith(prefix));
      assert(!wrong.length, `${l}/${f}: keys outside the area: ${wrong.join(', ')}`);
      for (const k of Object.keys(msgs)) assert(CATALOGS[l][k] === msgs[k], `${l}/${f}: ${k} is not in the assembled catalog (i18n/${l}.js)`);
    }
});

await check('the same placeholders per key in every language', async () => {
  const bad = [];
  for (const k of Object.keys(EN))
    for (const l of langs) {
      const a = placeholders(EN[k]).join(), b = placeholders(CATALOGS[l][k]).join();
      if (a !== b) bad.push(`${k}: en {${a}} vs ${l} {${b}}`);
    }
  assert(!bad.length, bad.join('\n'));
});

await check('no empty message; function messages give a full string for their params', async () => {
  const bad = [];
  for (const l of langs)
    for (const [k, m] of Object.entries(CATALOGS[l])) {
      if (typeof m === 'string') {
        if (!m.trim()) bad.push(`${l} ${k}: empty`);
        continue;
      }
      // Each param tried as 1, 2, true, false and a word: no 'undefined', no NaN, nothing empty.
      for (const v of [1, 2, true, false, 'x']) {
        const params = Object.fromEntries(placeholders(m).map((p) => [p, v]));
        const out = m(params);
        if (typeof out !== 'string' || !out.trim() || /undefined|NaN|\[object/.test(out)) bad.push(`${l} ${k}(${v}): ${JSON.stringify(out)}`);
      }
    }
  assert(!bad.length, bad.join('\n'));
});

await check('t() fills placeholders, picks plurals, marks a missing key ⟦key⟧; num() uses the locale', async () => {
  setLang('en', null);
  assert(t('form.summary.heads', { n: 1 }) === '1 head' && t('form.summary.heads', { n: 4 }) === '4 heads', t('form.summary.heads', { n: 4 }));
  assert(t('export.saved', { name: 'a.csv', bytes: 12 }) === 'saved a.csv (12 bytes)', t('export.saved', { name: 'a.csv', bytes: 12 }));
  assert(num(1234.5, 1) === '1,234.5', num(1234.5, 1));
  setLang('de', null);
  assert(t('form.summary.heads', { n: 1 }) === '1 Kopf' && t('form.summary.heads', { n: 4 }) === '4 Köpfe', t('form.summary.heads', { n: 4 }));
  assert(num(1234.5, 1) === '1.234,5', `German number: ${num(1234.5, 1)}`);
  const origError = console.error;
  console.error = () => {};
  try {
    assert(t('nope.nothing') === '⟦nope.nothing⟧', t('nope.nothing'));
  } finally {
    console.error = origError;
  }
  assert(fill('a {x} {y}', { x: 1 }) === 'a 1 {y}', 'fill');
  setLang('en', null);
});

await check('chooseLang: lang= first, then the browser, then English; a bad lang= is reported', async () => {
  const c = (s, p) => chooseLang(s, p);
  assert(c('?lang=de', ['en-US']).lang === 'de' && c('?lang=de', []).fromURL, 'lang=de');
  assert(c('?lang=DE', []).lang === 'de', 'case');
  assert(c('', ['de-AT', 'en']).lang === 'de' && !c('', ['de-AT']).fromURL, 'browser de-AT');
  assert(c('', ['fr-FR', 'de']).lang === 'de', 'second preference');
  assert(c('', ['fr-FR']).lang === 'en' && c('', []).lang === 'en', 'fallback');
  const bad = c('?lang=xx', ['en-US']);
  assert(bad.lang === 'en' && bad.bad === 'xx' && !bad.fromURL, JSON.stringify(bad));
  assert(c('?lang=<script>', ['de']).lang === 'de' && c('?lang=<script>', ['de']).bad === '<script>', 'bad value with a German browser');
});

// ---- the German glossary: one term per concept -------------------------------------------------
// One German rendering of each English term (../shared/reviews/german-catalog.md, "One term
// each"): `de` is the term the catalog uses; `not` the other renderings a translator reaches for.
// Two rules, checked over every message (a function message rendered with several params):
//   - no German message uses another rendering (`not`) — so no term is rendered two ways;
//   - a message whose English has the term has the German term too, except the keys in
//     `except` (each with the reason the German says it otherwise) — so no third, unlisted
//     rendering slips in.
// `gloss`: the keys where the other rendering is allowed as a one-time explanation.
const WORD = '[A-Za-zÄÖÜäöüß]';
const GLOSSARY = [
  { term: 'engine', en: /\bengine\b/i, de: /Rechenkern/, not: [/\bEngine\b/, /Rechenmaschine/, /\bMaschine\b/] },
  { term: 'walkthrough', en: /\bwalkthrough\b/i, de: /[Ww]alkthrough/, not: [/Durchgang/] },
  { term: 'batch', en: /\bbatch\b/i, de: /Batch/, not: [/Stapel/] },
  { term: 'preset', en: /\bpresets?\b/i, de: /Voreinstellung/, not: [/\bPresets?\b/] },
  { term: 'tokenizer', en: /\btokeni[sz]er\b/i, de: /Tokenizer/, not: [/Tokenisierer/] },
  { term: 'merges (BPE)', en: /\bmerges?\b/i, de: /Merge/, not: [/Zusammenführung/, /[Vv]erschmelzung/] },
  { term: 'byte-pair encoding', en: /byte-pair encoding/i, de: /Byte-Pair-Encoding/, not: [/Byte-Pair-Kodierung/, /Bytepaar/] },
  { term: 'padding', en: /\bpadding\b/i, de: /Padding/, not: [/Auffüllung/, /\bAuffüllen\b/] },
  { term: 'multi-head', en: /\bmulti-head\b/i, de: /Mehrkopf-/, not: [/[Mm]ehrköpfig/] },
  { term: 'final LayerNorm', en: /\bfinal LayerNorm\b/i, de: /[Aa]bschließende LayerNorm/, not: [/[Ll]etzte (?:LayerNorm|Schichtnormalisierung)/] },
  { term: 'LayerNorm', en: /LayerNorm/, de: /LayerNorm/, not: [/Schichtnormalisierung/], gloss: ['notes.mean.why'] },
  { term: 'softmax (die Softmax)', en: /\bsoftmax\b/i, de: /[Ss]oftmax/, not: [/\b(?:dem|des|den|ein|eines|einem|Ein|Der)\s+Softmax\b(?!-)/] },
  { term: 'attend to', en: /\battend(?:s|ed|ing)?\b/i, de: /beacht/, not: [/\b(?:achtet|achten)\b/] },
  { term: 'weight decay', en: /\bweight decay\b/i, de: /Weight Decay/, not: [/Gewichtsabnahme/, /Gewichtsverfall/] },
  { term: 'trace (in prose)', en: /\btrace\b/, de: /Aufzeichnung/, not: [/\bTrace\b/] },
  { term: 'ID', en: /\bids?\b/i, de: /\bIDs?\b/, not: [/\bids?\b/] },
  { term: '[MASK] position', en: /\[MASK\]/, de: /\[MASK\]/, not: [/\b(?:jeder|jede|des|das|dem)\s+\[MASK\](?![-\]])/] },
  // "Token" is neuter: "die"/"den" before it (an adjective between allowed) is a plural, which is "Tokens".
  { term: 'tokens (plural: Tokens)', en: /\btokens\b/i, de: /[Tt]okens\b/,
    not: [new RegExp(String.raw`\b(?:die|den)\s+(?:${WORD}+(?:e|en)\s+)?${WORD}*[Tt]oken\b(?![-s])`)],
    except: {
      'notes.tokens.fact': 'a plural function: "1 Token" for n = 1, "n Tokens" otherwise (the check renders it with n = 1 too)',
    } },
];
// Every German rendering of a message (a function with several sets of params), placeholders out.
function renderings(m) {
  if (typeof m === 'string') return m.replace(/\{\w+\}/g, ' ');
  return [1, 2, 7, true, false].map((v) => m(Object.fromEntries(placeholders(m).map((p) => [p, v])))).join(' | ');
}
export function glossaryProblems(en, de, glossary = GLOSSARY) {
  const out = [];
  for (const g of glossary) {
    const used = new Map();
    for (const [k, m] of Object.entries(de)) {
      const text = renderings(m);
      for (const re of g.not)
        if (re.test(text) && !(g.gloss || []).includes(k)) used.set(k, text.match(re)[0]);
      if (en[k] !== undefined && g.en.test(renderings(en[k])) && !g.de.test(text) && !(g.except && g.except[k]))
        out.push(`${g.term}: ${k} has "${renderings(en[k]).match(g.en)[0]}" in English, no ${g.de} in German: ${text.slice(0, 160)}`);
    }
    for (const [k, w] of used) out.push(`${g.term}: rendered as "${w}" in ${k} (the catalog's term: ${g.de})`);
  }
  return out;
}

await check('the German glossary: one rendering per English term, and the term wherever the English has it', async () => {
  const bad = glossaryProblems(EN, CATALOGS.de);
  assert(!bad.length, `${bad.length} problems:\n${bad.join('\n')}`);
});

await check('the glossary check fails on a planted second rendering, on a term left out, and on a plural "die Token"', async () => {
  const de = CATALOGS.de;
  const key = Object.keys(de).find((k) => typeof de[k] === 'string' && /Rechenkern/.test(de[k]));
  const second = glossaryProblems(EN, { ...de, [key]: de[key].replace('Rechenkern', 'Engine') });
  assert(second.some((p) => p.startsWith('engine: rendered as "Engine"')), `"Engine" for "Rechenkern" in ${key} passed: ${second}`);
  const k2 = Object.keys(EN).find((k) => typeof EN[k] === 'string' && /\bengine\b/i.test(EN[k]) && typeof de[k] === 'string');
  const gone = glossaryProblems(EN, { ...de, [k2]: de[k2].replace(/Rechenkern\w*/g, 'Motor') });
  assert(gone.some((p) => p.startsWith(`engine: ${k2} has`)), `"Motor" for "Rechenkern" in ${k2} passed: ${gone}`);
  const plural = glossaryProblems(EN, { ...de, 'notes.tokens.why': 'Der Satz wird in die einzelnen Token zerlegt.' });
  assert(plural.some((p) => p.includes('"die einzelnen Token"')), `"die einzelnen Token" passed: ${plural}`);
});

// ---- the static scan ---------------------------------------------------------------------------
// The files the ui engineer converted (issue 11, item 8): a hit in one of these fails.
const UI_FILES = ['page/form.js', 'train/train-panel.js', 'page/generate.js', 'train/plot.js', 'page/weights-io.js', 'embed/export-menu.js', 'embed/export.js',
  'page/figure.js', 'embed/embed-params.js', 'embed/component-view.js', 'view/matrix/overview.js', 'train/heads-mini.js', 'page/run-options.js', 'page/api.js',
  'engine/builds.js', 'engine/load-build.js', 'page/language.js', '../component.js', '../embed.js'].map((f) => path.normalize(path.join('web/js', f)));

// A string literal (quotes kept): '…', "…" or `…` (whose ${…} parts are dropped below).
const LIT = String.raw`('(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*"|\x60(?:[^\x60\\]|\\.)*\x60)`;
const PATTERNS = [
  ['el(…, text)', new RegExp(String.raw`\bel\(\s*${LIT}\s*,\s*${LIT}\s*,\s*${LIT}`, 'g'), 3],
  ['textContent =', new RegExp(String.raw`\.textContent\s*\+?=\s*${LIT}`, 'g'), 1],
  ['title =', new RegExp(String.raw`\.title\s*=\s*${LIT}`, 'g'), 1],
  ['setAttribute(label)', new RegExp(String.raw`setAttribute\(\s*'(?:aria-label|title|placeholder|alt)'\s*,\s*${LIT}`, 'g'), 1],
  ["'aria-label':", new RegExp(String.raw`'aria-label'\s*:\s*${LIT}`, 'g'), 1],
  ['notice/error', new RegExp(String.raw`\b(?:showNotice|appendNotice|showError)\(\s*${LIT}`, 'g'), 1],
];
// Words that are the same in every language: identifiers, units, format names.
const ALLOW = new Set(['d_model', 'd_ff', 'd_k', 'ReLU', 'GELU', 'SVG', 'PNG', 'CSV', 'JSON', 'NumPy', 'LaTeX', 'npy', 'px', 'ms']);

// The English a literal shows: the words left once ${…} and allowed words are taken out ('' if none).
export function englishIn(literal) {
  const body = withoutInterpolations(literal.slice(1, -1));
  const words = body.match(/[A-Za-z_][A-Za-z_']*/g) || [];
  return words.filter((w) => w.length >= 3 && !ALLOW.has(w)).join(' ');
}
// The text of a template literal without its ${…} parts (balanced braces; an interpolation the
// literal pattern cut short, at a nested template, runs to the end).
function withoutInterpolations(s) {
  let out = '', depth = 0;
  for (let i = 0; i < s.length; i++) {
    if (depth === 0 && s[i] === '$' && s[i + 1] === '{') {
      depth = 1;
      i++;
      out += ' ';
    } else if (depth > 0) depth += s[i] === '{' ? 1 : s[i] === '}' ? -1 : 0;
    else out += s[i];
  }
  return out;
}
// Every hit in `src`: [{line, what, text}].
export function scanSource(src) {
  const hits = [];
  const code = src.replace(/^\s*\/\/.*$/gm, (m) => ' '.repeat(m.length)); // whole-line comments out
  for (const [what, re, group] of PATTERNS)
    for (const m of code.matchAll(re)) {
      const english = englishIn(m[group]);
      if (english) hits.push({ line: code.slice(0, m.index).split('\n').length, what, text: m[group].slice(0, 80) });
    }
  return hits.sort((a, b) => a.line - b.line);
}

function pageModules() {
  const out = [];
  const walk = (d) => {
    for (const f of readdirSync(path.join(root, d))) {
      const p = path.join(d, f);
      if (statSync(path.join(root, p)).isDirectory()) {
        if (p !== path.join('web/js/lib/i18n') && f !== 'vendor') walk(p);
      } else if (f.endsWith('.js') && p !== path.join('web/js/lib/i18n.js')) out.push(p);
    }
  };
  walk('web/js');
  return [...out, 'web/component.js', 'web/embed.js'].sort();
}

await check('the scan finds a planted English string in each pattern (it can fail)', async () => {
  const planted = [
    "b.append(el('span', 'muted', 'Click here to start'));",
    "x.textContent = `Step ${i} of the walkthrough`;",
    "b.title = 'Open the menu';",
    "svg.setAttribute('aria-label', 'Training loss');",
    "s('svg', { 'aria-label': `head ${h}` });",
    "showNotice('The weights were loaded.');",
  ];
  for (const line of planted) assert(scanSource(line).length === 1, `not found: ${line}`);
  const clean = ["el('span', 'muted', t('x.y'))", "x.textContent = `${t('a')} · ${n}`;", "el('span', '', ' → ')", "el('td', 'mono', 'd_model')",
    "b.title = '';", "// el('span', '', 'a comment')"];
  for (const line of clean) assert(scanSource(line).length === 0, `flagged: ${line} → ${JSON.stringify(scanSource(line))}`);
});

await check(`no hard-coded reader-visible English in ${ALL ? 'any page module' : "the UI modules (others: reported)"}`, async () => {
  const failing = [];
  let reported = 0;
  for (const f of pageModules()) {
    const hits = scanSource(readFileSync(path.join(root, f), 'utf8'));
    if (!hits.length) continue;
    const counts = ALL || UI_FILES.includes(path.normalize(f));
    if (counts) failing.push(f);
    else reported += hits.length;
    console.log(`     ${counts ? 'HIT ' : 'note'} ${f}: ${hits.length} string${hits.length === 1 ? '' : 's'} not from the catalog`);
    for (const h of hits.slice(0, counts ? 50 : 3)) console.log(`          ${f}:${h.line} ${h.what} ${h.text}`);
  }
  if (reported) console.log(`     (${reported} strings in files of other areas: reported, not failed; --all fails on them)`);
  assert(!failing.length, `hard-coded English in ${failing.join(', ')}`);
});

const { passed, failed } = results();
console.log(`i18n: ${failed ? `${failed} FAILED, ` : ''}${passed} passed`);
process.exit(failed ? 1 : 0);
