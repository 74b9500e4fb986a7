// compare.mjs — shared by the wasm and browser suites: run the native CLI on a model file,
// and compare a trace (steps/params with Float32Array or plain-array data) against the
// CLI's --json trace (llm.c's check_tensor: print the first values and the max difference).
//
// Tolerance per tensor B (the native one): |a − b| ≤ 1e-5·|b| + 1e-5·max|B| + 1e-6; null in
// the JSON is −inf and must be −inf on both sides; NaN and +inf never match.
// Why the 1e-6 floor: wasm (4 lanes, no FMA) and native (8 lanes, FMA) sum in different
// orders, so a value that is a cancelling sum of O(1) inputs (the mean of an already
// normalised row: true value 0) carries the inputs' rounding, ~ε·|x| ≈ 1.2e-7 per term, not
// its own tiny magnitude's. Seen: 2.4e-7 vs 0 in layer0.ln1.mean of a pre-norm model.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

export const REL = 1e-5;
export const ABS = 1e-6;

export function runCli(cli, model) {
  const dir = mkdtempSync(path.join(tmpdir(), 'ew-'));
  const file = path.join(dir, 'model.json');
  try {
    writeFileSync(file, typeof model === 'string' ? model : JSON.stringify(model));
    const out = execFileSync(cli, ['--model', file, '--json'], { maxBuffer: 1 << 30, encoding: 'utf8' });
    return JSON.parse(out);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

// The CLI's trace of a built-in preset (--preset NAME --json).
export function runCliPreset(cli, name) {
  const out = execFileSync(cli, ['--preset', name, '--json'], { maxBuffer: 1 << 30, encoding: 'utf8' });
  return JSON.parse(out);
}

function toNum(x) {
  return x === null ? -Infinity : x;
}

// Returns null when equal within tolerance, else a message.
export function compareTensor(name, a, b) {
  if (a.length !== b.length) return `${name}: length ${a.length} ≠ native ${b.length}`;
  let maxAbs = 0;
  for (let i = 0; i < b.length; i++) {
    const v = toNum(b[i]);
    if (Number.isFinite(v)) maxAbs = Math.max(maxAbs, Math.abs(v));
  }
  let worst = -1, worstErr = 0, bad = 0;
  for (let i = 0; i < b.length; i++) {
    const x = toNum(a[i]), y = toNum(b[i]);
    if (y === -Infinity || x === -Infinity) {
      if (x !== y) { bad++; if (worst < 0) worst = i; }
      continue;
    }
    if (!Number.isFinite(x) || !Number.isFinite(y)) { bad++; if (worst < 0) worst = i; continue; }
    const err = Math.abs(x - y);
    const tol = REL * Math.abs(y) + REL * maxAbs + ABS;
    if (err > tol) {
      bad++;
      if (err > worstErr) { worstErr = err; worst = i; }
    }
  }
  if (!bad) return null;
  const first = (arr) => Array.from(arr.slice(0, 5), (v) => (toNum(v) === -Infinity ? '-inf' : Number(toNum(v)).toPrecision(8))).join(', ');
  return `${name}: ${bad}/${b.length} values differ; worst at [${worst}] ${toNum(a[worst])} vs native ${toNum(b[worst])} ` +
    `(max |native| ${maxAbs.toPrecision(4)}); first values [${first(a)}] vs native [${first(b)}]`;
}

// trace: {tokens?, steps: [{id, shape, data}], params?: [{id, shape, data}]}; native: CLI JSON.
// Returns a list of problems (empty when everything matches).
export function compareTrace(trace, native, { params = true, meta = true } = {}) {
  const problems = [];
  if (meta && trace.tokens && JSON.stringify(trace.tokens) !== JSON.stringify(native.tokens))
    problems.push(`tokens ${JSON.stringify(trace.tokens)} ≠ native ${JSON.stringify(native.tokens)}`);
  const ids = trace.steps.map((s) => s.id), nids = native.steps.map((s) => s.id);
  if (JSON.stringify(ids) !== JSON.stringify(nids)) {
    problems.push(`step ids differ: ${ids.length} vs native ${nids.length}; first difference at ${ids.findIndex((x, i) => x !== nids[i])}`);
    return problems;
  }
  trace.steps.forEach((s, i) => {
    const n = native.steps[i];
    if (JSON.stringify(s.shape) !== JSON.stringify(n.shape)) problems.push(`${s.id}: shape ${s.shape} ≠ native ${n.shape}`);
    else {
      const p = compareTensor(s.id, s.data, n.data);
      if (p) problems.push(p);
    }
    if (meta && s.kind !== undefined && (s.kind !== n.kind || JSON.stringify(s.inputs) !== JSON.stringify(n.inputs)))
      problems.push(`${s.id}: kind/inputs differ from native`);
  });
  if (params && trace.params) {
    const pids = trace.params.map((p) => p.id), npids = (native.params || []).map((p) => p.id);
    if (JSON.stringify(pids) !== JSON.stringify(npids)) problems.push(`param ids differ`);
    else trace.params.forEach((p, i) => {
      const n = native.params[i];
      if (JSON.stringify(p.shape) !== JSON.stringify(n.shape)) problems.push(`${p.id}: shape ${p.shape} ≠ native ${n.shape}`);
      else {
        const e = compareTensor(p.id, p.data, n.data);
        if (e) problems.push(e);
      }
    });
  }
  return problems;
}
