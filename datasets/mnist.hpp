#pragma once
// The MNIST handwritten digits: 60000 training and 10000 test images of 28x28 pixels, labels 0..9.
#include <string>

#include "datasets/idx.hpp"

namespace keras::datasets::mnist {

/// Loads MNIST from the folder holding train-images-idx3-ubyte.gz, train-labels-idx1-ubyte.gz,
/// t10k-images-idx3-ubyte.gz and t10k-labels-idx1-ubyte.gz (or the same files uncompressed).
/// x is uint8 (N, 28, 28), y is int32 (N,). Throws keras::IOError when files are missing or corrupt.
TrainTest load_data(const std::string& dir = "/usr/share/datasets/mnist");

}  // namespace keras::datasets::mnist
