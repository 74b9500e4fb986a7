// layers.mjs — keeps the house: the folders are the architecture, and dependencies point only
// down the layers (docs/architecture.md).
//   core/: kernels ← model ← trace ← io ← train ← session; a file may include its own folder
//          and any folder below it, never one above; nothing in core/ includes Emscripten.
// Each check runs first on the real tree (it must pass) and then on a copy with a planted
// defect (it must fail), so a checker that cannot fail fails the suite.
//   node tests/layers.mjs
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

// ---- C++: the core's folders, lowest first ------------------------------------------------
export const CORE_LAYERS = ['kernels', 'model', 'trace', 'io', 'train', 'session'];

function walk(dir, keep, out = []) {
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) walk(p, keep, out);
    else if (keep(p)) out.push(p);
  }
  return out;
}

// files: {relative path under core/ → source text}. Returns a list of problems (strings).
export function checkCore(files) {
  const problems = [];
  for (const [rel, text] of Object.entries(files)) {
    const parts = rel.split('/');
    if (parts.length !== 2) { problems.push(`core/${rel}: every core file lives in one of ${CORE_LAYERS.join(', ')}`); continue; }
    const from = CORE_LAYERS.indexOf(parts[0]);
    if (from < 0) { problems.push(`core/${rel}: folder "${parts[0]}" is not a layer (${CORE_LAYERS.join(', ')})`); continue; }
    for (const m of text.matchAll(/^\s*#\s*include\s*([<"])([^>"]+)[>"]/gm)) {
      const [, delim, inc] = m;
      if (/^emscripten[/.]/.test(inc)) problems.push(`core/${rel}: includes <${inc}> (no Emscripten in core/: wasm/ binds it)`);
      if (delim !== '"') continue;
      const folder = inc.split('/')[0];
      const to = CORE_LAYERS.indexOf(folder);
      if (!inc.includes('/') || to < 0) { problems.push(`core/${rel}: includes "${inc}" — name core headers by their folder ("model/model.h")`); continue; }
      if (to > from) problems.push(`core/${rel}: includes "${inc}": ${parts[0]}/ may not depend on ${folder}/, a higher layer (${CORE_LAYERS.join(' ← ')})`);
    }
  }
  return problems;
}

function readCore() {
  const dir = path.join(root, 'core');
  const files = {};
  for (const p of walk(dir, (f) => /\.(h|cpp)$/.test(f))) files[path.relative(dir, p).split(path.sep).join('/')] = fs.readFileSync(p, 'utf8');
  return files;
}

// ---- run: the real tree passes, planted defects fail -----------------------------------
let failed = false;
function expectClean(name, problems) {
  if (problems.length) {
    failed = true;
    console.error(`FAIL ${name}:\n  ${problems.join('\n  ')}`);
  } else console.log(`ok   ${name}`);
}
function expectCaught(name, problems, pattern) {
  if (!problems.some((p) => pattern.test(p))) {
    failed = true;
    console.error(`FAIL the checker misses a planted defect: ${name} (problems: ${JSON.stringify(problems)})`);
  } else console.log(`ok   planted defect caught: ${name}`);
}

const core = readCore();
expectClean(`core/: ${Object.keys(core).length} files include only their own layer or lower ones`, checkCore(core));
const anyModel = Object.keys(core).find((f) => f.startsWith('model/') && f.endsWith('.cpp'));
expectCaught('model/ including train/', checkCore({ ...core, [anyModel]: core[anyModel] + '\n#include "train/train.h"\n' }), /may not depend on train/);
expectCaught('a header by bare name', checkCore({ ...core, [anyModel]: core[anyModel] + '\n#include "trace.h"\n' }), /name core headers by their folder/);
expectCaught('Emscripten in core/', checkCore({ ...core, [anyModel]: core[anyModel] + '\n#include <emscripten/bind.h>\n' }), /no Emscripten/);
expectCaught('a flat core file', checkCore({ ...core, 'stray.cpp': '' }), /lives in one of/);

if (failed) process.exit(1);
console.log('layers: the house is kept');
