/**
 * runtime-preset.js — a preset made while the page runs (the reader's own weights, an opened
 * checkpoint): kept in app.presets, replacing its earlier self, and offered in the preset list
 * under its title.
 */
import { app } from './app.js';
import { $, el } from '../lib/dom.js';

export function installPreset(preset) {
  const i = app.presets.findIndex((p) => p.name === preset.name);
  if (i >= 0) app.presets[i] = preset;
  else app.presets.push(preset);
  const sel = $('preset');
  let opt = [...sel.options].find((o) => o.value === preset.name);
  if (!opt) {
    opt = el('option');
    opt.value = preset.name;
    sel.append(opt);
  }
  opt.textContent = preset.title;
}
