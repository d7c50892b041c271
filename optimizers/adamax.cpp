#include "optimizers/adamax.hpp"

#include <algorithm>
#include <cmath>

#include "keras/config/fields.hpp"
#include "keras/json.hpp"
#include "keras/kernels/parallel.hpp"
#include "optimizers/optimizer_config.hpp"

namespace keras::optimizers {
namespace {
const bool registered = register_class<Optimizer, Adamax>("Adamax", {"adamax"});
}  // namespace

KERAS_FIELDS(AdamaxOptions, beta_1, beta_2, epsilon)

Adamax::Adamax(AdamaxOptions o) : Optimizer(o), options_(std::move(o)) {}

void Adamax::update_step(const Tensor& grad, Variable& var, double lr, std::int64_t step) {
  float* m = slot(var, "m").value().data<float>();
  float* u = slot(var, "u").value().data<float>();
  float* w = var.value().data<float>();
  const float* g = grad.data<float>();
  const float rate = static_cast<float>(lr / (1 - std::pow(options_.beta_1, static_cast<double>(step))));
  const float k1 = static_cast<float>(1 - options_.beta_1), b2 = static_cast<float>(options_.beta_2);
  const float eps = static_cast<float>(options_.epsilon);
  kernels::parallel_for(grad.size(), [=](std::int64_t i) {
    m[i] += (g[i] - m[i]) * k1;
    u[i] = std::max(b2 * u[i], std::abs(g[i]));
    w[i] -= rate * m[i] / (u[i] + eps);
  });
}

json Adamax::get_config() const { return optimizer_config(*this, options_); }

std::shared_ptr<Optimizer> Adamax::from_config(const json& c) {
  return optimizer_from_config<Adamax, AdamaxOptions>(c);
}

}  // namespace keras::optimizers
