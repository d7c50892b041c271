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

# compare PROGRAM FIGURE higher|lower "ARGS": medians of PROGRAM and PROGRAM_torch, and how many times
# better kerascpp is (their time over ours for figures where lower is better).
compare() {
  local program=$1 name=$2 better=$3 args="$4" ours=() theirs=()
  for ((i = 0; i < runs; i++)); do
    ours+=("$(build/bin/$program $args | figure "$name")")
    theirs+=("$(build/bin/${program}_torch $args | figure "$name")")
  done
  local k t
  k=$(printf '%s\n' "${ours[@]}" | median)
  t=$(printf '%s\n' "${theirs[@]}" | median)
  echo "$program $args"
  echo "  kerascpp_$name: $k   (runs: ${ours[*]})"
  echo "  libtorch_$name: $t   (runs: ${theirs[*]})"
  if [ "$better" = higher ]; then
    awk -v k="$k" -v t="$t" 'BEGIN {printf "  kerascpp_advantage: %.2fx\n", k / t}'
  else
    awk -v k="$k" -v t="$t" 'BEGIN {printf "  kerascpp_advantage: %.2fx\n", t / k}'
  fi
}

compare train_throughput samples_per_sec higher "--model mlp --batch-size 128 --epochs 1 --threads 2"
compare train_throughput samples_per_sec higher "--model cnn --batch-size 32 --epochs 1 --threads 2"
compare train_throughput samples_per_sec higher "--model cnn --batch-size 128 --epochs 1 --threads 2"
for threads in 1 2; do
  compare predict_latency predict_samples_per_sec higher "--batch-size 32 --threads $threads"
  compare predict_latency latency_median_us lower "--threads $threads"
  compare predict_latency latency_p99_us lower "--threads $threads"
done
compare step_overhead us_per_step lower "--threads 1"
compare lstm_throughput samples_per_sec higher "--threads 1"
compare lstm_throughput samples_per_sec higher "--threads 2"
