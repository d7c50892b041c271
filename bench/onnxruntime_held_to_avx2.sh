#!/usr/bin/env bash
# Makes a copy of ONNX Runtime (tools/onnx_runtime's node_modules) that runs its AVX2 kernels on an AVX-512
# machine, so that bench/run.sh's AVX2 column sets kerascpp's AVX2 kernels against ONNX Runtime's AVX2 ones,
# as on a CPU without AVX-512.
#
# ONNX Runtime has no switch like ONEDNN_MAX_CPU_ISA: its kernels (MLAS) and its CPU probe take AVX-512 only
# when CPUID reports it AND the operating system saves the AVX-512 registers, which they learn from XCR0
# through the XGETBV instruction (bits 5–7: opmask, upper ZMM halves, ZMM16–31). In the copy, every XGETBV
# (3 bytes, 0f 01 d0) becomes `lea 7(%rcx), %eax` (3 bytes, 8d 41 07): XGETBV reads XCR0 only with ECX = 0,
# which each call site sets, so EAX becomes 7 (x87, SSE and AVX state saved, nothing more) — what an
# operating system without AVX-512 support reports. Every AVX-512 (and AMX) path then declines itself and
# ONNX Runtime takes the same AVX2 kernels it takes on an AVX2-only CPU. Nothing else in the library changes.
#   bench/onnxruntime_held_to_avx2.sh OUT_DIR     (writes OUT_DIR/node_modules; then: node
#                                                   bench/predict_latency_ort.js ... --runtime OUT_DIR)
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:?usage: bench/onnxruntime_held_to_avx2.sh OUT_DIR}
source_modules=tools/onnx_runtime/node_modules
[ -d "$source_modules/onnxruntime-node" ] ||
  { echo "onnxruntime_held_to_avx2: $source_modules/onnxruntime-node is missing (run scripts/install_deps.sh)" >&2; exit 1; }
rm -rf "$out/node_modules"
mkdir -p "$out/node_modules"
cp -a "$source_modules/." "$out/node_modules/"
library=$(echo "$out"/node_modules/onnxruntime-node/bin/napi-v*/linux/x64/libonnxruntime.so.1)
[ -f "$library" ] || { echo "onnxruntime_held_to_avx2: no x64 libonnxruntime.so.1 in $out/node_modules/onnxruntime-node" >&2; exit 1; }

# The executable segments (virtual address, file offset, size), to turn each instruction's address into
# its place in the file.
mapfile -t segments < <(readelf -lW "$library" | awk '$1 == "LOAD" && / R?W?E / {print $3, $2, $5}')
patched=0
for address in $(objdump -d --no-show-raw-insn "$library" | awk '$2 == "xgetbv" {sub(":", "", $1); print $1}'); do
  offset=
  for segment in "${segments[@]}"; do
    read -r vaddr file_offset size <<< "$segment"
    if (( 0x$address >= vaddr && 0x$address < vaddr + size )); then offset=$(( 0x$address - vaddr + file_offset )); fi
  done
  [ -n "$offset" ] || { echo "onnxruntime_held_to_avx2: xgetbv at 0x$address lies in no executable segment" >&2; exit 1; }
  [ "$(od -An -tx1 -j "$offset" -N3 "$library" | tr -d ' \n')" = 0f01d0 ] ||
    { echo "onnxruntime_held_to_avx2: the bytes at file offset $offset are not xgetbv" >&2; exit 1; }
  printf '\x8d\x41\x07' | dd of="$library" bs=1 seek="$offset" conv=notrunc status=none
  patched=$((patched + 1))
done
[ "$patched" -gt 0 ] || { echo "onnxruntime_held_to_avx2: no xgetbv found in $library" >&2; exit 1; }
echo "onnxruntime_held_to_avx2: $patched XGETBV instructions in $library now report XCR0 = 7 (no AVX-512 state)"
