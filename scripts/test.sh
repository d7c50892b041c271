#!/usr/bin/env bash
# Installs what is missing, builds, and runs the test suite through CTest.
#   scripts/test.sh                        Release build in build/, the whole suite
#   scripts/test.sh --sanitize             clang AddressSanitizer + UndefinedBehaviorSanitizer build in
#                                          build-sanitize/, the whole suite
#   scripts/test.sh --sanitize AREA ...    the same, only the named test areas (keras, layers, losses,
#                                          metrics, optimizers, callbacks, datasets, data, tools)
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install_deps.sh
filter=()
if [ "${1:-}" = "--sanitize" ]; then
  shift
  targets=()
  for area in "$@"; do
    [ -d "tests/$area" ] || { echo "error: no test area tests/$area" >&2; exit 2; }
    targets+=("test_$area")
  done
  scripts/sanitize_build.sh "${targets[@]}"
  # CTest names each test "AREA:<test case>" (see tests/CMakeLists.txt).
  if [ $# -gt 0 ]; then filter=(-R "^($(IFS='|'; echo "$*")):"); fi
  cd build-sanitize
  # Leak checking is off here: oneDNN's JIT cache and the OpenMP runtime keep allocations for the
  # process's lifetime. The fuzz targets (scripts/fuzz.sh) run with LeakSanitizer on.
  export ASAN_OPTIONS=detect_leaks=0:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
else
  scripts/build.sh
  cd build
fi
ctest --output-on-failure --parallel 2 --timeout 900 "${filter[@]}"
