#include "optimizers/lamb.hpp"

#include <cmath>
#include <vector>

#include "keras/config/fields.hpp"
#include "keras/json.hpp"
#include "optimizers/optimizer_config.hpp"

namespace keras::optimizers {
namespace {
const bool registered = register_class<Optimizer, Lamb>("Lamb", {"lamb"});
}  // namespace

KERAS_FIELDS(LambOptions, beta_1, beta_2, epsilon)

Lamb::Lamb(LambOptions o) : Optimizer(o), options_(std::move(o)) {}

void Lamb::update_step(const Tensor& grad, Variable& var, double lr, std::int64_t step) {
  float* m = slot(var, "momentum").value().data<float>();
  float* v = slot(var, "velocity").value().data<float>();
  float* w = var.value().data<float>();
  const float* g = grad.data<float>();
  const std::int64_t n = grad.size();
  const double t = static_cast<double>(step);
  const float k1 = static_cast<float>(1 - options_.beta_1), k2 = static_cast<float>(1 - options_.beta_2);
  const float c1 = static_cast<float>(1 - std::pow(options_.beta_1, t));
  const float c2 = static_cast<float>(1 - std::pow(options_.beta_2, t));
  const float eps = static_cast<float>(options_.epsilon);
  // The trust ratio needs both norms before the variable changes: the update is kept for a second pass.
  std::vector<float> update(static_cast<std::size_t>(n));
  double w_sq = 0, u_sq = 0;
  for (std::int64_t i = 0; i < n; ++i) {
    m[i] += (g[i] - m[i]) * k1;
    v[i] += (g[i] * g[i] - v[i]) * k2;
    const float u = (m[i] / c1) / (std::sqrt(v[i] / c2) + eps);
    update[static_cast<std::size_t>(i)] = u;
    w_sq += double(w[i]) * w[i];
    u_sq += double(u) * u;
  }
  const double w_norm = std::sqrt(w_sq), u_norm = std::sqrt(u_sq);
  const double ratio = w_norm > 0 && u_norm > 0 ? w_norm / u_norm : 1.0;
  const float scale = static_cast<float>(ratio * lr);
  for (std::int64_t i = 0; i < n; ++i) w[i] -= scale * update[static_cast<std::size_t>(i)];
}

json Lamb::get_config() const { return optimizer_config(*this, options_); }

std::shared_ptr<Optimizer> Lamb::from_config(const json& c) { return optimizer_from_config<Lamb, LambOptions>(c); }

}  // namespace keras::optimizers
