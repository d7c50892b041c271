#include "optimizers/optimizer.hpp"

#include <cmath>

#include "keras/autodiff/gradient_tape.hpp"
#include "keras/ops/math.hpp"

namespace keras::optimizers {
namespace {

double l2_norm_squared(const Tensor& t) {
  const float* p = t.data<float>();
  double s = 0;
  for (std::int64_t i = 0; i < t.size(); ++i) s += double(p[i]) * p[i];
  return s;
}

Tensor scaled(const Tensor& t, double factor) { return ops::multiply(t, Tensor::scalar(static_cast<float>(factor))); }

}  // namespace

Optimizer::Optimizer(std::string name, double learning_rate, CommonOptions common)
    : name_(std::move(name)), learning_rate_(learning_rate), common_(common) {
  if (common_.clipnorm && common_.global_clipnorm)
    throw ValueError("Optimizer '" + name_ + "': set at most one of clipnorm and global_clipnorm");
}

void Optimizer::apply_gradients(const std::vector<Tensor>& grads_in, const std::vector<std::shared_ptr<Variable>>& vars) {
  if (grads_in.size() != vars.size())
    throw ValueError("apply_gradients: got " + std::to_string(grads_in.size()) + " gradients for " +
                     std::to_string(vars.size()) + " variables");
  autodiff::NoGradScope no_grad;
  std::vector<Tensor> grads = grads_in;
  for (std::size_t i = 0; i < grads.size(); ++i) {
    if (!grads[i].defined()) continue;
    if (grads[i].shape() != vars[i]->shape())
      throw ValueError("apply_gradients: gradient of shape " + shape_str(grads[i].shape()) + " for variable '" +
                       vars[i]->name() + "' of shape " + shape_str(vars[i]->shape()));
    if (common_.clipvalue)
      grads[i] = ops::clip(grads[i], -float(*common_.clipvalue), float(*common_.clipvalue));
    if (common_.clipnorm) {
      const double norm = std::sqrt(l2_norm_squared(grads[i]));
      if (norm > *common_.clipnorm) grads[i] = scaled(grads[i], *common_.clipnorm / norm);
    }
  }
  if (common_.global_clipnorm) {
    double total = 0;
    for (const auto& g : grads)
      if (g.defined()) total += l2_norm_squared(g);
    const double norm = std::sqrt(total);
    if (norm > *common_.global_clipnorm)
      for (auto& g : grads)
        if (g.defined()) g = scaled(g, *common_.global_clipnorm / norm);
  }
  for (std::size_t i = 0; i < grads.size(); ++i)
    if (grads[i].defined()) update_step(grads[i], *vars[i], learning_rate_, iterations_ + 1);
  ++iterations_;
}

void Optimizer::minimize(const std::function<Tensor()>& loss, const std::vector<std::shared_ptr<Variable>>& vars) {
  GradientTape tape;
  for (const auto& v : vars) tape.watch(v->value());
  Tensor value = loss();
  apply_gradients(tape.gradient(value, vars), vars);
}

Variable& Optimizer::slot(const Variable& var, const std::string& slot_name) {
  auto key = std::make_pair(&var, slot_name);
  auto it = slots_.find(key);
  if (it == slots_.end()) {
    auto v = std::make_shared<Variable>(slot_name + "/" + var.name(), Tensor::zeros(var.shape()), false);
    it = slots_.emplace(key, v).first;
    slot_list_.push_back(v);
  }
  return *it->second;
}

json Optimizer::get_config() const {
  json c{{"name", name_}, {"learning_rate", learning_rate_}};
  c["clipnorm"] = common_.clipnorm ? json(*common_.clipnorm) : json(nullptr);
  c["global_clipnorm"] = common_.global_clipnorm ? json(*common_.global_clipnorm) : json(nullptr);
  c["clipvalue"] = common_.clipvalue ? json(*common_.clipvalue) : json(nullptr);
  return c;
}

CommonOptions Optimizer::common_from_config(const json& c) {
  auto opt = [&](const char* key) -> std::optional<double> {
    if (!c.contains(key) || c[key].is_null()) return std::nullopt;
    return c[key].get<double>();
  };
  return {.clipnorm = opt("clipnorm"), .clipvalue = opt("clipvalue"), .global_clipnorm = opt("global_clipnorm")};
}

std::shared_ptr<Optimizer> Optimizer::get(const std::string& identifier) {
  return Registry<Optimizer>::instance().create(identifier, json::object(), "optimizer");
}

std::shared_ptr<Optimizer> Optimizer::deserialize(const json& config) {
  if (config.is_string()) return get(config.get<std::string>());
  if (!config.is_object() || !config.contains("class_name"))
    throw ValueError("Cannot read an optimizer from " + config.dump() + ": expected {\"class_name\", \"config\"}");
  return Registry<Optimizer>::instance().create(config["class_name"].get<std::string>(),
                                               config.value("config", json::object()), "optimizer");
}

json serialize(const Optimizer& optimizer) { return serialize_object(optimizer.class_name(), optimizer.get_config()); }

}  // namespace keras::optimizers
