// reproduce.mjs — a shipped model is what its recipe trains: reads the recipe a shipped file
// carries (its safetensors __metadata__ "training": the arguments scripts/train-models.sh
// passed), trains it again with the native CLI (`train … --float16 --out`), and compares the
// two files tensor by tensor, byte for byte, and their config, vocabulary, labels and recipe.
// Which model: dates, the one trained on the recorded path, which reproduced its file byte for
// byte on another CPU than the one that wrote it. number-words and brackets train on the batched
// path, whose bytes depend on the CPU (docs/training.md, "Reproducing the files"): their
// committed files came from another machine, and retrained here they differ by rounding (both
// still 99.9–100% held-out), so bytes are no bound one could hold them to on any machine.
// dates is also the fastest to train of the three on one path that reproduces.
// A planted defect must fail the comparison: the retrained file with one tensor byte changed.
//   node tests/reproduce.mjs --cli build/native-release/encoder-walkthrough [--model dates]
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { root, arg, checks, assert, requireFiles } from './harness.mjs';

const cli = path.resolve(arg('--cli', path.join(root, 'build/native-release/encoder-walkthrough')));
const name = arg('--model', 'dates');
const shipped = path.join(root, 'models', `${name}.safetensors`);
requireFiles('reproduce.mjs', [['the native CLI', cli], ['the shipped model', shipped]]);
const { check, results } = checks();

// {header (JSON), data (the bytes after it)} of a safetensors file.
export function readSafetensors(bytes) {
  const n = Number(bytes.readBigUInt64LE(0));
  return { header: JSON.parse(bytes.subarray(8, 8 + n).toString('utf8')), data: bytes.subarray(8 + n) };
}

// What differs between two safetensors files: tensor names, dtypes, shapes, bytes, and the
// metadata keys that say what the model is.
export function differences(a, b) {
  const A = readSafetensors(a), B = readSafetensors(b);
  const out = [];
  const names = (h) => Object.keys(h).filter((k) => k !== '__metadata__').sort();
  if (names(A.header).join() !== names(B.header).join()) out.push(`tensors: ${names(A.header)} vs ${names(B.header)}`);
  for (const t of names(A.header)) {
    const x = A.header[t], y = B.header[t];
    if (!y) continue;
    if (x.dtype !== y.dtype || String(x.shape) !== String(y.shape)) out.push(`${t}: ${x.dtype}${x.shape} vs ${y.dtype}${y.shape}`);
    const bx = A.data.subarray(...x.data_offsets), by = B.data.subarray(...y.data_offsets);
    if (!bx.equals(by)) {
      let i = 0;
      while (i < bx.length && bx[i] === by[i]) i++;
      out.push(`${t}: bytes differ from byte ${i} of ${bx.length}`);
    }
  }
  for (const k of ['config', 'vocab', 'labels', 'recipe', 'training', 'merges'])
    if ((A.header.__metadata__ || {})[k] !== (B.header.__metadata__ || {})[k]) out.push(`metadata ${k} differs`);
  return out;
}

const bytes = fs.readFileSync(shipped);
const training = readSafetensors(bytes).header.__metadata__.training;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ew-reproduce-'));
try {
  const out = path.join(dir, `${name}.safetensors`);
  let retrained;
  await check(`models/${name}.safetensors is what its recipe trains: train ${training}`, async () => {
    assert(training, 'the shipped file has no "training" metadata');
    const args = ['train', ...training.split(' '), '--eval', '0', '--float16', '--out', out];
    const t0 = Date.now();
    const r = spawnSync(cli, args, { encoding: 'utf8', maxBuffer: 1 << 26 });
    assert(r.status === 0, `train exited ${r.status}: ${r.stderr}`);
    console.log(`     retrained in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
    retrained = fs.readFileSync(out);
    const d = differences(bytes, retrained);
    assert(!d.length, `the retrained file differs from the shipped one:\n${d.join('\n')}`);
  });
  await check('a planted defect fails the comparison: one byte of one tensor changed', async () => {
    assert(retrained, 'nothing was retrained');
    const planted = Buffer.from(retrained);
    const { header } = readSafetensors(planted);
    const first = Object.keys(header).find((k) => k !== '__metadata__');
    const at = 8 + Number(planted.readBigUInt64LE(0)) + header[first].data_offsets[0] + 1;
    planted[at] ^= 1;
    assert(differences(bytes, planted).length === 1, 'a changed tensor byte passed');
  });
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}

const { passed, failed } = results();
console.log(`\nreproduce.mjs: ${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
