// tfjs.mjs — TensorFlow.js as the benchmarks' peer (bench.mjs, train_bench.mjs): its wasm
// backend from node_modules, SIMD, one thread (never the threaded build, which would start
// Workers). `gradients`: also load the union package, which registers every op's gradient
// (tfjs-core alone has none; training needs them).
import path from 'node:path';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

export async function loadTfjs({ gradients = false } = {}) {
  const tf = await import('@tensorflow/tfjs-core');
  if (gradients) await import('@tensorflow/tfjs');
  const tfw = await import('@tensorflow/tfjs-backend-wasm');
  const dist = path.join(path.dirname(require.resolve('@tensorflow/tfjs-backend-wasm/package.json')), 'dist');
  tf.env().set('WASM_HAS_MULTITHREAD_SUPPORT', false);
  tfw.setWasmPaths({
    'tfjs-backend-wasm.wasm': path.join(dist, 'tfjs-backend-wasm.wasm'),
    'tfjs-backend-wasm-simd.wasm': path.join(dist, 'tfjs-backend-wasm-simd.wasm'),
    'tfjs-backend-wasm-threaded-simd.wasm': path.join(dist, 'tfjs-backend-wasm-threaded-simd.wasm'),
  });
  tfw.setThreadsCount(1);
  if (!(await tf.setBackend('wasm'))) throw new Error('tfjs: the wasm backend did not initialise');
  await tf.ready();
  const simd = await tf.env().getAsync('WASM_HAS_SIMD_SUPPORT');
  const threads = await tf.env().getAsync('WASM_HAS_MULTITHREAD_SUPPORT');
  if (!simd) throw new Error('tfjs: no SIMD support detected; the comparison would be unfair');
  return { tf, version: tfw.version_wasm, desc: `tfjs-backend-wasm ${tfw.version_wasm} (SIMD, 1 thread${threads ? '?' : ''})` };
}
