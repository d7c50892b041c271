#pragma once
// keras.random: normal, uniform, truncated_normal, randint, shuffle, dropout, categorical. Each takes a `seed`
// as Keras does: nothing (the process-wide generator, see keras::utils::set_random_seed), an integer (the same
// draw on every call) or a utils::SeedGenerator (its own stream, advancing at each call).
#include <cstdint>
#include <optional>

#include "keras/tensor.hpp"
#include "keras/utils/seed_generator.hpp"

namespace keras::random {

/// The seed argument of keras.random's functions.
class Seed {
 public:
  Seed() = default;
  Seed(std::uint64_t seed) : seed_(seed) {}
  Seed(int seed) : seed_(static_cast<std::uint64_t>(seed)) {}
  Seed(utils::SeedGenerator& generator) : generator_(&generator) {}
  std::optional<std::uint64_t> value() const { return seed_; }
  utils::SeedGenerator* generator() const { return generator_; }

 private:
  std::optional<std::uint64_t> seed_;
  utils::SeedGenerator* generator_ = nullptr;
};

/// Samples of N(mean, stddev^2).
Tensor normal(const Shape& shape, double mean = 0.0, double stddev = 1.0, DType dtype = DType::float32, Seed seed = {});
/// Samples of U[minval, maxval).
Tensor uniform(const Shape& shape, double minval = 0.0, double maxval = 1.0, DType dtype = DType::float32,
               Seed seed = {});
/// Samples of N(mean, stddev^2) redrawn until within two standard deviations of the mean.
Tensor truncated_normal(const Shape& shape, double mean = 0.0, double stddev = 1.0, DType dtype = DType::float32,
                        Seed seed = {});
/// Integers uniform in [minval, maxval).
Tensor randint(const Shape& shape, std::int64_t minval, std::int64_t maxval, DType dtype = DType::int32,
               Seed seed = {});
/// x with its entries along `axis` in a random order (differentiable for floats: the gradient is unshuffled).
Tensor shuffle(const Tensor& x, int axis = 0, Seed seed = {});
/// inputs with each entry zeroed with probability `rate` and the rest scaled by 1 / (1 - rate). A noise_shape
/// (broadcastable to the inputs' shape) shares one draw across its size-1 axes. Differentiable.
Tensor dropout(const Tensor& inputs, double rate, std::optional<Shape> noise_shape = std::nullopt, Seed seed = {});
/// For each row of logits [batch, classes] (unnormalized log-probabilities), `num_samples` class ids drawn
/// from softmax(row): [batch, num_samples] of `dtype`.
Tensor categorical(const Tensor& logits, std::int64_t num_samples, DType dtype = DType::int32, Seed seed = {});

}  // namespace keras::random
