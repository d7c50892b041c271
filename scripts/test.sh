#!/usr/bin/env bash
# Installs what is missing, builds, and runs the whole test suite through CTest.
#   scripts/test.sh             Release build in build/
#   scripts/test.sh --sanitize  clang AddressSanitizer + UndefinedBehaviorSanitizer build in build-sanitize/
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install_deps.sh
if [ "${1:-}" = "--sanitize" ]; then
  scripts/sanitize_build.sh
  cd build-sanitize
  # Leak checking is off here: oneDNN's JIT cache and the OpenMP runtime keep allocations for the
  # process's lifetime. The fuzz targets (scripts/fuzz.sh) run with LeakSanitizer on.
  export ASAN_OPTIONS=detect_leaks=0:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
else
  scripts/build.sh
  cd build
fi
ctest --output-on-failure --parallel 2 --timeout 900
