#pragma once
// Discretization: each value to the index of its bin among `bin_boundaries` (x < b0 -> 0, b0 <= x < b1 ->
// 1, ..., as tf.bucketize), output "int" (int64, the input's shape) or "one_hot"/"multi_hot"/"count" over
// len(bin_boundaries) + 1 bins. kerascpp takes the boundaries given; adapt() (num_bins with Keras's
// approximate quantiles) is not implemented yet and says so.
#include <optional>
#include <vector>

#include "keras/layer.hpp"

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

 private:
  DiscretizationOptions options_;

  KERAS_LAYER(Discretization)
};

}  // namespace keras::layers
