// kinds/norm.js — LayerNorm and its statistics: each row's mean, its (biased) variance, and
// the normalised, scaled and shifted value.
import { lay, val, list, sumOf, symOf, fmt, term, paren } from './common.js';
import { exact } from '../../lib/format.js';
import { t as tr } from '../../lib/i18n.js';

function mean({ trace, R, v, lines, H, inp }) {
  const X = inp(0), n = lay(trace, X).cols;
  const xs = [];
  for (let j = 0; j < n; j++) xs.push(val(trace, X, R, j));
  lines.push({ t: `μ = (1/${n}) Σ_c ${symOf(X)}[i, c]`, cls: 'formula' });
  lines.push({ t: `= (${list(xs.map(fmt)).join(' + ')}) / ${n}`, cls: 'terms' });
  lines.push({ t: `= ${term(sumOf(xs))} / ${n}` });
  lines.push({ t: `= ${exact(v)}`, cls: 'result' });
  H.push({ id: X.id, rows: [R] });
  return sumOf(xs) / n;
}

function variance({ trace, R, v, lines, H, inp }) {
  const X = inp(0), Mu = inp(1), n = lay(trace, X).cols;
  const mu = val(trace, Mu, R, 0);
  const xs = [], sq = [];
  for (let j = 0; j < n; j++) {
    const x = val(trace, X, R, j);
    xs.push(`(${fmt(x)} − ${paren(fmt(mu))})²`);
    sq.push((x - mu) * (x - mu));
  }
  lines.push({ t: `σ² = (1/${n}) Σ_c (${symOf(X)}[i, c] − μ)²   ${tr('explain.with', { what: `μ = ${fmt(mu)}` })}`, cls: 'formula' });
  lines.push({ t: list(xs).join(' + '), cls: 'terms' });
  lines.push({ t: `= (${list(sq.map(term)).join(' + ')}) / ${n}`, cls: 'terms' });
  lines.push({ t: `= ${exact(v)}`, cls: 'result' });
  lines.push({ t: tr('explain.var.biased'), cls: 'muted' });
  H.push({ id: X.id, rows: [R] });
  H.push({ id: Mu.id, cells: [[R, 0]] });
  return sumOf(sq) / n;
}

function layernorm({ trace, step, R, c, v, lines, H, inp }) {
  const X = inp(0), Mu = inp(1), Var = inp(2), G = inp(3), Bt = inp(4);
  const x = val(trace, X, R, c), mu = val(trace, Mu, R, 0), s2 = val(trace, Var, R, 0);
  const g = G && G.data ? G.data[c] : 1, be = Bt && Bt.data ? Bt.data[c] : 0;
  const eps = trace.config.layer_norm_eps;
  const nrm = (x - mu) / Math.sqrt(s2 + eps);
  const epsText = exact(eps);
  lines.push({ t: `${symOf(step)}[i, ${c}] = (${symOf(X)}[i, ${c}] − μ) / √(σ² + ε) · γ[${c}] + β[${c}]   (ε = ${epsText})`, cls: 'formula' });
  lines.push({ t: `= (${fmt(x)} − ${paren(fmt(mu))}) / √(${fmt(s2)} + ${epsText}) · ${paren(fmt(g))} + ${paren(fmt(be))}` });
  lines.push({ t: `= ${term(x - mu)} / ${term(Math.sqrt(s2 + eps))} · ${paren(fmt(g))} + ${paren(fmt(be))} = ${paren(term(nrm))} · ${paren(fmt(g))} + ${paren(fmt(be))}` });
  lines.push({ t: `= ${exact(v)}`, cls: 'result' });
  H.push({ id: X.id, cells: [[R, c]], rows: [R] });
  H.push({ id: Mu.id, cells: [[R, 0]] });
  H.push({ id: Var.id, cells: [[R, 0]] });
  if (G) H.push({ id: G.id, cells: [[0, c]] });
  if (Bt) H.push({ id: Bt.id, cells: [[0, c]] });
  return nrm * g + be;
}

export default {
  mean: { explain: mean, scale: 'diverging' },
  var: { explain: variance, scale: 'sequential' },
  layernorm: { explain: layernorm, scale: 'diverging' },
};
