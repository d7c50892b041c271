#pragma once
// Fashion-MNIST: 60000 training and 10000 test 28x28 images of clothing in 10 classes, labels 0..9.
#include <string>

#include "datasets/idx.hpp"

namespace keras::datasets::fashion_mnist {

/// Loads Fashion-MNIST from dir (Debian's package dataset-fashion-mnist installs it in the default folder).
/// x is uint8 (N, 28, 28), y is int32 (N,). Throws keras::IOError when files are missing or corrupt.
TrainTest load_data(const std::string& dir = "/usr/share/datasets/fashion-mnist");

}  // namespace keras::datasets::fashion_mnist
