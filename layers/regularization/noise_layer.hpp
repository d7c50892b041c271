#pragma once
// NoiseLayer: the shared part of the layers that add randomness in training only (SpatialDropout*,
// GaussianNoise, GaussianDropout, AlphaDropout): an optional seed with its own generator.
#include <optional>
#include <random>

#include "keras/layer.hpp"

namespace keras::layers {

struct NoiseOptions {
  std::optional<std::uint64_t> seed{};
  Shape input_shape{};
  std::string name{};
  bool trainable = true;
};

class NoiseLayer : public Layer {
 public:
  json get_config() const override;

 protected:
  NoiseLayer(const NoiseOptions& options, const std::string& prefix);
  /// The seeded generator when a seed was given, else the global one.
  std::mt19937_64& generator();
  /// Reads name and seed from a config.
  static NoiseOptions options_from_config(const json& config);
  /// Checks a dropout rate in [0, 1).
  static void check_rate(double rate, const std::string& owner);

 private:
  std::optional<std::uint64_t> seed_;
  std::mt19937_64 seeded_;
};

}  // namespace keras::layers
