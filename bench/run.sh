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
cmake --build build --target bench > /dev/null

source bench/lib.sh

# compare PROGRAM "ARGS" FIGURE:higher|lower...: runs PROGRAM and PROGRAM_torch in alternation, then for
# each figure prints both medians and how many times better kerascpp is (their value over ours for
# figures where lower is better).
compare() {
  local program=$1 args="$2" ours=() theirs=()
  shift 2
  for ((i = 0; i < runs; i++)); do
    ours+=("$(build/bin/$program $args)")
    theirs+=("$(build/bin/${program}_torch $args)")
  done
  echo "$program $args"
  local spec name better k t ks ts
  for spec in "$@"; do
    name=${spec%%:*} better=${spec##*:}
    ks=$(for o in "${ours[@]}"; do figure "$name" <<< "$o"; done)
    ts=$(for o in "${theirs[@]}"; do figure "$name" <<< "$o"; done)
    k=$(median <<< "$ks")
    t=$(median <<< "$ts")
    echo "  kerascpp_$name: $k   (runs: $(echo $ks))"
    echo "  libtorch_$name: $t   (runs: $(echo $ts))"
    if [ "$better" = higher ]; then
      awk -v k="$k" -v t="$t" 'BEGIN {printf "  kerascpp_advantage: %.2fx\n", k / t}'
    else
      awk -v k="$k" -v t="$t" 'BEGIN {printf "  kerascpp_advantage: %.2fx\n", t / k}'
    fi
  done
}

# Workload 6 (memory) is peak_rss_mb of the seed CNN's training at batch 32: the resident peak
# while training, the training data (60,000 float images, 188 MB) included.
compare train_throughput "--model mlp --batch-size 128 --epochs 1 --threads 2" samples_per_sec:higher
compare train_throughput "--model cnn --batch-size 32 --epochs 1 --threads 2" samples_per_sec:higher peak_rss_mb:lower
compare train_throughput "--model cnn --batch-size 128 --epochs 1 --threads 2" samples_per_sec:higher
for threads in 1 2; do
  compare predict_latency "--batch-size 32 --threads $threads" predict_samples_per_sec:higher \
    latency_median_us:lower latency_p99_us:lower
done
compare step_overhead "--threads 1" us_per_step:lower
compare lstm_throughput "--batch-size 64 --threads 1" samples_per_sec:higher
compare lstm_throughput "--batch-size 64 --threads 2" samples_per_sec:higher
