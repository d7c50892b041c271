#!/usr/bin/env bash
# The full build from scratch, ccache off, of an older commit and of the working tree's HEAD, side by side
# at the same time (one job each), so both see the same machine load; prints wall and CPU seconds of each.
#   bench/cold_build.sh COMMIT        (e.g. d6e688f; about 40 minutes on 2 cores)
set -euo pipefail
cd "$(dirname "$0")/.."
commit=${1:?usage: bench/cold_build.sh COMMIT}
work=$(mktemp -d "${TMPDIR:-/tmp}/kerascpp-cold.XXXXXX")
trap 'git worktree remove --force "$work/old" 2>/dev/null; git worktree remove --force "$work/new" 2>/dev/null; rm -rf "$work"' EXIT
git worktree add -q --detach "$work/old" "$commit"
git worktree add -q --detach "$work/new" HEAD
build() {  # build NAME: configure and build $work/NAME into $work/NAME-build, times in $work/NAME.time
  cd "$work/$1"
  CCACHE_DISABLE=1 cmake -S . -B "$work/$1-build" -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
  local TIMEFORMAT='%R %U %S'
  { time CCACHE_DISABLE=1 cmake --build "$work/$1-build" --parallel 1 >/dev/null; } 2> "$work/$1.time"
}
build old & build new & wait
for name in old new; do
  read -r wall user sys < "$work/$name.time"
  echo "$name ($([ $name = old ] && echo "$commit" || git rev-parse --short HEAD)): $wall s wall, $(awk -v u="$user" -v s="$sys" 'BEGIN {print u + s}') CPU s"
done
