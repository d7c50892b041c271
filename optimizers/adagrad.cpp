#include "optimizers/adagrad.hpp"

#include <cmath>

#include "keras/config/fields.hpp"
#include "keras/json.hpp"
#include "keras/kernels/parallel.hpp"
#include "optimizers/optimizer_config.hpp"

namespace keras::optimizers {
namespace {
const bool registered = register_class<Optimizer, Adagrad>("Adagrad", {"adagrad"});
}  // namespace

KERAS_FIELDS(AdagradOptions, initial_accumulator_value, epsilon)

Adagrad::Adagrad(AdagradOptions o) : Optimizer(o), options_(std::move(o)) {
  if (options_.initial_accumulator_value < 0)
    throw ValueError("Adagrad: `initial_accumulator_value` must be >= 0, got " +
                     std::to_string(options_.initial_accumulator_value));
}

void Adagrad::update_step(const Tensor& grad, Variable& var, double lr, std::int64_t /*step*/) {
  float* acc = slot(var, "accumulator").value().data<float>();
  float* w = var.value().data<float>();
  const float* g = grad.data<float>();
  const float rate = static_cast<float>(lr), eps = static_cast<float>(options_.epsilon);
  kernels::parallel_for(grad.size(), [=](std::int64_t i) {
    acc[i] += g[i] * g[i];
    w[i] -= rate * g[i] / std::sqrt(acc[i] + eps);
  });
}

json Adagrad::get_config() const { return optimizer_config(*this, options_); }

std::shared_ptr<Optimizer> Adagrad::from_config(const json& c) {
  return optimizer_from_config<Adagrad, AdagradOptions>(c);
}

}  // namespace keras::optimizers
