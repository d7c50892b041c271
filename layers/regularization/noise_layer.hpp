#pragma once
// NoiseLayer: the shared part of the layers that add randomness in training only (SpatialDropout*,
// GaussianNoise, GaussianDropout, AlphaDropout): an optional seed with its own generator.
#include <optional>

#include "keras/layer.hpp"
#include "keras/utils/seed_generator.hpp"

namespace keras::layers {

struct NoiseOptions {
  std::optional<std::uint64_t> seed{};
  KERAS_LAYER_OPTIONS
};

class NoiseLayer : public Layer {
 public:
  /// The base fields and the seed; subclasses add their rate or stddev.
  json get_config() const override;

 protected:
  NoiseLayer(const NoiseOptions& options, const std::string& prefix);
  /// The seeded generator when a seed was given, else the global one.
  utils::SeedGenerator& generator() { return seed_generator_; }
  /// The options a config gives (the field list is in noise_layer.cpp).
  static NoiseOptions options_from_config(const json& config);
  /// Checks a dropout rate in [0, 1).
  static void check_rate(double rate, const std::string& owner);

 private:
  NoiseOptions options_;
  utils::SeedGenerator seed_generator_;
};

}  // namespace keras::layers
