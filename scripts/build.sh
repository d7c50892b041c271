#!/usr/bin/env bash
# Configures and builds kerascpp in Release into build/ (executables land in build/bin/).
#   scripts/build.sh [CMAKE_OPTION ...]     e.g. -DKERAS_NATIVE=ON; BUILD_DIR=other-folder builds there
set -euo pipefail
cd "$(dirname "$0")/.."
launcher=()
export CCACHE_SLOPPINESS=pch_defines,time_macros  # lets ccache cache files built with precompiled headers
export CCACHE_BASEDIR=$PWD  # paths inside the repository hash as relative ones: clones anywhere share the cache
if command -v ccache >/dev/null; then launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache); fi
build=${BUILD_DIR:-build}
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release "${launcher[@]}" "$@"
cmake --build "$build" --parallel "$(nproc)"
