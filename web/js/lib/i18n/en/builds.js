// i18n/en/builds.js — how the page names the WebAssembly build it runs (builds.js).
export default {
  'builds.relaxed_mt': 'relaxed-SIMD build (fused multiply-add) on {threads} threads',
  'builds.relaxed': 'relaxed-SIMD build (fused multiply-add)',
  'builds.simd': 'SIMD128 build',
  'builds.scalar': 'scalar build (this browser has no WebAssembly SIMD)',
};
