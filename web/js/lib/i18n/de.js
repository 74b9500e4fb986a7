// i18n/de.js — the German catalog: the same keys as the English one (tests/web/i18n.mjs).
import core from './de/core.js';
import shell from './de/shell.js';
import map from './de/map.js';
import toc from './de/toc.js';
import steps from './de/steps.js';
import notes from './de/notes.js';
import notation from './de/notation.js';
import provenance from './de/provenance.js';
import presets from './de/presets.js';
import errors from './de/errors.js';
import tokens from './de/tokens.js';
import matrix from './de/matrix.js';
import attention from './de/attention.js';
import probs from './de/probs.js';
import explain from './de/explain.js';
import alignment from './de/alignment.js';
import adamw from './de/adamw.js';
import form from './de/form.js';
import train from './de/train.js';
import generate from './de/generate.js';
import exportArea from './de/export.js';
import figure from './de/figure.js';
import embed from './de/embed.js';
import api from './de/api.js';
import builds from './de/builds.js';
import lab from './de/lab.js';
import ckpt from './de/ckpt.js';
import decoders from './de/decoders.js';
import chat from './de/chat.js';

// One area per line (a new area: its import above and its name here).
export const DE = Object.assign(
  {},
  core,
  shell,
  map,
  toc,
  steps,
  notes,
  notation,
  provenance,
  presets,
  errors,
  tokens,
  matrix,
  attention,
  probs,
  explain,
  alignment,
  adamw,
  form,
  train,
  generate,
  exportArea,
  figure,
  embed,
  api,
  builds,
  lab,
  ckpt,
  decoders,
  chat,
);
