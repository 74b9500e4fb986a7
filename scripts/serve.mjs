#!/usr/bin/env node
// serve.mjs — a tiny dependency-free static server for the built site (dist/) on 127.0.0.1.
// Sends Access-Control-Allow-Origin: * (the web component is loaded from other origins).
// Serves the right MIME types (application/wasm for the module, text/javascript for ES
// modules and the Worker) and the same strict Content-Security-Policy the page declares in
// its <meta>, so what runs here runs on any static host. Prints the URL on its first line.
// With --isolated (or startServer's { isolated: true }) it also sends COOP same-origin and COEP
// require-corp: the page is then cross-origin isolated and runs the threaded build (builds.js).
// Not the default: the other suites keep the headers of a plain static host (GitHub Pages), which
// is what most readers get; under COEP every cross-origin resource needs CORS or CORP.
// Compression like a static host's: FILE.gz (written by scripts/bundle-site.mjs) is sent with
// Content-Encoding: gzip to a client that accepts gzip, unless it is older than FILE (a module
// relinked since). startServer's { gzip: false } turns that off; { onServed(path, bytes, encoding) }
// hears of every file sent (tests/browser/bytes.mjs counts the bytes on the wire with it).
//
//   node scripts/serve.mjs [--isolated] [DIR=dist] [PORT=8000]      (PORT 0 picks a free port)
//   PORT=9000 node scripts/serve.mjs dist
import { createServer } from 'node:http';
import { createReadStream, promises as fs } from 'node:fs';
import path from 'node:path';
import process from 'node:process';

const MIME = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.wasm': 'application/wasm',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.txt': 'text/plain; charset=utf-8',
  '.md': 'text/plain; charset=utf-8',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.ttf': 'font/ttf',
};

// Identical to web/index.html's <meta> policy. 'wasm-unsafe-eval' lets WebAssembly compile;
// nothing allows eval or inline script/style. frame-ancestors is left open on purpose: the
// page is meant to be embedded in blog posts. connect-src allows any https: host (only fetches,
// never scripts): ?model=URL opens a checkpoint on a blog's CDN or the Hugging Face Hub, which
// must still allow the page by CORS (tests/web/csp.mjs accepts exactly this widening).
export const CSP = [
  "default-src 'none'",
  "script-src 'self' 'wasm-unsafe-eval'",
  "worker-src 'self'",
  "connect-src 'self' https:",
  "style-src 'self'",
  "font-src 'self'",
  "img-src 'self' data:",
  "base-uri 'none'",
  "form-action 'none'",
].join('; ');

// The headers that make a page cross-origin isolated (SharedArrayBuffer, so WebAssembly
// threads); CORP lets an isolated page on another origin still load our files.
export const ISOLATION_HEADERS = {
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Embedder-Policy': 'require-corp',
  'Cross-Origin-Resource-Policy': 'cross-origin',
};

// The file to send for `file`: its .gz twin when the client accepts gzip and the twin is current.
async function encoded(file, st, req, gzip) {
  if (!gzip || !/\bgzip\b/.test(req.headers['accept-encoding'] || '')) return null;
  try {
    const gz = await fs.stat(file + '.gz');
    return gz.mtimeMs >= st.mtimeMs ? { file: file + '.gz', size: gz.size } : null;
  } catch {
    return null;
  }
}

export function startServer(root, port = 0, host = '127.0.0.1', { isolated = false, gzip = true, onServed = null } = {}) {
  const base = path.resolve(root);
  const server = createServer(async (req, res) => {
    const headers = {
      'Content-Security-Policy': CSP,
      'X-Content-Type-Options': 'nosniff',
      'Referrer-Policy': 'no-referrer',
      'Cache-Control': 'no-cache',
      // A blog on another origin loads component.js (a module: fetched with CORS) and its
      // imports; GitHub Pages and most static hosts send the same header.
      'Access-Control-Allow-Origin': '*',
      ...(isolated ? ISOLATION_HEADERS : {}),
    };
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { ...headers, Allow: 'GET, HEAD', 'Content-Type': 'text/plain' });
      res.end('method not allowed\n');
      return;
    }
    let rel;
    try {
      rel = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    } catch {
      res.writeHead(400, { ...headers, 'Content-Type': 'text/plain' });
      res.end('bad request\n');
      return;
    }
    let file = path.join(base, path.normalize(rel));
    if (file !== base && !file.startsWith(base + path.sep)) {
      res.writeHead(403, { ...headers, 'Content-Type': 'text/plain' });
      res.end('forbidden\n');
      return;
    }
    try {
      let st = await fs.stat(file);
      if (st.isDirectory()) {
        file = path.join(file, 'index.html');
        st = await fs.stat(file);
      }
      const type = MIME[path.extname(file).toLowerCase()] || 'application/octet-stream';
      const gz = await encoded(file, st, req, gzip);
      const sent = gz || { file, size: st.size };
      // A validator, as static hosts send: a revalidation (Cache-Control: no-cache) of an
      // unchanged file is a 304 without a body, not the file again.
      const etag = `W/"${st.size.toString(16)}-${Math.floor(st.mtimeMs).toString(16)}${gz ? '-gz' : ''}"`;
      if (req.headers['if-none-match'] === etag) {
        res.writeHead(304, { ...headers, ETag: etag, Vary: 'Accept-Encoding' });
        if (onServed) onServed(path.relative(base, file), 0, 'not-modified');
        return res.end();
      }
      res.writeHead(200, { ...headers, 'Content-Type': type, 'Content-Length': sent.size, Vary: 'Accept-Encoding', ETag: etag,
        ...(gz ? { 'Content-Encoding': 'gzip' } : {}) });
      if (onServed) onServed(path.relative(base, file), sent.size, gz ? 'gzip' : 'identity');
      if (req.method === 'HEAD') return res.end();
      createReadStream(sent.file).pipe(res);
    } catch {
      res.writeHead(404, { ...headers, 'Content-Type': 'text/plain; charset=utf-8' });
      res.end('not found\n');
    }
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      const { port: p } = server.address();
      resolve({ server, url: `http://${host}:${p}/` });
    });
  });
}

const isMain = process.argv[1] && path.resolve(process.argv[1]) === path.resolve(new URL(import.meta.url).pathname);
if (isMain) {
  const args = process.argv.slice(2);
  const isolated = args.includes('--isolated');
  const [dir = 'dist', portArg] = args.filter((a) => a !== '--isolated');
  const port = Number(portArg ?? process.env.PORT ?? 8000);
  try {
    await fs.access(path.join(dir, 'index.html'));
  } catch {
    console.error(`serve: ${path.resolve(dir)}/index.html not found — build the site first (cmake --build --preset wasm)`);
    process.exit(1);
  }
  try {
    const { url } = await startServer(dir, port, '127.0.0.1', { isolated });
    console.log(url);
    console.log(`serving ${path.resolve(dir)}${isolated ? ' cross-origin isolated (COOP/COEP)' : ''} (Ctrl-C to stop)`);
  } catch (e) {
    console.error(`serve: cannot listen on 127.0.0.1:${port}: ${e.message}`);
    process.exit(1);
  }
}
