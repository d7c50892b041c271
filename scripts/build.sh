#!/usr/bin/env bash
# Configures and builds kerascpp in Release into build/ (executables land in build/bin/).
set -euo pipefail
cd "$(dirname "$0")/.."
launcher=()
export CCACHE_SLOPPINESS=pch_defines,time_macros  # lets ccache cache files built with precompiled headers
export CCACHE_BASEDIR=$PWD  # paths inside the repository hash as relative ones: clones anywhere share the cache
if command -v ccache >/dev/null; then launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache); fi
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release "${launcher[@]}" "$@"
cmake --build build --parallel "$(nproc)"
