#!/usr/bin/env node
// adamw.mjs — the page's "one AdamW update" (web/js/view/render/adamw.js) against
// torch.optim.AdamW (Debian's python3-torch, float64): one step from fresh moments for
// weights and gradients of every sign and scale (0, tiny, huge, negative), with and without
// weight decay; the new value must agree to 1e-12 relative.
//   node tests/web/adamw.mjs
import { execFileSync } from 'node:child_process';
import process from 'node:process';
import { adamwUpdate, ADAMW } from '../../web/js/view/render/adamw.js';

const cases = [];
for (const w of [0.597, -1.3, 0, 2.5e-3, 40]) for (const g of [2.78e-6, -0.31, 0, 1e-12, 7.5]) for (const decay of [true, false]) cases.push({ w, g, decay });
const py = `
import json, sys, torch
h = json.loads(sys.argv[1]); out = []
for c in json.loads(sys.argv[2]):
    p = torch.nn.Parameter(torch.tensor([c['w']], dtype=torch.float64))
    opt = torch.optim.AdamW([p], lr=h['lr'], betas=(h['beta1'], h['beta2']), eps=h['eps'], weight_decay=h['weight_decay'] if c['decay'] else 0.0)
    p.grad = torch.tensor([c['g']], dtype=torch.float64)
    opt.step()
    out.append(p.item())
print(json.dumps(out))`;
let torchOut;
try {
  torchOut = JSON.parse(execFileSync('/usr/bin/python3', ['-c', py, JSON.stringify(ADAMW), JSON.stringify(cases)], { encoding: 'utf8' }));
} catch (e) {
  console.error(`adamw: cannot run PyTorch (/usr/bin/python3 with python3-torch): ${e.message}`);
  process.exit(2);
}
let failures = 0;
cases.forEach((c, i) => {
  const ours = adamwUpdate(c.w, c.g, ADAMW, c.decay).w1, want = torchOut[i];
  if (!(Math.abs(ours - want) <= 1e-12 * Math.max(1, Math.abs(want)))) {
    failures++;
    console.log(`FAIL w = ${c.w}, g = ${c.g}, decay ${c.decay}: page ${ours}, torch ${want}`);
  }
});
console.log(`adamw: ${cases.length} updates against torch.optim.AdamW: ${failures ? 'FAILED' : 'all agree to 1e-12'}`);
process.exit(failures ? 1 : 0);
