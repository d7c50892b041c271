#pragma once
// Normalization: (x - mean) / max(sqrt(variance), 1e-7) per index of the kept `axis` (default the last),
// or its inverse with invert = true. mean and variance are given, or learned by adapt() on an array or a
// Dataset (population statistics over every other axis), and then kept as the non-trainable weights
// `mean`, `variance` and `count` that tf.keras 2.x saves.
#include <optional>
#include <vector>

#include "keras/layer.hpp"

namespace keras::data {
class Dataset;
}

namespace keras::layers {

struct NormalizationOptions {
  std::optional<std::vector<int>> axis = std::vector<int>{-1};  // nullopt: Keras's None, one scalar statistic
  std::optional<std::vector<double>> mean{};                      // one value, or one per kept index
  std::optional<std::vector<double>> variance{};
  bool invert = false;
  KERAS_LAYER_OPTIONS
};

class Normalization : public Layer {
 public:
  explicit Normalization(NormalizationOptions options = {});
  void build(const Shape& input_shape) override;
  Tensor call(const Tensor& inputs, bool training) override;
  json get_config() const override;
  static std::shared_ptr<Layer> from_config(const json& config);

  /// Learns mean and variance from `data` (its first axis is the batch), replacing earlier ones.
  void adapt(const Tensor& data);
  /// The same over every batch of `dataset` (the first component of a tuple element).
  void adapt(const data::Dataset& dataset);

 private:
  // Sums over one more batch, then the weights from them.
  void accumulate(const Tensor& batch, std::vector<double>& sum, std::vector<double>& sum_sq, double& count);
  void set_statistics(const std::vector<double>& sum, const std::vector<double>& sum_sq, double count);
  // The mean and variance broadcast against an input of rank `rank`.
  std::pair<Tensor, Tensor> statistics(std::size_t rank) const;

  NormalizationOptions options_;
  std::vector<int> keep_axes_;  // sorted, non-negative; set by build
  Shape kept_shape_;
  std::shared_ptr<Variable> mean_, variance_, count_;

  KERAS_LAYER(Normalization)
};

}  // namespace keras::layers
