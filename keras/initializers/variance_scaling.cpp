#include "keras/initializers/variance_scaling.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>

#include "keras/config/codec.hpp"
#include "keras/initializers/random.hpp"
#include "keras/json.hpp"

namespace keras::initializers {
namespace {

const bool registered =
    register_class<Initializer, VarianceScaling>("VarianceScaling", {"variance_scaling"}) &&
    register_class<Initializer, GlorotUniform>("GlorotUniform", {"glorot_uniform"}) &&
    register_class<Initializer, GlorotNormal>("GlorotNormal", {"glorot_normal"}) &&
    register_class<Initializer, HeUniform>("HeUniform", {"he_uniform"}) &&
    register_class<Initializer, HeNormal>("HeNormal", {"he_normal"}) &&
    register_class<Initializer, LecunUniform>("LecunUniform", {"lecun_uniform"}) &&
    register_class<Initializer, LecunNormal>("LecunNormal", {"lecun_normal"});

// The stddev of a standard normal truncated to [-2, 2].
constexpr double kTruncatedStddev = 0.87962566103423978;

VarianceScalingOptions preset(double scale, const char* mode, const char* distribution,
                              std::optional<std::uint64_t> seed) {
  return {.scale = scale, .mode = mode, .distribution = distribution, .seed = seed};
}

}  // namespace

VarianceScaling::VarianceScaling(VarianceScalingOptions options) : options_(std::move(options)) {
  if (!(options_.scale > 0))
    throw ValueError("VarianceScaling: `scale` must be a positive float, got " + std::to_string(options_.scale));
  std::string& d = options_.distribution;
  std::transform(d.begin(), d.end(), d.begin(), [](unsigned char ch) { return char(std::tolower(ch)); });
  if (d == "normal") d = "truncated_normal";  // Keras's historical alias
  if (options_.mode != "fan_in" && options_.mode != "fan_out" && options_.mode != "fan_avg")
    throw ValueError("VarianceScaling: invalid `mode` '" + options_.mode +
                     "'; use one of \"fan_in\", \"fan_out\", \"fan_avg\"");
  if (d != "truncated_normal" && d != "untruncated_normal" && d != "uniform")
    throw ValueError("VarianceScaling: invalid `distribution` '" + d +
                     "'; use one of \"truncated_normal\", \"untruncated_normal\", \"uniform\"");
}

Tensor VarianceScaling::operator()(const Shape& shape) const {
  const auto [fan_in, fan_out] = compute_fans(shape);
  double n = fan_in;
  if (options_.mode == "fan_out") n = fan_out;
  if (options_.mode == "fan_avg") n = (fan_in + fan_out) / 2.0;
  const double scale = options_.scale / std::max(1.0, n);
  if (options_.distribution == "truncated_normal")
    return truncated_normal(shape, 0.0, std::sqrt(scale) / kTruncatedStddev, options_.seed);
  if (options_.distribution == "untruncated_normal") return random_normal(shape, 0.0, std::sqrt(scale), options_.seed);
  const double limit = std::sqrt(3.0 * scale);
  return random_uniform(shape, -limit, limit, options_.seed);
}

json VarianceScaling::get_config() const {
  return {{"scale", options_.scale},
          {"mode", options_.mode},
          {"distribution", options_.distribution},
          {"seed", seed_to_config(options_.seed)}};
}

std::shared_ptr<Initializer> VarianceScaling::from_config(const json& c) {
  const VarianceScalingOptions d;
  auto text = [&](const char* key, const std::string& fallback) {
    if (!c.contains(key) || c[key].is_null()) return fallback;
    if (!c[key].is_string())
      throw ValueError(std::string("VarianceScaling config: '") + key + "' must be a string, got " + c[key].dump());
    return c[key].get<std::string>();
  };
  if (c.contains("scale") && !c["scale"].is_number())
    throw ValueError("VarianceScaling config: 'scale' must be a number, got " + c["scale"].dump());
  return std::make_shared<VarianceScaling>(VarianceScalingOptions{
      .scale = config::value_or(c, "scale", d.scale),
      .mode = text("mode", d.mode),
      .distribution = text("distribution", d.distribution),
      .seed = seed_from_config(c),
  });
}

GlorotUniform::GlorotUniform(GlorotUniformOptions o) : VarianceScaling(preset(1.0, "fan_avg", "uniform", o.seed)) {}
json GlorotUniform::get_config() const { return {{"seed", seed_to_config(options().seed)}}; }
std::shared_ptr<Initializer> GlorotUniform::from_config(const json& c) {
  return std::make_shared<GlorotUniform>(GlorotUniformOptions{.seed = seed_from_config(c)});
}

GlorotNormal::GlorotNormal(GlorotNormalOptions o)
    : VarianceScaling(preset(1.0, "fan_avg", "truncated_normal", o.seed)) {}
json GlorotNormal::get_config() const { return {{"seed", seed_to_config(options().seed)}}; }
std::shared_ptr<Initializer> GlorotNormal::from_config(const json& c) {
  return std::make_shared<GlorotNormal>(GlorotNormalOptions{.seed = seed_from_config(c)});
}

HeUniform::HeUniform(HeUniformOptions o) : VarianceScaling(preset(2.0, "fan_in", "uniform", o.seed)) {}
json HeUniform::get_config() const { return {{"seed", seed_to_config(options().seed)}}; }
std::shared_ptr<Initializer> HeUniform::from_config(const json& c) {
  return std::make_shared<HeUniform>(HeUniformOptions{.seed = seed_from_config(c)});
}

HeNormal::HeNormal(HeNormalOptions o) : VarianceScaling(preset(2.0, "fan_in", "truncated_normal", o.seed)) {}
json HeNormal::get_config() const { return {{"seed", seed_to_config(options().seed)}}; }
std::shared_ptr<Initializer> HeNormal::from_config(const json& c) {
  return std::make_shared<HeNormal>(HeNormalOptions{.seed = seed_from_config(c)});
}

LecunUniform::LecunUniform(LecunUniformOptions o) : VarianceScaling(preset(1.0, "fan_in", "uniform", o.seed)) {}
json LecunUniform::get_config() const { return {{"seed", seed_to_config(options().seed)}}; }
std::shared_ptr<Initializer> LecunUniform::from_config(const json& c) {
  return std::make_shared<LecunUniform>(LecunUniformOptions{.seed = seed_from_config(c)});
}

LecunNormal::LecunNormal(LecunNormalOptions o) : VarianceScaling(preset(1.0, "fan_in", "truncated_normal", o.seed)) {}
json LecunNormal::get_config() const { return {{"seed", seed_to_config(options().seed)}}; }
std::shared_ptr<Initializer> LecunNormal::from_config(const json& c) {
  return std::make_shared<LecunNormal>(LecunNormalOptions{.seed = seed_from_config(c)});
}

}  // namespace keras::initializers
