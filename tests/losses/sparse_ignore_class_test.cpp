// SparseCategoricalCrossentropy(ignore_class): ignored rows add nothing and the mean is over the other rows,
// as Keras defines it (expected values from std::exp/std::log here).
#include <cmath>

#include <catch2/catch.hpp>

#include "keras/json.hpp"
#include "keras/keras.hpp"

using namespace keras;

namespace {
const std::vector<float> logit_values{2.f, 0.5f, -1.f, 0.1f, 0.2f, 0.3f, -0.5f, 1.5f, 0.25f};
double row_loss(int row, int label) {
  double z = 0;
  for (int j = 0; j < 3; ++j) z += std::exp(double(logit_values[row * 3 + j]));
  return std::log(z) - logit_values[row * 3 + label];
}
}  // namespace

TEST_CASE("SparseCategoricalCrossentropy(ignore_class): the mean over the rows whose label is kept") {
  const Tensor logits = Tensor::from_vector(logit_values, {3, 3});
  const Tensor labels = Tensor::from_vector(std::vector<std::int32_t>{0, -1, 1});
  losses::SparseCategoricalCrossentropy loss({.from_logits = true, .ignore_class = -1});
  const double l0 = row_loss(0, 0), l2 = row_loss(2, 1);
  CHECK(loss(labels, logits).item() == Approx((l0 + l2) / 2).margin(1e-5));
  const Tensor w = Tensor::from_vector(std::vector<float>{2.f, 7.f, 0.5f});
  CHECK(loss(labels, logits, w).item() == Approx((2 * l0 + 0.5 * l2) / 2).margin(1e-5));
  losses::SparseCategoricalCrossentropy summed({.from_logits = true, .ignore_class = -1, .reduction = losses::Reduction::sum});
  CHECK(summed(labels, logits).item() == Approx(l0 + l2).margin(1e-5));
  const Tensor per_sample = losses::sparse_categorical_crossentropy(labels, logits, true, -1);
  CHECK(per_sample.data<float>()[1] == 0.f);
  CHECK(per_sample.data<float>()[2] == Approx(l2).margin(1e-5));

  // An ignored class may also be a real class id (e.g. a "void" label 2).
  losses::SparseCategoricalCrossentropy ignore_two({.from_logits = true, .ignore_class = 2});
  const Tensor with_two = Tensor::from_vector(std::vector<std::int32_t>{2, 0, 1});
  CHECK(ignore_two(with_two, logits).item() == Approx((row_loss(1, 0) + row_loss(2, 1)) / 2).margin(1e-5));
}

TEST_CASE("SparseCategoricalCrossentropy(ignore_class): no gradient reaches ignored rows - config round trip") {
  Tensor logits = Tensor::from_vector(logit_values, {3, 3});
  const Tensor labels = Tensor::from_vector(std::vector<std::int32_t>{0, -1, 1});
  losses::SparseCategoricalCrossentropy loss({.from_logits = true, .ignore_class = -1});
  GradientTape tape;
  tape.watch(logits);
  const Tensor value = loss(labels, logits);
  const Tensor g = tape.gradient(value, logits);
  for (int j = 0; j < 3; ++j) CHECK(g.data<float>()[3 + j] == 0.f);
  // Kept rows: (softmax - onehot) / 2 valid rows.
  double z = 0;
  for (int j = 0; j < 3; ++j) z += std::exp(double(logit_values[j]));
  CHECK(g.data<float>()[0] == Approx((std::exp(2.0) / z - 1) / 2).margin(1e-5));

  const json c = loss.get_config();
  CHECK(c["ignore_class"] == -1);
  auto again = losses::Loss::deserialize(losses::serialize(loss));
  CHECK(again->get_config() == c);
  CHECK(losses::SparseCategoricalCrossentropy().get_config()["ignore_class"].is_null());
}
