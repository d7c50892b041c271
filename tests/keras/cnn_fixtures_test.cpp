// Real Keras CNN files (../shared/fixtures/keras-h5): load them and reproduce the Fashion-MNIST test
// accuracy their README gives, to 4 decimals.
#include <filesystem>

#include <catch2/catch.hpp>

#include "keras/keras.hpp"
#include "test_paths.hpp"

using namespace keras;

namespace {
const std::string kFixtures = std::string(keras_test::shared_dir) + "/fixtures/keras-h5/";

bool available() {
  if (!std::filesystem::exists(kFixtures) || !std::filesystem::exists("/usr/share/datasets/fashion-mnist")) {
    WARN("skipped: the fixtures or Debian's dataset-fashion-mnist are absent");
    return false;
  }
  return true;
}

// The README's first-image outputs are printed to 6 decimals (the last one to 5).
void check_first_output(Model& model, const std::vector<double>& want) {
  auto data = datasets::fashion_mnist::load_data();
  Tensor x = (data.test.x.slice(0, 1) / 255.f).reshape({1, 28, 28, 1});
  auto got = model.predict(x).to_vector<float>();
  REQUIRE(got.size() == want.size());
  for (std::size_t i = 0; i < want.size(); ++i) CHECK(got[i] == Approx(want[i]).margin(1e-5));
}

double test_accuracy(Model& model) {
  auto data = datasets::fashion_mnist::load_data();
  Tensor x = (data.test.x / 255.f).reshape({-1, 28, 28, 1});
  Tensor probabilities = model.predict(x, {.batch_size = 500});
  Tensor predicted = ops::argmax(probabilities);
  std::int64_t correct = 0;
  for (std::int64_t i = 0; i < predicted.size(); ++i)
    correct += predicted.data<std::int64_t>()[i] == data.test.y.data<std::int32_t>()[i];
  return double(correct) / double(predicted.size());
}
}  // namespace

TEST_CASE("tf.keras 2.7 Fashion-MNIST CNN with BatchNormalization reproduces accuracy 0.9122") {
  if (!available()) return;
  auto model = models::load_model(kFixtures + "tf2.7_fashion_cnn_bn.h5");
  CHECK(std::round(test_accuracy(*model) * 1e4) / 1e4 == Approx(0.9122).margin(1e-9));
  check_first_output(*model, {0, .000006, .000001, .000003, .000001, .001124, 0, .015491, .000005, .98337});
  CHECK(model->optimizer().iterations() > 0);  // the SGD momentum state (legacy names) was restored
}

TEST_CASE("tf.keras 2.2.4 Fashion-MNIST CNN (no InputLayer, fixed-length strings) reproduces accuracy 0.9063") {
  if (!available()) return;
  auto model = models::load_model(kFixtures + "tf2.2.4_fashion_cnn.h5");
  CHECK(std::round(test_accuracy(*model) * 1e4) / 1e4 == Approx(0.9063).margin(1e-9));
  check_first_output(*model, {0, 0, 0, 0, 0, .00001, 0, .00001, 0, .999979});
}
