// Metric::state() / set_state(): the accumulators add up, so the sum of two metrics' states (each updated
// on part of the data) gives the result of one metric updated on all of it — what the data-parallel
// trainer relies on to log precision, AUC or IoU over all replicas exactly.
#include <catch2/catch.hpp>

#include <functional>
#include <memory>

#include "gradient_check.hpp"
#include "keras/keras.hpp"
#include "metrics/metrics.hpp"

using namespace keras;
using keras::testing::random_tensor;

namespace {

struct Case {
  std::string what;
  std::function<std::shared_ptr<metrics::Metric>()> make;
  Tensor y_true, y_pred;
};

std::vector<double> sum(const std::vector<double>& a, const std::vector<double>& b) {
  REQUIRE(a.size() == b.size());
  std::vector<double> out(a.size());
  for (std::size_t i = 0; i < a.size(); ++i) out[i] = a[i] + b[i];
  return out;
}

}  // namespace

TEST_CASE("the sum of two metrics' states gives the metric of both parts of the data") {
  const std::int64_t n = 37;
  const Tensor probabilities = random_tensor({n, 1}, 0.f, 1.f, 1);
  const Tensor binary = ops::cast(ops::greater(random_tensor({n, 1}, 0.f, 1.f, 2), Tensor::scalar(0.4f)), DType::float32);
  const Tensor scores = random_tensor({n, 3}, 0.f, 1.f, 3);
  const Tensor one_hot = ops::one_hot(ops::cast(random_tensor({n}, 0.f, 2.99f, 4), DType::int32), 3);
  const Tensor classes = ops::cast(random_tensor({n}, 0.f, 2.99f, 5), DType::float32);
  const Tensor predicted = ops::cast(random_tensor({n}, 0.f, 2.99f, 6), DType::float32);
  const Tensor targets = random_tensor({n, 2}, -1.f, 1.f, 7), outputs = random_tensor({n, 2}, -1.f, 1.f, 8);
  const std::vector<Case> cases = {
      {"Mean", [] { return std::make_shared<metrics::Mean>(); }, binary, probabilities},
      {"Sum", [] { return std::make_shared<metrics::Sum>(); }, binary, probabilities},
      {"BinaryAccuracy", [] { return metrics::Metric::get("binary_accuracy"); }, binary, probabilities},
      {"RootMeanSquaredError", [] { return std::make_shared<metrics::RootMeanSquaredError>(); }, targets, outputs},
      {"Precision", [] { return std::make_shared<metrics::Precision>(); }, binary, probabilities},
      {"Recall", [] { return std::make_shared<metrics::Recall>(); }, binary, probabilities},
      {"AUC", [] { return std::make_shared<metrics::AUC>(); }, binary, probabilities},
      {"TruePositives", [] { return std::make_shared<metrics::TruePositives>(); }, binary, probabilities},
      {"SensitivityAtSpecificity", [] { return std::make_shared<metrics::SensitivityAtSpecificity>(0.5); }, binary,
       probabilities},
      {"F1Score", [] { return std::make_shared<metrics::F1Score>(metrics::F1ScoreOptions{.average = "macro"}); },
       one_hot, scores},
      {"MeanIoU", [] { return std::make_shared<metrics::MeanIoU>(3); }, classes, predicted},
      {"R2Score", [] { return std::make_shared<metrics::R2Score>(); }, targets, outputs},
  };
  const std::int64_t split = 12;  // unequal parts: averaging the two results would not do
  for (const auto& c : cases) {
    INFO(c.what);
    auto whole = c.make(), first = c.make(), second = c.make(), summed = c.make();
    whole->update_state(c.y_true, c.y_pred);
    first->update_state(c.y_true.slice(0, split), c.y_pred.slice(0, split));
    second->update_state(c.y_true.slice(split, n), c.y_pred.slice(split, n));
    summed->update_state(c.y_true.slice(0, 1), c.y_pred.slice(0, 1));  // built, with other counts
    REQUIRE_FALSE(first->state().empty());
    summed->set_state(sum(first->state(), second->state()));
    CHECK(summed->result() == Approx(whole->result()).epsilon(1e-12).margin(1e-12));
    const double part = first->result();  // set_state(state()) restores exactly
    first->set_state(first->state());
    CHECK(first->result() == part);
  }
}

TEST_CASE("MeanTensor's state adds up over updates of one shape") {
  const Tensor a = random_tensor({4, 3}, -1.f, 1.f, 1), b = random_tensor({4, 3}, -1.f, 1.f, 2);
  metrics::MeanTensor whole, first, second;
  whole.update(a);
  whole.update(b);
  first.update(a);
  second.update(b);
  std::vector<double> summed = first.state();
  const auto other = second.state();
  for (std::size_t i = 0; i < summed.size(); ++i) summed[i] += other[i];
  first.set_state(summed);
  CHECK(ops::max(ops::abs(first.result_tensor() - whole.result_tensor())).item() < 1e-7);
}

TEST_CASE("set_state with the wrong number of values is refused, naming the metric") {
  metrics::Precision precision({.thresholds = {0.3, 0.6}, .name = "p2"});
  CHECK_THROWS_WITH(precision.set_state({1, 2, 3}), Catch::Contains("'p2'") && Catch::Contains("3 values"));
  metrics::Mean mean;
  CHECK_THROWS_AS(mean.set_state({1}), ValueError);
}
