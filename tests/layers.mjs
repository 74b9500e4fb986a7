// layers.mjs — keeps the house: the folders are the architecture, and dependencies point only
// down the layers (docs/architecture.md).
//   core/: kernels ← model ← text ← trace ← io ← train ← session; a file may include its own folder
//          and any folder below it, never one above; nothing in core/ includes Emscripten.
//   web/js: lib ← engine ← model ← view ← {train, embed, lab} ← page; every module lives in one of
//          these folders; a module imports its own folder or a lower one (train and embed are
//          siblings: neither imports the other; page may import both); only page/ imports the
//          page's state (page/app.js); and no import cycle anywhere (web/component.js, the
//          element's entry, counts as embed/).
// Each check runs first on the real tree (it must pass) and then on a copy with a planted
// defect (it must fail), so a checker that cannot fail fails the suite.
//   node tests/layers.mjs
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

// ---- C++: the core's folders, lowest first ------------------------------------------------
export const CORE_LAYERS = ['kernels', 'model', 'text', 'trace', 'io', 'train', 'session'];

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

// ---- web/js: the page's modules, lowest first ------------------------------------------------
// Groups of equal rank are siblings (neither may import the other).
export const WEB_GROUPS = { lib: 0, engine: 1, model: 2, view: 3, train: 4, embed: 4, lab: 4, page: 5 };
const APP_STATE = 'page/app.js';

// The relative specifiers a module imports: static imports and re-exports (statements at the
// start of a line, as the page writes them, possibly over several lines) and import('…') with
// a literal (a computed import, like load-build.js's of a build, names no module of web/js).
export function importsOf(text) {
  const out = [];
  for (const m of text.matchAll(/^\s*(?:import|export)\b[^;'"`]*?(?:\bfrom\s*)?(['"])([^'"]+)\1/gm)) out.push(m[2]);
  for (const line of text.split('\n')) {
    if (/^\s*(\/\/|\*)/.test(line)) continue;
    for (const m of line.matchAll(/\bimport\(\s*(['"])([^'"]+)\1\s*\)/g)) out.push(m[2]);
  }
  return out.filter((s) => s.startsWith('./') || s.startsWith('../'));
}

// files: {path relative to web/js → source text} ('../component.js' is the element's entry).
// Returns a list of problems (strings).
export function checkWeb(files) {
  const problems = [];
  const groupOf = (rel) => (rel === '../component.js' ? 'embed' : rel.split('/')[0]);
  const graph = new Map();
  for (const [rel, text] of Object.entries(files)) {
    const from = groupOf(rel);
    if (!rel.includes('/') || !(from in WEB_GROUPS)) {
      problems.push(`web/js/${rel}: every module lives in one of ${Object.keys(WEB_GROUPS).join(', ')}/`);
      continue;
    }
    const deps = [];
    for (const spec of importsOf(text)) {
      // Resolved from web/, where the element's entry sits (the modules are under web/js).
      const fromWeb = path.posix.normalize(path.posix.join('js', path.posix.dirname(rel), spec));
      const to = fromWeb.startsWith('js/') ? fromWeb.slice(3) : `../${fromWeb}`;
      if (!(to in files)) { problems.push(`web/js/${rel}: imports "${spec}", which is not a module of web/js`); continue; }
      deps.push(to);
      const target = groupOf(to);
      if (to === APP_STATE && from !== 'page') problems.push(`web/js/${rel}: imports the page's state (${APP_STATE}): only page/ may; pass what is needed in (a context, hooks)`);
      else if (target !== from && WEB_GROUPS[target] >= WEB_GROUPS[from])
        problems.push(`web/js/${rel}: imports "${spec}": ${from}/ may not depend on ${target}/ (lib ← engine ← model ← view ← train, embed ← page)`);
    }
    graph.set(rel, deps);
  }
  for (const cycle of cyclesOf(graph)) problems.push(`web/js: import cycle ${cycle.join(' → ')}`);
  return problems;
}

// Every cycle a depth-first search meets (each reported once, from its first module).
function cyclesOf(graph) {
  const state = new Map(), stack = [], cycles = [];
  const visit = (n) => {
    state.set(n, 'open');
    stack.push(n);
    for (const d of graph.get(n) || []) {
      if (state.get(d) === 'open') cycles.push([...stack.slice(stack.indexOf(d)), d]);
      else if (!state.has(d)) visit(d);
    }
    stack.pop();
    state.set(n, 'done');
  };
  for (const n of [...graph.keys()].sort()) if (!state.has(n)) visit(n);
  return cycles;
}

function readWeb() {
  const dir = path.join(root, 'web/js');
  const files = {};
  for (const p of walk(dir, (f) => f.endsWith('.js'))) files[path.relative(dir, p).split(path.sep).join('/')] = fs.readFileSync(p, 'utf8');
  files['../component.js'] = fs.readFileSync(path.join(root, 'web/component.js'), 'utf8');
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

const web = readWeb();
expectClean(`web/js: ${Object.keys(web).length} modules import only their own group or lower ones, no cycles`, checkWeb(web));
const plant = (file, line) => checkWeb({ ...web, [file]: `${line}\n${web[file]}` });
expectCaught('an import cycle (legend.js → matrix.js → legend.js)', plant('view/matrix/legend.js', "import { createMatrix } from './matrix.js';"), /import cycle .*legend\.js/);
expectCaught('model/ importing view/ (trace.js → kinds)', plant('model/trace.js', "import { kindOf } from '../view/kinds/index.js';"), /model\/ may not depend on view\//);
expectCaught('lib/ importing engine/ (dynamic import)', plant('lib/format.js', "const x = () => import('../engine/builds.js');"), /lib\/ may not depend on engine\//);
expectCaught('train/ importing embed/ (siblings)', plant('train/plot.js', "import { exportStep } from '../embed/export.js';"), /train\/ may not depend on embed\//);
expectCaught('the page state outside page/', plant('view/render/alignment.js', "import { app } from '../../page/app.js';"), /only page\/ may/);
expectCaught('a module outside the groups', checkWeb({ ...web, 'stray.js': '' }), /lives in one of/);
expectCaught('a folder that is not a group', checkWeb({ ...web, 'widgets/x.js': '' }), /lives in one of/);
expectCaught('an import of a missing module', plant('view/notation.js', "import { x } from './nowhere.js';"), /not a module of web\/js/);
expectCaught('a multi-line import pointing up', plant('engine/builds.js', "import {\n  t,\n  has,\n} from '../view/notes/index.js';"), /engine\/ may not depend on view\//);

if (failed) process.exit(1);
console.log('layers: the house is kept');
