// bench.mjs — the WebAssembly benchmarks, in Node, single-threaded, in one process:
// our module (SIMD128 build, relaxed-SIMD build with fused multiply-add, and scalar build)
// against TensorFlow.js's wasm backend (SIMD) and onnxruntime-web (wasm, SIMD), each peer in
// the formulations tried (the faster one is the one compared), on the same shapes and the
// same computation, timed in interleaved rounds (every implementation once per round, in
// rotating order), so that a noisy machine slows all of them alike. Ratios are medians of
// per-round pairs.
//
//   node bench.mjs [--quick] [--json] [--native FILE] [--ours DIR] [--ours-scalar DIR] [--no-relaxed]
//                  [--no-ours] [--no-peers] [--rounds N] [--target-ms MS] [--default-tiering]
//   node bench.mjs --from-json RESULT.json      # print the table of a saved --json result
//   node bench.mjs --check                      # only the correctness checks (nothing timed)
//
// The workloads, checks, rounds and ratios are in suite.mjs, which the browser run
// (../browser/run.mjs) shares; this file loads the modules the Node way and adds the native rows.
//
// --native FILE: Google Benchmark's JSON output (bench/run.sh passes it) is merged into the
// table and the JSON object. Progress goes to stderr; stdout has the table, or with --json
// exactly one JSON object:
//   {"machine": "...", "results": [{"name","impl","ms_median","ms_min","ms_max","gflops"}],
//    "ratios": {...}, "checks": [...], "notes": [...]}
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { loadTfjs } from './tfjs.mjs';
import { median, round, runSuite, renderTable } from './suite.mjs';
import v8 from 'node:v8';

// Every wasm module straight to V8's optimizing tier (TurboFan), before any is compiled. With
// the default dynamic tiering a module's hot functions sometimes stay in the baseline tier
// (Liftoff) for a whole run: tfjs's layer time then moved by up to 2× between processes.
// --default-tiering keeps V8's defaults (what a browser tab does on first use).
const DEFAULT_TIERING = process.argv.includes('--default-tiering');
if (!DEFAULT_TIERING) v8.setFlagsFromString('--no-liftoff');
// Relaxed SIMD (our relaxed build's f32x4.relaxed_madd) is behind a flag in Node 20.
v8.setFlagsFromString('--experimental-wasm-relaxed-simd');

const require = createRequire(import.meta.url);
const HERE = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(HERE, '..', '..');

// ---- arguments -----------------------------------------------------------------------
function parseArgs(argv) {
  const a = {
    quick: false, json: false, native: null, fromJson: null, ours: path.join(ROOT, 'build/wasm/node'),
    oursScalar: path.join(ROOT, 'build/wasm-scalar/node'), noOurs: false, noPeers: false, noRelaxed: false, checkOnly: false, rounds: 0, targetMs: 0,
  };
  for (let i = 0; i < argv.length; i++) {
    const k = argv[i], next = () => {
      if (i + 1 >= argv.length) throw new Error(`${k} needs a value`);
      return argv[++i];
    };
    if (k === '--quick') a.quick = true;
    else if (k === '--json') a.json = true;
    else if (k === '--check') a.checkOnly = true;
    else if (k === '--native') a.native = next();
    else if (k === '--from-json') a.fromJson = next();
    else if (k === '--ours') a.ours = path.resolve(next());
    else if (k === '--ours-scalar') a.oursScalar = path.resolve(next());
    else if (k === '--no-ours') a.noOurs = true;
    else if (k === '--no-peers') a.noPeers = true;
    else if (k === '--no-relaxed') a.noRelaxed = true;
    else if (k === '--default-tiering') a.defaultTiering = true;
    else if (k === '--rounds') a.rounds = Number(next());
    else if (k === '--target-ms') a.targetMs = Number(next());
    else if (k === '-h' || k === '--help') {
      process.stdout.write(fs.readFileSync(fileURLToPath(import.meta.url), 'utf8').split('\n').slice(0, 16).join('\n') + '\n');
      process.exit(0);
    } else throw new Error(`unknown argument ${k} (try --help)`);
  }
  if (!a.rounds) a.rounds = a.quick ? 5 : 15;
  if (!a.targetMs) a.targetMs = a.quick ? 15 : 40;
  return a;
}

const log = (...m) => process.stderr.write(m.join(' ') + '\n');

// ---- our module --------------------------------------------------------------------------------
async function loadOurs(dir, base = 'encoder_walkthrough_node') {
  const js = path.join(dir, base + '.js'), wasm = path.join(dir, base + '.wasm');
  if (!fs.existsSync(js) || !fs.existsSync(wasm)) throw new Error(`our module is not built: ${js} (run bench/run.sh, or cmake --build --preset wasm)`);
  const factory = require(js);
  return factory({ wasmBinary: fs.readFileSync(wasm), print: log, printErr: log });
}

// ---- the peers -----------------------------------------------------------------------------------

async function loadOrt() {
  const ort = await import('onnxruntime-web');
  ort.env.wasm.numThreads = 1;
  ort.env.wasm.proxy = false;
  // wasmPaths left unset: ort loads ort-wasm-simd-threaded.{mjs,wasm} next to its own module
  // in node_modules/onnxruntime-web/dist (no network); with numThreads = 1 it starts no Worker.
  const { matmulModel, encoderLayerModel, encoderLayerModelFused } = await import('./onnx_graph.mjs');
  return { ort, matmulModel, encoderLayerModel, encoderLayerModelFused, version: ort.env.versions.web, desc: `onnxruntime-web ${ort.env.versions.web} (wasm EP, SIMD, 1 thread)` };
}

// ---- native results (Google Benchmark JSON) -------------------------------------------------------------
function nativeResults(file) {
  const j = JSON.parse(fs.readFileSync(file, 'utf8'));
  const byName = new Map();
  for (const b of j.benchmarks || []) {
    if (b.run_type && b.run_type !== 'iteration') continue;
    if (b.error_occurred) continue;
    const unit = { ns: 1e-6, us: 1e-3, ms: 1, s: 1e3 }[b.time_unit || 'ns'];
    const name = b.run_name || b.name;
    if (!byName.has(name)) byName.set(name, { times: [], flops: b.flops });
    byName.get(name).times.push(b.real_time * unit);
  }
  const isa = (j.context && j.context.ew_kernel_isa) || '?';
  const results = [];
  const med = {};
  for (const [name, { times, flops }] of byName) {
    const [op, impl, shape] = name.split('/');
    const m = median(times);
    med[name] = m;
    const implName = impl === 'scalar' ? 'ew native scalar reference' : impl === 'ew_run' ? `ew native ew::run (${isa})` : `ew native ${impl} (${isa})`;
    results.push({ name: `native ${op} ${shape}`, impl: implName, ms_median: round(m), ms_min: round(Math.min(...times)),
                   ms_max: round(Math.max(...times)), gflops: flops ? round(flops / (m * 1e6), 4) : null, runs: times.length });
  }
  const ratios = {};
  for (const name of Object.keys(med)) {
    const [op, impl, shape] = name.split('/');
    if (impl !== 'scalar') continue;
    const simd = Object.keys(med).find((n) => n !== name && n.startsWith(op + '/') && n.endsWith('/' + shape));
    if (simd) ratios[`${op} ${shape}`] = round(med[name] / med[simd], 4);
  }
  return { results, ratios, isa, context: j.context || {} };
}

// ---- main ------------------------------------------------------------------------------------------------
async function main() {
  const args = parseArgs(process.argv.slice(2));
  if (args.fromJson) {
    const R = JSON.parse(fs.readFileSync(args.fromJson, 'utf8'));
    if (R.runtime !== 'browser' && R.results) process.stdout.write(renderTable(R));
    const B = R.runtime === 'browser' ? R : R.browser;  // bench/run.sh --browser: the headless Chromium run
    if (B) process.stdout.write(`${R === B ? '' : '\n== in the browser ==\n'}Runtime: ${B.browser}, threads: ${B.threads}, kernel ISA ${JSON.stringify(B.kernelIsa)}\n` + renderTable(B));
    return;
  }
  const notes = [], checks = [];
  const check = (name, ok, detail) => {
    checks.push({ name, ok, detail });
    log(`  check ${name}: ${ok ? 'ok' : 'FAIL'} (${detail})`);
  };

  // -- load everything
  let ours = null, oursScalar = null, oursRelaxed = null, tfjs = null, P = null;
  if (!args.noPeers) {
    log('loading tfjs-backend-wasm and onnxruntime-web');
    tfjs = await loadTfjs();
    P = await loadOrt();
    log(`  ${tfjs.desc}; ${P.desc}`);
  }
  if (!args.noOurs) {
    log(`loading our modules: ${args.ours}, ${args.oursScalar}`);
    ours = await loadOurs(args.ours);
    oursScalar = await loadOurs(args.oursScalar);
    const isaS = ours.kernelIsa(), isaX = oursScalar.kernelIsa();
    log(`  kernel ISA: ${isaS} / ${isaX}`);
    if (isaS !== 'wasmsimd') notes.push(`our SIMD build reports kernel ISA "${isaS}", expected "wasmsimd"`);
    if (isaX !== 'scalar') notes.push(`our scalar build reports kernel ISA "${isaX}", expected "scalar"`);
    if (!args.noRelaxed) {
      oursRelaxed = await loadOurs(args.ours, 'encoder_walkthrough_relaxed_node');
      const isaR = oursRelaxed.kernelIsa();
      log(`  relaxed build: kernel ISA ${isaR}`);
      if (isaR !== 'wasmrelaxed') notes.push(`our relaxed build reports kernel ISA "${isaR}", expected "wasmrelaxed"`);
    }
  }
  // -- the cases, their checks, the interleaved rounds and the ratios (suite.mjs, shared with the browser run)
  const S = await runSuite({ ours, oursScalar, oursRelaxed, tfjs, P, rounds: args.rounds, targetMs: args.targetMs, checkOnly: args.checkOnly, log, check, notes });
  const cases = S.cases, results = [], ratios = S.ratios, peerUsed = S.peerUsed;
  let native = null;
  if (args.native) {
    native = nativeResults(args.native);
    results.push(...native.results);
  }
  results.push(...S.results);
  if (native && Object.keys(native.ratios).length) ratios.native_simd_vs_scalar = native.ratios;
  if (native) notes.push(`Native rows: Google Benchmark (${native.context.library_build_type || ''} libbenchmark), build/native-release, kernel ISA ${native.isa}; min/median/max over ${Math.max(...native.results.map((r) => r.runs))} repetitions; native_simd_vs_scalar is a ratio of medians (not interleaved).`);
  if (cases.length) notes.push(`WebAssembly rows: one Node process, single thread, ${DEFAULT_TIERING ? "V8's default wasm tiering" : 'every wasm module compiled by TurboFan up front (V8 --no-liftoff)'}; each run is the mean over a calibrated number of iterations; median/min/max over the interleaved rounds. GFLOP/s counts matmul FLOPs only (2·M·K·N; for a layer 8Td² + 4T²d + 4T·d·d_ff).`);
  if (P) notes.push('onnxruntime-web: the graph (MatMul; or Gemm/Reshape/Transpose/MatMul/Mul/Softmax/LayerNormalization/Relu/Add for the layer, opset 17) is encoded in bench/node/onnx_graph.mjs with protobufjs; weights are initializers; graphOptimizationLevel "all".');
  if (P) notes.push('onnxruntime-web, fused formulation: com.microsoft Attention (packed QKV weights, all heads) and SkipLayerNormalization (residual + bias + LayerNorm), the contrib ops its wasm EP runs; the layer ratios use whichever ort formulation was faster (peer_formulation_used).');
  if (tfjs) notes.push('tfjs: weights uploaded once as tensors; two layer formulations, fused matMul with bias (and ReLU) and matMul + add + relu; LayerNorm from moments; dataSync() of the output ends every iteration; the layer ratios use the faster formulation.');
  if (oursRelaxed) notes.push('Ours, relaxed SIMD: the same module with kernels compiled by clang-19 -mrelaxed-simd (f32x4.relaxed_madd, fused on this CPU); Node runs it with --experimental-wasm-relaxed-simd. Ratios ending in _relaxed are against it; the others against the plain SIMD128 build.');

  const cpu = os.cpus();
  const machine = `${cpu[0] ? cpu[0].model.trim() : 'unknown CPU'}, ${cpu.length} logical CPUs, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, ${os.type()} ${os.release()}, Node ${process.version}` +
    (native ? `, native ISA ${native.isa}` : '') + (ours ? `, wasm ISA ${ours.kernelIsa()}` : '');
  const R = { machine, settings: (args.quick ? 'quick, ' : '') + (cases.length ? `wasm: ${args.rounds} interleaved rounds, ≥${args.targetMs} ms per sample` : 'native only'), results, ratios, peer_formulation_used: peerUsed, checks, notes,
              versions: { node: process.version, tfjs: tfjs && tfjs.version, ort: P && P.version } };
  for (const c of cases) for (const im of c.impls) { try { await im.dispose?.(); } catch { /* ignore */ } }
  if (args.json) process.stdout.write(JSON.stringify(R, null, 1) + '\n');
  else process.stdout.write(renderTable(R));
  if (checks.some((c) => !c.ok)) {
    log('some correctness checks failed (see "checks")');
    process.exitCode = 2;
  }
}

main().catch((e) => {
  log('bench.mjs: ' + (e && e.stack ? e.stack : e));
  process.exit(1);
});
