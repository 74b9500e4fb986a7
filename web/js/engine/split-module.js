// split-module.js — instantiates a build that wasm/tools/split.mjs split in two: the primary
// module holds what a first paint runs; every other function is a placeholder import that, on
// its first call, loads the deferred module (synchronously: the engine runs in a Worker, which
// may) and continues into it. Checkpoints, tokenizer files, training, the backward pass and the
// what-if lab's sweeps live there, so a first visit downloads about half the module (issue 29).

// Fetches and compiles `url` (streaming where the server says application/wasm).
async function compile(url) {
  const response = await fetch(url, { credentials: 'same-origin' });
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
  if (WebAssembly.compileStreaming && /application\/wasm/.test(response.headers.get('content-type') || ''))
    return WebAssembly.compileStreaming(response);
  return WebAssembly.compile(await response.arrayBuffer());
}

// The deferred module's bytes, fetched synchronously (the placeholder must return a value).
function fetchSync(url) {
  const xhr = new XMLHttpRequest();
  xhr.open('GET', url, false);
  xhr.responseType = 'arraybuffer';
  xhr.send();
  if (xhr.status !== 200 || !xhr.response) throw new Error(`${url}: HTTP ${xhr.status}`);
  return xhr.response;
}

// The Emscripten factory of a split build, with the primary module at `primaryUrl` and the
// deferred one at `deferredUrl`; onDeferred(url) is told once the deferred module has loaded.
export function splitFactory(factory, primaryUrl, deferredUrl, onDeferred = () => {}) {
  return async (opts) => {
    const primary = await compile(primaryUrl);
    let instance = null, table = null, loaded = false;
    const load = () => {
      if (loaded) return;
      new WebAssembly.Instance(new WebAssembly.Module(fetchSync(deferredUrl)), { primary: instance.exports });
      loaded = true;
      onDeferred(deferredUrl);
    };
    // Placeholder i stands for the function in table slot i; loading the deferred module fills
    // the slot. Calls that reach here afterwards (a caller kept the placeholder) go straight on.
    const placeholder = new Proxy({}, {
      get: (_, slot) => function (...args) {
        load();
        return table.get(Number(slot))(...args);
      },
    });
    return factory({
      ...opts,
      instantiateWasm(imports, receive) {
        instance = new WebAssembly.Instance(primary, { ...imports, placeholder });
        table = Object.values(instance.exports).find((v) => v instanceof WebAssembly.Table);
        receive(instance, primary);
        return instance.exports;
      },
    });
  };
}
