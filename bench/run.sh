#!/usr/bin/env bash
# Runs every kerascpp benchmark beside its anchor — the libtorch twin (training, inference) and ONNX
# Runtime (inference) — in alternation, several times, on the machine's native ISA and again with oneDNN
# held to AVX2 (so an AVX-512 machine measures the AVX2 kernels too), and prints medians and ratios.
# Installs libtorch-dev (and OpenBLAS's OpenMP build, so libtorch does not fall back to the slow
# reference BLAS) when missing; ONNX Runtime comes from npm as for the ONNX tests (scripts/install_deps.sh),
# and bench/onnxruntime_held_to_avx2.sh holds a copy of it to AVX2 for the AVX2 column.
#   bench/run.sh [runs] [isa...]        (default 3 runs; ISAs: native AVX2)
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-3}
[ $# -gt 0 ] && shift
isas=(native AVX2)
[ $# -gt 0 ] && isas=("$@")
scripts/install_deps.sh libtorch-dev libopenblas0-openmp  # and ONNX Runtime from npm, as for the tests
scripts/build.sh > /dev/null
cmake --build build --target bench > /dev/null
onnx_dir=$(mktemp -d)
trap 'rm -rf "$onnx_dir"' EXIT

source bench/lib.sh

# One-thread runs go to one core, the same for both sides: unpinned, each run lands on whichever core the
# scheduler picks, and a virtual machine's cores can differ by 1.3x from minute to minute.
first_cpu=$(awk '/^Cpus_allowed_list/ {split($2, a, "[-,]"); print a[1]}' /proc/self/status)
pinned_to_one_core() { if [ "$1" = 1 ]; then echo "taskset -c $first_cpu"; fi; }

# compare ANCHOR "OUR COMMAND" "THEIR COMMAND" FIGURE:higher|lower...: runs both commands in alternation (with
# $pin before each, when set), then for each figure prints both medians and how many times better kerascpp is
# (their value over ours for figures where lower is better). Leaves our median of the first figure in
# $ours_median, and our runs' values of it in $ours_runs. With $beside set, runs it just before each of our
# runs and leaves the first figure of each of its outputs in $beside_runs.
pin=
beside=
compare() {
  local anchor=$1 our_command=$2 their_command=$3 ours=() theirs=()
  shift 3
  beside_runs=
  for ((i = 0; i < runs; i++)); do
    [ -n "$beside" ] && beside_runs+="$($beside) "
    ours+=("$($pin $our_command)")
    theirs+=("$($pin $their_command)")
  done
  echo "${our_command#build/bin/}"
  local spec name better k t ks ts first=1
  for spec in "$@"; do
    name=${spec%%:*} better=${spec##*:}
    ks=$(for o in "${ours[@]}"; do figure "$name" <<< "$o"; done)
    ts=$(for o in "${theirs[@]}"; do figure "$name" <<< "$o"; done)
    k=$(median <<< "$ks")
    t=$(median <<< "$ts")
    [ $first = 1 ] && ours_median=$k && ours_runs=$(echo $ks) && first=0
    echo "  kerascpp_$name: $k   (runs: $(echo $ks))"
    echo "  ${anchor}_$name: $t   (runs: $(echo $ts))"
    if [ "$better" = higher ]; then
      awk -v k="$k" -v t="$t" -v a="$anchor" 'BEGIN {printf "  kerascpp_vs_%s: %.2fx\n", a, k / t}'
    else
      awk -v k="$k" -v t="$t" -v a="$anchor" 'BEGIN {printf "  kerascpp_vs_%s: %.2fx\n", a, t / k}'
    fi
  done
}

# The shape of one sample and its vocabulary (0: real values) per inference workload, for ONNX Runtime.
declare -A shape=([cnn]=28,28,1 [resnet20]=32,32,3 [transformer]=128,256 [lstm]=100)
declare -A vocabulary=([cnn]=0 [resnet20]=0 [transformer]=0 [lstm]=10000)

for isa in "${isas[@]}"; do
  onnxruntime=tools/onnx_runtime
  if [ "$isa" = native ]; then
    unset ONEDNN_MAX_CPU_ISA DNNL_MAX_CPU_ISA ATEN_CPU_CAPABILITY OPENBLAS_CORETYPE
  else  # oneDNN (ours and libtorch's), ATen's own kernels, OpenBLAS and ONNX Runtime all held to AVX2
    export ONEDNN_MAX_CPU_ISA=$isa DNNL_MAX_CPU_ISA=$isa ATEN_CPU_CAPABILITY=avx2 OPENBLAS_CORETYPE=Haswell
    onnxruntime=$onnx_dir/onnxruntime_avx2
    bench/onnxruntime_held_to_avx2.sh "$onnxruntime"
  fi
  echo "=== ISA: $isa ==="
  training=()
  # The sgemm ceiling, 2 threads: the best of oneDNN's and OpenBLAS's GFLOP/s. A virtual machine's speed
  # drifts by a third between minutes (its neighbours), so it is measured twice over: once more just before
  # each training run, which is then taken as a fraction of that moment's ceiling (the median of those is
  # the "% of ceiling"), and as the best of all of them over the ISA's runs (the "% of the best ceiling").
  sgemm_ceiling() {
    { build/bin/sgemm_ceiling --threads 2; build/bin/sgemm_ceiling_torch --threads 2; } | figure sgemm_gflops |
      sort -n | tail -1
  }
  ceilings=$(for ((i = 0; i < runs; i++)); do sgemm_ceiling; done)

  # Training, 2 threads. Workload 6 (memory) is peak_rss_mb of the seed CNN's training at batch 32: the
  # resident peak while training, the training data (60,000 float images, 188 MB) included.
  for spec in "mlp 128" "cnn 32" "cnn 128" "resnet20 128" "transformer 32" "textcnn 64" "lstm 64"; do
    set -- $spec
    extra=()
    [ "$1 $2" = "cnn 32" ] && extra=(peak_rss_mb:lower)
    args="--model $1 --batch-size $2 --epochs 1 --threads 2"
    beside=sgemm_ceiling
    compare libtorch "build/bin/train_throughput $args" "build/bin/train_throughput_torch $args" \
      samples_per_sec:higher "${extra[@]}"
    beside=
    ceilings+=" $beside_runs"
    echo "  sgemm_ceiling_gflops: $beside_runs  (each just before the kerascpp run below it)"
    flops=$(bench/flops_per_sample.py "$1")
    fractions=$(paste -d' ' <(tr ' ' '\n' <<< "$ours_runs") <(tr -s ' ' '\n' <<< "$beside_runs" | grep .) |
      awk -v f="$flops" '{print 100 * $1 * f / 1e9 / $2}')
    awk -v s="$ours_median" -v f="$flops" -v p="$(median <<< "$fractions")" \
      -v runs="$(printf '%.0f%% ' $fractions)" \
      'BEGIN {printf "  kerascpp_gflops: %.1f (%.0f%% of the sgemm ceiling; runs: %s)\n", s * f / 1e9, p, runs}'
    training+=("$1 $2 $ours_median $flops")
  done
  best=$(tr -s ' ' '\n' <<< "$ceilings" | grep . | sort -n | tail -1)
  echo "sgemm ceiling, 2 threads (best of oneDNN and OpenBLAS), best of the $isa runs: $best GFLOP/s"
  for t in "${training[@]}"; do
    set -- $t
    awk -v m="$1 $2" -v s="$3" -v f="$4" -v c="$best" \
      'BEGIN {printf "  %s: %.0f%% of the best ceiling\n", m, 100 * s * f / 1e9 / c}'
  done

  # Inference, batch 32 and one sample, 1 and 2 threads: libtorch and ONNX Runtime (the same graph, exported
  # by kerascpp; for the AVX2 column, a copy of ONNX Runtime that sees no AVX-512, as on an AVX2-only CPU).
  for model in cnn resnet20 transformer lstm; do
    build/bin/predict_latency --model "$model" --threads 1 --samples 64 --onnx "$onnx_dir/$model.onnx" > /dev/null
    samples=$([ "$model" = cnn ] && echo 10000 || echo 1024)
    for threads in 1 2; do
      pin=$(pinned_to_one_core $threads)
      args="--model $model --batch-size 32 --threads $threads"
      compare libtorch "build/bin/predict_latency $args" "build/bin/predict_latency_torch $args" \
        predict_samples_per_sec:higher latency_median_us:lower latency_p99_us:lower
      compare onnxruntime "build/bin/predict_latency $args" \
        "node bench/predict_latency_ort.js $onnx_dir/$model.onnx --shape ${shape[$model]} --vocabulary ${vocabulary[$model]} --batch-size 32 --threads $threads --samples $samples --runtime $onnxruntime" \
        predict_samples_per_sec:higher latency_median_us:lower latency_p99_us:lower
    done
  done
  pin=$(pinned_to_one_core 1)
  compare libtorch "build/bin/step_overhead --threads 1" "build/bin/step_overhead_torch --threads 1" us_per_step:lower
  pin=
done
