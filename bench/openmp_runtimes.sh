#!/usr/bin/env bash
# What a parallel region and a barrier cost on GCC's OpenMP runtime (libgomp) and on LLVM's (libomp, which
# kerascpp links: CMakeLists.txt), 2 threads, in alternation: bench/openmp/parallel_region_cost.cpp, built
# against GCC's and run on each (LLVM's serves the same entry points when it is loaded first).
#   bench/openmp_runtimes.sh [runs]    (default 3)
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-3}
source bench/lib.sh
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
g++ -O2 -fopenmp bench/openmp/parallel_region_cost.cpp -o "$dir/parallel_region_cost"
llvm=$(ldconfig -p | awk '/libomp\.so\.5 .*x86-64/ && !found {print $NF; found = 1}')
[ -n "$llvm" ] || { echo "error: LLVM's OpenMP runtime (libomp.so.5, libomp-dev) is not installed" >&2; exit 1; }
gcc_runs=() llvm_runs=()
for ((i = 0; i < runs; i++)); do
  gcc_runs+=("$("$dir/parallel_region_cost")")
  llvm_runs+=("$(LD_PRELOAD=$llvm "$dir/parallel_region_cost")")
done
for f in parallel_region_us barrier_us futex_wake_us; do
  g=$(for o in "${gcc_runs[@]}"; do figure $f <<< "$o"; done | median)
  l=$(for o in "${llvm_runs[@]}"; do figure $f <<< "$o"; done | median)
  echo "$f: GCC's runtime $g   LLVM's $l"
done
