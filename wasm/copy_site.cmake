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
