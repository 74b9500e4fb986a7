// format.js — numbers as the lab writes them: four significant decimals, exponents for the
// very large and very small.
export function fmt(v) {
  const n = Number(v);
  if (!Number.isFinite(n)) return String(v);
  return Math.abs(n) >= 1e4 || (n !== 0 && Math.abs(n) < 1e-3) ? n.toExponential(2) : String(Number(n.toFixed(4)));
}
