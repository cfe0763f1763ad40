# SPDX-License-Identifier: MIT
# Toolchain file of the browser build: clang for wasm32-wasi with Debian's wasi-libc.
#   cmake -S . -B build-wasm --toolchain cmake/wasm32-wasi.cmake -DCMAKE_BUILD_TYPE=Release
# builds build-wasm/web/wgscan.wasm from the library's one source list (CMakeLists.txt)
# with the web backend; the native build does this by itself in build/wasm.
set(CMAKE_SYSTEM_NAME Generic)
set(CMAKE_SYSTEM_PROCESSOR wasm32)
set(WGSCAN_WEB_TARGET ON)

if(NOT WGSCAN_CLANG)
  find_program(WGSCAN_CLANG NAMES clang clang-14 REQUIRED)
endif()
set(CMAKE_C_COMPILER "${WGSCAN_CLANG}")
set(CMAKE_C_COMPILER_TARGET wasm32-wasi)
set(WGSCAN_WASI_INCLUDE /usr/include/wasm32-wasi CACHE PATH "wasi-libc headers")
set(WGSCAN_WASI_LIB /usr/lib/wasm32-wasi CACHE PATH "wasi-libc libraries")
set(CMAKE_C_FLAGS_INIT "-isystem ${WGSCAN_WASI_INCLUDE}")
# A module of exports, no main(): the page calls in through web/wgscan.js.
set(CMAKE_EXE_LINKER_FLAGS_INIT "-L${WGSCAN_WASI_LIB} -nostartfiles -Wl,--no-entry")
set(CMAKE_TRY_COMPILE_TARGET_TYPE STATIC_LIBRARY)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
