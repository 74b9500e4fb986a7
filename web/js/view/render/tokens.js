// render/tokens.js — tokenization: the sentence(s) split into tokens, each with its id, the
// tokenizer's rule, what the regex skipped (marked in the sentence, with the reason), the
// vocabulary, and for BPE what the merges were learned on and the merges printed as the
// tutorial prints them (most frequent pair, vocab before merge, vocab after merge, final vocab).
// A checkpoint's token step names its own tokenizer (WordPiece, byte-level BPE, SentencePiece-
// style BPE) and the file it was read from, and a BERT pair's second sentence as segment B;
// pieces are shown as text (model/trace.js piece: "Ġmat" → "␣mat").
// Every string comes from the catalog (area `tokens`).
import { el } from '../../lib/dom.js';
import { t, has } from '../../lib/i18n.js';
import { renderMatrixStep } from './matrix-step.js';

// Which algorithm a checkpoint's tokenizer runs, from the files it came in (text.tokenizer:
// "vocab.txt", "vocab.json + merges.txt", "tokenizer.json", or "ids" when ids were given) and,
// for tokenizer.json, the style of its pieces.
function checkpointTokenizer(trace) {
  const source = trace.text.tokenizer;
  if (source === 'ids') return { algo: 'ids', source };
  if (source === 'vocab.txt') return { algo: 'wordpiece', source };
  if (source === 'vocab.json + merges.txt') return { algo: 'bytes', source };
  return { algo: trace.vocabStyle || ((trace.text.vocab || []).some((p) => String(p).startsWith('##')) ? 'wordpiece' : 'other'), source };
}

// special: the tokenizer's special tokens (a Set of pieces as spelled, the view context's), whose
// chips are marked (a chat template's <|im_start|>, <start_of_turn>); raw: the pieces as spelled.
function chips(tokens, ids, special = null, raw = tokens) {
  const ol = el('ol', 'token-chips');
  tokens.forEach((tok, i) => {
    const sp = !!special && special.has(raw[i]);
    const li = el('li', 'chip' + (tok === '<pad>' ? ' pad' : '') + (sp ? ' special' : ''));
    li.append(el('span', 'chip-tok', tok), el('span', 'chip-id', ids ? t('tokens.chipId', { id: ids[i] }) : ''),
      el('span', 'chip-pos', String(i)));
    li.title = ids ? t('tokens.chipTitleId', { i, token: tok, id: ids[i] }) : t('tokens.chipTitle', { i, token: tok });
    if (sp) li.title += ` — ${t('chat.chipSpecial')}`;
    ol.append(li);
  });
  return ol;
}

// The sentence with each skipped run ({start, length} in code points) in a <mark>.
function markedSentence(sentence, spans) {
  const chars = Array.from(sentence);
  const p = el('p', 'token-source');
  p.setAttribute('aria-label', t('tokens.skipped.label'));
  let at = 0;
  for (const sp of spans) {
    if (sp.start > at) p.append(chars.slice(at, sp.start).join(''));
    const m = el('mark', 'skipped', chars.slice(sp.start, sp.start + sp.length).join(''));
    m.title = t('tokens.skipped.mark', { text: sp.text });
    m.dataset.start = String(sp.start);
    p.append(m);
    at = sp.start + sp.length;
  }
  if (at < chars.length) p.append(chars.slice(at).join(''));
  return p;
}

// What the regex tokenizer dropped from sentence b, and why (nothing for other tokenizers).
function skippedView(text, b) {
  const spans = (text.skipped || [])[b];
  const sentence = (text.sentences || [])[b];
  if (!spans || sentence === undefined || !['regex', 'bpe'].includes(text.tokenizer)) return null;
  const box = el('div', 'token-skipped');
  box.append(markedSentence(sentence, spans));
  const list = spans.map((s) => t('tokens.skipped.quoted', { text: s.text })).join(', ');
  box.append(el('p', 'muted skip-reason', spans.length ? t('tokens.skipped.reason', { count: spans.length, list }) : t('tokens.skipped.none')));
  return box;
}

function sourceTokens(box, trace, step, special) {
  for (let b = 0; b < trace.B; b++) {
    if (trace.B > 1) box.append(el('h4', '', t('tokens.sentence', { n: b + 1 })));
    const skipped = skippedView(trace.text, b);
    if (skipped) box.append(skipped);
    box.append(chips(trace.sourceTokens(b), Array.from(step.data.subarray(b * trace.T, (b + 1) * trace.T)), special, (trace.text.source_tokens || [])[b] || []));
  }
  if (trace.B > 1) box.append(el('p', 'muted', t('tokens.padNote')));
  // A sentence pair in one sequence (a checkpoint's text2): BERT tells the halves apart by token type.
  const types = trace.steps.find((s) => s.role === 'token_type_ids');
  if (trace.meta.checkpoint && trace.sourceTokens(0).filter((x) => x === '[SEP]').length > 1)
    box.append(el('p', 'muted segments-note', t(types ? 'tokens.pairSegments' : 'tokens.pair')));
}

function vocabView(vocab, shown) {
  const vd = el('details', 'vocab');
  vd.append(el('summary', '', t('tokens.vocabSummary', { n: vocab.length })));
  const vl = el('ol', 'vocab-list');
  vl.start = 0;
  vocab.slice(0, 2000).forEach((tok, i) => {
    const li = el('li');
    li.append(el('span', 'chip-id', String(i)), ' ', el('span', 'chip-tok', shown[i]));
    vl.append(li);
  });
  vd.append(vl);
  if (vocab.length > 2000) vd.append(el('p', 'muted', t('tokens.vocabMore', { n: vocab.length - 2000 })));
  if (vocab.includes('<pad>')) vd.append(el('p', 'muted', t('tokens.vocabOrder')));
  return vd;
}

// What the merges were learned on: this sentence, the model file's corpus, or the model's training.
function learnedOn(bpe) {
  const on = bpe.learned_on || 'sentence';
  const key = `tokens.bpe.corpus.${bpe.weights || ''}`;
  const corpus = bpe.weights && has(key) ? t(key) : '';
  return el('p', 'bpe-learned-on', t(`tokens.bpe.learned.${on}`, { merges: bpe.merges.length, words: bpe.corpus_words, corpus }));
}

const pairText = (p) => `('${p[0]}', '${p[1]}')`;
const vocabText = (v) => v.map(([w, f]) => `('${w}', ${f})`).join(' ');

function mergesTable(merges) {
  const wrap = el('div', 'table-scroll');
  const table = el('table', 'bpe-table');
  table.setAttribute('aria-label', t('tokens.bpe.table'));
  const thr = el('tr');
  for (const k of ['n', 'pair', 'count', 'before', 'after']) {
    const th = el('th', '', t(`tokens.bpe.col.${k}`));
    th.scope = 'col';
    thr.append(th);
  }
  const thead = el('thead');
  thead.append(thr);
  table.append(thead);
  const tb = el('tbody');
  merges.forEach((m, i) => {
    const tr = el('tr');
    tr.append(el('td', 'num', String(i + 1)), el('td', 'mono', pairText(m.pair)), el('td', 'num', String(m.count)),
      el('td', 'mono small', vocabText(m.vocab_before)), el('td', 'mono small', vocabText(m.vocab_after)));
    tb.append(tr);
  });
  table.append(tb);
  wrap.append(table);
  return wrap;
}

function bpeView(bpe) {
  const sec = el('section', 'bpe');
  sec.append(el('h3', '', t('tokens.bpe.heading', { n: bpe.merges.length })));
  sec.append(learnedOn(bpe));
  sec.append(el('p', 'muted', t('tokens.bpe.explain')));
  sec.append(mergesTable(bpe.merges));
  sec.append(el('h4', '', t('tokens.bpe.final')));
  const pre = el('pre', 'mono');
  pre.textContent = bpe.final_vocab.map(([w, f]) => `${w} ${f}`).join('\n');
  sec.append(pre);
  return sec;
}

// The tokenizer's name (and where it comes from) and its rule: the page's own tokenizers follow
// the tutorials; a checkpoint's is its own, read from its files.
function ruleView(trace) {
  const text = trace.text;
  if (trace.meta.checkpoint) {
    const { algo, source } = checkpointTokenizer(trace);
    return [el('h3', '', t(`tokens.ckpt.${algo}.name`, { source })), el('p', 'muted', t(`tokens.ckpt.${algo}.rule`))];
  }
  const kind = ['regex', 'whitespace', 'chars', 'bpe', 'input'].includes(text.tokenizer) ? text.tokenizer : null;
  if (!kind) return [el('h3', '', text.tokenizer)];
  return [el('h3', '', t(`tokens.rule.${kind}.name`)), el('p', 'muted', t(`tokens.rule.${kind}.rule`))];
}

// BERT's token types [T]: each token's chip with its sentence (A for type 0, B for 1).
function segmentsView(trace, step) {
  const box = el('section', 'tokenize segments');
  box.append(el('h3', '', t('tokens.segmentsHeading')));
  const ol = el('ol', 'token-chips');
  trace.sourceTokens(0).forEach((tok, i) => {
    const v = step.data[i], s = v === 1 ? 'B' : 'A';
    const li = el('li', `chip segment-${s}`);
    li.append(el('span', 'chip-tok', tok), el('span', 'chip-id', t('tokens.chipSegment', { s })), el('span', 'chip-pos', String(i)));
    li.title = t('tokens.chipTitleSegment', { i, token: tok, s, v });
    ol.append(li);
  });
  box.append(ol);
  return box;
}

export function renderTokens(ctx, host) {
  const { trace, step } = ctx;
  if (step.role === 'token_type_ids') {
    host.append(segmentsView(trace, step));
    return renderMatrixStep(ctx, host);
  }
  const isTarget = step.axes[step.axes.length - 1].labels === 'target';
  const text = trace.text;
  const box = el('section', 'tokenize');
  if (isTarget) box.append(el('h3', '', t('tokens.targetHeading')));
  else box.append(...ruleView(trace));
  if (isTarget) {
    box.append(el('p', 'muted', t('tokens.targetNote')));
    box.append(chips(trace.targetTokens(), Array.from(step.data)));
  } else {
    sourceTokens(box, trace, step, ctx.specialTokens);
  }
  box.append(vocabView(text.vocab || [], trace.shownVocab()));
  if (!isTarget && text.tokenizer === 'bpe' && text.bpe) box.append(bpeView(text.bpe));
  host.append(box);
  return renderMatrixStep(ctx, host);
}
