// export.js — a step as a file: SVG and PNG of its heatmap (svg-figure.js), CSV and NumPy
// .npy of its values, the LaTeX of its formula, or the whole trace as JSON in the CLI's
// --json format. Each file carries the settings it came from (SVG <metadata>, PNG tEXt chunk,
// CSV and LaTeX header comments; the JSON has its config and text). A file's title and formula
// are the page's, from the catalog in the reader's language (model/titles.js); the JSON is the
// CLI's, as the engine wrote it. Used by the page's Export menu,
// encoderWalkthrough.exportStep(id, format) and the web component.
import { t as tr } from '../lib/i18n.js';
import { stepTitle, stepFormula } from '../model/titles.js';
import { kindOf } from '../view/kinds/index.js';
import { svgFigure, svgLayout } from '../view/svg-figure.js';
import { npyBytes } from '../lib/npy.js';
import { pngWithText } from '../lib/png-text.js';

export const FORMATS = ['svg', 'png', 'csv', 'npy', 'tex', 'json'];
const TYPES = { svg: 'image/svg+xml', png: 'image/png', csv: 'text/csv', npy: 'application/octet-stream', tex: 'application/x-tex', json: 'application/json' };
export const PNG_SCALE = 2;

// The shortest decimal that reads back to the same float32 (the CLI's --json numbers).
export function f32(v) {
  if (v === -Infinity) return '-inf';
  if (!Number.isFinite(v)) return String(v);
  const f = Math.fround(v);
  for (let p = 1; p <= 9; p++) {
    const s = f.toPrecision(p);
    if (Math.fround(Number(s)) === f) return String(Number(s));
  }
  return String(f);
}

// src: {trace, settings (getState()), link (URL of this view), batch, dark, engine (fetches
// parameters not sent eagerly, for the JSON)}. → Promise<File>
export async function exportStep(src, id, format) {
  if (!FORMATS.includes(format)) throw new Error(tr('export.badFormat', { format: String(format).slice(0, 20), list: FORMATS.join(', ') }));
  const { trace } = src;
  if (format === 'json') {
    if (src.engine) await Promise.all([trace.ensureAll(src.engine), trace.ensureParams(trace.params.map((p) => p.id), src.engine)]);
    return file('encoder-walkthrough-trace.json', 'json', traceJson(trace));
  }
  const t = trace.get(id);
  if (!t || t.isParam) throw new Error(tr('export.noStep', { id: String(id).slice(0, 60) }));
  if (src.engine) await trace.ensureStep(t, src.engine);  // the Worker keeps the trace (trace.js)
  const base = `encoder-walkthrough-${t.id}`;
  switch (format) {
    case 'csv': return file(`${base}.csv`, format, csv(src, t));
    case 'npy': return file(`${base}.npy`, format, npyBytes(t.data, t.shape));
    case 'tex': return file(`${base}.tex`, format, tex(src, t));
    case 'svg': return file(`${base}.svg`, format, svgOf(src, t).svg);
    case 'png': return file(`${base}.png`, format, await png(src, t));
  }
  throw new Error('unreachable');
}

function file(name, format, body) {
  return new File([body], name, { type: TYPES[format] });
}

function metadata(src, t) {
  return { generator: 'Encoder Walkthrough', step: t.id, title: stepTitle(t, src.trace), shape: t.shape, settings: src.settings, link: src.link };
}

// The matrix of one batch item as the page shows it: {data, per, cols, rowLabels, colLabels}.
function matrixOf(trace, t, batch) {
  const L = trace.layout(t);
  const ax = trace.axesOf(t);
  const b = Math.min(batch || 0, L.batches - 1);
  return {
    b, L,
    data: t.data.subarray(b * L.per * L.cols, (b + 1) * L.per * L.cols),
    rowLabels: ax.rows ? trace.labelsFor(ax.rows, b) : null,
    colLabels: ax.cols ? trace.labelsFor(ax.cols, b) : null,
  };
}

function svgOf(src, t) {
  const m = matrixOf(src.trace, t, src.batch);
  const title = stepTitle(t, src.trace);
  const sub = `${t.id} · ${tr('steps.meta.shape')} [${t.shape.join(', ')}]${m.L.batches > 1 ? ` · ${tr('explain.sentence', { n: m.b + 1 })}` : ''} · Encoder Walkthrough`;
  const o = { title, subtitle: sub, data: m.data, per: m.L.per, cols: m.L.cols, rowLabels: m.rowLabels, colLabels: m.colLabels,
    scale: kindOf(t.kind).scale, dark: !!src.dark, metadata: metadata(src, t) };
  return { svg: svgFigure(o), size: svgLayout(o.per, o.cols, o.rowLabels, title, sub) };
}

async function png(src, t) {
  const { svg, size } = svgOf(src, t);
  const img = new Image();
  img.src = 'data:image/svg+xml;base64,' + btoa(unescape(encodeURIComponent(svg)));
  await img.decode();
  const cv = document.createElement('canvas');
  cv.width = size.W * PNG_SCALE;
  cv.height = size.H * PNG_SCALE;
  cv.getContext('2d').drawImage(img, 0, 0, cv.width, cv.height);
  const blob = await new Promise((res) => cv.toBlob(res, 'image/png'));
  const bytes = new Uint8Array(await blob.arrayBuffer());
  return pngWithText(bytes, 'encoder-walkthrough', JSON.stringify(metadata(src, t)));
}

function csvCell(s) {
  s = String(s);
  return /[",\n\r#]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

function csv(src, t) {
  const { trace } = src;
  const L = trace.layout(t);
  const lines = [
    `# Encoder Walkthrough: step ${t.id}, "${stepTitle(t, trace)}", shape [${t.shape.join(', ')}], float32 (shortest round-trip; -inf = masked)`,
    `# settings: ${JSON.stringify(src.settings)}`,
    `# link: ${src.link}`,
  ];
  const colLabels = matrixOf(trace, t, 0).colLabels;
  const head = ['row', ...Array.from({ length: L.cols }, (_, c) => (colLabels ? colLabels[c] : String(c)))];
  lines.push(head.map(csvCell).join(','));
  for (let b = 0; b < L.batches; b++) {
    const m = matrixOf(trace, t, b);
    for (let r = 0; r < L.per; r++) {
      const lab = (L.batches > 1 ? `${tr('explain.sentence', { n: b + 1 })}: ` : '') + (m.rowLabels ? m.rowLabels[r] : String(r));
      const vals = Array.from(m.data.subarray(r * L.cols, (r + 1) * L.cols), f32);
      lines.push([csvCell(lab), ...vals].join(','));
    }
  }
  return lines.join('\n') + '\n';
}

function tex(src, t) {
  return [
    `% Encoder Walkthrough: step ${t.id}, "${stepTitle(t, src.trace)}", shape [${t.shape.join(', ')}]`,
    `% settings: ${JSON.stringify(src.settings)}`,
    `% link: ${src.link}`,
    '\\[',
    stepFormula(t, src.trace),
    '\\]',
    '',
  ].join('\n');
}

// The trace as the CLI's --json writes it: the metadata the engine sent, with each step's and
// parameter's data as float32-exact numbers (null for -inf).
export function traceJson(trace) {
  const num = (v) => (v === -Infinity ? 'null' : f32(v));
  const arr = (d) => (d ? `[${Array.from(d, num).join(',')}]` : 'null');
  const withData = (list, live) => list.map((s, i) => {
    const { data, ...rest } = s;
    const json = JSON.stringify(rest);
    return `${json.slice(0, -1)},"data":${arr(live[i].data)}}`;
  });
  // The engine's metadata in its own key order, without its status keys (ok, ms, setup_ms).
  const parts = [];
  for (const [k, v] of Object.entries(trace.meta)) {
    if (k === 'ok' || k === 'ms' || k === 'setup_ms') continue;
    if (k === 'steps') parts.push(`"steps":[${withData(v, trace.steps).join(',')}]`);
    else if (k === 'params') parts.push(`"params":[${withData(v, trace.params).join(',')}]`);
    else parts.push(`${JSON.stringify(k)}:${JSON.stringify(v)}`);
  }
  return `{${parts.join(',')}}\n`;
}
