#!/usr/bin/env bash
# Installs what is missing, builds, and trains the Fashion-MNIST MLP example.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install_deps.sh
scripts/build.sh
build/bin/fashion_mnist_mlp
