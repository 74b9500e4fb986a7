// build-pick.js — which build of the WebAssembly module this browser runs (builds.js explains
// the four builds). Apart from builds.js so that the engine's Worker, which needs only this,
// does not load the message catalog that the builds' labels use (issue 29: bytes of a first visit).

// A function () → v128 returning v128.const 0 (type 0x7b).
const HEAD = [0, 97, 115, 109, 1, 0, 0, 0, 1, 5, 1, 96, 0, 1, 123, 3, 2, 1, 0];
const V128_ZERO = [0xfd, 12, ...new Array(16).fill(0)];
const SIMD_PROBE = Uint8Array.from([...HEAD, 10, 22, 1, 20, 0, ...V128_ZERO, 11]);
// The same with f32x4.relaxed_madd (opcode fd 85 02) of three zero vectors.
const RELAXED_PROBE = Uint8Array.from([...HEAD, 10, 61, 1, 59, 0, ...V128_ZERO, ...V128_ZERO, ...V128_ZERO,
  0xfd, 0x85, 2, 11]);

export const BUILD_FILES = {
  relaxed_mt: 'encoder_walkthrough_relaxed_mt.js',
  relaxed: 'encoder_walkthrough_relaxed.js',
  simd: 'encoder_walkthrough.js',
  scalar: 'encoder_walkthrough_scalar.js',
};
// The builds split in two (wasm/tools/split.mjs): their deferred half, loaded on first use.
export const SPLIT_BUILDS = {
  simd: 'encoder_walkthrough.deferred.wasm',
};

// 'relaxed' | 'simd' | 'scalar' for this WebAssembly implementation.
export function pickBuild(wasm) {
  if (wasm.validate(RELAXED_PROBE)) return 'relaxed';
  if (wasm.validate(SIMD_PROBE)) return 'simd';
  return 'scalar';
}

// The most threads the threaded build is asked for (the pthreads it starts with: cmake/wasm_kernels.cmake).
export const MAX_THREADS = 4;

// The threads the threaded build uses in this scope (`env`: the Worker's globalThis): 0 where it
// cannot run (not cross-origin isolated, no SharedArrayBuffer), else min(cores, MAX_THREADS) ≥ 1.
export function threadCount(env) {
  if (env.crossOriginIsolated !== true || typeof env.SharedArrayBuffer !== 'function') return 0;
  const cores = Number(env.navigator && env.navigator.hardwareConcurrency) || 1;
  return Math.max(1, Math.min(cores, MAX_THREADS));
}

// The builds this WebAssembly implementation can run, in the order tried (a build whose file
// fails to load is skipped for the next one). The threaded build leads where relaxed SIMD
// validates and the scope is cross-origin isolated. Elsewhere the split SIMD128 build leads even
// where relaxed SIMD validates: its first paint downloads half the bytes (issue 29), and the
// relaxed build's fused multiply-add is worth 0.98× on a preset's trace and 1.13–1.21× on a
// BERT-sized layer (docs/benchmarks.md); the relaxed build follows it as a fallback.
export function usableBuilds(wasm, env = {}) {
  const picked = pickBuild(wasm);
  if (picked === 'scalar') return ['scalar'];
  if (picked === 'simd') return ['simd', 'scalar'];
  return threadCount(env) > 1 ? ['relaxed_mt', 'simd', 'relaxed', 'scalar'] : ['simd', 'relaxed', 'scalar'];
}
