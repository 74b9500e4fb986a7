#!/usr/bin/env node
// run.mjs — the WebAssembly benchmark in the browser the page runs in: headless Chromium
// (Debian's, through playwright-core, launched as the browser test suites launch it), one page
// with TensorFlow.js (wasm backend) and onnxruntime-web from bench/node/node_modules and our
// web modules from dist/ (relaxed SIMD, SIMD128, scalar), all single-threaded, running the same
// suite as Node (bench/node/suite.mjs: same workloads, checks, interleaved rounds, ratios).
// page.mjs is bundled with esbuild into build/bench-browser/page.js; scripts/serve.mjs serves
// the repository on 127.0.0.1 (nothing is downloaded; the page's CSP is bypassed for protobufjs). Progress (the page's console) goes to
// stderr; stdout has the table, or with --json one JSON object (bench/run.sh puts it under
// "browser"). Exit status 2 when a correctness check fails.
//
//   node bench/browser/run.mjs [--quick] [--json] [--rounds N] [--target-ms MS] [--no-relaxed]
//                              [--default-tiering] [--trace-tiers] [--chromium /usr/bin/chromium]
//   node bench/browser/run.mjs --check     # only the correctness checks (ours vs peers), nothing timed (~1 min)
//   node bench/browser/run.mjs --threads N|auto   # threaded peers (issue 21): the page served cross-origin
//       isolated; tfjs's threaded-SIMD build (setThreadsCount N), ort-web numThreads N, and the "relaxed"
//       rows our threaded module with its pool at N (auto: navigator.hardwareConcurrency, at most 4);
//       "threads" in the JSON says what each ran at
//
// --default-tiering: V8's dynamic tiering as a reader's tab has it (default here: --no-liftoff, as
// in Node, so every wasm function is compiled by TurboFan). --trace-tiers: V8's
// --trace-wasm-compilation-times, counted per tier and per phase (setup / timed rounds).
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { root, arg, launchChromium, requireFiles } from '../../tests/harness.mjs';
import { startServer } from '../../scripts/serve.mjs';
import { renderTable } from '../node/suite.mjs';

const argv = process.argv.slice(2), has = (k) => argv.includes(k);
const quick = has('--quick'), json = has('--json'), checkOnly = has('--check');
// --check times nothing, so it leaves V8's default tiering (Liftoff first: the setup takes
// seconds instead of minutes of TurboFan compiling every function of the peers' modules).
const defaultTiering = has('--default-tiering') || checkOnly, traceTiers = has('--trace-tiers'), relaxed = !has('--no-relaxed');
const rounds = Number(arg('--rounds', quick ? 5 : 15)), targetMs = Number(arg('--target-ms', quick ? 15 : 40));
const threadsArg = arg('--threads', '1');
const exe = arg('--chromium', process.env.CHROMIUM || '/usr/bin/chromium');
const t0 = Date.now();
const log = (...m) => process.stderr.write(`[${((Date.now() - t0) / 1000).toFixed(0).padStart(4)} s] ${m.join(' ')}\n`);

const dist = path.join(root, 'dist'), nm = path.join(root, 'bench/node/node_modules');
requireFiles('bench/browser/run.mjs', [
  ...['encoder_walkthrough', 'encoder_walkthrough_scalar', ...(relaxed ? ['encoder_walkthrough_relaxed'] : [])]
    .map((b) => [`our web module (cmake --build --preset wasm)`, path.join(dist, b + '.wasm')]),
  ['our SIMD128 module whole (cmake --build --preset wasm: wasm/tools/split.mjs)', path.join(root, 'build/wasm/encoder_walkthrough.whole.wasm')],
  ['TensorFlow.js (npm ci in bench/node)', path.join(nm, '@tensorflow/tfjs-backend-wasm/dist/tfjs-backend-wasm-simd.wasm')],
  ['onnxruntime-web (npm ci in bench/node)', path.join(nm, 'onnxruntime-web/dist/ort-wasm-simd-threaded.wasm')],
  ['Chromium', exe],
]);

// The page's bundle: page.mjs + suite.mjs + onnx_graph.mjs + the peers' JS (their .wasm stay files).
const esbuild = createRequire(path.join(root, 'package.json'))('esbuild');
await esbuild.build({
  entryPoints: [path.join(root, 'bench/browser/page.mjs')], bundle: true, format: 'esm', platform: 'browser',
  outfile: path.join(root, 'build/bench-browser/page.js'), nodePaths: [nm], logLevel: 'warning',
});

// --trace-tiers: V8 prints one line per compiled wasm function ("using Liftoff|TurboFan") on
// Chromium's stdout, which playwright-core passes to its debug log (DEBUG=pw:browser, read when
// it loads); those lines are counted per phase here instead of printed.
const tiers = Object.fromEntries(['setup', 'warmup', 'timed', 'after'].map((k) => [k, { Liftoff: 0, TurboFan: 0 }]));
let phase = 'setup';
if (traceTiers) {
  process.env.DEBUG = 'pw:browser';
  const write = process.stderr.write.bind(process.stderr);
  process.stderr.write = (chunk, ...rest) => {
    const text = String(chunk);
    if (!text.includes('pw:browser')) return write(chunk, ...rest);
    for (const m of text.matchAll(/Compiled function .*? using (Liftoff|TurboFan)/g)) tiers[phase][m[1]]++;
    return true;
  };
}
const { chromium } = await import('playwright-core');
const jsFlags = [...(defaultTiering ? [] : ['--no-liftoff']), ...(traceTiers ? ['--trace-wasm-compilation-times'] : [])];
const { server, url } = await startServer(root, 0, '127.0.0.1', { isolated: threadsArg !== '1' });
const browser = await launchChromium(chromium, exe, jsFlags.length ? [`--js-flags=${jsFlags.join(' ')}`] : []);
let R, failed = false;
try {
  // protobufjs (building the ONNX graphs in the page) compiles its encoders with new Function,
  // which the site's CSP (scripts/serve.mjs) forbids; the wasm modules need only 'wasm-unsafe-eval'.
  const page = await (await browser.newContext({ bypassCSP: true })).newPage();
  page.on('console', (m) => {
    if (/^calibrating/.test(m.text())) phase = 'warmup';
    if (/^timing: /.test(m.text())) phase = 'timed';
    const r = /round (\d+)\/(\d+) /.exec(m.text());
    if (r && r[1] === r[2]) phase = 'after';  // the last round is done: disposing the cases
    log(m.text());
  });
  page.on('pageerror', (e) => log('page error: ' + e.message));
  await page.goto(new URL('bench/browser/index.html', url).href);
  await page.waitForFunction(() => window.benchReady === true, null, { timeout: 60000 });
  const threads = threadsArg === 'auto' ? await page.evaluate(() => Math.min(navigator.hardwareConcurrency || 1, 4)) : Number(threadsArg);
  if (!(threads >= 1)) throw new Error(`--threads ${threadsArg}: a count ≥ 1 or auto`);
  const B = await page.evaluate((o) => window.runBench(o), { rounds, targetMs, checkOnly, relaxed, threads });
  const cpu = os.cpus();
  R = {
    runtime: 'browser', browser: `Chromium ${browser.version()} (headless)`, version: browser.version(), thread_counts: B.threads,
    kernelIsa: B.kernelIsa,
    machine: `${cpu[0] ? cpu[0].model.trim() : 'unknown CPU'}, ${cpu.length} logical CPUs (navigator.hardwareConcurrency ${B.hardwareConcurrency}), ${B.userAgent}`,
    settings: (quick ? 'quick, ' : '') + (checkOnly ? 'checks only' : `${rounds} interleaved rounds, ≥${targetMs} ms per sample`) + `, threads: ${JSON.stringify(B.threads)}`,
    wasm_tiering: defaultTiering ? "V8's default dynamic tiering (Liftoff first)" : 'TurboFan up front (--js-flags=--no-liftoff, as in Node)',
    ...(traceTiers ? { wasm_compilations: tiers } : {}),
    results: B.results, ratios: B.ratios, peer_formulation_used: B.peer_formulation_used, checks: B.checks,
    notes: [
      (threads > 1 ? `Headless Chromium ${browser.version()}, one isolated page, ${threads} threads: ours "relaxed" rows are the threaded module (setThreads(${threads}); SIMD128 and scalar rows one thread), tfjs its threaded-SIMD build (setThreadsCount(${threads})), ort numThreads ${threads}; crossOriginIsolated ${B.crossOriginIsolated}.`
        : `Headless Chromium ${browser.version()}, one page, one thread (ours: no threads; tfjs: setThreadsCount(1), threaded build disabled; ort: numThreads 1; crossOriginIsolated ${B.crossOriginIsolated}).`) + `  Our modules are dist/'s web flavour; the peers' JS is bundled from bench/node/node_modules by esbuild, their .wasm served from there.`,
      `WebAssembly tiering: ${defaultTiering ? "V8's default (Liftoff, then TurboFan for hot functions; warm-up and calibration run first)" : 'every wasm function compiled by TurboFan (--js-flags=--no-liftoff, as bench.mjs sets for Node)'}.`,
      ...B.notes,
    ],
    versions: { chromium: browser.version(), ...B.versions },
  };
  failed = R.checks.some((c) => !c.ok);
} finally {
  await browser.close();
  server.close();
}
if (traceTiers) log(`wasm compilations by tier: setup ${JSON.stringify(tiers.setup)}, warm-up/calibration ${JSON.stringify(tiers.warmup)}, timed rounds ${JSON.stringify(tiers.timed)}, after them ${JSON.stringify(tiers.after)}`);
if (json) process.stdout.write(JSON.stringify(R, null, 1) + '\n');
else if (checkOnly) for (const c of R.checks) process.stdout.write(`${c.ok ? 'ok  ' : 'FAIL'} ${c.name}: ${c.detail}\n`);
else process.stdout.write(`Runtime: ${R.browser}, threads: ${JSON.stringify(R.thread_counts)}, kernel ISA ${JSON.stringify(R.kernelIsa)}\n` + renderTable(R));
if (failed) {
  log('some correctness checks failed (see "checks")');
  process.exitCode = 2;
}
