#!/usr/bin/env bash
# The framework's own cost before and after a change: builds the benchmarks of COMMIT in a temporary
# worktree and those of the working tree, then runs step_overhead (framework overhead per
# train_on_batch step) and train_throughput (MLP, CNN) of both in alternation and prints the medians
# and the ratio new/old (above 1: the working tree is faster).
#   bench/against_commit.sh COMMIT [runs]        (default 3)
set -euo pipefail
cd "$(dirname "$0")/.."
commit=${1:?usage: bench/against_commit.sh COMMIT [runs]}
runs=${2:-3}
old=$(mktemp -d "${TMPDIR:-/tmp}/kerascpp-old.XXXXXX")
trap 'git worktree remove --force "$old/src" 2>/dev/null || true; rm -rf "$old"' EXIT
git worktree add -q --detach "$old/src" "$commit"
scripts/build.sh > /dev/null
cmake --build build --target step_overhead train_throughput > /dev/null
(cd "$old/src" && BUILD_DIR="$old/build" scripts/build.sh -DKERAS_BUILD_TESTS=OFF -DKERAS_BUILD_EXAMPLES=OFF > /dev/null &&
 cmake --build "$old/build" --target step_overhead train_throughput > /dev/null)

source bench/lib.sh
compare() {  # PROGRAM "ARGS" FIGURE higher|lower
  local program=$1 args="$2" name=$3 better=$4 news=() olds=()
  for ((i = 0; i < runs; i++)); do
    olds+=("$("$old/build/bin/$program" $args | figure "$name")")
    news+=("$(build/bin/$program $args | figure "$name")")
  done
  local n o
  n=$(printf '%s\n' "${news[@]}" | median)
  o=$(printf '%s\n' "${olds[@]}" | median)
  echo "$program $args"
  echo "  old ($commit) $name: $o   (runs: ${olds[*]})"
  echo "  new (working tree) $name: $n   (runs: ${news[*]})"
  if [ "$better" = higher ]; then
    awk -v n="$n" -v o="$o" 'BEGIN {printf "  new/old speed: %.3f\n", n / o}'
  else
    awk -v n="$n" -v o="$o" 'BEGIN {printf "  new/old speed: %.3f\n", o / n}'
  fi
}
compare step_overhead "--threads 1" us_per_step lower
compare train_throughput "--model mlp --batch-size 128 --epochs 1 --threads 2" samples_per_sec higher
compare train_throughput "--model cnn --batch-size 32 --epochs 1 --threads 2" samples_per_sec higher
