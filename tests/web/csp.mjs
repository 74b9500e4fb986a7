#!/usr/bin/env node
// csp.mjs — the Content-Security-Policy of every page the project serves, read as a browser
// would get it: the built site (dist/) served by scripts/serve.mjs — the page (index.html),
// the figure view (index.html?view=figure&…), the engine frame of the web component
// (engine.html) — each its HTTP header and its <meta http-equiv>, and the single-file build's
// <meta> (dist/encoder-walkthrough.html, opened from disk: no header). Every policy must:
//   - start from default-src 'none' and name script-src itself;
//   - allow no 'unsafe-eval', 'unsafe-inline' or 'unsafe-hashes' in any directive
//     ('wasm-unsafe-eval', which only lets WebAssembly compile, is the one 'unsafe' allowed);
//   - have no wildcard source: no *, no *.host, no bare http:/https:/ws:/wss: (any host), and
//     no data: or blob: where scripts come from (script-src, default-src) — with one exception:
//     connect-src may be exactly `'self' https:`. ?model=URL fetches a checkpoint from a blog's
//     CDN or the Hugging Face Hub (issue 19 item 5), hosts the site cannot list in advance;
//     connect-src only governs fetch/XHR (never what runs: scripts, styles, frames stay 'self'),
//     the host must still allow the page by CORS, and https: keeps plain-http hosts out.
// The suites listen for CSP violations, but a loosened policy produces none: this test is what
// fails when someone adds 'unsafe-eval'. Its own rules are proven first on planted policies.
//
//   node tests/web/csp.mjs [--dist dist]
import { readFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import process from 'node:process';
import { startServer } from '../../scripts/serve.mjs';
import { root, arg, checks, assert } from '../harness.mjs';

const dist = path.resolve(root, arg('--dist', 'dist'));
for (const f of ['index.html', 'engine.html', 'encoder-walkthrough.html'])
  if (!existsSync(path.join(dist, f))) {
    console.error(`csp: ${path.join(dist, f)} not found — build the wasm preset first (cmake --build --preset wasm)`);
    process.exit(2);
  }
const { check, results } = checks(6);

// A policy as {directive: [sources]} (the first of a repeated directive wins, as in browsers).
export function parseCsp(text) {
  const out = {};
  for (const part of text.split(';')) {
    const [name, ...sources] = part.trim().split(/\s+/).filter(Boolean);
    if (name && !(name.toLowerCase() in out)) out[name.toLowerCase()] = sources;
  }
  return out;
}
const UNSAFE = /^'unsafe-(?:eval|inline|hashes)'$/i;
const ANY_HOST = /^(?:https?|wss?):$/i; // a bare scheme: any host
const CONNECT_ANY_HTTPS = "'self' https:"; // the one widening allowed (see the header)
// What is wrong with a policy ([] if nothing).
export function cspProblems(text) {
  const p = parseCsp(text), bad = [];
  if (!text.trim()) return ['no policy'];
  if ((p['default-src'] || []).join(' ') !== "'none'") bad.push(`default-src is "${(p['default-src'] || []).join(' ')}", not 'none'`);
  if (!p['script-src']) bad.push('no script-src (scripts would fall back to default-src)');
  for (const [d, sources] of Object.entries(p))
    for (const s of sources) {
      if (UNSAFE.test(s)) bad.push(`${d} allows ${s}`);
      if (s.includes('*')) bad.push(`${d} has the wildcard source ${s}`);
      const httpsFetch = d === 'connect-src' && s === 'https:' && sources.join(' ') === CONNECT_ANY_HTTPS;
      if (ANY_HOST.test(s) && !httpsFetch) bad.push(`${d} allows any host of ${s}`);
      if (['script-src', 'default-src'].includes(d) && /^(?:data|blob):$/i.test(s)) bad.push(`${d} runs scripts from ${s}`);
    }
  return bad;
}
// The <meta http-equiv="Content-Security-Policy"> of a page ('' if none; fails on two).
export function metaCsp(html) {
  const all = [...html.matchAll(/<meta\s+http-equiv=(["'])Content-Security-Policy\1\s+content=(["'])(.*?)\2\s*\/?>/gi)];
  assert(all.length <= 1, `${all.length} CSP <meta> tags`);
  assert(all.length === (html.match(/<meta[^>]*Content-Security-Policy/gi) || []).length, 'a CSP <meta> this test cannot read');
  return all.length ? all[0][3] : '';
}

await check("the rules fail on planted policies: 'unsafe-eval', 'unsafe-inline', *, *.host, https:, data: scripts, no default-src 'none'; connect-src allows exactly 'self' https:", async () => {
  const good = "default-src 'none'; script-src 'self' 'wasm-unsafe-eval'; connect-src 'self' https:; style-src 'self'; img-src 'self' data:; worker-src blob:";
  assert(!cspProblems(good).length, `a strict policy is flagged: ${cspProblems(good)}`);
  const strict = good.replace("connect-src 'self' https:", "connect-src 'self'");
  assert(!cspProblems(strict).length, `connect-src 'self' is flagged: ${cspProblems(strict)}`);
  const planted = [
    ["script-src 'self' 'wasm-unsafe-eval'", "script-src 'self' 'wasm-unsafe-eval' 'unsafe-eval'", "allows 'unsafe-eval'"],
    ["style-src 'self'", "style-src 'self' 'unsafe-inline'", "allows 'unsafe-inline'"],
    ["img-src 'self' data:", "img-src *", 'wildcard source *'],
    ["style-src 'self'", "style-src https://*.example.org", 'wildcard source https://*.example.org'],
    ["img-src 'self' data:", "img-src https:", 'any host of https:'],
    ["script-src 'self' 'wasm-unsafe-eval'", "script-src 'self' data:", 'runs scripts from data:'],
    ["default-src 'none'", "default-src 'self'", "not 'none'"],
    ["connect-src 'self' https:", "connect-src *", 'wildcard source *'],
    ["connect-src 'self' https:", "connect-src 'self' https: http:", 'any host of http:'],
    ["connect-src 'self' https:", "connect-src 'self' https: wss:", 'any host of wss:'],
    ["connect-src 'self' https:", "connect-src https:", 'any host of https:'],
    ["connect-src 'self' https:", "connect-src 'self' https: 'unsafe-eval'", "allows 'unsafe-eval'"],
    ["connect-src 'self' https:", "connect-src 'self' https: data:", 'any host of https:'],
    ["script-src 'self' 'wasm-unsafe-eval'", "script-src 'self' 'wasm-unsafe-eval' https:", 'script-src allows any host of https:'],
  ];
  for (const [from, to, want] of planted) {
    const bad = cspProblems(good.replace(from, to));
    assert(bad.some((b) => b.includes(want)), `"${to}" passed (${bad.join('; ') || 'no problem found'})`);
  }
  assert(cspProblems(good.replace(/script-src [^;]*; /, '')).some((b) => b.startsWith('no script-src')), 'a policy without script-src passed');
  assert(metaCsp(`<meta http-equiv="Content-Security-Policy" content="${good}">`) === good && metaCsp('<html></html>') === '', 'meta parsing');
});

const { server, url: base } = await startServer(dist, 0);
const pages = [
  ['the page', 'index.html'],
  ['the figure view', 'index.html?view=figure&text=the+cat+sat+on+the+mat&step=layer0.head0.weights'],
  ['the web component’s engine frame', 'engine.html'],
];
try {
  for (const [what, rel] of pages)
    await check(`${what} (${rel}): the served header and the page's <meta> are strict`, async () => {
      const res = await fetch(base + rel);
      assert(res.ok, `${rel}: HTTP ${res.status}`);
      const header = res.headers.get('content-security-policy') || '';
      const meta = metaCsp(await res.text());
      for (const [where, policy] of [['header', header], ['<meta>', meta]]) {
        const bad = cspProblems(policy);
        assert(!bad.length, `${rel} ${where} "${policy}": ${bad.join('; ')}`);
      }
      console.log(`     ${rel}: ${meta}`);
    });
} finally {
  server.close();
}

await check("the single-file build (encoder-walkthrough.html, from file://): its <meta> is strict, scripts and styles by hash", async () => {
  const html = readFileSync(path.join(dist, 'encoder-walkthrough.html'), 'utf8');
  const policy = metaCsp(html);
  const bad = cspProblems(policy);
  assert(!bad.length, `"${policy.slice(0, 300)}": ${bad.join('; ')}`);
  const p = parseCsp(policy);
  const hashes = (d) => (p[d] || []).filter((s) => /^'sha(?:256|384|512)-/.test(s)).length;
  assert(hashes('script-src') >= 1 && hashes('style-src') >= 1, `script-src/style-src by hash: ${hashes('script-src')}, ${hashes('style-src')}`);
  console.log(`     encoder-walkthrough.html: ${policy.replace(/'sha256-[^']*'/g, "'sha256-…'")}`);
});

const { passed, failed } = results();
console.log(`csp: ${failed ? `${failed} FAILED, ` : ''}${passed} passed`);
process.exit(failed ? 1 : 0);
