#pragma once
// keras.metrics.MeanTensor: the element-wise weighted mean of same-shaped tensors.
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "metrics/metric.hpp"

namespace keras::metrics {

struct MeanTensorOptions {
  std::string name = "mean_tensor";
  /// The values' shape; when not given it is taken from the first update.
  std::optional<Shape> shape = std::nullopt;
};

/// Keeps a weighted total and count per element; result_tensor() is total / count (0 where the count
/// is 0), shaped like the values. result() is the mean of result_tensor()'s elements (its only
/// element for scalar values).
///
///     metrics::MeanTensor m;
///     m.update(Tensor::from_vector<float>({0, 1, 2, 3}));
///     m.update(Tensor::from_vector<float>({4, 5, 6, 7}));
///     m.result_tensor();   // [2, 3, 4, 5]
class MeanTensor : public Metric {
 public:
  explicit MeanTensor(MeanTensorOptions options = {});
  /// Adds values; every update must have the shape of the first. sample_weight broadcasts as for Mean.
  void update(const Tensor& values, const Tensor& sample_weight = Tensor());
  /// Keras's `m(values, sample_weight)`: updates, then returns result_tensor().
  Tensor operator()(const Tensor& values, const Tensor& sample_weight = Tensor()) {
    update(values, sample_weight);
    return result_tensor();
  }
  /// Metric interface: averages y_pred (y_true is ignored).
  void update_state(const Tensor& /*y_true*/, const Tensor& y_pred, const Tensor& sample_weight = Tensor()) override {
    update(y_pred, sample_weight);
  }
  /// The element-wise means (float32). Throws before the first update when no shape was given.
  Tensor result_tensor() const;
  double result() const override;
  void reset_state() override;
  std::vector<double> state() const override;
  void set_state(const std::vector<double>& state) override;
  std::string class_name() const override { return "MeanTensor"; }
  /// {"name", "dtype"}, plus "shape" when it was given.
  json get_config() const override;
  static std::shared_ptr<Metric> from_config(const json& config);

 private:
  MeanTensorOptions options_;
  std::optional<Shape> shape_;
  std::vector<double> total_, count_;
};

}  // namespace keras::metrics
