// render/tokens.js — tokenization: the sentence(s) split into tokens, each with its id, the
// tokenizer's rule, the vocabulary, and for BPE the merges printed as seed 001 prints them
// (most frequent pair, vocab before merge, vocab after merge, final vocab).
import { el } from '../matrix.js';
import { renderMatrixStep } from './matrix-step.js';

const RULES = {
  regex: ['Regex tokenizer (seed 001)', 'words and punctuation: \\b\\w+\\b|[.,!?;]'],
  whitespace: ['Whitespace tokenizer (seed 000)', 'str.split(): split on runs of spaces'],
  bpe: ['Byte-pair encoding (seed 001)', 'learn merges of frequent symbol pairs, then split each word into the learned subwords'],
  input: ['No tokenizer', 'the model file gives the input rows directly'],
};

function chips(tokens, vocab, ids) {
  const ol = el('ol', 'token-chips');
  tokens.forEach((t, i) => {
    const li = el('li', 'chip' + (t === '<pad>' ? ' pad' : ''));
    li.append(el('span', 'chip-tok', t), el('span', 'chip-id', ids ? `id ${ids[i]}` : ''), el('span', 'chip-pos', String(i)));
    li.title = `position ${i}: “${t}”${ids ? `, id ${ids[i]}` : ''}`;
    ol.append(li);
  });
  return ol;
}

function pairText(p) {
  return `('${p[0]}', '${p[1]}')`;
}
function vocabText(v) {
  return v.map(([w, f]) => `('${w}', ${f})`).join(' ');
}

export function renderTokens(ctx, host) {
  const { trace, step } = ctx;
  const isTarget = step.axes[step.axes.length - 1].labels === 'target';
  const text = trace.text;
  const box = el('section', 'tokenize');
  const [name, rule] = RULES[text.tokenizer] || [text.tokenizer, ''];
  const h = el('h3', '', isTarget ? 'Decoder input tokens (teacher forcing)' : name);
  box.append(h);
  if (!isTarget) box.append(el('p', 'muted', rule));
  const vocab = text.vocab || [];
  const idOf = new Map(vocab.map((t, i) => [t, i]));
  const LI = step.data;
  if (isTarget) {
    box.append(el('p', 'muted', 'The decoder reads “<s>” then the source tokens shifted right by one, and at each position predicts the next token.'));
    box.append(chips(trace.targetTokens(), vocab, Array.from(LI)));
  } else {
    for (let b = 0; b < trace.B; b++) {
      const toks = trace.sourceTokens(b);
      if (trace.B > 1) box.append(el('h4', '', `Sentence ${b + 1}`));
      const ids = Array.from(LI.subarray(b * trace.T, (b + 1) * trace.T));
      box.append(chips(toks, vocab, ids));
    }
    if (trace.B > 1) box.append(el('p', 'muted', 'The shorter sentence is padded with <pad> (id 0) so both have the same length; the attention mask hides the padding.'));
  }
  // Vocabulary.
  const vd = el('details', 'vocab');
  vd.append(el('summary', '', `Vocabulary: ${vocab.length} tokens (id → token)`));
  const vl = el('ol', 'vocab-list');
  vl.start = 0;
  vocab.slice(0, 2000).forEach((t, i) => {
    const li = el('li');
    li.append(el('span', 'chip-id', String(i)), ' ', el('span', 'chip-tok', t));
    vl.append(li);
  });
  vd.append(vl);
  if (vocab.length > 2000) vd.append(el('p', 'muted', `… and ${vocab.length - 2000} more`));
  vd.append(el('p', 'muted', idOf.has('<pad>') ? 'Without a given vocabulary, the ids are <pad> <s> </s> followed by the text\'s tokens in order of first appearance.' : ''));
  box.append(vd);

  if (!isTarget && text.tokenizer === 'bpe' && text.bpe) {
    const sec = el('section', 'bpe');
    sec.append(el('h3', '', `BPE merges (${text.bpe.merges.length})`));
    sec.append(el('p', 'muted', 'Each merge joins the most frequent adjacent pair of symbols in the corpus vocabulary (words split into characters, ending in </w>).'));
    const wrap = el('div', 'table-scroll');
    const table = el('table', 'bpe-table');
    table.setAttribute('aria-label', 'BPE merges');
    const thr = el('tr');
    for (const hname of ['#', 'most frequent pair', 'count', 'vocab before merge', 'vocab after merge']) {
      const th = el('th', '', hname);
      th.scope = 'col';
      thr.append(th);
    }
    const thead = el('thead');
    thead.append(thr);
    table.append(thead);
    const tb = el('tbody');
    text.bpe.merges.forEach((m, i) => {
      const tr = el('tr');
      tr.append(el('td', 'num', String(i + 1)), el('td', 'mono', pairText(m.pair)), el('td', 'num', String(m.count)),
        el('td', 'mono small', vocabText(m.vocab_before)), el('td', 'mono small', vocabText(m.vocab_after)));
      tb.append(tr);
    });
    table.append(tb);
    wrap.append(table);
    sec.append(wrap);
    sec.append(el('h4', '', '-- Final vocab:'));
    const pre = el('pre', 'mono');
    pre.textContent = text.bpe.final_vocab.map(([w, f]) => `${w} ${f}`).join('\n');
    sec.append(pre);
    box.append(sec);
  }
  host.append(box);
  return renderMatrixStep(ctx, host);
}
