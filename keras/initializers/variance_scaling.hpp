#pragma once
// VarianceScaling and its named presets: Glorot (Xavier), He and LeCun, uniform and normal.
#include <cstdint>
#include <optional>
#include <string>

#include "keras/initializers/initializer.hpp"

namespace keras::initializers {

struct VarianceScalingOptions {
  double scale = 1.0;                            // > 0
  std::string mode = "fan_in";                   // "fan_in", "fan_out" or "fan_avg"
  std::string distribution = "truncated_normal"; // "truncated_normal", "untruncated_normal" or "uniform"
  std::optional<std::uint64_t> seed = std::nullopt;
};

/// Draws with variance scale / n, n being fan_in, fan_out or their average ("variance_scaling"):
/// truncated_normal uses stddev sqrt(scale / n) / 0.8796 (the stddev of N(0, 1) cut at ±2),
/// untruncated_normal stddev sqrt(scale / n), uniform the limits ±sqrt(3 scale / n).
class VarianceScaling : public Initializer {
 public:
  explicit VarianceScaling(VarianceScalingOptions options = {});
  const VarianceScalingOptions& options() const { return options_; }

  Tensor operator()(const Shape& shape) const override;
  std::string class_name() const override { return "VarianceScaling"; }
  json get_config() const override;
  static std::shared_ptr<Initializer> from_config(const json& config);

 private:
  VarianceScalingOptions options_;
};

/// The presets take a seed only (Keras's config is {"seed": ...}).
struct VarianceScalingPresetOptions {
  std::optional<std::uint64_t> seed = std::nullopt;
};
using GlorotUniformOptions = VarianceScalingPresetOptions;
using GlorotNormalOptions = VarianceScalingPresetOptions;
using HeUniformOptions = VarianceScalingPresetOptions;
using HeNormalOptions = VarianceScalingPresetOptions;
using LecunUniformOptions = VarianceScalingPresetOptions;
using LecunNormalOptions = VarianceScalingPresetOptions;

/// Uniform in ±sqrt(6 / (fan_in + fan_out)) ("glorot_uniform").
class GlorotUniform : public VarianceScaling {
 public:
  explicit GlorotUniform(GlorotUniformOptions options = {});
  std::string class_name() const override { return "GlorotUniform"; }
  json get_config() const override;
  static std::shared_ptr<Initializer> from_config(const json& config);
};

/// Truncated normal with stddev sqrt(2 / (fan_in + fan_out)) ("glorot_normal").
class GlorotNormal : public VarianceScaling {
 public:
  explicit GlorotNormal(GlorotNormalOptions options = {});
  std::string class_name() const override { return "GlorotNormal"; }
  json get_config() const override;
  static std::shared_ptr<Initializer> from_config(const json& config);
};

/// Uniform in ±sqrt(6 / fan_in) ("he_uniform").
class HeUniform : public VarianceScaling {
 public:
  explicit HeUniform(HeUniformOptions options = {});
  std::string class_name() const override { return "HeUniform"; }
  json get_config() const override;
  static std::shared_ptr<Initializer> from_config(const json& config);
};

/// Truncated normal with stddev sqrt(2 / fan_in) ("he_normal").
class HeNormal : public VarianceScaling {
 public:
  explicit HeNormal(HeNormalOptions options = {});
  std::string class_name() const override { return "HeNormal"; }
  json get_config() const override;
  static std::shared_ptr<Initializer> from_config(const json& config);
};

/// Uniform in ±sqrt(3 / fan_in) ("lecun_uniform").
class LecunUniform : public VarianceScaling {
 public:
  explicit LecunUniform(LecunUniformOptions options = {});
  std::string class_name() const override { return "LecunUniform"; }
  json get_config() const override;
  static std::shared_ptr<Initializer> from_config(const json& config);
};

/// Truncated normal with stddev sqrt(1 / fan_in) ("lecun_normal").
class LecunNormal : public VarianceScaling {
 public:
  explicit LecunNormal(LecunNormalOptions options = {});
  std::string class_name() const override { return "LecunNormal"; }
  json get_config() const override;
  static std::shared_ptr<Initializer> from_config(const json& config);
};

}  // namespace keras::initializers
