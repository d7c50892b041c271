#!/usr/bin/env bash
# Installs the Debian 12 packages kerascpp needs to build, test and run its examples.
# Only missing packages are installed; run as root (or with sudo available).
set -euo pipefail

# Complete for a minimal Debian 12 (scripts/clean_room.sh proves it): what a package only recommends
# is not installed (--no-install-recommends), so a package whose CMake config needs it is listed here.
packages=(
  g++ cmake ninja-build pkg-config ccache
  xtensor-dev libdnnl-dev libhdf5-dev nlohmann-json3-dev libfmt-dev catch2 zlib1g-dev
  libstb-dev
  libzip-dev  # .keras archives
  libfarmhash-dev  # the Hashing layer: TensorFlow's FarmHash Fingerprint64
  ocl-icd-opencl-dev  # oneDNN's dnnl-config.cmake requires OpenCL; libdnnl-dev only recommends it
  python3-h5py python3-numpy  # tools/read_keras_h5.py, the independent reader the tests use
  dataset-fashion-mnist
)
packages+=("$@")  # extra packages a caller needs (bench/run.sh adds libtorch-dev)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi

echo "Installing missing packages: ${missing[*]}"
sudo_cmd=""
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null || { echo "error: run as root to install ${missing[*]}" >&2; exit 1; }
  sudo_cmd="sudo"
fi
export DEBIAN_FRONTEND=noninteractive
$sudo_cmd apt-get update -qq
$sudo_cmd apt-get install -y -qq --no-install-recommends "${missing[@]}"
