// checkpoint-form.js — the settings form while a checkpoint is on screen: the settings shown
// are the checkpoint's own (its config.json, as the engine read it: run-options.js noteRun
// learns them from the first run), read-only, since its weights fix them; the ones a
// checkpoint does not have (the seed of seeded weights, the page's own tokenizers) are hidden;
// one sentence says so and how to try other settings. A decoder-only checkpoint's layers are
// labelled decoder layers (model/stack.js). Until its first run the grid is hidden (it would
// show the previous model's settings).
import { $, el } from '../lib/dom.js';
import { t } from '../lib/i18n.js';
import { CONFIG_KEYS, FIELDS } from '../model/settings.js';
import { CHECKPOINT_PRESET } from './run-options.js';

// Settings a checkpoint has no value for: its weights and tokenizer are its own. A rotary decoder
// (Llama, Qwen, Gemma 3) has none of the form's activations (SiLU) nor its positions (rotary):
// the summary names them instead (checkpointSummary).
const NOT_A_CHECKPOINT_SETTING = new Set(['seed', 'tokenizer', 'bpe_merges']);
const NOT_A_ROTARY_SETTING = new Set(['activation', 'positional']);

// A checkpoint's config with causal self-attention and no cross-attention decoder: GPT-2's.
const decoderOnlyConfig = (c) => !!c && !!c.causal && !(c.decoder_layers > 0);

export const isCheckpointPreset = (p) => !!p && p.name === CHECKPOINT_PRESET;

// Locks (or, `p` not a checkpoint, unlocks) the form's fields. `ck`: the open checkpoint's info.
export function lockSettings(p, ck) {
  const on = isCheckpointPreset(p);
  const decOnly = on && decoderOnlyConfig(p.config);
  for (const key of CONFIG_KEYS) {
    const input = $(`f-${key}`);
    const row = input && input.closest('.setting');
    if (!row) continue;
    input.disabled = on;
    if (on && (NOT_A_CHECKPOINT_SETTING.has(key) || (decOnly && key === 'decoder_layers') || (ck && ck.decoder && NOT_A_ROTARY_SETTING.has(key)))) row.hidden = true;
    else if (key !== 'bpe_merges') row.hidden = false;
    // A float the engine read as float32 (layer_norm_eps 1e-5 → 0.000009999999747…) as written.
    if (on && FIELDS[key].type === 'float' && typeof p.config?.[key] === 'number') input.value = String(Number(p.config[key].toPrecision(6)));
    const lab = row.querySelector('label');
    if ((key === 'num_layers' || key === 'causal') && lab) {
      lab.dataset.label ||= lab.textContent;
      lab.textContent = decOnly ? t(`form.${key}.decoderOnly`) : lab.dataset.label;
      const hint = row.querySelector('.hint');
      if (hint) hint.hidden = decOnly; // "encoder layers"
    }
  }
  text2Words(on ? (ck && ck.model_type === 'bert' ? '.segments' : '.pair') : '');
  $('settings-grid').hidden = on && !p.config;
  let note = $('settings-fixed');
  if (!on) {
    if (note) note.remove();
    return;
  }
  if (!note) {
    note = el('p', 'small muted settings-fixed');
    note.id = 'settings-fixed';
    $('settings-grid').before(note);
  }
  note.textContent = t('ckpt.settingsFixed', { name: ck ? ck.name : '' });
}

// The second sentence's heading and note: a padded batch for the page's models; for a
// checkpoint one sequence with the first (BERT: segment B). The keys go on the elements, so a
// change of language (applyStatic) keeps them.
function text2Words(suffix) {
  const box = $('text2-box');
  if (!box) return;
  for (const [n, key] of [[box.querySelector('summary'), 'shell.text2.summary'], [box.querySelector('p'), 'shell.text2.note']]) {
    if (!n) continue;
    n.dataset.i18n = key + suffix;
    n.textContent = t(key + suffix);
  }
}

// The one-line summary beside "Model settings" for a checkpoint: its shape, no seed; its own tokenizer.
// A rotary decoder (Llama, Qwen, Gemma 3: ck.decoder) is named as it is: RMSNorm before each
// sub-layer, a gated feed-forward network, rotary positions (the form's norm, activation and
// positions would say LayerNorm, ReLU and none).
export function checkpointSummary(s, ck, parts) {
  const layers = decoderOnlyConfig(s) ? t('form.summary.layers.decoderOnly', { n: s.num_layers }) : parts.layers;
  const rest = ck && ck.decoder ? rotaryParts(s, ck.decoder) : parts.rest;
  return [parts.shape, layers, ...rest, ck && ck.tokenizer ? t('ckpt.summaryTokenizer', { tokenizer: ck.tokenizer }) : ''].filter(Boolean).join(' · ');
}
// The gate's activation as the core names it; nothing (rather than a guess) for any other value.
const GATED_FFN = { silu: 'ckpt.summary.swiglu', gelu_pytorch_tanh: 'ckpt.summary.geglu' };
function rotaryParts(s, d) {
  const ffn = GATED_FFN[d.activation];
  return [t('ckpt.summary.rmsnorm'), ffn ? t(ffn) : '',
    s.causal ? t('form.summary.causal') : '', t('ckpt.summary.rotary', { theta: String(d.rope_theta) })];
}
