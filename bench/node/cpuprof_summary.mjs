// cpuprof_summary.mjs — self time by function name of a V8 .cpuprofile (node --cpu-prof), largest first.
//   node bench/node/cpuprof_summary.mjs FILE.cpuprofile [TOP=25]
import fs from 'node:fs';

const p = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
const dt = new Map();
p.samples.forEach((id, i) => dt.set(id, (dt.get(id) || 0) + (p.timeDeltas[i] || 0)));
const self = new Map();
let total = 0;
for (const n of p.nodes) {
  const t = dt.get(n.id) || 0, k = n.callFrame.functionName || '(anonymous)';
  total += t;
  self.set(k, (self.get(k) || 0) + t);
}
for (const [k, t] of [...self].sort((a, b) => b[1] - a[1]).slice(0, Number(process.argv[3] || 25)))
  console.log(`${(100 * t / total).toFixed(1).padStart(5)} % ${(t / 1000).toFixed(0).padStart(7)} ms  ${k.slice(0, 140)}`);
