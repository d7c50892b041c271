#include "optimizers/sgd.hpp"

#include "keras/json.hpp"
#include "keras/kernels/parallel.hpp"

namespace keras::optimizers {
namespace {
const bool registered = register_class<Optimizer, SGD>("SGD", {"sgd"});
}  // namespace

SGD::SGD(SGDOptions o) : Optimizer(o.name, o.learning_rate, common_of(o)), options_(std::move(o)) {
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

json SGD::get_config() const {
  json c = Optimizer::get_config();
  c["momentum"] = options_.momentum;
  c["nesterov"] = options_.nesterov;
  return c;
}

std::shared_ptr<Optimizer> SGD::from_config(const json& c) {
  SGDOptions o;
  read_common(c, o, "SGD");
  o.momentum = read_number(c, "momentum", o.momentum, "SGD");
  o.nesterov = read_bool(c, "nesterov", o.nesterov, "SGD");
  return std::make_shared<SGD>(std::move(o));
}

}  // namespace keras::optimizers
