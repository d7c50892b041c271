#pragma once
// idx files (the MNIST format) and the train/test split types every image dataset returns.
#include <string>

#include "keras/tensor.hpp"

namespace keras::datasets {

/// One part of a dataset: images x (uint8, (N, rows, cols)) and labels y (int32, (N,)).
struct Split {
  Tensor x;
  Tensor y;
};

/// What load_data() returns, so that `auto [train, test] = load_data();` works.
struct TrainTest {
  Split train;
  Split test;
};

/// Reads an idx file of unsigned bytes (type 0x08) with any number of dimensions, gzipped or plain.
/// Throws keras::IOError naming the file when it is missing, truncated, corrupt or of another type.
Tensor read_idx(const std::string& path);

/// Loads train-images-idx3-ubyte, train-labels-idx1-ubyte, t10k-images-idx3-ubyte and t10k-labels-idx1-ubyte
/// from dir, each as a .gz file or, when that is absent, uncompressed. Labels become int32. When files are
/// missing, the keras::IOError names dir, the missing files and then `hint` (how to get the dataset).
TrainTest load_idx_folder(const std::string& dir, const std::string& dataset_name, const std::string& hint);

}  // namespace keras::datasets
