#!/usr/bin/env bash
# Installs the Debian 12 packages kerascpp needs to build, test and run its examples.
# Only missing packages are installed; run as root (or with sudo available).
set -euo pipefail

# Complete for a minimal Debian 12 (scripts/clean_room.sh proves it): what a package only recommends
# is not installed (--no-install-recommends), so a package whose CMake config needs it is listed here.
packages=(
  g++ cmake ninja-build pkg-config ccache
  xtensor-dev libdnnl-dev libhdf5-dev nlohmann-json3-dev libfmt-dev catch2 zlib1g-dev
  libomp-dev  # LLVM's OpenMP runtime, which runs our parallel regions and oneDNN's (CMakeLists.txt)
  libstb-dev
  libzip-dev  # .keras archives
  libfarmhash-dev  # the Hashing layer: TensorFlow's FarmHash Fingerprint64
  libre2-dev  # TextVectorization's punctuation stripping: TensorFlow's regex engine
  ocl-icd-opencl-dev  # oneDNN's dnnl-config.cmake requires OpenCL; libdnnl-dev only recommends it
  python3-h5py python3-numpy  # tools/read_keras_h5.py, the independent reader the tests use
  libprotobuf-dev protobuf-compiler libonnx-dev  # ONNX export: protoc compiles libonnx-dev's onnx.proto
  python3-onnx  # onnx.checker, one oracle of the ONNX export tests
  dataset-fashion-mnist
  libopenmpi-dev openmpi-bin  # keras::distribute (data-parallel training over MPI) and its tests
  iproute2  # the two-namespace multi-host test (ip netns, veth)
)
# ONNX Runtime comes from npm (tools/onnx_runtime), the other oracle of the ONNX tests: Debian's Node and npm,
# unless a Node with npm is already there (NodeSource's nodejs package, for one, holds npm).
command -v npm >/dev/null || packages+=(nodejs npm)
packages+=("$@")  # extra packages a caller needs (bench/run.sh adds libtorch-dev)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "Installing missing packages: ${missing[*]}"
  sudo_cmd=""
  if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null || { echo "error: run as root to install ${missing[*]}" >&2; exit 1; }
    sudo_cmd="sudo"
  fi
  export DEBIAN_FRONTEND=noninteractive
  $sudo_cmd apt-get update -qq
  $sudo_cmd apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

# ONNX Runtime for the ONNX export tests: onnxruntime-node at the version tools/onnx_runtime/package-lock.json
# pins (its bundled libonnxruntime.so; ONNXRUNTIME_NODE_INSTALL=skip keeps its install script from
# downloading GPU libraries). Without npm, or offline, the tests skip ONNX Runtime with a warning.
onnx_runtime="$(dirname "$0")/../tools/onnx_runtime"
if [ ! -d "$onnx_runtime/node_modules/onnxruntime-node" ]; then
  if command -v npm >/dev/null; then
    (cd "$onnx_runtime" && ONNXRUNTIME_NODE_INSTALL=skip npm ci --no-audit --no-fund) ||
      echo "warning: npm ci in tools/onnx_runtime failed: the ONNX export tests will skip ONNX Runtime" >&2
  else
    echo "warning: npm is absent: the ONNX export tests will skip ONNX Runtime" >&2
  fi
fi
