#!/usr/bin/env bash
# Runs each kerascpp benchmark and its libtorch twin in alternation, several times, and prints the
# medians and the ratio. Installs libtorch-dev (and OpenBLAS's OpenMP build, so libtorch does not
# fall back to the slow reference BLAS) when missing.
#   bench/run.sh [runs]        (default 3)
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-3}
scripts/install_deps.sh libtorch-dev libopenblas0-openmp
scripts/build.sh > /dev/null

median() { sort -n | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2}'; }
figure() { grep "^$1:" | awk '{print $2}'; }

compare() {
  local args="$1" ours=() theirs=()
  for ((i = 0; i < runs; i++)); do
    ours+=("$(build/bin/train_throughput $args | figure samples_per_sec)")
    theirs+=("$(build/bin/train_throughput_torch $args | figure samples_per_sec)")
  done
  local k t
  k=$(printf '%s\n' "${ours[@]}" | median)
  t=$(printf '%s\n' "${theirs[@]}" | median)
  echo "train_throughput $args"
  echo "  kerascpp_samples_per_sec: $k   (runs: ${ours[*]})"
  echo "  libtorch_samples_per_sec: $t   (runs: ${theirs[*]})"
  awk -v k="$k" -v t="$t" 'BEGIN {printf "  ratio: %.2f\n", k / t}'
}

compare "--model mlp --batch-size 128 --epochs 1 --threads 2"
compare "--model cnn --batch-size 32 --epochs 1 --threads 2"
compare "--model cnn --batch-size 128 --epochs 1 --threads 2"
