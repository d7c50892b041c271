#include "optimizers/sgd.hpp"

#include "keras/kernels/parallel.hpp"

namespace keras::optimizers {
namespace {

const bool registered = register_class<Optimizer, SGD>("SGD", {"sgd"});

// Keras config readers: a missing or null key keeps the default; legacy "lr" is accepted.
double read(const json& c, const char* key, double fallback) {
  if (!c.contains(key) || c[key].is_null()) return fallback;
  if (!c[key].is_number())
    throw ValueError(std::string("SGD config: '") + key + "' must be a number, got " + c[key].dump() +
                     (c[key].is_object() ? " (learning-rate schedules are not supported; pass a float)" : ""));
  return c[key].get<double>();
}

void check_supported(const json& c) {
  if (read(c, "weight_decay", 0) != 0 || read(c, "decay", 0) != 0 || c.value("use_ema", false))
    throw ValueError("SGD config: weight_decay, decay and use_ema are not supported by kerascpp; remove them from " +
                     c.dump());
}

}  // namespace

SGD::SGD(SGDOptions o)
    : Optimizer(o.name, o.learning_rate,
                {.clipnorm = o.clipnorm, .clipvalue = o.clipvalue, .global_clipnorm = o.global_clipnorm}),
      options_(std::move(o)) {
  if (options_.momentum < 0 || options_.momentum > 1)
    throw ValueError("SGD: `momentum` must be between [0, 1], got " + std::to_string(options_.momentum));
}

void SGD::update_step(const Tensor& grad, Variable& var, double lr, std::int64_t /*step*/) {
  if (grad.dtype() != DType::float32 || var.value().dtype() != DType::float32)
    throw ValueError("SGD: variable '" + var.name() + "' and its gradient must be float32");
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
  check_supported(c);
  const CommonOptions common = common_from_config(c);
  const SGDOptions d;
  return std::make_shared<SGD>(SGDOptions{
      .learning_rate = read(c, "learning_rate", read(c, "lr", d.learning_rate)),
      .momentum = read(c, "momentum", d.momentum),
      .nesterov = c.contains("nesterov") && !c["nesterov"].is_null() ? c["nesterov"].get<bool>() : d.nesterov,
      .clipnorm = common.clipnorm,
      .clipvalue = common.clipvalue,
      .global_clipnorm = common.global_clipnorm,
      .name = c.contains("name") && c["name"].is_string() ? c["name"].get<std::string>() : d.name,
  });
}

}  // namespace keras::optimizers
