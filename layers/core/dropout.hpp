#pragma once
// Dropout: in training, zeroes a fraction `rate` of the inputs and scales the rest by 1 / (1 - rate).
// With noise_shape, one mask of that shape is broadcast over the inputs (Keras's noise_shape: a size of
// 1 shares the mask along that axis; None, here -1, stands for the input's size).
#include <optional>
#include <vector>

#include "keras/layer.hpp"
#include "keras/utils/seed_generator.hpp"

namespace keras::layers {

struct DropoutOptions {
  std::optional<std::uint64_t> seed{};
  /// One size per input axis, -1 for None (the input's size); unset: a mask as large as the input.
  std::optional<Shape> noise_shape{};
  KERAS_LAYER_OPTIONS
};

class Dropout : public Layer {
 public:
  explicit Dropout(double rate, DropoutOptions options = {});
  Tensor call(const Tensor& inputs, bool training) override;
  json get_config() const override;
  static std::shared_ptr<Layer> from_config(const json& config);
  double rate() const { return rate_; }
  const std::optional<Shape>& noise_shape() const { return options_.noise_shape; }

 private:
  /// The mask's shape for inputs of `shape` (noise_shape resolved against it, checked).
  Shape mask_shape(const Shape& shape) const;

  double rate_;
  DropoutOptions options_;
  utils::SeedGenerator seed_generator_;

  KERAS_LAYER(Dropout)
};

}  // namespace keras::layers
