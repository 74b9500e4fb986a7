// i18n/de/builds.js — wie die Seite den WebAssembly-Build nennt, den sie ausführt (builds.js).
export default {
  'builds.relaxed_mt': 'Relaxed-SIMD-Build (fused multiply-add) mit {threads} Threads',
  'builds.relaxed': 'Relaxed-SIMD-Build (fused multiply-add)',
  'builds.simd': 'SIMD128-Build',
  'builds.scalar': 'Skalar-Build (dieser Browser hat kein WebAssembly-SIMD)',
};
