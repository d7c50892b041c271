#include "optimizers/adamax.hpp"

#include <algorithm>
#include <cmath>

#include "keras/json.hpp"
#include "keras/kernels/parallel.hpp"

namespace keras::optimizers {
namespace {
const bool registered = register_class<Optimizer, Adamax>("Adamax", {"adamax"});
}  // namespace

Adamax::Adamax(AdamaxOptions o) : Optimizer(o.name, o.learning_rate, common_of(o)), options_(std::move(o)) {}

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

json Adamax::get_config() const {
  json c = Optimizer::get_config();
  c["beta_1"] = options_.beta_1;
  c["beta_2"] = options_.beta_2;
  c["epsilon"] = options_.epsilon;
  return c;
}

std::shared_ptr<Optimizer> Adamax::from_config(const json& c) {
  AdamaxOptions o;
  read_common(c, o, "Adamax");
  o.beta_1 = read_number(c, "beta_1", o.beta_1, "Adamax");
  o.beta_2 = read_number(c, "beta_2", o.beta_2, "Adamax");
  o.epsilon = read_number(c, "epsilon", o.epsilon, "Adamax");
  return std::make_shared<Adamax>(std::move(o));
}

}  // namespace keras::optimizers
