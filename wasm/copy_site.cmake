# copy_site.cmake — copies web/ to the dist folder and vendors KaTeX from node_modules
# (installed by `npm ci` from package-lock.json; scripts/setup.sh does it).
if(NOT EXISTS "${SRC}/node_modules/katex/dist/katex.min.js")
  message(FATAL_ERROR "KaTeX is not installed: run `npm ci` in ${SRC} (scripts/setup.sh does it)")
endif()
file(MAKE_DIRECTORY "${DIST}")
file(COPY "${SRC}/web/" DESTINATION "${DIST}")
file(MAKE_DIRECTORY "${DIST}/vendor/katex")
file(COPY "${SRC}/node_modules/katex/dist/katex.min.js" "${SRC}/node_modules/katex/dist/katex.min.css"
     "${SRC}/node_modules/katex/dist/fonts" DESTINATION "${DIST}/vendor/katex")

# The offline manifest: every file the page can need (KaTeX fonts as woff2 only, what current
# browsers load), with a version made of their hashes, for the service worker (web/sw.js) to
# cache on its first visit so that the page also reloads with no network.
file(GLOB_RECURSE EW_DIST_FILES RELATIVE "${DIST}" "${DIST}/*")
list(SORT EW_DIST_FILES)
set(EW_OFFLINE_FILES "")
set(EW_OFFLINE_HASHES "")
foreach(f ${EW_DIST_FILES})
  if(f STREQUAL "offline-manifest.json" OR f STREQUAL "sw.js" OR f STREQUAL "encoder-walkthrough.html" OR f MATCHES "\\.(woff|ttf)$" OR f MATCHES "package\\.json$")
    continue()
  endif()
  file(SHA256 "${DIST}/${f}" h)
  string(APPEND EW_OFFLINE_HASHES "${h}")
  list(APPEND EW_OFFLINE_FILES "\"${f}\"")
endforeach()
string(SHA256 EW_OFFLINE_VERSION "${EW_OFFLINE_HASHES}")
string(SUBSTRING "${EW_OFFLINE_VERSION}" 0 16 EW_OFFLINE_VERSION)
list(JOIN EW_OFFLINE_FILES ",\n  " EW_OFFLINE_JOINED)
file(WRITE "${DIST}/offline-manifest.json" "{\"version\": \"${EW_OFFLINE_VERSION}\", \"files\": [\n  ${EW_OFFLINE_JOINED}\n]}\n")
