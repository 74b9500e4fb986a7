// arch-map.js — the architecture map, the page's primary navigation: a diagram of the model the
// trace came from (tokens → embedding + positions → encoder layers → [decoder layers] → output
// or classifier / masked-word head → [loss and backward pass]), built only from each step's
// place {section, layer, block, head}, kind and role and the config's norm — never from ids or
// titles. Every block is a link to its first step; the block on screen is marked
// aria-current; the heads of an attention block on screen can be chosen. Deliberately left
// out: drawing tensors or numbers (the step card does that).
import { t, has } from '../lib/i18n.js';
import { el } from '../lib/dom.js';
import { decoderOnly } from '../model/stack.js';
import { placeText } from '../model/titles.js';
import { modernLabel, attnNote, attnInfo } from './map-decoder.js';

// ---- the model of the map: sections → layers → blocks, each block a set of step indices ----

// The map's sections in reading order for this trace: [{key, layers: [{layer, blocks}]}].
// A block is {key, type, heads: Map(head → first step index), first, steps: [index]}.
export function mapModel(steps, config) {
  const sections = [];
  const bySec = new Map();
  const nodeOf = new Array(steps.length);
  let prevKey = '';
  let runs = 0;
  for (const s of steps) {
    const where = blockOf(s, config);
    if (!bySec.has(where.section)) {
      const sec = { key: where.section, layers: [], byLayer: new Map() };
      bySec.set(where.section, sec);
      sections.push(sec);
    }
    const sec = bySec.get(where.section);
    if (!sec.byLayer.has(where.layer)) {
      const ly = { layer: where.layer, blocks: [], byKey: new Map() };
      sec.byLayer.set(where.layer, ly);
      sec.layers.push(ly);
    }
    const ly = sec.byLayer.get(where.layer);
    // A type seen again in the same layer after another block is a new block (a layer's two
    // add & norms); one continuing the previous block's run is the same block.
    const runKey = `${where.section}/${where.layer}/${where.type}`;
    if (runKey !== prevKey && where.merge !== true) runs++;
    const key = where.merge ? runKey : `${runKey}#${runs}`;
    prevKey = runKey;
    if (!ly.byKey.has(key)) {
      const b = { key, type: where.type, section: where.section, layer: where.layer, of: where.of, first: s.index, steps: [], heads: new Map() };
      ly.byKey.set(key, b);
      ly.blocks.push(b);
    }
    const b = ly.byKey.get(key);
    b.steps.push(s.index);
    const head = s.place.head;
    if (head >= 0 && !b.heads.has(head)) b.heads.set(head, s.index);
    nodeOf[s.index] = b;
  }
  return { sections, nodeOf, norm: config.norm === 'pre' ? 'pre' : 'post' };
}

// Where a step sits on the map: {section, layer, type, merge}. `merge` joins a block's
// steps wherever they occur (the input's embedding, the backward pass's per-layer groups).
function blockOf(s, config) {
  const p = s.place;
  if (p.section === 'backward') return backwardBlock(s);
  if (p.section === 'loss') return { section: 'loss', layer: -1, type: 'loss', merge: true };
  if (p.section === 'input') return { section: 'input', layer: -1, type: inputType(p.block), merge: true };
  if (p.section === 'encoder' || p.section === 'decoder') return stackBlock(s, config);
  if (p.section === 'classifier') return { section: 'classifier', layer: -1, type: 'classifier', merge: true };
  // output / masked_lm: (a checkpoint's masked-word transform,) the projection to the vocabulary, then its softmax
  const type = p.block === 'softmax' ? 'softmax' : p.block === 'transform' ? 'transform' : 'projection';
  return { section: p.section, layer: -1, type, merge: true };
}
function inputType(block) {
  if (block === 'tokens') return 'tokens';
  if (block === 'mask') return 'mask';
  return 'embed'; // embedding, positional and their sum (and BERT's embedding LayerNorm)
}

// A step of an encoder or decoder section: its layer's block, with the add & norm steps
// split into the residual add and the LayerNorm, joined again when the model is post-norm
// (an add immediately followed by its norm is one "add & norm" block).
function stackBlock(s, config) {
  const p = s.place;
  if (p.layer < 0) {
    if (p.block === 'stack_output') return { section: p.section, layer: -1, type: 'stack_output', merge: true };
    return { section: p.section === 'decoder' ? 'target' : p.section, layer: -1, type: inputType(p.block), merge: true };
  }
  let type = p.block;
  if (p.block === 'add_norm') type = config.norm === 'pre' ? (s.kind === 'add' ? 'add' : 'norm') : 'add_norm';
  if (p.block === 'layer_output') type = 'add'; // the pre-norm layer's output: a copy of its last residual sum
  return { section: p.section, layer: p.layer, type, merge: false };
}

// The backward pass: the loss, then the gradients through each layer (in the order they are
// computed, output first), then the parameters' gradients. A gradient block keeps the place of
// the tensors it differentiates (`of`: {section, layer, target}), from which it is named; its
// type key only groups steps (it is never read back).
function backwardBlock(s) {
  const of = s.gradOf;
  if (!of) return { section: 'backward', layer: -1, type: 'grad_other', merge: true };
  if (of.isParam) return { section: 'backward', layer: -1, type: 'grad_params', merge: true };
  const f = of.place;
  const target = f.section === 'decoder' && f.layer < 0 && f.block !== 'stack_output';
  const where = { section: target ? 'target' : f.section, layer: f.layer };
  const type = where.layer >= 0 ? `grad_${where.section}_${where.layer}` : `grad_${where.section}`;
  return { section: 'backward', layer: -1, type, merge: true, of: where };
}

// ---- words ---------------------------------------------------------------------------------

// `dec`: the words of a decoder-only model (model/stack.js), whose one stack is section "encoder".
const wordKey = (key, dec) => (dec && has(`${key}.decoderOnly`) ? `${key}.decoderOnly` : key);
function blockLabel(b, secKey, norm, dec) {
  if (b.type.startsWith('grad_')) return gradLabel(b, dec);
  if (b.type === 'self_attention') return t(secKey === 'decoder' || dec ? 'map.block.maskedSelfAttention' : 'map.block.selfAttention');
  if (b.type === 'stack_output') {
    const pre = norm === 'pre' ? 'FinalNorm' : '';
    return t(secKey === 'decoder' ? `map.block.decoderOutput${pre}` : wordKey(`map.block.encoderOutput${pre}`, dec));
  }
  if (secKey === 'target' && b.type === 'embed') return t('map.block.targetEmbed');
  if (secKey === 'target' && b.type === 'tokens') return t('map.block.targetTokens');
  if (secKey === 'target' && b.type === 'mask') return t('map.block.masks');
  if ((secKey === 'classifier' || secKey === 'masked_lm') && b.type !== 'classifier') return t(`map.block.mlm_${b.type}`);
  return t(`map.block.${b.type}`);
}
function gradLabel(b, dec) {
  if (!b.of) return t(b.type === 'grad_params' ? 'map.grad.params' : 'map.grad.other');
  if (b.of.layer >= 0) return t(`map.grad.${dec && b.of.section === 'encoder' ? 'decoder' : b.of.section}Layer`, { n: b.of.layer });
  return t(wordKey(`map.grad.${b.of.section}`, dec));
}
function sectionTitle(sec, model, config) {
  if (sec.key === 'encoder') return t(wordKey('map.sec.encoder', model.decoderOnly), { n: sec.layers.filter((l) => l.layer >= 0).length, norm: t(`map.norm.${model.norm}`) });
  if (sec.key === 'decoder') return t('map.sec.decoder', { n: sec.layers.filter((l) => l.layer >= 0).length, norm: t(`map.norm.${model.norm}`) });
  if (sec.key === 'classifier') return t('map.sec.classifier', { n: config.num_labels });
  return t(`map.sec.${sec.key}`);
}

// ---- drawing -------------------------------------------------------------------------------

// Draws the map of `trace` into `root`; `href(index)` gives a step's link. Returns the model
// (markMap needs it).
export function drawMap(root, trace, href, current) {
  const model = mapModel(trace.steps, trace.config || {});
  model.decoderOnly = decoderOnly(trace);
  model.trace = trace;
  const frag = document.createDocumentFragment();
  for (const sec of model.sections) frag.append(drawSection(sec, model, trace, href, current));
  root.replaceChildren(frag);
  root.dataset.norm = model.norm;
  return model;
}

function drawSection(sec, model, trace, href, current) {
  const box = el('section', `map-sec map-sec-${sec.key}`);
  box.dataset.section = sec.key;
  box.append(el('h3', 'map-sec-title', sectionTitle(sec, model, trace.config || {})));
  const stackLayers = sec.layers.filter((l) => l.layer >= 0);
  const collapse = stackLayers.length > 2;
  const currentBlock = model.nodeOf[current];
  for (const ly of sec.layers) {
    if (ly.layer < 0) {
      box.append(drawBlocks(ly.blocks, sec.key, model, href));
      continue;
    }
    const here = currentBlock && currentBlock.section === sec.key && currentBlock.layer === ly.layer;
    const open = !collapse || here || (ly.layer === 0 && !(currentBlock && currentBlock.section === sec.key));
    box.append(drawLayer(ly, sec.key, open, model, href));
  }
  return box;
}

// One layer: a titled frame with its blocks in order; a collapsed layer is one link.
function drawLayer(ly, secKey, open, model, href) {
  const frame = el('div', 'map-layer');
  frame.dataset.layer = ly.layer;
  const title = t(secKey === 'decoder' || model.decoderOnly ? 'map.layer.decoder' : 'map.layer.encoder', { n: ly.layer });
  if (!open) {
    const a = link(ly.blocks[0].first, href, title, 'map-node map-layer-collapsed');
    a.title = t('map.layer.collapsedTitle', { n: ly.layer });
    frame.append(a);
    frame.classList.add('collapsed');
    frame._blocks = ly.blocks;
    return frame;
  }
  frame.append(el('p', 'map-layer-title', title));
  frame.append(drawBlocks(ly.blocks, secKey, model, href));
  return frame;
}

function drawBlocks(blocks, secKey, model, href) {
  const ol = el('ol', 'map-flow');
  for (const b of blocks) {
    const li = el('li', `map-item map-${b.type.startsWith('grad_') ? 'grad' : b.type}`);
    const a = link(b.first, href, modernLabel(b, model.trace) || blockLabel(b, secKey, model.norm, model.decoderOnly), 'map-node');
    a.dataset.block = b.type;
    if (b.type === 'cross_attention') a.append(el('span', 'map-reads', t('map.readsH')));
    const note = attnNote(b, model.trace);  // a modern decoder: RoPE, which K/V head each query head reads
    if (note) a.append(el('span', 'map-reads', note));
    li.append(a);
    li._block = b;
    ol.append(li);
  }
  return ol;
}

function link(index, href, text, cls) {
  const a = el('a', cls, text);
  a.href = href(index);
  a.dataset.i = index;
  return a;
}

// Marks the block holding step `index` (aria-current, "you are here") and offers its heads.
// `headHref(index)` links a head; the head buttons go to the same quantity in that head.
export function markMap(root, model, trace, index, href) {
  for (const a of root.querySelectorAll('[aria-current]')) a.removeAttribute('aria-current');
  for (const h of root.querySelectorAll('.map-heads, .map-here')) h.remove();
  const b = model && model.nodeOf[index];
  if (!b) return;
  let li = [...root.querySelectorAll('li.map-item')].find((x) => x._block === b);
  let a = li ? li.querySelector('a.map-node') : null;
  if (!a) a = [...root.querySelectorAll('.map-layer.collapsed')].find((f) => f._blocks.includes(b))?.querySelector('a');
  if (!a) return;
  a.setAttribute('aria-current', 'location');
  const here = el('span', 'map-here', t('map.youAreHere'));
  here.setAttribute('aria-hidden', 'true'); // aria-current already says it to screen readers
  a.append(here);
  if (li && b.heads.size > 1) li.append(headPicker(b, trace, index, href));
}

// The heads of the attention block on screen: each goes to the same role in that head (the
// weights of head 1 from the weights of head 0), or to the head's first step.
function headPicker(b, trace, index, href) {
  const step = trace.steps[index];
  const box = el('div', 'map-heads');
  box.setAttribute('role', 'group');
  box.setAttribute('aria-label', t('map.heads'));
  box.append(el('span', 'map-heads-label', t('map.heads')));
  for (const [head, first] of [...b.heads].sort((x, y) => x[0] - y[0])) {
    const same = b.steps.find((i) => trace.steps[i].place.head === head && trace.steps[i].role === step.role);
    const target = same !== undefined ? same : first;
    const gqa = attnInfo(b, trace);  // grouped-query attention: the K/V head this query head reads
    const kv = gqa && gqa.KV < gqa.H ? gqa.kvHead(head) : -1;
    const shown = kv >= 0 ? `${head}→${kv}` : String(head);
    const a = link(target, href, shown, 'map-head');
    // The name starts with what the link shows (WCAG 2.5.3, label in name: axe's
    // label-content-name-mismatch found "0→0" named "head 0, reads K/V head 0").
    a.setAttribute('aria-label', kv >= 0 ? `${shown}: ${t('decoders.map.headKv', { n: head, k: kv })}` : t('map.head', { n: head }));
    a.title = placeText(trace.steps[target].place, trace);  // the head's full name, as the lab names it (lab/names.js)
    if (step.place.head === head) a.setAttribute('aria-current', 'true');
    box.append(a);
  }
  return box;
}
