#pragma once
// Random initializers: RandomNormal, RandomUniform, TruncatedNormal (keras.initializers), and the
// seeded fills the other random initializers share.
//
// Without a seed, values come from keras::utils::random_generator(), so set_random_seed makes
// runs reproducible. With a seed, every call returns the same values (as Keras 2 does).
#include <cstdint>
#include <optional>

#include "keras/initializers/initializer.hpp"

namespace keras::initializers {

/// Draws from N(mean, stddev^2).
Tensor random_normal(const Shape& shape, double mean, double stddev, std::optional<std::uint64_t> seed);
/// Draws from U[minval, maxval).
Tensor random_uniform(const Shape& shape, double minval, double maxval, std::optional<std::uint64_t> seed);
/// Draws from N(mean, stddev^2), redrawing values more than 2 stddev away from the mean.
Tensor truncated_normal(const Shape& shape, double mean, double stddev, std::optional<std::uint64_t> seed);

/// "seed" as Keras writes it: null or an integer.
json seed_to_config(const std::optional<std::uint64_t>& seed);
std::optional<std::uint64_t> seed_from_config(const json& config);

struct RandomNormalOptions {
  double mean = 0.0;
  double stddev = 0.05;
  std::optional<std::uint64_t> seed = std::nullopt;
};

/// N(mean, stddev^2) ("random_normal").
class RandomNormal : public Initializer {
 public:
  explicit RandomNormal(RandomNormalOptions options = {});
  Tensor operator()(const Shape& shape) const override;
  std::string class_name() const override { return "RandomNormal"; }
  json get_config() const override;
  static std::shared_ptr<Initializer> from_config(const json& config);

 private:
  RandomNormalOptions options_;
};

struct RandomUniformOptions {
  double minval = -0.05;
  double maxval = 0.05;
  std::optional<std::uint64_t> seed = std::nullopt;
};

/// U[minval, maxval) ("random_uniform").
class RandomUniform : public Initializer {
 public:
  explicit RandomUniform(RandomUniformOptions options = {});
  Tensor operator()(const Shape& shape) const override;
  std::string class_name() const override { return "RandomUniform"; }
  json get_config() const override;
  static std::shared_ptr<Initializer> from_config(const json& config);

 private:
  RandomUniformOptions options_;
};

struct TruncatedNormalOptions {
  double mean = 0.0;
  double stddev = 0.05;
  std::optional<std::uint64_t> seed = std::nullopt;
};

/// N(mean, stddev^2) without values beyond 2 stddev ("truncated_normal").
class TruncatedNormal : public Initializer {
 public:
  explicit TruncatedNormal(TruncatedNormalOptions options = {});
  Tensor operator()(const Shape& shape) const override;
  std::string class_name() const override { return "TruncatedNormal"; }
  json get_config() const override;
  static std::shared_ptr<Initializer> from_config(const json& config);

 private:
  TruncatedNormalOptions options_;
};

}  // namespace keras::initializers
