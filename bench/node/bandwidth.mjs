// bandwidth.mjs — the memory bandwidth a wasm module gets on this machine, measured with a tiny
// hand-assembled WebAssembly module (bytes below, no toolchain): a 256 MiB linear memory and
//   read(p, end) -> f32   streams [p, end) with v128.load into four f32x4.add accumulators (SIMD128,
//                         64 bytes per iteration; the sum is returned so nothing is optimised away)
//   read2(p, q, end)      the same over [p, end) and [q, q + end − p) at once, two streams (the
//                         kernels read a decoded token's weights so: two far apart, kernels_simd.cpp)
//   copy(dst, src, n)     memory.copy (bulk memory) of n bytes
// copyBandwidth() → {gb_s (the faster stream read, bytes read per second: what a decode token does
// to its weights), read_gb_s (one stream), read2_gb_s (two), memcpy_gb_s (bytes copied per second;
// each is read once and written once), bytes, what}: the median of 7 passes over 128 MiB each,
// after one warm-up pass.
import v8 from 'node:v8';

v8.setFlagsFromString('--no-liftoff');
const leb = (n) => { const o = []; do { let b = n & 0x7f; n >>>= 7; if (n) b |= 0x80; o.push(b); } while (n); return o; };
const section = (id, body) => [id, ...leb(body.length), ...body];
const vec = (items) => [...leb(items.length), ...items.flat()];
const fn = (locals, code) => { const body = [...vec(locals), ...code, 0x0b]; return [...leb(body.length), ...body]; };
const simd = (op, ...imm) => [0xfd, ...leb(op), ...imm];
const LOAD = (off) => simd(0x00, 4, ...leb(off)), ADD = simd(0xe4), LGET = (i) => [0x20, i], LSET = (i) => [0x21, i];

export function bandwidthModule() {
  const acc = (k, off) => [...LGET(2 + k), ...LGET(0), ...LOAD(off), ...ADD, ...LSET(2 + k)];
  const read = fn([[4, 0x7b]], [
    0x02, 0x40, 0x03, 0x40,
    ...LGET(0), ...LGET(1), 0x4f, 0x0d, 1,             // p >= end → leave
    ...acc(0, 0), ...acc(1, 16), ...acc(2, 32), ...acc(3, 48),
    ...LGET(0), 0x41, 0xc0, 0x00, 0x6a, ...LSET(0),    // p += 64 (signed LEB128)
    0x0c, 0, 0x0b, 0x0b,
    ...LGET(2), ...LGET(3), ...ADD, ...LGET(4), ...ADD, ...LGET(5), ...ADD, ...simd(0x1f, 0)]);
  const acc2 = (k, ptr, off) => [...LGET(3 + k), ...LGET(ptr), ...LOAD(off), ...ADD, ...LSET(3 + k)];
  const bump = (i) => [...LGET(i), 0x41, 0x20, 0x6a, ...LSET(i)];  // += 32
  const read2 = fn([[4, 0x7b]], [
    0x02, 0x40, 0x03, 0x40,
    ...LGET(0), ...LGET(2), 0x4f, 0x0d, 1,             // p >= end → leave
    ...acc2(0, 0, 0), ...acc2(1, 0, 16), ...acc2(2, 1, 0), ...acc2(3, 1, 16),
    ...bump(0), ...bump(1),
    0x0c, 0, 0x0b, 0x0b,
    ...LGET(3), ...LGET(4), ...ADD, ...LGET(5), ...ADD, ...LGET(6), ...ADD, ...simd(0x1f, 0)]);
  const copy = fn([], [...LGET(0), ...LGET(1), ...LGET(2), 0xfc, ...leb(10), 0, 0]);
  const pages = 4096;  // 256 MiB
  return new Uint8Array([0x00, 0x61, 0x73, 0x6d, 1, 0, 0, 0,
    ...section(1, vec([[0x60, 2, 0x7f, 0x7f, 1, 0x7d], [0x60, 3, 0x7f, 0x7f, 0x7f, 0], [0x60, 3, 0x7f, 0x7f, 0x7f, 1, 0x7d]])),
    ...section(3, vec([[0], [1], [2]])),
    ...section(5, vec([[0, ...leb(pages)]])),
    ...section(7, vec([[4, ...Buffer.from('read'), 0, 0], [4, ...Buffer.from('copy'), 0, 1], [5, ...Buffer.from('read2'), 0, 2],
                       [3, ...Buffer.from('mem'), 2, 0]])),
    ...section(10, vec([read, copy, read2]))]);
}

export async function copyBandwidth({ passes = 7 } = {}) {
  const { instance } = await WebAssembly.instantiate(bandwidthModule());
  const { read, read2, copy, mem } = instance.exports;
  const half = mem.buffer.byteLength / 2, quarter = half / 2;
  new Float32Array(mem.buffer).fill(1);
  if (read(0, 64) !== 4 || read2(0, quarter, 32) !== 4) throw new Error('bandwidth.mjs: the probe module sums wrongly');
  const time = (f) => { const t0 = performance.now(); f(); return (performance.now() - t0) / 1000; };
  const med = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
  time(() => read(0, half)); time(() => read2(0, quarter, quarter)); time(() => copy(half, 0, half));
  const r = [], r2 = [], c = [];
  for (let i = 0; i < passes; i++) {
    r.push(half / time(() => read(0, half)) / 1e9);
    r2.push(half / time(() => read2(0, quarter, quarter)) / 1e9);
    c.push(half / time(() => copy(half, 0, half)) / 1e9);
  }
  const rd = med(r), rd2 = med(r2), fix = (x) => Number(x.toFixed(2));
  return { gb_s: fix(Math.max(rd, rd2)), read_gb_s: fix(rd), read2_gb_s: fix(rd2), memcpy_gb_s: fix(med(c)), bytes: half,
           what: 'a hand-assembled wasm module, one thread: f32x4 stream reads (v128.load + f32x4.add, 4 accumulators) of 128 MiB, as one stream (read_gb_s) and as two 64 MiB apart (read2_gb_s), bytes read per second, median of 7 passes; gb_s the faster; memcpy_gb_s: memory.copy of 128 MiB, bytes copied per second' };
}

if (import.meta.url === `file://${process.argv[1]}`) copyBandwidth().then((r) => console.log(JSON.stringify(r)));
