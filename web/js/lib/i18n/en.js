// i18n/en.js — the English catalog: one object of every message, assembled from the area files.
import core from './en/core.js';
import shell from './en/shell.js';
import map from './en/map.js';
import toc from './en/toc.js';
import steps from './en/steps.js';
import notes from './en/notes.js';
import notation from './en/notation.js';
import provenance from './en/provenance.js';
import presets from './en/presets.js';
import errors from './en/errors.js';
import tokens from './en/tokens.js';
import matrix from './en/matrix.js';
import attention from './en/attention.js';
import probs from './en/probs.js';
import explain from './en/explain.js';
import alignment from './en/alignment.js';
import adamw from './en/adamw.js';
import form from './en/form.js';
import train from './en/train.js';
import generate from './en/generate.js';
import exportArea from './en/export.js';
import figure from './en/figure.js';
import embed from './en/embed.js';
import api from './en/api.js';
import builds from './en/builds.js';
import lab from './en/lab.js';
import ckpt from './en/ckpt.js';
import decoders from './en/decoders.js';
import chat from './en/chat.js';

// One area per line (a new area: its import above and its name here).
export const EN = Object.assign(
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
