#!/usr/bin/env bash
# What a user pays to compile a one-line program: preprocessed lines and seconds (median of RUNS) of
#   #include <keras/keras.hpp>      and, beside it,      #include <torch/torch.h>   (Debian's libtorch-dev)
# each with `int main() {}`, compiled as a Release build would (-O2), one compiler at a time.
#   bench/compile_time.sh [runs]        (default 3)
# KERAS_INCLUDE (default: -I and this checkout) gives other include flags, e.g. another checkout of kerascpp
# to measure an older commit with the same script: KERAS_INCLUDE=-I/tmp/old bench/compile_time.sh 5
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-3}
scripts/install_deps.sh libtorch-dev
work=$(mktemp -d "${TMPDIR:-/tmp}/kerascpp-compile.XXXXXX")
trap 'rm -rf "$work"' EXIT
printf '#include <keras/keras.hpp>\nint main() {}\n' > "$work/keras.cpp"
printf '#include <torch/torch.h>\nint main() {}\n' > "$work/torch.cpp"
read -ra keras_include <<< "${KERAS_INCLUDE:--I$PWD}"
keras_flags=(-std=c++20 -O2 "${keras_include[@]}")
torch_flags=(-std=c++17 -O2 -I/usr/include/torch/csrc/api/include)

source bench/lib.sh
measure() {  # measure NAME FLAGS...: lines and median seconds of compiling $work/NAME.cpp
  local name=$1 lines times=()
  shift
  lines=$(g++ "$@" -E "$work/$name.cpp" | wc -l)
  for ((i = 0; i < runs; i++)); do
    local start end
    start=$(date +%s.%N)
    g++ "$@" -c "$work/$name.cpp" -o "$work/$name.o"
    end=$(date +%s.%N)
    times+=("$(awk -v s="$start" -v e="$end" 'BEGIN {printf "%.2f", e - s}')")
  done
  echo "$name: $lines preprocessed lines, $(printf '%s\n' "${times[@]}" | median) s   (runs: ${times[*]})"
}
measure keras "${keras_flags[@]}"
measure torch "${torch_flags[@]}"
