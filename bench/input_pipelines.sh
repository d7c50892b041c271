#!/usr/bin/env bash
# Are the training examples input-bound? In one run: the input pipelines of text_classification (review
# files read from the folder, then TextVectorization) and structured_data (make_csv_dataset, then the
# Normalization/StringLookup/IntegerLookup/Hashing/HashedCrossing layers), and the augmentation stack of
# fashion_mnist_cnn --augment, each in samples per second against what its model consumes in training
# (samples per second of one epoch of fit, or of train_on_batch, preprocessing included), with the ratio.
# The goal is a ratio of at least 5. The machine may be shared: the load average is printed first.
#   bench/input_pipelines.sh [THREADS=1]
set -euo pipefail
cd "$(dirname "$0")/.."
threads=${1:-1}
source bench/lib.sh
for p in text_classification structured_data augmentation_throughput; do
  [ -x "build/bin/$p" ] || { echo "build build/bin/$p first: cmake --build build --target $p" >&2; exit 1; }
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg); $(nproc) cores; OMP_NUM_THREADS=$threads"
export OMP_NUM_THREADS=$threads
root=$PWD
(cd "$work" && "$root/build/bin/text_classification" --data "$work/reviews" --bench) | grep "^text_classification_"
(cd "$work" && "$root/build/bin/structured_data" --csv "$work/data.csv" --bench) | grep "^structured_data_"
build/bin/augmentation_throughput --images 6400 | grep "^augment_"
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
