#include "datasets/fashion_mnist.hpp"

namespace keras::datasets::fashion_mnist {

TrainTest load_data(const std::string& dir) {
  return load_idx_folder(dir, "Fashion-MNIST",
                         "On Debian, the package dataset-fashion-mnist provides /usr/share/datasets/fashion-mnist "
                         "(sudo apt install dataset-fashion-mnist); otherwise pass the folder that holds the four "
                         "idx files: keras::datasets::fashion_mnist::load_data(\"/path/to/folder\")");
}

}  // namespace keras::datasets::fashion_mnist
