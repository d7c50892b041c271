#!/usr/bin/env bash
# The portable library (the default: no -march=native, runs on any x86-64 CPU) against one built for this
# machine's CPU (KERAS_NATIVE=ON, in build-native/), on the seed CNN and the MLP. Runs the two builds'
# train_throughput in alternation and prints medians and portable / native (1.00 = as fast).
#   bench/portable_vs_native.sh [runs]        (default 3)
# Set ONEDNN_MAX_CPU_ISA=AVX2 to measure both with oneDNN's AVX2 kernels.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-3}
scripts/build.sh -DKERAS_NATIVE=OFF >/dev/null
cmake --build build --target train_throughput >/dev/null
BUILD_DIR=build-native scripts/build.sh -DKERAS_NATIVE=ON -DKERAS_BUILD_TESTS=OFF -DKERAS_BUILD_EXAMPLES=OFF >/dev/null
cmake --build build-native --target train_throughput >/dev/null

source bench/lib.sh
echo "ONEDNN_MAX_CPU_ISA=${ONEDNN_MAX_CPU_ISA:-unset (the best the CPU has)}"
for args in "--model mlp --batch-size 128 --epochs 1 --threads 2" "--model cnn --batch-size 32 --epochs 1 --threads 2" \
  "--model cnn --batch-size 32 --epochs 1 --threads 1 --samples 12000"; do
  portable=() native=()
  for ((i = 0; i < runs; i++)); do
    portable+=("$(build/bin/train_throughput $args | figure samples_per_sec)")
    native+=("$(build-native/bin/train_throughput $args | figure samples_per_sec)")
  done
  p=$(printf '%s\n' "${portable[@]}" | median)
  n=$(printf '%s\n' "${native[@]}" | median)
  echo "train_throughput $args"
  echo "  portable_samples_per_sec: $p   (runs: ${portable[*]})"
  echo "  native_samples_per_sec: $n   (runs: ${native[*]})"
  awk -v p="$p" -v n="$n" 'BEGIN {printf "  portable_over_native: %.2f\n", p / n}'
done
