// Files kerascpp saves, read by tools/read_keras_h5.py: h5py + NumPy code that knows only Keras's HDF5
// layout (checked on its own against the real Keras fixtures: 0.9122 and 0.9063 on Fashion-MNIST).
#include <cstdlib>
#include <filesystem>

#include <catch2/catch.hpp>

#include "keras/keras.hpp"
#include "temp_dir.hpp"
#include "test_paths.hpp"

using namespace keras;

namespace {

// Runs the independent reader on a saved model and compares its predictions with kerascpp's.
void check_reader_agrees(Model& model, const std::string& file, const Tensor& x, const keras_test::TempDir& dir) {
  utils::save_npy(dir / "x.npy", x);
  const std::string reader = std::string(keras_test::golden_dir) + "/../../tools/read_keras_h5.py";
  const std::string cmd = "/usr/bin/python3 " + reader + " " + file + " --predict " + dir / "x.npy " + dir / "y.npy";
  REQUIRE(std::system(cmd.c_str()) == 0);
  const Tensor theirs = utils::load_npy(dir / "y.npy");
  const Tensor ours = model.predict(x);
  REQUIRE(theirs.shape() == ours.shape());
  const auto a = theirs.to_vector<float>(), b = ours.to_vector<float>();
  for (std::size_t i = 0; i < a.size(); ++i) CHECK(a[i] == Approx(b[i]).margin(1e-5));
}

}  // namespace

TEST_CASE("a CNN kerascpp trained and saved predicts the same numbers in an independent h5py reader") {
  keras_test::TempDir dir("h5py_reader");
  utils::set_random_seed(21);
  auto model = std::make_shared<Sequential>(std::vector<LayerRef>{
      layers::Input({12, 12, 1}), layers::Conv2D(4, {3, 3}, {.padding = "same", .activation = "relu"}),
      layers::BatchNormalization(), layers::MaxPooling2D({2, 2}), layers::Conv2D(6, {3, 3}, {.strides = {2, 2}}),
      layers::Flatten(), layers::Dropout(0.3), layers::Dense(5, {.activation = "softmax"})});
  model->compile({.optimizer = "adam", .loss = "sparse_categorical_crossentropy"});
  Tensor x = Tensor::empty({16, 12, 12, 1});
  Tensor y = Tensor::empty({16}, DType::int32);
  for (int i = 0; i < x.size(); ++i) x.data<float>()[i] = float((i * 37) % 101) / 101.f;
  for (int i = 0; i < 16; ++i) y.data<std::int32_t>()[i] = i % 5;
  model->fit(x, y, {.batch_size = 8, .epochs = 2, .verbose = 0});  // moves weights and BN statistics
  model->save(dir / "cnn.h5");
  check_reader_agrees(*model, dir / "cnn.h5", x, dir);
  model->save(dir / "cnn.keras");  // Keras 3's archive: config.json and the object-path weights
  check_reader_agrees(*model, dir / "cnn.keras", x, dir);
}

TEST_CASE("a functional MLP kerascpp saved as .keras predicts the same numbers in the independent reader") {
  keras_test::TempDir dir("h5py_reader");
  utils::set_random_seed(4);
  auto in = layers::Input({6});
  auto h = layers::Dense(8, {.activation = "tanh"})(in);
  auto skip = layers::Dense(8)(in);
  auto out = layers::Dense(3, {.activation = "softmax"})(layers::Add()({h, skip}));
  auto model = std::make_shared<Model>(in, out);
  model->compile({.optimizer = "sgd", .loss = "sparse_categorical_crossentropy"});
  Tensor x = Tensor::empty({10, 6});
  Tensor y = Tensor::empty({10}, DType::int32);
  for (int i = 0; i < x.size(); ++i) x.data<float>()[i] = float((i * 13) % 17) / 17.f - 0.4f;
  for (int i = 0; i < 10; ++i) y.data<std::int32_t>()[i] = i % 3;
  model->fit(x, y, {.batch_size = 5, .epochs = 2, .verbose = 0});
  model->save(dir / "mlp.keras");
  check_reader_agrees(*model, dir / "mlp.keras", x, dir);
}
