// sw.js — the service worker that makes the page reload with no network: on install it
// caches the page's shell, the files of offline-manifest.json (written by scripts/bundle-site.mjs:
// the page and its bundled modules), and then what the page says its visit loaded (a
// {type: 'cache', urls} message: the engine's build, the shipped model, KaTeX and its fonts — or a
// figure's typeset formulas, formulas-mathml.js). Both come
// from the HTTP cache where the page already fetched them (cache: 'force-cache'), so the first
// visit downloads nothing twice (issue 29). Afterwards it answers network-first (so an online
// reader always gets the current files, and the cache follows them) and falls back to the
// cache when the network is gone. Same-origin GET requests only; nothing else is touched.
// It also makes the page cross-origin isolated where the host cannot send the headers (GitHub
// Pages; the coi-serviceworker approach): every response it hands out carries COOP/COEP/CORP, so
// from the next load on the page is crossOriginIsolated and the engine runs its threaded build
// (engine/builds.js). Nothing reloads the page for it; a page this worker does not control (the
// first visit, an embed on a blog) runs exactly as before.
const PREFIX = 'encoder-walkthrough-';
const ISOLATION = {
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Embedder-Policy': 'require-corp',
  'Cross-Origin-Resource-Policy': 'cross-origin',
};

// The response with the isolation headers added (same body, status and other headers).
function isolated(res) {
  if (!res || res.type === 'opaque' || res.status === 0) return res;
  const headers = new Headers(res.headers);
  for (const [k, v] of Object.entries(ISOLATION)) headers.set(k, v);
  return new Response(res.body, { status: res.status, statusText: res.statusText, headers });
}

self.addEventListener('install', (event) => {
  event.waitUntil((async () => {
    const manifest = await (await fetch('offline-manifest.json', { cache: 'no-store' })).json();
    const cache = await caches.open(PREFIX + manifest.version);
    await Promise.all(['./', ...manifest.files].map((u) => keep(cache, u)));
    await self.skipWaiting();
  })());
});

// One file into `cache`, from the HTTP cache when it is there (a stale copy is replaced by the
// network-first fetch handler on the next online visit).
async function keep(cache, url) {
  const req = new Request(url, { cache: 'force-cache' });
  const res = await fetch(req);
  if (!res.ok) throw new Error(`${url}: ${res.status}`);
  await cache.put(new Request(url), res);
}

// The page names the files its visit loaded (same origin only; failures are not fatal: that
// file is then simply not available offline).
self.addEventListener('message', (event) => {
  const urls = event.data && event.data.type === 'cache' && Array.isArray(event.data.urls) ? event.data.urls : [];
  const own = urls.filter((u) => typeof u === 'string' && new URL(u, self.location.href).origin === self.location.origin);
  if (!own.length) return;
  event.waitUntil((async () => {
    const name = await currentCacheName();
    if (!name) return;
    const cache = await caches.open(name);
    await Promise.all(own.map((u) => keep(cache, u).catch(() => {})));
  })());
});

self.addEventListener('activate', (event) => {
  event.waitUntil((async () => {
    const current = await currentCacheName();
    for (const name of await caches.keys())
      if (name.startsWith(PREFIX) && name !== current) await caches.delete(name);
    await self.clients.claim();
  })());
});

// The newest cache, looked up once per worker lifetime (not on every request).
let current = null;
async function currentCacheName() {
  if (!current) {
    const names = (await caches.keys()).filter((n) => n.startsWith(PREFIX));
    current = names[names.length - 1] || null;
  }
  return current;
}

self.addEventListener('fetch', (event) => {
  const req = event.request;
  const url = new URL(req.url);
  if (req.method !== 'GET' || url.origin !== self.location.origin) return;
  // A checkpoint's weights (?model=URL: hundreds of MB) go past the cache, straight to the page.
  // The shipped models (models/*.safetensors, tens of KB) are cached like any file.
  if (url.pathname.endsWith('.safetensors') && !/\/models\/[^/]+\.safetensors$/.test(url.pathname)) return;
  event.respondWith((async () => {
    try {
      const res = await fetch(req);
      if (res.ok && res.type === 'basic') {
        const name = await currentCacheName();
        if (name) {
          const copy = res.clone();
          caches.open(name).then((c) => c.put(req, copy)).catch(() => {});
        }
      }
      return isolated(res);
    } catch (err) {
      // Offline: the cached file; for the page itself, whatever its query string (settings).
      const hit = await caches.match(req, { ignoreSearch: req.mode === 'navigate' });
      if (hit) return isolated(hit);
      if (req.mode === 'navigate') {
        const page = await caches.match('./');
        if (page) return isolated(page);
      }
      throw err;
    }
  })());
});
