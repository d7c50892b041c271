#include "optimizers/sgd.hpp"

#include "keras/config/fields.hpp"
#include "keras/json.hpp"
#include "keras/kernels/parallel.hpp"
#include "optimizers/optimizer_config.hpp"

namespace keras::optimizers {
namespace {
const bool registered = register_class<Optimizer, SGD>("SGD", {"sgd"});
}  // namespace

KERAS_FIELDS(SGDOptions, momentum, nesterov)

SGD::SGD(SGDOptions o) : Optimizer(o), options_(std::move(o)) {
  if (options_.momentum < 0 || options_.momentum > 1)
    throw ValueError("SGD: `momentum` must be between [0, 1], got " + std::to_string(options_.momentum));
}

void SGD::update_step(const Tensor& grad, Variable& var, double lr, std::int64_t /*step*/) {
  // Keras keeps one "m" slot per variable even without momentum; it stays zero then.
  float* m = slot(var, "m").value().data<float>();
  float* w = var.value().data<float>();
  const float* g = grad.data<float>();
  const float rate = static_cast<float>(lr), mu = static_cast<float>(options_.momentum);
  const std::int64_t n = grad.size();
  if (options_.momentum == 0) {
    kernels::parallel_for(n, [=](std::int64_t i) { w[i] -= rate * g[i]; });
  } else if (options_.nesterov) {
    kernels::parallel_for(n, [=](std::int64_t i) {
      m[i] = mu * m[i] - rate * g[i];
      w[i] += mu * m[i] - rate * g[i];
    });
  } else {
    kernels::parallel_for(n, [=](std::int64_t i) {
      m[i] = mu * m[i] - rate * g[i];
      w[i] += m[i];
    });
  }
}

json SGD::get_config() const { return optimizer_config(*this, options_); }

std::shared_ptr<Optimizer> SGD::from_config(const json& c) { return optimizer_from_config<SGD, SGDOptions>(c); }

}  // namespace keras::optimizers
