#include "datasets/mnist.hpp"

namespace keras::datasets::mnist {

TrainTest load_data(const std::string& dir) {
  return load_idx_folder(dir, "MNIST",
                         "Download the four MNIST idx files (train-images-idx3-ubyte.gz, train-labels-idx1-ubyte.gz, "
                         "t10k-images-idx3-ubyte.gz, t10k-labels-idx1-ubyte.gz) and pass the folder that holds them: "
                         "keras::datasets::mnist::load_data(\"/path/to/folder\")");
}

}  // namespace keras::datasets::mnist
