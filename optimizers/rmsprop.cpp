#include "optimizers/rmsprop.hpp"

#include <cmath>

#include "keras/config/fields.hpp"
#include "keras/json.hpp"
#include "keras/kernels/parallel.hpp"
#include "optimizers/optimizer_config.hpp"

namespace keras::optimizers {
namespace {

const bool registered = register_class<Optimizer, RMSprop>("RMSprop", {"rmsprop"});

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

KERAS_FIELDS(RMSpropOptions, rho, momentum, epsilon, centered)

RMSprop::RMSprop(RMSpropOptions o) : Optimizer(o), options_(std::move(o)) {
  if (options_.momentum < 0)
    throw ValueError("RMSprop: `momentum` must be >= 0, got " + std::to_string(options_.momentum));
}

void RMSprop::update_step(const Tensor& grad, Variable& var, double lr, std::int64_t /*step*/) {
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

std::vector<std::vector<Optimizer::SlotKind>> RMSprop::slot_layout() const {
  // Keras creates each kind for all variables before the next kind.
  std::vector<std::vector<SlotKind>> layout{{{"velocity"}}};
  if (options_.momentum > 0) layout.push_back({{"momentum"}});
  if (options_.centered) layout.push_back({{"average_gradient"}});
  return layout;
}

json RMSprop::get_config() const { return optimizer_config(*this, options_); }

std::shared_ptr<Optimizer> RMSprop::from_config(const json& c) {
  return optimizer_from_config<RMSprop, RMSpropOptions>(c);
}

}  // namespace keras::optimizers
