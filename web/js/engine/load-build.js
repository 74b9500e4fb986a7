// load-build.js — the module factory of one build of the engine (builds.js), imported on
// demand so that a browser fetches only the build it runs. The single-file build replaces
// this module with the one build it inlines (scripts/build-single.mjs).
import { BUILD_FILES } from './builds.js';

export function loadBuild(b) {
  return import(`../../${BUILD_FILES[b]}`);
}
