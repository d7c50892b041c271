#include "optimizers/adam.hpp"

#include <algorithm>
#include <cmath>

#include "keras/kernels/parallel.hpp"

namespace keras::optimizers {
namespace {

const bool registered = register_class<Optimizer, Adam>("Adam", {"adam"});

// Keras config readers: a missing or null key keeps the default; legacy "lr" is accepted.
double read(const json& c, const char* key, double fallback) {
  if (!c.contains(key) || c[key].is_null()) return fallback;
  if (!c[key].is_number())
    throw ValueError(std::string("Adam config: '") + key + "' must be a number, got " + c[key].dump() +
                     (c[key].is_object() ? " (learning-rate schedules are not supported; pass a float)" : ""));
  return c[key].get<double>();
}

void check_supported(const json& c) {
  if (read(c, "weight_decay", 0) != 0 || read(c, "decay", 0) != 0 || c.value("use_ema", false))
    throw ValueError("Adam config: weight_decay, decay and use_ema are not supported by kerascpp; remove them from " +
                     c.dump());
}

}  // namespace

Adam::Adam(AdamOptions o)
    : Optimizer(o.name, o.learning_rate,
                {.clipnorm = o.clipnorm, .clipvalue = o.clipvalue, .global_clipnorm = o.global_clipnorm}),
      options_(std::move(o)) {}

void Adam::update_step(const Tensor& grad, Variable& var, double lr, std::int64_t step) {
  if (grad.dtype() != DType::float32 || var.value().dtype() != DType::float32)
    throw ValueError("Adam: variable '" + var.name() + "' and its gradient must be float32");
  float* m = slot(var, "m").value().data<float>();
  float* v = slot(var, "v").value().data<float>();
  float* w = var.value().data<float>();
  const float* g = grad.data<float>();
  const double t = static_cast<double>(step);
  const float alpha = static_cast<float>(lr * std::sqrt(1 - std::pow(options_.beta_2, t)) /
                                         (1 - std::pow(options_.beta_1, t)));
  const float k1 = static_cast<float>(1 - options_.beta_1), k2 = static_cast<float>(1 - options_.beta_2);
  const float eps = static_cast<float>(options_.epsilon);
  const std::int64_t n = grad.size();
  if (options_.amsgrad) {
    float* vhat = slot(var, "vhat").value().data<float>();
    kernels::parallel_for(n, [=](std::int64_t i) {
      m[i] += (g[i] - m[i]) * k1;
      v[i] += (g[i] * g[i] - v[i]) * k2;
      vhat[i] = std::max(vhat[i], v[i]);
      w[i] -= m[i] * alpha / (std::sqrt(vhat[i]) + eps);
    });
  } else {
    kernels::parallel_for(n, [=](std::int64_t i) {
      m[i] += (g[i] - m[i]) * k1;
      v[i] += (g[i] * g[i] - v[i]) * k2;
      w[i] -= m[i] * alpha / (std::sqrt(v[i]) + eps);
    });
  }
}

json Adam::get_config() const {
  json c = Optimizer::get_config();
  c["beta_1"] = options_.beta_1;
  c["beta_2"] = options_.beta_2;
  c["epsilon"] = options_.epsilon;
  c["amsgrad"] = options_.amsgrad;
  return c;
}

std::shared_ptr<Optimizer> Adam::from_config(const json& c) {
  check_supported(c);
  const CommonOptions common = common_from_config(c);
  const AdamOptions d;
  return std::make_shared<Adam>(AdamOptions{
      .learning_rate = read(c, "learning_rate", read(c, "lr", d.learning_rate)),
      .beta_1 = read(c, "beta_1", d.beta_1),
      .beta_2 = read(c, "beta_2", d.beta_2),
      .epsilon = read(c, "epsilon", d.epsilon),
      .amsgrad = c.contains("amsgrad") && !c["amsgrad"].is_null() ? c["amsgrad"].get<bool>() : d.amsgrad,
      .clipnorm = common.clipnorm,
      .clipvalue = common.clipvalue,
      .global_clipnorm = common.global_clipnorm,
      .name = c.contains("name") && c["name"].is_string() ? c["name"].get<std::string>() : d.name,
  });
}

}  // namespace keras::optimizers
