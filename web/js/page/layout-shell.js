// layout-shell.js — the page around the step: the phone bar's two toggles (the input and the
// map are one tap away while the step comes first) and the subtitle saying what this model
// is (from its config, not always "encoder–decoder").
import { $ } from '../lib/dom.js';
import { t, has } from '../lib/i18n.js';

const PANELS = [['show-input', 'side-input'], ['show-nav', 'side-nav']];

// Each toggle opens its panel (and closes the other) and moves focus into it; on desktop
// both panels are always shown and the bar is hidden (style.css).
export function installPhoneBar() {
  for (const [btn, panel] of PANELS)
    $(btn).addEventListener('click', () => {
      const open = $(btn).getAttribute('aria-expanded') !== 'true';
      for (const [b, p] of PANELS) {
        $(b).setAttribute('aria-expanded', String(open && b === btn));
        $(p).classList.toggle('open', open && b === btn);
      }
      document.body.classList.toggle('panel-open', open);
      if (open) $(panel).scrollIntoView({ block: 'start' });
    });
}

// After a jump from the map or the step list on a phone: close the panel, show the step.
export function closePanels() {
  if (!document.body.classList.contains('panel-open')) return;
  for (const [b, p] of PANELS) {
    $(b).setAttribute('aria-expanded', 'false');
    $(p).classList.remove('open');
  }
  document.body.classList.remove('panel-open');
  $('step').scrollIntoView({ block: 'start' });
}

// What a checkpoint is, in words: "GPT-2, a decoder-only (causal) language model".
export function checkpointKind(ck, config) {
  const kindKey = has(`shell.tag.kind.${ck.model_type}`) ? `shell.tag.kind.${ck.model_type}` : `shell.tag.kind.${config.causal ? 'causal' : 'encoder'}`;
  return t(kindKey);
}

// The subtitle: encoder–decoder, encoder with a classifier, with a masked-word head, or a
// bare encoder, with its layer counts; for a checkpoint (`ck`: its info from the core) what it
// is — GPT-2 is a decoder-only language model, not an encoder — named from its model_type
// (the config's causal flag for a type the catalog does not name) and its architecture.
export function describeModel(config, ck = null) {
  if (!config) return;
  const enc = config.num_layers, dec = config.decoder_layers;
  if (ck) {
    $('tagline').textContent = t('shell.tag.checkpoint', { kind: checkpointKind(ck, config), architecture: ck.architecture || ck.model_type, name: ck.name, enc });
    return;
  }
  let key = 'shell.tag.encoder';
  if (dec > 0) key = 'shell.tag.encdec';
  else if (config.num_labels > 0) key = 'shell.tag.classifier';
  else if (config.masked_lm) key = 'shell.tag.mlm';
  $('tagline').textContent = t(key, { enc, dec, labels: config.num_labels });
}
