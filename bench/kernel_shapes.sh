#!/usr/bin/env bash
# Where kerascpp's own kernels beat oneDNN's, shape by shape: build/bin/kernel_shapes (oneDNN's calls and
# ours alternating in one process) `runs` times on the native ISA and again with ONEDNN_MAX_CPU_ISA=AVX2;
# prints, per shape, both medians (GFLOP/s; poolings: G values/s), which of the two the library runs there
# ("own" or "onednn") and ours over oneDNN's.
#   bench/kernel_shapes.sh [runs] [threads] [isa...]     (default 3 runs, 2 threads; ISAs: native AVX2)
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-3}
threads=${2:-2}
[ $# -gt 0 ] && shift
[ $# -gt 0 ] && shift
isas=(native AVX2)
[ $# -gt 0 ] && isas=("$@")
scripts/build.sh > /dev/null
cmake --build build --target kernel_shapes > /dev/null
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
for isa in "${isas[@]}"; do
  if [ "$isa" = native ]; then unset ONEDNN_MAX_CPU_ISA; else export ONEDNN_MAX_CPU_ISA=$isa; fi
  for ((i = 0; i < runs; i++)); do build/bin/kernel_shapes --threads "$threads" > "$out/$i"; done
  echo "=== ISA: $isa ($(sed -n 's/^isa: //p' "$out/0")), $threads threads, medians of $runs: GFLOP/s oneDNN / ours (the library runs) ours/oneDNN ==="
  python3 - "$out" "$runs" <<'PY'
import statistics, sys
folder, runs = sys.argv[1], int(sys.argv[2])
rows = {}
for i in range(runs):
    for line in open(f"{folder}/{i}"):
        parts = line.split()
        if len(parts) == 4 and parts[3] in ("own", "onednn"):
            rows.setdefault(parts[0][:-1], []).append((float(parts[1]), float(parts[2]), parts[3]))
for name, vs in rows.items():
    t, k = statistics.median(v[0] for v in vs), statistics.median(v[1] for v in vs)
    print(f"{name:52s} {t:7.1f} / {k:7.1f} ({vs[0][2]:6s}) {k / t:5.2f}x")
PY
done
