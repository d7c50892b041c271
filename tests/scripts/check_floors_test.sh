#!/usr/bin/env bash
# scripts/check_floors.sh on a made-up tree: it names every violation, and passes once they are gone.
set -euo pipefail
check=$(cd "$(dirname "$0")/../.." && pwd)/scripts/check_floors.sh
root=$(mktemp -d)
trap 'rm -rf "$root"' EXIT
fail() { echo "FAILED: $*" >&2; exit 1; }

put() {  # file, include lines...
  mkdir -p "$root/$(dirname "$1")"
  local f=$1; shift
  printf '%s\n' "$@" >"$root/$f"
}
put keras/layer.hpp '#include "keras/tensor.hpp"' '#include "keras/saving/hdf5_format.hpp"'
put keras/ops/nn.cpp '#include "../trainers/trainer.hpp"'
put keras/trainers/trainer.hpp '#pragma once'
put keras/hdf5/file.cpp '  #  include <callbacks/callback.hpp>'
put keras/kernels/matmul.cpp '#include <oneapi/dnnl/dnnl.hpp>'
put layers/core/dense.cpp '#include "keras/kernels/dnnl_context.hpp"' '#include "losses/loss.hpp"'
put keras/saving/model_io.cpp '#include "keras/model.hpp"' '#include "callbacks/callback.hpp"'
put tests/keras/ops_test.cpp '#include <dnnl.hpp>'
put keras/tensor.hpp '#pragma once'

run() {  # expected status; prints the output
  local status=0
  "$check" "$root" >"$root/out" 2>&1 || status=$?
  cat "$root/out"
  [ "$status" = "$1" ] || fail "check_floors.sh exited $status, expected $1"
}
expect() { grep -qF -- "$1" "$root/out" || fail "output lacks: $1"; }
expect_not() { ! grep -qF -- "$1" "$root/out" || fail "output has: $1"; }

run 1
expect 'error: keras/layer.hpp:2: includes keras/saving/hdf5_format.hpp: rule core-floor'
expect 'error: keras/ops/nn.cpp:1: includes ../trainers/trainer.hpp (that is, keras/trainers/trainer.hpp): rule core-floor'
expect 'error: keras/hdf5/file.cpp:1: includes callbacks/callback.hpp: rule core-floor'
expect 'error: layers/core/dense.cpp:1: includes keras/kernels/dnnl_context.hpp: rule onednn-in-kernels'
expect 'error: tests/keras/ops_test.cpp:1: includes dnnl.hpp: rule onednn-in-kernels'
expect 'FAILED: 5 violation(s)'
expect_not 'keras/kernels/matmul.cpp'
expect_not 'keras/saving/model_io.cpp'
expect_not 'losses/loss.hpp'

rm -r "$root/keras/layer.hpp" "$root/keras/ops" "$root/keras/hdf5" "$root/layers" "$root/tests"
run 0
expect 'check_floors: OK'
echo "check_floors_test: OK"
