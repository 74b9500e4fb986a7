// steps.js — the table of contents: sections (tokens & embeddings, each layer, the outputs),
// groups within them (an attention block, the feed-forward network, add & norm) and per-head
// rows, all read from each step's `place` (a step's own name in the list: titles.js stepName).
import { t } from '../lib/i18n.js';
import { stackKey, wordSection } from './stack.js';

const SECTION_KEYS = { input: 'toc.sec.input', classifier: 'toc.sec.classifier', output: 'toc.sec.output', masked_lm: 'toc.sec.maskedLm' };

// {section, sectionKey, group, groupKey, head} of a step, from its place (named as `trace`'s
// model calls it: a decoder-only checkpoint's layers are decoder layers, stack.js).
export function placeOf(step, trace = null) {
  const p = step.place;
  if (p.section === 'loss') return { section: t('toc.sec.loss'), sectionKey: 'loss', group: '', groupKey: 'loss', head: -1 };
  if (p.section === 'backward' && step.gradOf) return backwardPlace(step.gradOf, trace);
  const head = p.head;
  if (p.layer >= 0) {
    const enc = wordSection(p.section, trace) === 'encoder';
    const sectionKey = `${p.section}${p.layer}`;
    return { section: t(enc ? 'toc.sec.encoderLayer' : 'toc.sec.decoderLayer', { n: p.layer }), sectionKey, group: groupTitle(p, enc),
      groupKey: `${sectionKey}.${p.block}`, head };
  }
  if (p.section === 'encoder') return { section: t(stackKey('toc.sec.encoderOutput', trace)), sectionKey: 'encout', group: '', groupKey: 'encout', head };
  if (p.section === 'decoder') {
    if (p.block === 'stack_output') return { section: t(SECTION_KEYS.output), sectionKey: 'output', group: '', groupKey: 'output', head };
    return { section: t('toc.sec.decoderInput'), sectionKey: 'target', group: '', groupKey: 'target', head };
  }
  const key = SECTION_KEYS[p.section] ? p.section : 'input';
  return { section: t(SECTION_KEYS[key]), sectionKey: key, group: '', groupKey: key, head };
}

// The backward pass: gradients of activations where their forward step sits (in reverse
// order, so each section reads from the output back); the parameters' gradients together.
function backwardPlace(of, trace) {
  const f = placeOf({ place: of.place }, trace);
  if (of.isParam)
    return { section: t('toc.sec.gradParams'), sectionKey: 'gradparams', group: f.section, groupKey: `gradparams.${f.sectionKey}`, head: -1 };
  return { section: t('toc.sec.backward', { section: f.section }), sectionKey: `back.${f.sectionKey}`, group: f.group, groupKey: `back.${f.groupKey}`, head: f.head };
}

const NORM = '\u0000norm'; // a placeholder title outline() replaces
function groupTitle(p, encoder) {
  switch (p.block) {
    case 'self_attention': return t(encoder ? 'toc.group.selfAttention' : 'toc.group.maskedSelfAttention');
    case 'cross_attention': return t('toc.group.crossAttention');
    case 'ffn': return t('toc.group.ffn');
    case 'layer_output': return t('toc.group.output');
    default: return NORM;  // named from what it holds (outline)
  }
}

// Sections → groups (consecutive runs) → items; head steps gathered per head.
export function outline(steps, trace = null) {
  const sections = [];
  let sec = null, grp = null;
  for (const s of steps) {
    const p = placeOf(s, trace);
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
  // An add & norm group holds a residual add; a pre-norm LayerNorm group does not.
  for (const sec2 of sections)
    for (const g of sec2.groups)
      if (g.title === NORM)
        g.title = t(g.items.some((x) => x.step && x.step.kind === 'add') ? 'toc.group.addNorm' : 'toc.group.preNorm');
  return sections;
}
