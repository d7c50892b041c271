#!/usr/bin/env bash
# Runs one libFuzzer target for SECONDS seconds: scripts/fuzz.sh TARGET SECONDS
# TARGET is a file name in fuzz/ without .cpp (fuzz_npy, fuzz_idx, fuzz_hdf5_model, fuzz_hdf5_weights,
# fuzz_keras_archive, fuzz_json_config, fuzz_tfjs, fuzz_csv, fuzz_tfrecord, fuzz_example), built by scripts/sanitize_build.sh
# (clang, ASan, UBSan). The corpus grows in build-sanitize/corpus/TARGET, seeded from fuzz/seeds/TARGET
# and the real Keras files in ../shared/fixtures.
# A finding is saved as build-sanitize/findings/TARGET/crash-*; turn each into a regression test.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ $# -ne 2 ]; then
  echo "usage: scripts/fuzz.sh TARGET SECONDS   (targets: $(cd fuzz && ls fuzz_*.cpp | sed 's/\.cpp//' | tr '\n' ' '))" >&2
  exit 2
fi
target=$1 seconds=$2
[ -f "fuzz/$target.cpp" ] || { echo "error: no fuzz target fuzz/$target.cpp" >&2; exit 2; }
scripts/sanitize_build.sh "$target"

corpus=build-sanitize/corpus/$target findings=build-sanitize/findings/$target
mkdir -p "$corpus" "$findings"
seeds=()
[ -d "fuzz/seeds/$target" ] && seeds+=("fuzz/seeds/$target")
fixtures=../shared/fixtures/keras-h5
if [ -d "$fixtures" ]; then
  case $target in
    fuzz_hdf5_model|fuzz_hdf5_weights) cp -n "$fixtures"/tf2.13_mlp_adam.h5 "$fixtures"/keras2.0.5_weights_only.h5 "$corpus"/ ;;
    fuzz_npy) cp -n "$fixtures"/*.npy "$corpus"/ ;;
  esac
fi
# Every group kind, layout and string kind kerascpp's HDF5 reader handles (tests/golden/make_hdf5_reader_golden.py).
case $target in
  fuzz_hdf5_model|fuzz_hdf5_weights) cp -n tests/golden/hdf5_reader/variants.h5 "$corpus"/ ;;
esac
# Full malloc stacks, so that fuzz/lsan.supp can match frames deep inside HDF5.
export ASAN_OPTIONS=detect_leaks=1:allocator_may_return_null=1:fast_unwind_on_malloc=0
export LSAN_OPTIONS=suppressions=$PWD/fuzz/lsan.supp
export OMP_NUM_THREADS=1
exec "build-sanitize/bin/$target" -max_total_time="$seconds" -rss_limit_mb=4096 -timeout=30 \
  -artifact_prefix="$findings/" "$corpus" "${seeds[@]}"
