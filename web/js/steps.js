// steps.js — where each step id belongs in the walkthrough (section → group → head) and a
// short label for the table of contents. Pure functions of the ids in docs/trace.md.

const SHORT = {
  token_ids: 'token ids', embedding: 'embedding lookup', positional: 'positional encoding',
  embedding_sum: 'token + position', 'embedding_ln.mean': 'mean', 'embedding_ln.var': 'variance',
  input: 'encoder input X', attention_mask: 'attention mask',
  q: 'queries Q', k: 'keys K', v: 'values V', concat: 'concat heads', attn_out: 'output projection',
  residual1: 'residual', residual2: 'residual', residual3: 'residual',
  'ln1.mean': 'mean', 'ln1.var': 'variance', ln1: 'LayerNorm',
  'ln2.mean': 'mean', 'ln2.var': 'variance', ln2: 'LayerNorm',
  'ln3.mean': 'mean', 'ln3.var': 'variance', ln3: 'LayerNorm',
  ffn_pre: 'x·W₁ + b₁', ffn_out: 'h·W₂ + b₂', output: 'layer output',
  scores: 'scores', scaled: 'scaled + mask', rowmax: 'row max', rowsum: 'Σ exp', weights: 'weights', context: 'context',
};

export function shortLabel(step) {
  const id = step.id;
  if (id === 'output') return 'encoder output';
  if (id === 'decoder_output') return 'decoder output';
  if (id === 'logits') return 'logits';
  if (id === 'probs') return 'softmax: probabilities';
  if (id === 'probs.rowmax') return 'row max';
  if (id === 'probs.rowsum') return 'Σ exp';
  if (id === 'decoder_input') return 'decoder input';
  if (id === 'decoder_mask') return 'causal mask';
  if (id === 'cross_mask') return 'cross-attention mask';
  if (id.startsWith('target_')) return 'target ' + (SHORT[id.slice(7)] || id.slice(7));
  if (id.startsWith('cls.')) return { 'cls.pooled': 'first token', 'cls.logits': 'logits', 'cls.probs.rowmax': 'row max', 'cls.probs.rowsum': 'Σ exp', 'cls.probs': 'probabilities' }[id] || id;
  if (step.kind === 'activation') return step.title.startsWith('GELU') ? 'GELU' : 'ReLU';
  const m = /\.head\d+\.(\w+)$/.exec(id);
  if (m) return SHORT[m[1]] || m[1];
  const rest = id.replace(/^(layer|decoder)\d+\.((self|cross)\.)?/, '');
  return SHORT[rest] || step.title;
}

// {section, sectionKey, group, groupKey, head}
export function placeOf(step) {
  const id = step.id;
  let m;
  if ((m = /^layer(\d+)\.(.+)$/.exec(id))) {
    const L = m[1], rest = m[2];
    const section = `Encoder layer ${L}`, sectionKey = `layer${L}`;
    const head = /^head(\d+)\./.exec(rest);
    if (head || /^(q|k|v|concat|attn_out)$/.test(rest))
      return { section, sectionKey, group: 'Multi-head self-attention', groupKey: `${sectionKey}.attn`, head: head ? Number(head[1]) : -1 };
    if (/^ffn_/.test(rest)) return { section, sectionKey, group: 'Feed-forward network', groupKey: `${sectionKey}.ffn`, head: -1 };
    return { section, sectionKey, group: 'norm', groupKey: `${sectionKey}.norm`, head: -1 };
  }
  if ((m = /^decoder(\d+)\.(.+)$/.exec(id))) {
    const L = m[1], rest = m[2];
    const section = `Decoder layer ${L}`, sectionKey = `decoder${L}`;
    const head = /^(self|cross)\.head(\d+)\./.exec(rest);
    if (rest.startsWith('self.'))
      return { section, sectionKey, group: 'Masked self-attention', groupKey: `${sectionKey}.self`, head: head ? Number(head[2]) : -1 };
    if (rest.startsWith('cross.'))
      return { section, sectionKey, group: 'Cross-attention (queries from the decoder, keys and values from the encoder)', groupKey: `${sectionKey}.cross`, head: head ? Number(head[2]) : -1 };
    if (/^ffn_/.test(rest)) return { section, sectionKey, group: 'Feed-forward network', groupKey: `${sectionKey}.ffn`, head: -1 };
    return { section, sectionKey, group: 'norm', groupKey: `${sectionKey}.norm`, head: -1 };
  }
  if (id === 'output') return { section: 'Encoder output', sectionKey: 'encout', group: '', groupKey: 'encout', head: -1 };
  if (id.startsWith('cls.')) return { section: 'Classification head', sectionKey: 'cls', group: '', groupKey: 'cls', head: -1 };
  if (id.startsWith('target_') || ['decoder_input', 'decoder_mask', 'cross_mask'].includes(id))
    return { section: 'Decoder input', sectionKey: 'target', group: '', groupKey: 'target', head: -1 };
  if (['decoder_output', 'logits', 'probs', 'probs.rowmax', 'probs.rowsum'].includes(id))
    return { section: 'Output: next-token probabilities', sectionKey: 'final', group: '', groupKey: 'final', head: -1 };
  return { section: 'Tokens & embeddings', sectionKey: 'input', group: '', groupKey: 'input', head: -1 };
}

// Sections → groups (consecutive runs) → items; head steps gathered per head.
export function outline(steps) {
  const sections = [];
  let sec = null, grp = null;
  for (const s of steps) {
    const p = placeOf(s);
    if (!sec || sec.key !== p.sectionKey) {
      sec = { key: p.sectionKey, title: p.section, groups: [], first: s.index };
      sections.push(sec);
      grp = null;
    }
    if (!grp || grp.key !== p.groupKey) {
      grp = { key: p.groupKey, title: p.group, items: [], heads: new Map() };
      sec.groups.push(grp);
    }
    if (p.head >= 0) {
      if (!grp.heads.has(p.head)) {
        const h = { head: p.head, steps: [] };
        grp.heads.set(p.head, h);
        grp.items.push({ head: h });
      }
      grp.heads.get(p.head).steps.push(s);
    } else grp.items.push({ step: s });
  }
  // "norm" groups get a name from what they hold.
  for (const sec2 of sections)
    for (const g of sec2.groups)
      if (g.title === 'norm') {
        const ids = g.items.filter((x) => x.step).map((x) => x.step.id);
        const hasRes = ids.some((i) => /residual/.test(i));
        g.title = hasRes ? 'Add & norm' : ids.every((i) => /\.output$/.test(i)) ? 'Output' : 'LayerNorm (pre-norm)';
      }
  return sections;
}
