#!/usr/bin/env node
// formulas.mjs — the formulas the engine writes, typeset at build time (issue 29, item 2: a figure
// embed without KaTeX's script, stylesheet and fonts, 119 KiB gzip'd of its 545).
//   - allFormulas(nodeModule): the LaTeX of every step of every preset and of a few configurations
//     that reach the steps no preset has (the engine's own formulas, run by its Node module);
//   - run as a script, writes DIST/formulas-mathml.js, an ES module whose default export is {katex:
//     version, output: 'mathml', formulas: {latex: markup}} — each formula as KaTeX's MathML-only
//     markup, exactly what katex.render with {displayMode: true, output: 'mathml'} puts in a node
//     (view/formulas.js imports it; a formula not in it is typeset by KaTeX, loaded then) — and
//     its .gz twin. A module, not JSON: an <encoder-walkthrough> imports it into a blog's page,
//     whose CSP allows the walkthrough's scripts (it loads component.js) but perhaps no connect-src.
// scripts/build-single.mjs uses allFormulas to keep only the KaTeX fonts these formulas need.
//
//   node scripts/formulas.mjs --dist dist --node-module build/wasm/node/encoder_walkthrough_node.js
import { readFileSync, writeFileSync, existsSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import process from 'node:process';

const require = createRequire(import.meta.url);

// KaTeX's options for a formula without its stylesheet: MathML only, which browsers lay out
// themselves (the same options katexInto passes for output 'mathml').
export const MATHML = { displayMode: true, throwOnError: true, output: 'mathml', strict: 'ignore' };

export async function allFormulas(nodeModule) {
  const M = await require(nodeModule)({ wasmBinary: readFileSync(nodeModule.replace(/\.js$/, '.wasm')), print: () => {}, printErr: () => {} });
  const engine = new M.Engine();
  const models = JSON.parse(M.presetsJson()).map((p) => p.model);
  const base = { text: 'in the bleak midwinter', text2: 'snow on snow' };
  models.push({ ...base, config: {} });
  models.push({ ...base, config: { norm: 'pre', activation: 'gelu', positional: 'learned', causal: true, num_labels: 2, decoder_layers: 1, scale: false } });
  models.push({ ...base, config: { tokenizer: 'bpe', positional: 'none', num_layers: 2 } });
  models.push({ ...base, config: { activation: 'gelu_new', tokenizer: 'chars', masked_lm: true } });
  models.push({ ...base, config: { tokenizer: 'whitespace', norm: 'pre', decoder_layers: 1 } });
  const formulas = new Set();
  for (const m of models) {
    const meta = JSON.parse(engine.run(JSON.stringify(m), '{}'));
    if (meta.ok) for (const s of meta.steps) if (s.formula) formulas.add(s.formula);
  }
  engine.delete();
  return [...formulas].sort();
}

// {katex, output, formulas: {latex: markup}} for `formulas`.
export function typesetAll(formulas) {
  const katex = require('katex');
  const out = {};
  for (const tex of formulas) out[tex] = katex.renderToString(tex, MATHML);
  return { katex: katex.version, output: MATHML.output, formulas: out };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const arg = (name) => {
    const i = process.argv.indexOf(name);
    if (i < 0 || !process.argv[i + 1]) throw new Error(`formulas.mjs: ${name} is required`);
    return path.resolve(process.argv[i + 1]);
  };
  const dist = arg('--dist'), nodeModule = arg('--node-module');
  if (!existsSync(nodeModule)) throw new Error(`formulas.mjs: ${nodeModule} is missing (build the wasm preset first)`);
  const table = typesetAll(await allFormulas(nodeModule));
  const json = `export default ${JSON.stringify(table)};\n`;
  const file = path.join(dist, 'formulas-mathml.js');
  writeFileSync(file, json);
  const gz = gzipSync(json, { level: 9 });
  writeFileSync(file + '.gz', gz);
  console.log(`formulas.mjs: ${Object.keys(table.formulas).length} formulas typeset by KaTeX ${table.katex} → ${path.relative(process.cwd(), file)} (${(json.length / 1024).toFixed(0)} KiB, ${(gz.length / 1024).toFixed(1)} gzip)`);
}
