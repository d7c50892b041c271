#include "optimizers/adagrad.hpp"

#include <cmath>

#include "keras/json.hpp"
#include "keras/kernels/parallel.hpp"

namespace keras::optimizers {
namespace {
const bool registered = register_class<Optimizer, Adagrad>("Adagrad", {"adagrad"});
}  // namespace

Adagrad::Adagrad(AdagradOptions o) : Optimizer(o.name, o.learning_rate, common_of(o)), options_(std::move(o)) {
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

json Adagrad::get_config() const {
  json c = Optimizer::get_config();
  c["initial_accumulator_value"] = options_.initial_accumulator_value;
  c["epsilon"] = options_.epsilon;
  return c;
}

std::shared_ptr<Optimizer> Adagrad::from_config(const json& c) {
  AdagradOptions o;
  read_common(c, o, "Adagrad");
  o.initial_accumulator_value = read_number(c, "initial_accumulator_value", o.initial_accumulator_value, "Adagrad");
  o.epsilon = read_number(c, "epsilon", o.epsilon, "Adagrad");
  return std::make_shared<Adagrad>(std::move(o));
}

}  // namespace keras::optimizers
