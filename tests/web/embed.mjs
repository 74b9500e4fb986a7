#!/usr/bin/env node
// embed.mjs — the embedding modules that need no browser, in Node: the view keys and their
// notices (embed-params.js), the closest step for a mistyped id, the .npy bytes (read back by
// NumPy), the PNG tEXt chunk's CRC (checked by Python's zlib), and the JSON export against the
// native CLI's --json: every number of every step and parameter identical.
//
//   node tests/web/embed.mjs [--cli build/native-release/encoder-walkthrough]
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import process from 'node:process';
import { root, arg } from '../harness.mjs';
import { readEmbedParams, resolveStep, defaultFigureStep } from '../../web/js/embed/embed-params.js';
import { npyBytes } from '../../web/js/lib/npy.js';
import { pngWithText } from '../../web/js/lib/png-text.js';
import { traceJson, f32, exportStep } from '../../web/js/embed/export.js';
import { traceFromCli } from './page-trace.mjs';
import { stepTitle, stepFormula } from '../../web/js/model/titles.js';
import { setLang, loadAllLangs } from '../../web/js/lib/i18n.js';
await loadAllLangs(); // the German catalog too (the page fetches a language's catalog when asked: i18n.js)

const cli = path.resolve(root, arg('--cli', 'build/native-release/encoder-walkthrough'));
let failures = 0;
async function check(name, fn) {
  try {
    await fn();
    console.log(`ok   ${name}`);
  } catch (e) {
    failures++;
    console.log(`FAIL ${name}\n     ${e.message}`);
  }
}
function assert(c, msg) {
  if (!c) throw new Error(msg);
}
const params = (q) => readEmbedParams((k) => new URLSearchParams(q).get(k));
const tmp = mkdtempSync(path.join(tmpdir(), 'ew-embed-'));

await check('view keys: valid values are read and kept for links', () => {
  const p = params('view=figure&inputs=1&controls=text,nav&theme=dark');
  assert(p.view === 'figure' && p.inputs && p.controls.has('text') && p.controls.has('nav') && p.theme === 'dark' && !p.notes.length, JSON.stringify(p));
  assert(JSON.stringify(p.given) === JSON.stringify({ view: 'figure', inputs: '1', controls: 'text,nav', theme: 'dark' }), JSON.stringify(p.given));
  const d = params('');
  assert(d.view === 'full' && !d.inputs && !d.controls.size && d.theme === 'auto' && !d.notes.length, JSON.stringify(d));
});

await check('view keys: each bad value is named in a notice and replaced by its default', () => {
  const p = params('view=poster&inputs=yes&controls=text,zoom&theme=sepia');
  assert(p.view === 'full' && !p.inputs && p.controls.has('text') && p.controls.size === 1 && p.theme === 'auto', JSON.stringify(p));
  for (const w of ['unknown view "poster"', 'inputs must be 0 or 1, got "yes"', 'unknown controls "zoom"', 'theme must be one of auto, light, dark, got "sepia"'])
    assert(p.notes.some((n) => n.includes(w)), `no notice "${w}" in ${JSON.stringify(p.notes)}`);
  const framed = readEmbedParams((k) => new URLSearchParams('view=figrue').get(k), true);
  assert(framed.view === 'figure' && /showing a figure/.test(framed.notes[0]), `in a frame, a mistyped view: ${JSON.stringify(framed)}`);
  const long = params(`view=${'x'.repeat(500)}`);
  assert(long.notes[0].length < 150, 'a long bad value is clipped in its notice');
});

await check('a mistyped step id: the closest id, with a notice naming both; a good id: no notice', () => {
  const ids = ['token_ids', 'layer0.q', 'layer0.head0.weights', 'layer0.head1.weights', 'layer1.head0.weights'];
  let r = resolveStep(ids, 'layer0.head1.weigths', 0);
  assert(ids[r.index] === 'layer0.head1.weights' && /no step "layer0.head1.weigths".*"layer0.head1.weights"/.test(r.note), JSON.stringify(r));
  r = resolveStep(ids, 'layer0.q', 0);
  assert(r.index === 1 && r.note === '', JSON.stringify(r));
  r = resolveStep(ids, '', 3);
  assert(r.index === 3 && r.note === '', JSON.stringify(r));
  const steps = [{ kind: 'tokens', head: -1 }, { kind: 'softmax', head: -1 }, { kind: 'softmax', head: 0 }];
  assert(defaultFigureStep(steps) === 2 && defaultFigureStep(steps.slice(0, 2)) === 0, 'default figure step');
});

await check('.npy: NumPy reads the shape, dtype and values (-inf kept); header padded to 64 bytes', () => {
  const data = new Float32Array([1.5, -2.25, -Infinity, 3.4028234663852886e38, 1e-45, 0, 7, 8, 9, 10, 11, 12]);
  for (const shape of [[12], [3, 4], [2, 3, 2]]) {
    const bytes = npyBytes(data, shape);
    const header = 10 + (bytes[8] | (bytes[9] << 8));
    assert(header % 64 === 0, `data starts at ${header}`);
    const f = path.join(tmp, 'a.npy');
    writeFileSync(f, bytes);
    const out = execFileSync('/usr/bin/python3', ['-c', 'import numpy as np, sys, json; a = np.load(sys.argv[1]); print(json.dumps([list(a.shape), str(a.dtype), [None if np.isneginf(x) else float(x) for x in a.ravel()]]))', f], { encoding: 'utf8' });
    const [sh, dtype, vals] = JSON.parse(out);
    assert(JSON.stringify(sh) === JSON.stringify(shape) && dtype === 'float32', `${shape}: ${sh} ${dtype}`);
    assert(vals.every((v, i) => (v === null ? data[i] === -Infinity : v === data[i])), `${shape}: values ${vals}`);
  }
});

await check('PNG tEXt chunk: right length and CRC (zlib), placed after IHDR, non-ASCII escaped', () => {
  // A 1×1 PNG (signature + IHDR + IDAT + IEND), as a canvas would make.
  const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');
  const out = Buffer.from(pngWithText(new Uint8Array(png), 'encoder-walkthrough', '{"text":"naïve ✓"}'));
  const len = out.readUInt32BE(33);
  assert(out.subarray(37, 41).toString() === 'tEXt', 'no tEXt after IHDR');
  const body = out.subarray(37, 41 + len);
  const crc = out.readUInt32BE(41 + len);
  const py = execFileSync('/usr/bin/python3', ['-c', 'import sys, zlib; print(zlib.crc32(bytes.fromhex(sys.argv[1])))', body.toString('hex')], { encoding: 'utf8' });
  assert(Number(py) === crc, `CRC ${crc}, zlib says ${py}`);
  assert(body.subarray(4).toString('latin1') === 'encoder-walkthrough\0{"text":"na\\u00efve \\u2713"}', body.subarray(4).toString('latin1'));
  assert(out.length === png.length + 12 + len && out.subarray(41 + len + 4).equals(png.subarray(33)), 'the rest of the PNG moved intact');
});

await check('JSON export = the CLI\'s --json: every number of every step and parameter identical', () => {
  for (const args of [['--preset', 'padding-batch'], ['--preset', 'seed004-bert'], []]) {
    const nat = JSON.parse(execFileSync(cli, [...args, '--json'], { encoding: 'utf8', maxBuffer: 1 << 28 }));
    const strip = (list) => list.map(({ data, ...rest }) => rest);
    const asArray = (d) => Float32Array.from(d, (v) => (v === null ? -Infinity : v));
    const trace = {
      meta: { ...nat, ok: true, ms: 1, setup_ms: 0, steps: strip(nat.steps), params: strip(nat.params) },
      steps: nat.steps.map((s) => ({ data: asArray(s.data) })),
      params: nat.params.map((p) => ({ data: asArray(p.data) })),
    };
    const ours = JSON.parse(traceJson(trace));
    assert(JSON.stringify(ours) === JSON.stringify(nat), `${args.join(' ') || 'default'}: export differs from the CLI's JSON`);
  }
  assert(f32(0.1) === '0.1' && f32(Math.fround(0.1)) === '0.1' && f32(-Infinity) === '-inf' && f32(16777217) === '16777216', 'f32 formatting');
});

// The page's Trace of the CLI's --json trace for these arguments.
const cliTrace = (args) => traceFromCli(JSON.parse(execFileSync(cli, [...args, '--json'], { encoding: 'utf8', maxBuffer: 1 << 28 })));

await check('SVG, PNG metadata, CSV and LaTeX carry the page\'s title and formula in the reader\'s language (a German page exports German titles)', async () => {
  const trace = cliTrace([]);
  const text = async (id, format) => Buffer.from(await (await exportStep({ trace, settings: {}, link: 'https://example.org/', batch: 0, dark: false }, id, format)).arrayBuffer()).toString('utf8');
  for (const id of ['decoder0.cross.head0.weights', 'layer0.ln1']) {
    const step = trace.get(id);
    setLang('en', null);
    const en = stepTitle(step, trace);
    setLang('de', null);
    const de = stepTitle(step, trace);
    assert(de !== en && de !== step.title, `${id}: the German title "${de}" is not German`);
    const escaped = de.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`); // as SVG text
    for (const format of ['svg', 'csv', 'tex']) {
      const body = await text(id, format);
      const shown = format === 'svg' ? escaped : de;
      assert(body.includes(shown), `${id}.${format} lacks the German title "${de}":\n${body.slice(0, 300)}`);
      assert(!body.includes(`"${step.title}"`) && !body.includes(`>${step.title}<`), `${id}.${format} has the engine's English title "${step.title}"`);
    }
    assert((await text(id, 'svg')).includes(`&#34;title&#34;:&#34;${escaped}&#34;`), `${id}.svg: the metadata's title is not the German one`);
    assert((await text(id, 'tex')).includes(stepFormula(step, trace)), `${id}.tex: not the page's formula`);
  }
  // A gradient's formula is the page's (∂L/∂ with the symbol of its tensor), not the engine's.
  const back = cliTrace(['--backward']);
  const g = back.steps.find((s) => s.role === 'grad' && back.get(s.of) && !back.get(s.of).isParam);
  const tex = Buffer.from(await (await exportStep({ trace: back, settings: {}, link: '', batch: 0 }, g.id, 'tex')).arrayBuffer()).toString('utf8');
  assert(stepFormula(g, back) !== g.formula && tex.includes(stepFormula(g, back)) && tex.includes(stepTitle(g, back)), `${g.id}.tex:\n${tex}`);
  setLang('en', null);
});

rmSync(tmp, { recursive: true, force: true });
console.log(failures ? `embed: ${failures} failed` : 'embed: all passed');
process.exit(failures ? 1 : 0);
