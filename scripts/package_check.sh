#!/usr/bin/env bash
# kerascpp as a package other projects use. Installs scripts/build.sh's build into a temporary prefix,
# builds tests/package (a user's own CMake project: find_package(kerascpp), no C++ standard or flags of
# its own, a custom layer, a short fit, save and load) against it and runs it; then configures the same
# project with kerascpp as a subdirectory (add_subdirectory) and compiles its source there.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install_deps.sh
scripts/build.sh >/dev/null
work=$(mktemp -d "${TMPDIR:-/tmp}/kerascpp-package.XXXXXX")
trap 'rm -rf "$work"' EXIT

echo "==> cmake --install build --prefix $work/prefix"
cmake --install build --prefix "$work/prefix" >/dev/null
echo "==> a consumer project with find_package(kerascpp REQUIRED)"
cmake -S tests/package -B "$work/consumer" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH="$work/prefix" >/dev/null
cmake --build "$work/consumer"
"$work/consumer/consumer"

echo "==> the same project with add_subdirectory(kerascpp)"
cmake -S tests/package -B "$work/parent" -G Ninja -DCMAKE_BUILD_TYPE=Release -DKERASCPP_SOURCE_DIR="$PWD" >/dev/null
# The consumer's own source compiles with what the kerascpp target carries (include paths, C++20);
# building the library a second time here would add nothing the installed package did not show.
cmake --build "$work/parent" --target CMakeFiles/consumer.dir/main.cpp.o
echo "package check: ok"
