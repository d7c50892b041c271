#pragma once
// Discretization: each value to the index of its bin among `bin_boundaries` (x < b0 -> 0, b0 <= x < b1 ->
// 1, ..., as tf.bucketize), output "int" (int64, the input's shape) or "one_hot"/"multi_hot"/"count" over
// len(bin_boundaries) + 1 bins. The boundaries are given, or learned by adapt() on an array or a Dataset:
// num_bins - 1 approximate quantiles within `epsilon`, by Keras's summary algorithm (quantile_summary.hpp).
// After adapt() the config holds both num_bins and the learned bin_boundaries, as Keras 3 writes it.
// The boundaries equal Keras's bit for bit (tested against Keras's own functions) except where values are
// tied across batches: Keras merges summaries with NumPy's unstable argsort, which orders ties in a
// NumPy-version-dependent way, kerascpp with a stable sort, and the order can move a boundary slightly.
// Like Keras's, the summary drifts over many batches: 40 batches of 500 normal values move the
// boundaries' ranks up by 0.02-0.03 at epsilon 0.01 (Keras's functions give the same numbers); adapt on
// one array stays within epsilon.
// tf.keras 2.x's `summary` weight is not read or written: the boundaries travel in the config.
#include <optional>
#include <vector>

#include "keras/layer.hpp"

namespace keras::data {
class Dataset;
}

namespace keras::layers {

struct DiscretizationOptions {
  std::optional<std::vector<double>> bin_boundaries{};
  std::optional<std::int64_t> num_bins{};
  double epsilon = 0.01;
  std::string output_mode = "int";
  bool sparse = false;
  KERAS_LAYER_OPTIONS
};

class Discretization : public Layer {
 public:
  explicit Discretization(DiscretizationOptions options = {});
  Tensor call(const Tensor& inputs, bool training) override;
  Shape compute_output_shape(const Shape& input_shape) const override;
  json get_config() const override;
  static std::shared_ptr<Layer> from_config(const json& config);

  /// Learns num_bins - 1 bin boundaries from every value of `data`, replacing earlier ones.
  void adapt(const Tensor& data);
  /// The same over every batch of `dataset` (the first component of a tuple element), each batch
  /// summarized and merged into the others as Keras does.
  void adapt(const data::Dataset& dataset);
  /// The boundaries in use (given or adapted); empty before adapt() when none were given.
  std::vector<double> bin_boundaries() const { return options_.bin_boundaries.value_or(std::vector<double>{}); }

 private:
  void check_adaptable() const;

  DiscretizationOptions options_;

  KERAS_LAYER(Discretization)
};

}  // namespace keras::layers
