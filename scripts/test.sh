#!/usr/bin/env bash
# Installs what is missing, builds, and runs the whole test suite through CTest.
#   scripts/test.sh             Release build in build/
#   scripts/test.sh --sanitize  AddressSanitizer + UndefinedBehaviorSanitizer build in build-sanitize/
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install_deps.sh
if [ "${1:-}" = "--sanitize" ]; then
  launcher=()
  if command -v ccache >/dev/null; then launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache); fi
  cmake -S . -B build-sanitize -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DKERAS_SANITIZE=ON \
    -DKERAS_BUILD_BENCH=OFF "${launcher[@]}"
  cmake --build build-sanitize --parallel "$(nproc)"
  cd build-sanitize
  # Leak checking is off here: oneDNN's JIT cache and the OpenMP runtime keep allocations for the
  # process's lifetime. The fuzz targets (scripts/fuzz.sh) run with LeakSanitizer on.
  export ASAN_OPTIONS=detect_leaks=0:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
else
  scripts/build.sh
  cd build
fi
ctest --output-on-failure --parallel 2 --timeout 900
