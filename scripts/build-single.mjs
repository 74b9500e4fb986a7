#!/usr/bin/env node
// build-single.mjs — dist/encoder-walkthrough.html: the whole page in ONE file that works opened
// from disk (file://) with no network, for any blog's static folder. From the built site:
//   - the page's modules bundled by esbuild into one inline script; the engine Worker bundled
//     into a string and started from a blob (a file:// page can load neither modules nor a
//     Worker file), with the wasm inlined gzip'd + base64 (DecompressionStream unpacks it) and
//     the shipped models (dist/models/) base64, handed to the module as it starts;
//   - KaTeX's script inline, and its CSS with only the fonts the formulas actually use
//     (every formula of every preset and of a few configurations, rendered by KaTeX here),
//     woff2 only, as data: URLs;
//   - a CSP as strict as the site's: the inline script and style allowed by their hashes.
//
//   node scripts/build-single.mjs [--dist dist] [--node-module build/wasm/node/encoder_walkthrough_node.js]
import { readFileSync, writeFileSync, existsSync, readdirSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { createRequire } from 'node:module';
import path from 'node:path';
import { allFormulas } from './formulas.mjs';
import process from 'node:process';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const arg = (name, def) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : def;
};
const dist = path.resolve(root, arg('--dist', 'dist'));
const nodeModule = path.resolve(root, arg('--node-module', 'build/wasm/node/encoder_walkthrough_node.js'));
// The SIMD128 module whole: dist/ serves it split in two (wasm/tools/split.mjs); this page inlines it
// unsplit (a file:// page cannot fetch a deferred half).
const wholeWasm = path.resolve(root, arg('--wasm', existsSync(path.join(root, 'build/wasm/encoder_walkthrough.whole.wasm'))
  ? 'build/wasm/encoder_walkthrough.whole.wasm' : path.join(dist, 'encoder_walkthrough.wasm')));
const require = createRequire(import.meta.url);
const esbuild = require('esbuild');
const katex = require('katex');
const KATEX = path.join(root, 'node_modules/katex/dist');
for (const f of [path.join(dist, 'index.html'), wholeWasm, nodeModule]) {
  if (!existsSync(f)) {
    console.error(`build-single: ${f} is missing (build the wasm preset first)`);
    process.exit(1);
  }
}

// ---- the engine Worker, as a string ------------------------------------------------------------
async function workerSource() {
  const wasm = readFileSync(wholeWasm);
  const packed = gzipSync(wasm, { level: 9 }).toString('base64');
  const modelDir = path.join(dist, 'models');
  const models = existsSync(modelDir) ? readdirSync(modelDir).filter((f) => f.endsWith('.safetensors')).sort()
    .map((f) => [f.replace(/\.safetensors$/, ''), readFileSync(path.join(modelDir, f)).toString('base64')]) : [];
  const loader = `
import factory from ${JSON.stringify(path.join(dist, 'encoder_walkthrough.js'))};
const PACKED = ${JSON.stringify(packed)};
async function wasmBinary() {
  const bytes = Uint8Array.from(atob(PACKED), (c) => c.charCodeAt(0));
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream('gzip'));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}
// The shipped models (the page's builds fetch them from models/, which a file:// page cannot):
// handed to the module before any run (core/io/builtin_models.h).
const MODELS = ${JSON.stringify(models)};
// locateFile: the module asks for its .wasm path even when given the bytes (never fetched).
export default async function (opts) {
  const M = await factory({ ...opts, locateFile: (p) => p, wasmBinary: await wasmBinary() });
  for (const [name, b64] of MODELS) M.loadBuiltinModel(name, Uint8Array.from(atob(b64), (c) => c.charCodeAt(0)));
  return M;
}`;
  // The page picks relaxed SIMD → SIMD128 → scalar (builds.js); this file carries SIMD128 only.
  const oneBuild = `
import factory from 'wasm-loader';
export function loadBuild(b) {
  if (b !== 'simd') return Promise.reject(new Error('the single-file page carries the SIMD128 build only'));
  return Promise.resolve({ default: factory });
}`;
  const r = await esbuild.build({
    entryPoints: [path.join(root, 'web/js/engine/worker.js')], bundle: true, format: 'iife', minify: true, write: false,
    logLevel: 'error', supported: { 'import-meta': false },
    plugins: [{
      name: 'inline-wasm',
      setup(b) {
        b.onResolve({ filter: /encoder_walkthrough\.js$/ }, (a) => (a.importer.endsWith('worker.js') ? { path: 'wasm-loader', namespace: 'single' } : null));
        b.onLoad({ filter: /^wasm-loader$/, namespace: 'single' }, () => ({ contents: loader, resolveDir: dist, loader: 'js' }));
        b.onResolve({ filter: /load-build\.js$/ }, () => ({ path: 'load-build', namespace: 'single' }));
        b.onResolve({ filter: /^wasm-loader$/ }, () => ({ path: 'wasm-loader', namespace: 'single' }));
        b.onLoad({ filter: /^load-build$/, namespace: 'single' }, () => ({ contents: oneBuild, resolveDir: dist, loader: 'js' }));
      },
    }],
  });
  return { code: r.outputFiles[0].text, wasm: wasm.length, packed: packed.length };
}

// ---- the page's modules, with the Worker started from a blob -------------------------------------
async function pageSource(worker) {
  const engine = `
import { EngineClient as Base } from ${JSON.stringify(path.join(root, 'web/js/engine/engine.js'))};
const SOURCE = ${JSON.stringify(worker)};
export class EngineClient extends Base {
  constructor() {
    super(() => new Worker(URL.createObjectURL(new Blob([SOURCE], { type: 'text/javascript' }))));
  }
}`;
  const r = await esbuild.build({
    entryPoints: [path.join(root, 'web/js/page/main.js')], bundle: true, format: 'iife', minify: true, write: false,
    logLevel: 'error',
    plugins: [{
      name: 'blob-worker',
      setup(b) {
        b.onResolve({ filter: /^\.\.\/engine\/engine\.js$/ }, (a) => (a.importer.endsWith(path.join('page', 'main.js')) ? { path: 'engine', namespace: 'single' } : null));
        b.onLoad({ filter: /^engine$/, namespace: 'single' }, () => ({ contents: engine, resolveDir: path.join(root, 'web/js/page'), loader: 'js' }));
      },
    }],
  });
  return r.outputFiles[0].text;
}

// ---- the KaTeX fonts the formulas use (scripts/formulas.mjs: every formula the presets show) -----------
// KaTeX's CSS rules that set a font family: [{classes, family, weight, style}].
function fontRules(css) {
  const rules = [];
  for (const m of css.matchAll(/([^{}]+)\{([^{}]*font-family:\s*"?(KaTeX_\w+)[^{}]*)\}/g)) {
    if (m[1].includes('@font-face')) continue;
    const weight = /font-weight:\s*(bold|700)/.test(m[2]) ? '700' : '400';
    const style = /font-style:\s*italic/.test(m[2]) ? 'italic' : 'normal';
    // Each compound selector (".delimsizing.size3") as the classes one element must carry.
    for (const sel of m[1].split(',')) {
      const compounds = sel.split(/[\s>+~]+/).map((c) => [...c.matchAll(/\.([\w-]+)/g)].map((x) => x[1])).filter((c) => c.length);
      rules.push({ compounds, family: m[3], weight, style });
    }
  }
  return rules;
}

// "family|weight|style" of every face a rendered formula can use: a rule counts when each of
// its compound selectors is matched by some element of the formula's HTML (ancestry is not
// checked, so this may keep a face too many, never one too few).
async function usedFaces(css) {
  const rules = fontRules(css);
  const used = new Set(['KaTeX_Main|400|normal']);
  for (const f of await allFormulas(nodeModule)) {
    const html = katex.renderToString(f, { displayMode: true, throwOnError: false, output: 'html', strict: 'ignore' });
    const elements = [...html.matchAll(/class="([^"]*)"/g)].map((m) => new Set(m[1].split(/\s+/)));
    const matches = (compound) => compound.every((c) => c === 'katex') || elements.some((e) => compound.every((c) => c === 'katex' || e.has(c)));
    for (const r of rules) if (r.compounds.every(matches)) used.add(`${r.family}|${r.weight}|${r.style}`);
  }
  return used;
}

async function katexCss() {
  const css = readFileSync(path.join(KATEX, 'katex.min.css'), 'utf8');
  const used = await usedFaces(css);
  const kept = [];
  const out = css.replace(/@font-face\{([^}]*)\}/g, (all, body) => {
    const family = /font-family:"?(KaTeX_\w+)/.exec(body)[1];
    const weight = /font-weight:(\w+)/.exec(body)[1].replace('bold', '700').replace('normal', '400');
    const style = /font-style:(\w+)/.exec(body)[1];
    if (!used.has(`${family}|${weight}|${style}`)) return '';
    const file = /url\((fonts\/[^)]+\.woff2)\)/.exec(body)[1];
    kept.push(path.basename(file));
    const data = readFileSync(path.join(KATEX, file)).toString('base64');
    return `@font-face{${body.replace(/src:[^;}]*/, `src:url(data:font/woff2;base64,${data}) format("woff2")`)}}`;
  });
  return { css: out, fonts: kept };
}

// ---- the page ------------------------------------------------------------------------------------------
const sha = (s) => `'sha256-${createHash('sha256').update(s, 'utf8').digest('base64')}'`;
// Inline text must not close its element early.
const safe = (s, tag) => s.replace(new RegExp(`</${tag}`, 'gi'), `<\\/${tag}`);

// The Node flavor of the module reports any later exception with its whole source: stop first.
process.on('uncaughtException', (e) => { console.error(`build-single: ${e.message}`); process.exit(1); });
const worker = await workerSource();
const page = await pageSource(worker.code);
const kx = await katexCss();
const css = safe([kx.css, ...['style.css', 'step.css', 'dark.css', 'figure.css'].map((f) => readFileSync(path.join(dist, 'css', f), 'utf8'))].join('\n'), 'style');
const katexJs = safe(readFileSync(path.join(KATEX, 'katex.min.js'), 'utf8'), 'script');
const mainJs = safe(page, 'script');
const csp = `default-src 'none'; script-src ${sha(katexJs)} ${sha(mainJs)} 'wasm-unsafe-eval'; worker-src blob:; connect-src 'self' https:; style-src ${sha(css)}; font-src data:; img-src data:; base-uri 'none'; form-action 'none'`;
let html = readFileSync(path.join(dist, 'index.html'), 'utf8');
html = html.replace('<html lang="en">', '<html lang="en" data-single-file>');
html = html.replace(/<!-- Strict policy:[\s\S]*?-->\n/, '<!-- The single-file build (scripts/build-single.mjs): everything inline, allowed by hash. -->\n');
// (Replacement functions, not strings: a string's "$&" or "$'" would be expanded.)
html = html.replace(/<meta http-equiv="Content-Security-Policy" content="[^"]*">/, () => `<meta http-equiv="Content-Security-Policy" content="${csp}">`);
html = html.replace(/<link rel="stylesheet" href="[^"]*">\n/g, '').replace(/<script [^>]*><\/script>\n/g, '');
html = html.replace('</head>', () => `<style>${css}</style>\n</head>`);
html = html.replace('</body>', () => `<script>${katexJs}</script>\n<script>${mainJs}</script>\n</body>`);
const out = path.join(dist, 'encoder-walkthrough.html');
writeFileSync(out, html);
const kb = (n) => `${(n / 1024).toFixed(0)} KiB`;
console.log(`${path.relative(root, out)}: ${kb(Buffer.byteLength(html))} (wasm ${kb(worker.wasm)} → gzip+base64 ${kb(worker.packed)}; ` +
  `page ${kb(page.length)}, engine worker ${kb(worker.code.length)}; KaTeX fonts kept: ${kx.fonts.length} (${kx.fonts.join(', ')}))`);
