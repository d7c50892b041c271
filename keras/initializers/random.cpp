#include "keras/initializers/random.hpp"

#include <algorithm>
#include <cmath>
#include <random>

#include "keras/json.hpp"
#include "keras/kernels/parallel.hpp"
#include "keras/utils/random.hpp"

namespace keras::initializers {
namespace {

const bool registered = register_class<Initializer, RandomNormal>("RandomNormal", {"random_normal", "normal"}) &&
                        register_class<Initializer, RandomUniform>("RandomUniform", {"random_uniform", "uniform"}) &&
                        register_class<Initializer, TruncatedNormal>("TruncatedNormal", {"truncated_normal"});

// Elements are drawn in fixed chunks, each from its own generator seeded by (base seed, chunk index),
// so large tensors fill in parallel and the values do not depend on the number of threads.
constexpr std::int64_t kChunk = 1 << 16;

template <class Draw>  // double draw(std::mt19937_64&, std::normal_distribution<double>&)
Tensor fill(const Shape& shape, std::optional<std::uint64_t> seed, Draw draw) {
  Tensor out = Tensor::empty(shape);
  const std::int64_t n = out.size();
  if (n == 0) return out;
  float* p = out.data<float>();
  const std::uint64_t base = seed ? *seed : utils::random_generator()();
  const std::int64_t chunks = (n + kChunk - 1) / kChunk;
  kernels::parallel_rows(chunks, kChunk, [&](std::int64_t c) {
    std::seed_seq seq{std::uint32_t(base), std::uint32_t(base >> 32), std::uint32_t(c), std::uint32_t(c >> 32)};
    std::mt19937_64 gen(seq);
    std::normal_distribution<double> normal;
    const std::int64_t end = std::min(n, (c + 1) * kChunk);
    for (std::int64_t i = c * kChunk; i < end; ++i) p[i] = static_cast<float>(draw(gen, normal));
  });
  return out;
}

double number(const json& c, const char* key, double fallback) {
  if (!c.contains(key) || c[key].is_null()) return fallback;
  if (!c[key].is_number())
    throw ValueError(std::string("Initializer config: '") + key + "' must be a number, got " + c[key].dump());
  return c[key].get<double>();
}

void check_stddev(const char* cls, double stddev) {
  if (!(stddev >= 0))
    throw ValueError(std::string(cls) + ": `stddev` must be >= 0, got " + std::to_string(stddev));
}

}  // namespace

Tensor random_normal(const Shape& shape, double mean, double stddev, std::optional<std::uint64_t> seed) {
  return fill(shape, seed, [=](std::mt19937_64& gen, std::normal_distribution<double>& normal) {
    return mean + stddev * normal(gen);
  });
}

Tensor random_uniform(const Shape& shape, double minval, double maxval, std::optional<std::uint64_t> seed) {
  const float hi = static_cast<float>(maxval), lo = static_cast<float>(minval);
  return fill(shape, seed, [=](std::mt19937_64& gen, std::normal_distribution<double>&) {
    const double u = std::generate_canonical<double, 53>(gen);
    const float x = static_cast<float>(minval + (maxval - minval) * u);
    return x < hi ? x : std::max(lo, std::nextafter(hi, lo));  // keep the upper bound open after rounding
  });
}

Tensor truncated_normal(const Shape& shape, double mean, double stddev, std::optional<std::uint64_t> seed) {
  return fill(shape, seed, [=](std::mt19937_64& gen, std::normal_distribution<double>& normal) {
    double z = normal(gen);
    while (std::abs(z) > 2.0) z = normal(gen);
    return mean + stddev * z;
  });
}

json seed_to_config(const std::optional<std::uint64_t>& seed) { return seed ? json(*seed) : json(nullptr); }

std::optional<std::uint64_t> seed_from_config(const json& c) {
  if (!c.contains("seed") || c["seed"].is_null()) return std::nullopt;
  const json& s = c["seed"];
  if (s.is_number_unsigned()) return s.get<std::uint64_t>();
  if (s.is_number_integer()) return static_cast<std::uint64_t>(s.get<std::int64_t>());
  throw ValueError("Initializer config: 'seed' must be null or an integer, got " + s.dump());
}

RandomNormal::RandomNormal(RandomNormalOptions options) : options_(options) {
  check_stddev("RandomNormal", options_.stddev);
}

Tensor RandomNormal::operator()(const Shape& shape) const {
  return random_normal(shape, options_.mean, options_.stddev, options_.seed);
}

json RandomNormal::get_config() const {
  return {{"mean", options_.mean}, {"stddev", options_.stddev}, {"seed", seed_to_config(options_.seed)}};
}

std::shared_ptr<Initializer> RandomNormal::from_config(const json& c) {
  const RandomNormalOptions d;
  return std::make_shared<RandomNormal>(RandomNormalOptions{
      .mean = number(c, "mean", d.mean), .stddev = number(c, "stddev", d.stddev), .seed = seed_from_config(c)});
}

RandomUniform::RandomUniform(RandomUniformOptions options) : options_(options) {
  if (!(options_.minval <= options_.maxval))
    throw ValueError("RandomUniform: `minval` (" + std::to_string(options_.minval) + ") must not exceed `maxval` (" +
                     std::to_string(options_.maxval) + ")");
}

Tensor RandomUniform::operator()(const Shape& shape) const {
  return random_uniform(shape, options_.minval, options_.maxval, options_.seed);
}

json RandomUniform::get_config() const {
  return {{"minval", options_.minval}, {"maxval", options_.maxval}, {"seed", seed_to_config(options_.seed)}};
}

std::shared_ptr<Initializer> RandomUniform::from_config(const json& c) {
  const RandomUniformOptions d;
  return std::make_shared<RandomUniform>(RandomUniformOptions{
      .minval = number(c, "minval", d.minval), .maxval = number(c, "maxval", d.maxval), .seed = seed_from_config(c)});
}

TruncatedNormal::TruncatedNormal(TruncatedNormalOptions options) : options_(options) {
  check_stddev("TruncatedNormal", options_.stddev);
}

Tensor TruncatedNormal::operator()(const Shape& shape) const {
  return truncated_normal(shape, options_.mean, options_.stddev, options_.seed);
}

json TruncatedNormal::get_config() const {
  return {{"mean", options_.mean}, {"stddev", options_.stddev}, {"seed", seed_to_config(options_.seed)}};
}

std::shared_ptr<Initializer> TruncatedNormal::from_config(const json& c) {
  const TruncatedNormalOptions d;
  return std::make_shared<TruncatedNormal>(TruncatedNormalOptions{
      .mean = number(c, "mean", d.mean), .stddev = number(c, "stddev", d.stddev), .seed = seed_from_config(c)});
}

}  // namespace keras::initializers
