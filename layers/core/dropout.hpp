#pragma once
// Dropout: in training, zeroes a fraction `rate` of the inputs and scales the rest by 1 / (1 - rate).
#include <optional>

#include "keras/layer.hpp"
#include "keras/utils/seed_generator.hpp"

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
  utils::SeedGenerator seed_generator_;

  KERAS_LAYER(Dropout)
};

}  // namespace keras::layers
