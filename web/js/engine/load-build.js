// load-build.js — the module factory of one build of the engine (builds.js), imported on
// demand so that a browser fetches only the build it runs. The single-file build replaces
// this module with the one build it inlines (scripts/build-single.mjs).
import { BUILD_FILES } from './build-pick.js';

// The URL is computed, not a template literal in import(): a bundler would read `../../${x}` as
// a pattern and pack every file it matches (scripts/bundle-site.mjs keeps the builds apart).
export function loadBuild(b) {
  const url = new URL(`../../${BUILD_FILES[b]}`, import.meta.url).href;
  return import(url);
}
