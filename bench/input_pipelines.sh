#!/usr/bin/env bash
# Are the training examples input-bound? In one run, in samples per second against what the model consumes
# in training (fit or train_on_batch, its preprocessing layers included), with the ratio (goal: >= 5):
#   text_classification: the shuffled batches fit cuts from the review arrays each epoch (the files are
#     read once, rate printed too), and TextVectorization's share of a training step;
#   structured_data: the make_csv_dataset pipeline fit iterates, and the preprocessing layers' share
#     (Normalization, StringLookup, IntegerLookup, Hashing, HashedCrossing);
#   fashion_mnist_cnn --augment: its augmentation stack (RandomFlip, RandomTranslation, Rescaling) in training;
#   and CSV parsing alone, rows per second: make_csv_dataset's batched reader vs CsvDataset's records batched.
# The machine may be shared: the load average is printed before and after.
#   bench/input_pipelines.sh [THREADS=1]
set -euo pipefail
cd "$(dirname "$0")/.."
threads=${1:-1}
source bench/lib.sh
for p in text_classification structured_data augmentation_throughput pipeline_throughput; do
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
build/bin/pipeline_throughput --part csv | grep "^csv_"
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
