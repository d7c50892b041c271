#pragma once
// Dropout: in training, zeroes a fraction `rate` of the inputs and scales the rest by 1 / (1 - rate).
#include <optional>
#include <random>

#include "keras/layer.hpp"

namespace keras::layers {

struct DropoutOptions {
  std::optional<std::uint64_t> seed{};
  KERAS_LAYER_OPTIONS
};

class Dropout : public Layer {
 public:
  explicit Dropout(double rate, DropoutOptions options = {});
  Tensor call(const Tensor& inputs, bool training) override;
  json get_config() const override;
  static std::shared_ptr<Layer> from_config(const json& config);
  double rate() const { return rate_; }

 private:
  double rate_;
  DropoutOptions options_;
  std::mt19937_64 seeded_generator_;  // used when a seed is given

  KERAS_LAYER(Dropout)
};

}  // namespace keras::layers
