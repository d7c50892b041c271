#include "optimizers/nadam.hpp"

#include <cmath>

#include "keras/config/fields.hpp"
#include "keras/json.hpp"
#include "keras/kernels/parallel.hpp"
#include "optimizers/optimizer_config.hpp"

namespace keras::optimizers {
namespace {

const bool registered = register_class<Optimizer, Nadam>("Nadam", {"nadam"});

double momentum_cache(double beta_1, std::int64_t t) { return beta_1 * (1.0 - 0.5 * std::pow(0.96, double(t))); }

}  // namespace

KERAS_FIELDS(NadamOptions, beta_1, beta_2, epsilon)

Nadam::Nadam(NadamOptions o) : Optimizer(o), options_(std::move(o)) {}

double Nadam::u_product(std::int64_t step) {
  // Computed once per step and shared by every variable, as Keras caches it; recomputed from scratch
  // when the step jumps (set_iterations).
  if (step == u_product_step_) return u_product_;
  if (step == u_product_step_ + 1) {
    u_product_ *= momentum_cache(options_.beta_1, step);
  } else {
    u_product_ = 1.0;
    for (std::int64_t s = 1; s <= step; ++s) u_product_ *= momentum_cache(options_.beta_1, s);
  }
  u_product_step_ = step;
  return u_product_;
}

void Nadam::update_step(const Tensor& grad, Variable& var, double lr, std::int64_t step) {
  const double beta_1 = options_.beta_1, beta_2 = options_.beta_2;
  const double u_t = momentum_cache(beta_1, step), u_next = momentum_cache(beta_1, step + 1);
  const double prod = u_product(step), prod_next = prod * u_next;
  const float cm = static_cast<float>(lr * u_next / (1 - prod_next));
  const float cg = static_cast<float>(lr * (1 - u_t) / (1 - prod));
  const float inv_bc2 = static_cast<float>(1 / (1 - std::pow(beta_2, double(step))));
  const float k1 = static_cast<float>(1 - beta_1), k2 = static_cast<float>(1 - beta_2);
  const float eps = static_cast<float>(options_.epsilon);
  float* m = slot(var, "m").value().data<float>();
  float* v = slot(var, "v").value().data<float>();
  float* w = var.value().data<float>();
  const float* g = grad.data<float>();
  kernels::parallel_for(grad.size(), [=](std::int64_t i) {
    m[i] += (g[i] - m[i]) * k1;
    v[i] += (g[i] * g[i] - v[i]) * k2;
    w[i] -= (cm * m[i] + cg * g[i]) / (std::sqrt(v[i] * inv_bc2) + eps);
  });
}

json Nadam::get_config() const { return optimizer_config(*this, options_); }

std::shared_ptr<Optimizer> Nadam::from_config(const json& c) { return optimizer_from_config<Nadam, NadamOptions>(c); }

}  // namespace keras::optimizers
