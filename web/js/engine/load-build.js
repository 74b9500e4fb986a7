// load-build.js — the module factory of one build of the engine (builds.js), imported on
// demand so that a browser fetches only the build it runs. The SIMD128 build is split in two
// (wasm/tools/split.mjs): its factory instantiates the first-paint half and loads the rest when
// first called (split-module.js). The single-file build replaces this module with the one
// build it inlines, whole (scripts/build-single.mjs).
import { BUILD_FILES, SPLIT_BUILDS } from './build-pick.js';
import { splitFactory } from './split-module.js';

// onDeferred(url): told when a split build has loaded its deferred half.
export async function loadBuild(b, onDeferred) {
  // The URL is computed, not a template literal in import(): a bundler would read `../../${x}` as
  // a pattern and pack every file it matches (scripts/bundle-site.mjs keeps the builds apart).
  const url = new URL(`../../${BUILD_FILES[b]}`, import.meta.url).href;
  const mod = await import(url);
  if (!SPLIT_BUILDS[b]) return mod;
  const file = (f) => new URL(`../../${f}`, import.meta.url).href;
  return { default: splitFactory(mod.default, file(BUILD_FILES[b].replace(/\.js$/, '.wasm')), file(SPLIT_BUILDS[b]), onDeferred) };
}
