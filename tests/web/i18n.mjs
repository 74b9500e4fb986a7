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
import { CATALOGS, LANG_NAMES, chooseLang, setLang, t, num, fill } from '../../web/js/lib/i18n.js';

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
