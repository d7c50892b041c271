#include "optimizers/rmsprop.hpp"

#include <cmath>

#include "keras/kernels/parallel.hpp"

namespace keras::optimizers {
namespace {

const bool registered = register_class<Optimizer, RMSprop>("RMSprop", {"rmsprop"});

// Keras config readers: a missing or null key keeps the default; legacy "lr" is accepted.
double read(const json& c, const char* key, double fallback) {
  if (!c.contains(key) || c[key].is_null()) return fallback;
  if (!c[key].is_number())
    throw ValueError(std::string("RMSprop config: '") + key + "' must be a number, got " + c[key].dump() +
                     (c[key].is_object() ? " (learning-rate schedules are not supported; pass a float)" : ""));
  return c[key].get<double>();
}

void check_supported(const json& c) {
  if (read(c, "weight_decay", 0) != 0 || read(c, "decay", 0) != 0 || c.value("use_ema", false))
    throw ValueError(
        "RMSprop config: weight_decay, decay and use_ema are not supported by kerascpp; remove them from " + c.dump());
}

// One pass over the elements; the variant is chosen at compile time so the loop stays branch-free.
template <bool kCentered, bool kMomentum>
void rmsprop_pass(std::int64_t n, const float* g, float* w, float* vel, float* avg, float* mom, float rate,
                  float rho, float momentum, float eps) {
  const float k = 1 - rho;
  kernels::parallel_for(n, [=](std::int64_t i) {
    vel[i] = rho * vel[i] + k * g[i] * g[i];
    float denom;
    if constexpr (kCentered) {
      avg[i] = rho * avg[i] + k * g[i];
      denom = vel[i] - avg[i] * avg[i] + eps;
    } else {
      denom = vel[i] + eps;
    }
    const float increment = rate * g[i] / std::sqrt(denom);
    if constexpr (kMomentum) {
      mom[i] = momentum * mom[i] + increment;
      w[i] -= mom[i];
    } else {
      w[i] -= increment;
    }
  });
}

}  // namespace

RMSprop::RMSprop(RMSpropOptions o)
    : Optimizer(o.name, o.learning_rate,
                {.clipnorm = o.clipnorm, .clipvalue = o.clipvalue, .global_clipnorm = o.global_clipnorm}),
      options_(std::move(o)) {
  if (options_.momentum < 0)
    throw ValueError("RMSprop: `momentum` must be >= 0, got " + std::to_string(options_.momentum));
}

void RMSprop::update_step(const Tensor& grad, Variable& var, double lr, std::int64_t /*step*/) {
  if (grad.dtype() != DType::float32 || var.value().dtype() != DType::float32)
    throw ValueError("RMSprop: variable '" + var.name() + "' and its gradient must be float32");
  float* vel = slot(var, "velocity").value().data<float>();
  const bool use_momentum = options_.momentum > 0;
  float* mom = use_momentum ? slot(var, "momentum").value().data<float>() : nullptr;
  float* avg = options_.centered ? slot(var, "average_gradient").value().data<float>() : nullptr;
  float* w = var.value().data<float>();
  const float* g = grad.data<float>();
  const std::int64_t n = grad.size();
  const float rate = static_cast<float>(lr), rho = static_cast<float>(options_.rho);
  const float mu = static_cast<float>(options_.momentum), eps = static_cast<float>(options_.epsilon);
  if (options_.centered && use_momentum)
    rmsprop_pass<true, true>(n, g, w, vel, avg, mom, rate, rho, mu, eps);
  else if (options_.centered)
    rmsprop_pass<true, false>(n, g, w, vel, avg, mom, rate, rho, mu, eps);
  else if (use_momentum)
    rmsprop_pass<false, true>(n, g, w, vel, avg, mom, rate, rho, mu, eps);
  else
    rmsprop_pass<false, false>(n, g, w, vel, avg, mom, rate, rho, mu, eps);
}

json RMSprop::get_config() const {
  json c = Optimizer::get_config();
  c["rho"] = options_.rho;
  c["momentum"] = options_.momentum;
  c["epsilon"] = options_.epsilon;
  c["centered"] = options_.centered;
  return c;
}

std::shared_ptr<Optimizer> RMSprop::from_config(const json& c) {
  check_supported(c);
  const CommonOptions common = common_from_config(c);
  const RMSpropOptions d;
  return std::make_shared<RMSprop>(RMSpropOptions{
      .learning_rate = read(c, "learning_rate", read(c, "lr", d.learning_rate)),
      .rho = read(c, "rho", d.rho),
      .momentum = read(c, "momentum", d.momentum),
      .epsilon = read(c, "epsilon", d.epsilon),
      .centered = c.contains("centered") && !c["centered"].is_null() ? c["centered"].get<bool>() : d.centered,
      .clipnorm = common.clipnorm,
      .clipvalue = common.clipvalue,
      .global_clipnorm = common.global_clipnorm,
      .name = c.contains("name") && c["name"].is_string() ? c["name"].get<std::string>() : d.name,
  });
}

}  // namespace keras::optimizers
