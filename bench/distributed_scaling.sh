#!/usr/bin/env bash
# Data-parallel scaling of the seed CNN on Fashion-MNIST (build/bin/distributed_fashion_mnist): the
# global training throughput of 2 ranks x 1 thread against 1 rank x 1 thread and 1 rank x 2 threads, at
# the same global batch. Runs the three in alternation, RUNS times each, and prints the medians and
# the ratios. Throughput on a shared machine is noisy: note the load (printed first).
#   bench/distributed_scaling.sh [RUNS=3] [GLOBAL_BATCH=64] [SAMPLES=12800]
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-3} batch=${2:-64} samples=${3:-12800}
source bench/lib.sh
program=build/bin/distributed_fashion_mnist
[ -x "$program" ] || { echo "build $program first: cmake --build build --target distributed_fashion_mnist" >&2; exit 1; }
# As root (containers, CI), Open MPI refuses to start unless told.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
args=(--epochs 1 --batch-size "$batch" --samples "$samples")

run() {  # ranks threads -> samples_per_sec
  local ranks=$1 threads=$2
  OMP_NUM_THREADS=$threads mpirun -np "$ranks" --oversubscribe --bind-to none "$program" "${args[@]}" --threads "$threads" \
    | figure samples_per_sec
}

echo "load average: $(cut -d' ' -f1-3 /proc/loadavg); $(nproc) cores; global batch $batch, $samples samples, $runs runs"
one=() two_threads=() two_ranks=()
for ((i = 0; i < runs; i++)); do
  one+=("$(run 1 1)")
  two_threads+=("$(run 1 2)")
  two_ranks+=("$(run 2 1)")
done
m1=$(printf '%s\n' "${one[@]}" | median)
m2=$(printf '%s\n' "${two_threads[@]}" | median)
m3=$(printf '%s\n' "${two_ranks[@]}" | median)
echo "1 rank  x 1 thread : ${one[*]} -> median $m1 samples/s"
echo "1 rank  x 2 threads: ${two_threads[*]} -> median $m2 samples/s"
echo "2 ranks x 1 thread : ${two_ranks[*]} -> median $m3 samples/s"
awk -v a="$m3" -v b="$m1" -v c="$m2" 'BEGIN {
  printf "2 ranks x 1 thread / 1 rank x 1 thread : %.2fx (target >= 1.8)\n", a / b
  printf "2 ranks x 1 thread / 1 rank x 2 threads: %.2fx (target >= 0.9)\n", a / c }'
