#include "optimizers/lion.hpp"

#include "keras/config/fields.hpp"
#include "keras/json.hpp"
#include "keras/kernels/parallel.hpp"
#include "optimizers/optimizer_config.hpp"

namespace keras::optimizers {
namespace {
const bool registered = register_class<Optimizer, Lion>("Lion", {"lion"});
}  // namespace

KERAS_FIELDS(LionOptions, beta_1, beta_2)

Lion::Lion(LionOptions o) : Optimizer(o), options_(std::move(o)) {
  if (options_.beta_1 <= 0 || options_.beta_1 > 1)
    throw ValueError("Lion: `beta_1`=" + std::to_string(options_.beta_1) +
                     " must be between ]0, 1]. Otherwise, the optimizer degenerates to SignSGD.");
}

void Lion::update_step(const Tensor& grad, Variable& var, double lr, std::int64_t /*step*/) {
  float* m = slot(var, "m").value().data<float>();
  float* w = var.value().data<float>();
  const float* g = grad.data<float>();
  const float rate = static_cast<float>(lr);
  const float b1 = static_cast<float>(options_.beta_1), k1 = static_cast<float>(1 - options_.beta_1);
  const float b2 = static_cast<float>(options_.beta_2), k2 = static_cast<float>(1 - options_.beta_2);
  kernels::parallel_for(grad.size(), [=](std::int64_t i) {
    const float u = m[i] * b1 + g[i] * k1;
    w[i] -= rate * static_cast<float>((u > 0) - (u < 0));
    m[i] = m[i] * b2 + g[i] * k2;
  });
}

json Lion::get_config() const { return optimizer_config(*this, options_); }

std::shared_ptr<Optimizer> Lion::from_config(const json& c) { return optimizer_from_config<Lion, LionOptions>(c); }

}  // namespace keras::optimizers
