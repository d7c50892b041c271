#!/usr/bin/env bash
# Builds kerascpp, its tests and the libFuzzer targets with clang, AddressSanitizer and
# UndefinedBehaviorSanitizer into build-sanitize/ (one build serves scripts/test.sh --sanitize and
# scripts/fuzz.sh):  scripts/sanitize_build.sh [TARGET ...]   (default: everything)
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install_deps.sh clang libclang-rt-14-dev
launcher=()
if command -v ccache >/dev/null; then launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache); fi
export CCACHE_SLOPPINESS=pch_defines,time_macros CCACHE_BASEDIR=$PWD  # as scripts/build.sh
# -O1 -g1: as libFuzzer recommends, and lighter to compile than -O2 -g; stack traces keep
# function names and lines. -fno-pch-timestamp: clang's precompiled headers otherwise record the headers'
# modification times, which differ in every clone, and ccache then misses every file that uses them.
CC=clang CXX=clang++ cmake -S . -B build-sanitize -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_C_FLAGS_RELWITHDEBINFO="-O1 -g1" -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g1 -Xclang -fno-pch-timestamp" -DKERAS_FUZZ=ON \
  -DKERAS_NATIVE=OFF -DKERAS_BUILD_BENCH=OFF "${launcher[@]}" >/dev/null
targets=()
for t in "$@"; do targets+=(--target "$t"); done
cmake --build build-sanitize --parallel "$(nproc)" "${targets[@]}"
