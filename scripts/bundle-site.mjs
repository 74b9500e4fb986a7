#!/usr/bin/env node
// bundle-site.mjs — turns the copied site (wasm/copy_site.cmake: web/ → DIST) into what a first
// visit can afford (issue 29, item 2): few requests, few bytes.
//   - the ES modules bundled by esbuild into one file per entry (page, Worker, engine iframe,
//     web component), each at its source's path so that relative URLs (worker.js, the wasm
//     builds, locateFile) hold, with the code two entries share split into js/chunks/ — so a
//     module the tests import from the page (app.js, step-card.js, i18n.js, titles.js) is the
//     same instance the page runs; the unbundled modules are then removed from DIST;
//   - the page's stylesheets concatenated into css/page.css (one request instead of seven);
//   - offline-manifest.json: the files the service worker (web/sw.js) caches on install — the
//     page's shell only (what the default page loads before its engine; the build it runs, the
//     shipped model, KaTeX or a figure's formulas-mathml.js are named by the page afterwards), with a version made of
//     the hashes of every file of the site;
//   - the wasm builds' glue minified (whitespace and syntax: the -O1 links leave it as written);
//   - a gzip copy (FILE.gz, level 9) beside every compressible file, for scripts/serve.mjs (and
//     any static host that serves precompressed files).
//
//   node scripts/bundle-site.mjs DIST [--no-bundle]   (--no-bundle: only the manifest and .gz)
import { readFileSync, writeFileSync, readdirSync, statSync, rmSync, existsSync, rmdirSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { createRequire } from 'node:module';
import path from 'node:path';
import process from 'node:process';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const dist = path.resolve(process.argv[2] || path.join(root, 'dist'));
const bundle = !process.argv.includes('--no-bundle');

// Entries, relative to web/ (= DIST). The last four are entries only so that they stay modules
// of their own that tests can import from the page (tests/browser/{run,notes,a11y}.mjs).
const PAGE = 'js/page/main.js';
const WORKER = 'js/engine/worker.js';
const ENTRIES = [PAGE, WORKER, 'js/engine/engine-host.js', 'component.js',
  'js/page/app.js', 'js/page/step-card.js', 'js/lib/i18n.js', 'js/model/titles.js'];
// The page's stylesheets, in the order of web/index.html, merged into one.
const PAGE_CSS = 'css/page.css';
const COMPRESS = /\.(html|js|mjs|css|json|wasm|svg|txt|md|safetensors|ttf|woff)$/;

function walk(dir, rel = '') {
  const out = [];
  for (const name of readdirSync(path.join(dir, rel)).sort()) {
    const r = rel ? `${rel}/${name}` : name;
    if (statSync(path.join(dir, r)).isDirectory()) out.push(...walk(dir, r));
    else out.push(r);
  }
  return out;
}

// esbuild: every entry at its own path; returns the output files (relative to DIST) and, for
// each, the outputs it imports statically (the metafile).
async function bundleModules() {
  const esbuild = createRequire(import.meta.url)('esbuild');
  const r = await esbuild.build({
    entryPoints: ENTRIES.map((e) => path.join(root, 'web', e)), outbase: path.join(root, 'web'), outdir: dist,
    bundle: true, splitting: true, format: 'esm', minify: true, target: 'es2020', metafile: true,
    chunkNames: 'js/chunks/[name]-[hash]', allowOverwrite: true, logLevel: 'error', legalComments: 'none',
    absWorkingDir: root, // the metafile's paths are relative to it
  });
  const outputs = {};
  for (const [file, o] of Object.entries(r.metafile.outputs)) {
    outputs[path.relative(dist, path.resolve(root, file))] =
      o.imports.filter((i) => i.kind === 'import-statement').map((i) => path.relative(dist, path.resolve(root, i.path)));
  }
  return outputs;
}

// The unbundled modules (everything under js/ that esbuild did not write), and emptied folders.
function removeSources(outputs) {
  for (const f of walk(dist, 'js')) if (f.endsWith('.js') && !(f in outputs)) rmSync(path.join(dist, f));
  const prune = (d) => {
    for (const n of readdirSync(d)) if (statSync(path.join(d, n)).isDirectory()) prune(path.join(d, n));
    if (readdirSync(d).length === 0) rmdirSync(d);
  };
  prune(path.join(dist, 'js'));
}

// index.html's <link rel="stylesheet" href="css/…"> lines → one link to css/page.css.
function mergeCss() {
  const htmlPath = path.join(dist, 'index.html');
  const html = readFileSync(htmlPath, 'utf8');
  const links = [...html.matchAll(/<link rel="stylesheet" href="(css\/[^"]+\.css)">\n/g)];
  if (!links.length) return [];
  const css = links.map((m) => `/* ${m[1]} */\n${readFileSync(path.join(dist, m[1]), 'utf8')}`).join('\n');
  writeFileSync(path.join(dist, PAGE_CSS), css);
  let out = html.replace(links[0][0], `<link rel="stylesheet" href="${PAGE_CSS}">\n`);
  for (const m of links.slice(1)) out = out.replace(m[0], '');
  writeFileSync(htmlPath, out);
  return [PAGE_CSS];
}

// What the page and its Worker load before the engine answers: their entries and every chunk
// they import, transitively.
function shellFiles(outputs, css) {
  const seen = new Set();
  const visit = (f) => {
    if (seen.has(f) || !(f in outputs)) return;
    seen.add(f);
    outputs[f].forEach(visit);
  };
  visit(PAGE);
  visit(WORKER);
  // Not KaTeX: a figure never loads it (its formulas come typeset: formulas-mathml.js), so the service
  // worker would download it for nothing; the full page names it among the files its visit loaded.
  return ['index.html', ...css, ...[...seen].sort()];
}

function writeManifest(shell) {
  const all = walk(dist).filter((f) => !f.endsWith('.gz') && f !== 'offline-manifest.json');
  const h = createHash('sha256');
  for (const f of all) h.update(f).update(createHash('sha256').update(readFileSync(path.join(dist, f))).digest());
  const files = shell.filter((f) => f !== 'index.html' && existsSync(path.join(dist, f)));
  const manifest = { version: h.digest('hex').slice(0, 16), files };
  writeFileSync(path.join(dist, 'offline-manifest.json'), JSON.stringify(manifest, null, 1) + '\n');
}

// FILE.gz beside every compressible FILE (kept only where it is smaller); stale ones removed.
function precompress() {
  let raw = 0, packed = 0;
  for (const f of walk(dist)) {
    const p = path.join(dist, f);
    if (f.endsWith('.gz')) {
      if (!existsSync(p.slice(0, -3))) rmSync(p);
      continue;
    }
    if (!COMPRESS.test(f)) continue;
    const data = readFileSync(p);
    const gz = gzipSync(data, { level: 9 });
    if (gz.length < data.length) {
      writeFileSync(p + '.gz', gz);
      raw += data.length;
      packed += gz.length;
    } else if (existsSync(p + '.gz')) rmSync(p + '.gz');
  }
  return { raw, packed };
}

// The wasm builds' Emscripten glue (dist/encoder_walkthrough*.js): the relaxed-SIMD builds link at
// -O1 (cmake/wasm_kernels.cmake), which leaves it unminified (141 KB, 35 KB gzip'd). Whitespace and
// syntax only: names stay, so what the glue looks up by name still resolves.
async function minifyGlue() {
  const esbuild = createRequire(import.meta.url)('esbuild');
  for (const f of readdirSync(dist).filter((n) => /^encoder_walkthrough.*\.js$/.test(n) && !n.endsWith('.worker.js'))) {
    const p = path.join(dist, f);
    const src = readFileSync(p, 'utf8');
    const out = await esbuild.transform(src, { minifyWhitespace: true, minifySyntax: true, format: 'esm', target: 'es2020', legalComments: 'none' });
    if (out.code.length < src.length) writeFileSync(p, out.code);
  }
}

let shell = ['index.html'];
if (bundle) {
  const outputs = await bundleModules();
  removeSources(outputs);
  shell = shellFiles(outputs, mergeCss());
} else if (existsSync(path.join(dist, 'offline-manifest.json'))) {
  shell = ['index.html', ...JSON.parse(readFileSync(path.join(dist, 'offline-manifest.json'), 'utf8')).files];
}
await minifyGlue();
writeManifest(shell);
const { raw, packed } = precompress();
console.log(`bundle-site: ${shell.length} shell files; gzip ${(raw / 1024).toFixed(0)} KiB → ${(packed / 1024).toFixed(0)} KiB`);
