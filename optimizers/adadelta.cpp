#include "optimizers/adadelta.hpp"

#include <cmath>

#include "keras/config/fields.hpp"
#include "keras/json.hpp"
#include "keras/kernels/parallel.hpp"
#include "optimizers/optimizer_config.hpp"

namespace keras::optimizers {
namespace {
const bool registered = register_class<Optimizer, Adadelta>("Adadelta", {"adadelta"});
}  // namespace

KERAS_FIELDS(AdadeltaOptions, rho, epsilon)

Adadelta::Adadelta(AdadeltaOptions o) : Optimizer(o), options_(std::move(o)) {}

void Adadelta::update_step(const Tensor& grad, Variable& var, double lr, std::int64_t /*step*/) {
  float* acc_g = slot(var, "accumulated_grad").value().data<float>();
  float* acc_d = slot(var, "accumulated_delta_var").value().data<float>();
  float* w = var.value().data<float>();
  const float* g = grad.data<float>();
  const float rate = static_cast<float>(lr), rho = static_cast<float>(options_.rho);
  const float k = static_cast<float>(1 - options_.rho), eps = static_cast<float>(options_.epsilon);
  kernels::parallel_for(grad.size(), [=](std::int64_t i) {
    acc_g[i] = rho * acc_g[i] + k * g[i] * g[i];
    const float delta = -std::sqrt(acc_d[i] + eps) * g[i] / std::sqrt(acc_g[i] + eps);
    acc_d[i] = rho * acc_d[i] + k * delta * delta;
    w[i] += rate * delta;
  });
}

json Adadelta::get_config() const { return optimizer_config(*this, options_); }

std::shared_ptr<Optimizer> Adadelta::from_config(const json& c) {
  return optimizer_from_config<Adadelta, AdadeltaOptions>(c);
}

}  // namespace keras::optimizers
