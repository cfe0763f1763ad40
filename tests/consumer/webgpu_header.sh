#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# wgscan.h beside a real webgpu.h, in either include order, with no macro defined
# (ctest webgpu_header). The real header is the stand-in tests/consumer/webgpu/webgpu.h
# (same include guard and declarations as webgpu-headers c13888a). Compiles
# webgpu_order.c with the header before and after wgscan.h in C (strict C11, warnings as
# errors) and runs both against the static library; the same in C++ when a C++ compiler
# is given (compile only); and checks that a webgpu.h older than WGPUStringView is
# refused with wgscan's message.
# Usage: webgpu_header.sh SOURCE_DIR LIBWGSCAN_A CC [CXX]
set -u
src=$1 lib=$2 cc=$3 cxx=${4:-}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0 failed=0
ok() { echo "[  OK  ] $1"; passed=$((passed + 1)); }
bad() { echo "[ FAIL ] $1"; failed=$((failed + 1)); }
inc=(-I"$src/include" -I"$src/tests/consumer")

for order in webgpu wgscan; do
  defs=()
  [ "$order" = wgscan ] && defs=(-DWGSCAN_FIRST)
  exe="$tmp/order_$order"
  if "$cc" -std=c11 -Wall -Wextra -Wpedantic -Werror "${inc[@]}" "${defs[@]}" \
       "$src/tests/consumer/webgpu_order.c" "$lib" -ldl -lm -lpthread -o "$exe" 2>"$tmp/err"; then
    ok "C: $order.h first compiles"
    if "$exe"; then ok "C: $order.h first scans"; else bad "C: $order.h first scans"; fi
  else
    cat "$tmp/err"; bad "C: $order.h first compiles"
  fi
  if [ -n "$cxx" ]; then
    if "$cxx" -std=c++11 -Wall -Wextra -Wpedantic -Werror -fsyntax-only -x c++ "${inc[@]}" "${defs[@]}" \
         "$src/tests/consumer/webgpu_order.c" 2>"$tmp/err"; then
      ok "C++: $order.h first compiles"
    else
      cat "$tmp/err"; bad "C++: $order.h first compiles"
    fi
  fi
done

# A header of an older generation (no WGPUStringView, so no WGPU_STRLEN) is refused
# with wgscan's own message rather than a cascade of errors.
mkdir -p "$tmp/old/webgpu"
printf '#ifndef WEBGPU_H_\n#define WEBGPU_H_\n#include <stdint.h>\ntypedef uint32_t WGPUFlags;\n#endif\n' \
  > "$tmp/old/webgpu/webgpu.h"
printf '#include <webgpu/webgpu.h>\n#include <wgscan.h>\nint main(void) { return 0; }\n' > "$tmp/old.c"
if "$cc" -std=c11 -fsyntax-only -I"$src/include" -I"$tmp/old" "$tmp/old.c" 2>"$tmp/err"; then
  bad "an older webgpu.h is refused"
elif grep -q "wgscan.h: this webgpu.h predates WGPUStringView" "$tmp/err"; then
  ok "an older webgpu.h is refused with wgscan's message"
else
  cat "$tmp/err"; bad "an older webgpu.h is refused with wgscan's message"
fi

# No real header anywhere: wgscan's own declarations, as before.
printf '#include <wgscan.h>\nint main(void) { WGPUBufferUsage u = WGPUBufferUsage_Storage; WGPUStringView s = {0, WGPU_STRLEN}; return (int)(u != 0x80) + (int)(s.length == 0); }\n' \
  > "$tmp/own.c"
if "$cc" -std=c11 -Wall -Wextra -Wpedantic -Werror -I"$src/include" "$tmp/own.c" -o "$tmp/own" 2>"$tmp/err" && "$tmp/own"; then
  ok "no webgpu.h: wgscan's declarations"
else
  cat "$tmp/err"; bad "no webgpu.h: wgscan's declarations"
fi

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
