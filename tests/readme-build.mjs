#!/usr/bin/env node
// readme-build.mjs — the README's build works after the README's set-up alone (issue 22, item
// 10), and the README's single-file numbers are the built file's. `./scripts/run.sh` runs the
// main set-up (`scripts/setup.sh` without --test: `npm ci --omit=dev`), and the README then
// says `cmake --build --preset wasm` builds the site with the single file; that build once
// failed because scripts/build-single.mjs needs esbuild, which only the test set-up installed.
// Checks, bounded (no fresh wasm build: the already-built module is reused):
//   1. every npm package the wasm build imports (scripts/build-single.mjs's require/import, the
//      node_modules paths wasm/*.cmake copy from) is one `npm ci --omit=dev` installs (a
//      package-lock.json entry not flagged dev), and setup.sh's main set-up installs when any
//      of them is missing;
//   2. the single-file build runs with ONLY those packages: a copy of the repository's web/ and
//      scripts/build-single.mjs beside a node_modules holding just the main set-up's packages
//      (copied from this one, as `npm ci --omit=dev` would lay them out from the same lock),
//      building from a copy of dist/ — no NODE_PATH, nothing else to find;
//   3. the sizes docs/embedding.md (where the README's detail moved) gives for
//      dist/encoder-walkthrough.html and its packed wasm (gzip + base64) are the built files'
//      within 5%.
//
//   node tests/readme-build.mjs [--dist dist] [--node-module build/wasm/node/encoder_walkthrough_node.js]
//   node tests/readme-build.mjs --planted-dev-esbuild   the same with esbuild flagged dev, as it
//                                                       was: checks 1 and 2 must fail and 3 pass;
//                                                       this mode exits 0 exactly then (the test
//                                                       command runs it as a must-fail test)
import { cpSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { gzipSync } from 'node:zlib';
import os from 'node:os';
import path from 'node:path';
import process from 'node:process';
import { root, arg, checks, assert, requireFiles } from './harness.mjs';

const dist = path.resolve(root, arg('--dist', 'dist'));
const nodeModule = path.resolve(root, arg('--node-module', 'build/wasm/node/encoder_walkthrough_node.js'));
const planted = process.argv.includes('--planted-dev-esbuild');
requireFiles('readme-build', [['built site', path.join(dist, 'index.html')], ['single-file build', path.join(dist, 'encoder-walkthrough.html')],
  ['Node flavor of the module', nodeModule], ['npm packages (scripts/setup.sh)', path.join(root, 'node_modules')]]);
const { check, results } = checks(6);

// ---- what `npm ci --omit=dev` installs: the lock's packages not flagged dev -------------------
const lock = JSON.parse(readFileSync(path.join(root, 'package-lock.json'), 'utf8'));
if (planted) for (const [k, v] of Object.entries(lock.packages)) if (/node_modules\/(@esbuild\/[^/]+|esbuild)$/.test(k)) v.dev = true;
// Package paths ("node_modules/a", "node_modules/a/node_modules/b") the main set-up lays out;
// optional ones only where this machine has them (esbuild's binary for this platform).
const mainSetUp = Object.entries(lock.packages)
  .filter(([k, v]) => k.startsWith('node_modules/') && !v.dev && (!v.optional || existsSync(path.join(root, k))))
  .map(([k]) => k);
const topLevel = new Set(mainSetUp.filter((k) => k.split('node_modules/').length === 2).map((k) => k.slice('node_modules/'.length)));

// ---- what the wasm build imports ------------------------------------------------------------
function buildImports() {
  const src = readFileSync(path.join(root, 'scripts/build-single.mjs'), 'utf8');
  // Its own imports (the header's, before the first statement; the modules it writes into
  // template strings for esbuild are not) and its require() calls.
  const header = src.split('\n').filter((l, i, all) => all.slice(0, i + 1).every((x) => /^(import |\/\/|\s*$)/.test(x))).join('\n');
  const bare = [...header.matchAll(/from\s+['"]([^'"./][^'"]*)['"]/g), ...src.matchAll(/require\(\s*['"]([^'"./][^'"]*)['"]\s*\)/g)].map((m) => m[1])
    .filter((s) => !s.startsWith('node:'))
    .map((s) => (s.startsWith('@') ? s.split('/').slice(0, 2).join('/') : s.split('/')[0]));
  // node_modules/<pkg> under the repository's root in the site's copy (wasm/tools installs its own).
  const cmake = ['wasm/copy_site.cmake', 'wasm/CMakeLists.txt'].map((f) => readFileSync(path.join(root, f), 'utf8')).join('\n');
  const copied = [...cmake.matchAll(/\$\{(?:SRC|PROJECT_SOURCE_DIR)\}\/node_modules\/((?:@[^/\s"]+\/)?[^/\s"]+)/g)].map((m) => m[1]);
  return [...new Set([...bare, ...copied])].sort();
}

await check('every npm package the wasm build needs is one the main set-up installs (npm ci --omit=dev), and setup.sh installs when one is missing', async () => {
  const needs = buildImports();
  assert(needs.includes('esbuild') && needs.includes('katex'), `found imports ${needs} (expected esbuild and katex among them: the scan is broken)`);
  const missing = needs.filter((p) => !topLevel.has(p));
  assert(!missing.length, `the wasm build needs ${missing.join(', ')}, which \`npm ci --omit=dev\` (the main set-up) does not install: package.json has them as devDependencies`);
  const setup = readFileSync(path.join(root, 'scripts/setup.sh'), 'utf8');
  const main = setup.slice(setup.lastIndexOf('elif'));
  assert(/npm ci --omit=dev/.test(main), 'setup.sh\'s main set-up no longer runs `npm ci --omit=dev`');
  const unchecked = needs.filter((p) => !main.includes(`node_modules/${p}`));
  assert(!unchecked.length, `setup.sh's main set-up does not install when ${unchecked.join(', ')} is missing (a machine set up before would keep failing)`);
  console.log(`     the wasm build imports ${needs.join(', ')}; the main set-up installs ${[...topLevel].sort().join(', ')}`);
});

await check('the single-file build runs with only the main set-up\'s packages (a copy of web/, its scripts and dist/)', async () => {
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'ew-readme-build-'));
  try {
    for (const k of mainSetUp) cpSync(path.join(root, k), path.join(tmp, k), { recursive: true, dereference: true, filter: (src) => !src.slice(path.join(root, k).length).includes('/node_modules/') });
    cpSync(path.join(root, 'web'), path.join(tmp, 'web'), { recursive: true });
    for (const f of ['build-single.mjs', 'formulas.mjs']) cpSync(path.join(root, 'scripts', f), path.join(tmp, 'scripts', f));
    const d = path.join(tmp, 'dist');
    cpSync(dist, d, { recursive: true, filter: (src) => path.basename(src) !== 'encoder-walkthrough.html' });
    const env = { ...process.env };
    delete env.NODE_PATH;
    let out;
    try {
      out = execFileSync(process.execPath, [path.join(tmp, 'scripts/build-single.mjs'), '--dist', d, '--node-module', nodeModule], { env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    } catch (e) {
      const why = String(e.stderr || e.message).split('\n').find((l) => /Error/.test(l) && !/new Error/.test(l)) || e.message;
      throw new Error(`build-single.mjs failed with the main set-up's packages (${readdirSync(path.join(tmp, 'node_modules')).join(', ')}): ${why}`);
    }
    const size = statSync(path.join(d, 'encoder-walkthrough.html')).size;
    assert(size > 100_000, `the single file is only ${size} bytes`);
    console.log(`     ${out.trim().split('\n').pop().slice(0, 140)}`);
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
});

// ---- the single file's sizes, as docs/embedding.md gives them ---------------------------------
await check('docs/embedding.md\'s sizes of the single file and its packed wasm are the built files\' (within 5%)', async () => {
  const readme = readFileSync(path.join(root, 'docs/embedding.md'), 'utf8');
  const kib = (s) => Number(s.replace(/,/g, ''));
  const file = /`dist\/encoder-walkthrough\.html` \(([\d,]+) KiB\)/.exec(readme);
  const packed = /wasm gzip'd and base64'd: ([\d,]+) KiB → ([\d,]+) KiB/.exec(readme);
  assert(file && packed, 'docs/embedding.md no longer states the single file\'s size as "`dist/encoder-walkthrough.html` (N KiB)" and "wasm gzip\'d and base64\'d: A KiB → B KiB"');
  // The single file inlines the SIMD128 module whole (dist/ serves it split: wasm/tools/split.mjs).
  const whole = [path.join(root, 'build/wasm/encoder_walkthrough.whole.wasm'), path.join(dist, 'encoder_walkthrough.wasm')].find((f) => existsSync(f));
  const wasm = readFileSync(whole);
  const actual = [statSync(path.join(dist, 'encoder-walkthrough.html')).size, wasm.length, gzipSync(wasm, { level: 9 }).toString('base64').length].map((b) => b / 1024);
  const said = [kib(file[1]), kib(packed[1]), kib(packed[2])];
  const names = ['the single file', 'the wasm', 'the wasm gzip\'d + base64\'d'];
  const off = said.map((v, i) => [names[i], v, Math.round(actual[i])]).filter(([, v, a]) => Math.abs(v - a) > 0.05 * a);
  assert(!off.length, `docs/embedding.md says ${off.map(([n, v, a]) => `${n} ${v} KiB, built ${a} KiB`).join('; ')}`);
  console.log(`     docs/embedding.md ${said.join(' / ')} KiB; built ${actual.map(Math.round).join(' / ')} KiB`);
});

const { passed, failed } = results();
if (planted) {  // a must-fail run: the two set-up checks fail on the planted lock, the size check still passes
  const caught = failed === 2 && passed === 1;
  console.log(`readme-build (planted: esbuild a devDependency): ${passed} passed, ${failed} failed — ${caught ? 'caught' : 'FAIL: the planted defect was not caught as expected (want 2 failed, 1 passed)'}`);
  process.exit(caught ? 0 : 1);
}
console.log(`readme-build: ${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
