// Overriding Model::predict_step (Keras's predict_step): predict and predict_on_batch run the override on
// each batch and concatenate what it returns.
#include <cmath>

#include <catch2/catch.hpp>

#include "keras/keras.hpp"

using namespace keras;

namespace {

// Returns probabilities from a model that outputs logits, as a Keras user overrides predict_step.
class ProbabilitiesOnPredict : public Sequential {
 public:
  using Sequential::Sequential;
  int calls = 0;
  std::vector<Tensor> predict_step(const std::vector<Tensor>& x) override {
    ++calls;
    return {activations::softmax(Sequential::predict_step(x)[0])};
  }
};

}  // namespace

TEST_CASE("predict and predict_on_batch run an overridden predict_step per batch") {
  backend::clear_session();
  utils::set_random_seed(5);
  ProbabilitiesOnPredict model({layers::Input({2}), layers::Dense(3)});
  const Tensor x = Tensor::from_vector(std::vector<float>{1, 2, -1, 0.5f, 0, 0, 3, -2, 1, 1}, {5, 2});
  const Tensor probs = model.predict(x, {.batch_size = 2});
  CHECK(model.calls == 3);  // batches of 2, 2 and 1
  REQUIRE(probs.shape() == Shape{5, 3});
  const Tensor logits = model(x);
  for (int i = 0; i < 5; ++i) {
    double z = 0, row = 0;
    for (int j = 0; j < 3; ++j) z += std::exp(double(logits.data<float>()[i * 3 + j]));
    for (int j = 0; j < 3; ++j) {
      CHECK(probs.data<float>()[i * 3 + j] == Approx(std::exp(double(logits.data<float>()[i * 3 + j])) / z).epsilon(1e-5));
      row += probs.data<float>()[i * 3 + j];
    }
    CHECK(row == Approx(1.0).epsilon(1e-5));
  }
  const auto on_batch = model.predict_on_batch(x);
  CHECK(model.calls == 4);
  CHECK(on_batch.data<float>()[0] == Approx(probs.data<float>()[0]));
}
