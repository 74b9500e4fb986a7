# copy_site.cmake — copies web/ to the dist folder, vendors KaTeX from node_modules (installed by
# `npm ci` from package-lock.json; scripts/setup.sh does it), then scripts/bundle-site.mjs bundles
# the modules, merges the page's CSS, writes the service worker's offline-manifest.json and a .gz
# beside every compressible file (issue 29: the first visit's requests and bytes).
#   cmake -DSRC=<source> -DDIST=<dist> [-DNODE=node] -P wasm/copy_site.cmake
if(NOT EXISTS "${SRC}/node_modules/katex/dist/katex.min.js" OR NOT EXISTS "${SRC}/node_modules/esbuild")
  message(FATAL_ERROR "KaTeX or esbuild is not installed: run `npm ci` in ${SRC} (scripts/setup.sh does it)")
endif()
if(NOT NODE)
  set(NODE node)
endif()
file(MAKE_DIRECTORY "${DIST}")
file(COPY "${SRC}/web/" DESTINATION "${DIST}")
file(MAKE_DIRECTORY "${DIST}/vendor/katex")
file(COPY "${SRC}/node_modules/katex/dist/katex.min.js" "${SRC}/node_modules/katex/dist/katex.min.css"
     "${SRC}/node_modules/katex/dist/fonts" DESTINATION "${DIST}/vendor/katex")
# The shipped models, as files the page fetches when a preset uses one (core/io/builtin_models.h).
file(GLOB EW_MODEL_FILES "${SRC}/models/*.safetensors")
file(COPY ${EW_MODEL_FILES} DESTINATION "${DIST}/models")
execute_process(COMMAND "${NODE}" "${SRC}/scripts/bundle-site.mjs" "${DIST}" RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "scripts/bundle-site.mjs failed (${rc})")
endif()
