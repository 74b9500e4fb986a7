# wasm_kernels.cmake — under Emscripten, the SIMD kernels (core/kernels/kernels_simd.cpp) are
# compiled by Debian's clang-19 instead of Emscripten 3.1.6's clang-14, in two flavors,
# and linked by emcc like any other object (../shared/TOOLCHAIN.md, issue 13):
#   plain    -msimd128                   (clang-19's code is 5-25% faster on the matmul tile)
#   relaxed  -msimd128 -mrelaxed-simd    (f32x4.relaxed_madd: fused multiply-add; clang-14
#                                         only knows a draft opcode that V8 rejects)
# Defines EW_KERNELS_OBJ_PLAIN and EW_KERNELS_OBJ_RELAXED (object files) for the root
# CMakeLists.txt, which builds ew_core (plain) and ew_core_relaxed from them, and
# ew_without_simd128(target) for the scalar fallback (ew_core_scalar).
# The kernels are built without C++ exceptions: clang-19 allows -fwasm-exceptions only
# with reference types and multi-value, which Emscripten 3.1.6's Binaryen cannot read.
# Nothing in them throws (an allocation failure in the A-packing scratch would abort).
find_program(EW_CLANG19 NAMES clang++-19)
if(NOT EW_CLANG19)
  message(FATAL_ERROR "clang++-19 is missing (the wasm kernels are compiled by it): run scripts/setup.sh "
                      "or apt-get install clang-19 lld-19")
endif()

set(EW_KERNELS_SRC "${PROJECT_SOURCE_DIR}/core/kernels/kernels_simd.cpp")
list(REMOVE_ITEM EW_CORE_SOURCES "${EW_KERNELS_SRC}")

# One kernel object: `flavor` names it, the rest are extra clang flags.
function(ew_clang19_kernels flavor out_var)
  set(obj "${CMAKE_BINARY_DIR}/kernels/kernels_simd_${flavor}.o")
  set(flags --target=wasm32-unknown-emscripten "--sysroot=${EMSCRIPTEN_SYSROOT}"
      -D_LIBCPP_ABI_VERSION=2 -DEMSCRIPTEN -D__EMSCRIPTEN_major__=3 -D__EMSCRIPTEN_minor__=1
      -D__EMSCRIPTEN_tiny__=6 -std=c++17 -O3 -DNDEBUG -fno-exceptions
      -mno-reference-types -mno-multivalue -Wall -Wextra -Wno-unused-parameter
      "-I${PROJECT_SOURCE_DIR}/core" ${ARGN})
  if(EW_WERROR)
    list(APPEND flags -Werror)
  endif()
  add_custom_command(
    OUTPUT "${obj}"
    COMMAND "${CMAKE_COMMAND}" -E make_directory "${CMAKE_BINARY_DIR}/kernels"
    COMMAND "${EW_CLANG19}" ${flags} -MD -MF "${obj}.d" -c "${EW_KERNELS_SRC}" -o "${obj}"
    DEPENDS "${EW_KERNELS_SRC}" "${PROJECT_SOURCE_DIR}/core/kernels/kernels.h" "${PROJECT_SOURCE_DIR}/core/kernels/simd.h"
    DEPFILE "${obj}.d"
    COMMENT "clang-19: core/kernels/kernels_simd.cpp (${flavor})" VERBATIM)
  set_source_files_properties("${obj}" PROPERTIES EXTERNAL_OBJECT TRUE GENERATED TRUE)
  set(${out_var} "${obj}" PARENT_SCOPE)
endfunction()

ew_clang19_kernels(plain EW_KERNELS_OBJ_PLAIN -msimd128)
ew_clang19_kernels(relaxed EW_KERNELS_OBJ_RELAXED -msimd128 -mrelaxed-simd)

# Link options of a module that contains relaxed-SIMD opcodes: Binaryen 108 (wasm-opt)
# cannot parse them ("invalid code after SIMD prefix"), so no optimizing link; WASM_BIGINT
# skips the i64 legalization pass, which would also run wasm-opt. Each object is already -O3.
set(EW_RELAXED_LINK -O1 -sWASM_BIGINT)
# The threaded module (EW_WASM_THREADS): pthreads over a shared heap that may grow (JS views
# of it are taken after each computation, bindings.cpp); 3 workers start with the module, so
# up to 4 threads with the caller (the page asks for at most 4).
# Exceptions: Emscripten 3.1.6's -pthread libc++abi matches no catch clause under
# -fwasm-exceptions (checked: `throw 42` is not caught by `catch (int)`), so the threaded targets
# use JavaScript-emulated exceptions instead (ew_js_exceptions; the kernels throw nothing).
set(EW_WASM_MT_LINK -pthread -sPTHREAD_POOL_SIZE=3 -sMAXIMUM_MEMORY=4294967296 -fexceptions)

# Swaps the directory-wide -fwasm-exceptions of a threaded target for -fexceptions (above).
function(ew_js_exceptions target)
  foreach(prop COMPILE_OPTIONS LINK_OPTIONS)
    get_target_property(opts ${target} ${prop})
    if(opts)
      list(REMOVE_ITEM opts -fwasm-exceptions)
      set_property(TARGET ${target} PROPERTY ${prop} ${opts})
    endif()
  endforeach()
  target_compile_options(${target} PRIVATE -fexceptions)
endfunction()

# Drops the directory-wide -msimd128 from a target (the scalar build must validate in an
# engine without SIMD).
function(ew_without_simd128 target)
  get_target_property(opts ${target} COMPILE_OPTIONS)
  if(opts)
    list(REMOVE_ITEM opts -msimd128)
    set_property(TARGET ${target} PROPERTY COMPILE_OPTIONS ${opts})
  endif()
endfunction()
