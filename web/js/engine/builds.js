// builds.js — which build of the WebAssembly module this browser runs, decided by
// WebAssembly.validate of two tiny modules (no user-agent sniffing) and, for the threaded
// build, whether the page is cross-origin isolated (SharedArrayBuffer); in the order tried
// (build-pick.js usableBuilds):
//   relaxed_mt dist/encoder_walkthrough_relaxed_mt.js  the relaxed build with pthreads (core/kernels/
//            pool.h: up to MAX_THREADS threads, results bit-identical to one thread); only where
//            crossOriginIsolated — an embed on a blog usually is not, and gets `simd`
//   simd     dist/encoder_walkthrough.js          WebAssembly SIMD128 (every current browser), split
//            in two (wasm/tools/split.mjs): the first-paint half, the rest on first use
//   relaxed  dist/encoder_walkthrough_relaxed.js  relaxed SIMD: f32x4.relaxed_madd, fused
//            multiply-add where the CPU has it (Chromium ≥ 114; Node with
//            --experimental-wasm-relaxed-simd): where the SIMD128 files fail to load
//   scalar   dist/encoder_walkthrough_scalar.js   no SIMD at all (the wasm preset builds it
//            without -msimd128; scripts/test.sh checks that it validates with SIMD disabled)
import { t } from '../lib/i18n.js';

export { BUILD_FILES, pickBuild, MAX_THREADS, threadCount, usableBuilds } from './build-pick.js';

// What the page says about each build (with the kernels' own name, Module.kernelIsa()).
// Getters: the label in the reader's language at the time it is read (i18n/<lang>/builds.js).
export const BUILD_LABELS = {
  get relaxed() { return t('builds.relaxed'); },
  get simd() { return t('builds.simd'); },
  get scalar() { return t('builds.scalar'); },
};

// The build's name for the page, with the thread count of the threaded build.
export function buildLabel(b, threads) {
  if (b === 'relaxed_mt') return t('builds.relaxed_mt', { threads: threads || 1 });
  return BUILD_LABELS[b] || '';
}
