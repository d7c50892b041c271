#include "keras/constraints/constraint.hpp"

#include <fmt/format.h>

#include "keras/json.hpp"

#include "keras/autodiff/gradient_tape.hpp"
#include "keras/ops/math.hpp"

namespace keras::constraints {
namespace {

constexpr float kEpsilon = 1e-7f;  // keras.backend.epsilon()

const bool registered = register_class<Constraint, MaxNorm>("MaxNorm", {"max_norm", "maxnorm"}) &&
                        register_class<Constraint, MinMaxNorm>("MinMaxNorm", {"min_max_norm", "minmaxnorm"}) &&
                        register_class<Constraint, NonNeg>("NonNeg", {"non_neg", "nonneg"}) &&
                        register_class<Constraint, UnitNorm>("UnitNorm", {"unit_norm", "unitnorm"});

double read_number(const json& c, const char* key, double fallback, const char* owner) {
  if (!c.contains(key) || c[key].is_null()) return fallback;
  if (!c[key].is_number())
    throw ValueError(fmt::format("{} constraint: '{}' must be a number, got {}", owner, key, c[key].dump()));
  return c[key].get<double>();
}

Tensor norms(const Tensor& w, const Axes& axis) {
  for (int a : axis.axes)
    if (a < -w.ndim() || a >= w.ndim())
      throw ValueError(fmt::format("A norm constraint reduces over axis {}, but the weight has shape {}", a,
                                   shape_str(w.shape())));
  return ops::sqrt(ops::sum(ops::square(w), axis.axes, /*keepdims=*/true));
}

}  // namespace

json Axes::to_json() const { return is_list ? json(axes) : json(axes[0]); }

Axes Axes::from_json(const json& j, const Axes& fallback) {
  if (j.is_null()) return fallback;
  if (j.is_number_integer()) return Axes(j.get<int>());
  if (j.is_array()) return Axes(j.get<std::vector<int>>());
  throw ValueError("A constraint's 'axis' must be an integer or a list of integers, got " + j.dump());
}

json Constraint::get_config() const { return json::object(); }

std::shared_ptr<Constraint> Constraint::get(const std::string& identifier) {
  return Registry<Constraint>::instance().get(identifier, "constraint");
}

std::shared_ptr<Constraint> Constraint::deserialize(const json& config) {
  return Registry<Constraint>::instance().deserialize(config, "constraint");
}

json serialize(const ConstraintRef& c) {
  if (!c) return nullptr;
  return serialize_object(c->class_name(), c->get_config());
}

ConstraintRef deserialize_or_null(const json& config) {
  if (config.is_null()) return {};
  return Constraint::deserialize(config);
}

MaxNorm::MaxNorm(double max_value, Axes axis) : max_value_(max_value), axis_(std::move(axis)) {
  if (!(max_value >= 0)) throw ValueError(fmt::format("MaxNorm: max_value must be >= 0, received {}", max_value));
}

Tensor MaxNorm::operator()(const Tensor& w) const {
  autodiff::NoGradScope no_grad;
  const Tensor n = norms(w, axis_);
  const Tensor desired = ops::clip(n, 0.f, static_cast<float>(max_value_));
  return w * (desired / (n + kEpsilon));
}

json MaxNorm::get_config() const { return {{"max_value", max_value_}, {"axis", axis_.to_json()}}; }

std::shared_ptr<Constraint> MaxNorm::from_config(const json& c) {
  return std::make_shared<MaxNorm>(read_number(c, "max_value", 2.0, "MaxNorm"),
                                   Axes::from_json(c.value("axis", json()), 0));
}

MinMaxNorm::MinMaxNorm(double min_value, double max_value, double rate, Axes axis)
    : min_value_(min_value), max_value_(max_value), rate_(rate), axis_(std::move(axis)) {
  if (!(min_value <= max_value))
    throw ValueError(fmt::format("MinMaxNorm: min_value ({}) must not exceed max_value ({})", min_value, max_value));
}

Tensor MinMaxNorm::operator()(const Tensor& w) const {
  autodiff::NoGradScope no_grad;
  const Tensor n = norms(w, axis_);
  const float rate = static_cast<float>(rate_);
  const Tensor desired =
      ops::clip(n, static_cast<float>(min_value_), static_cast<float>(max_value_)) * rate + n * (1.f - rate);
  return w * (desired / (n + kEpsilon));
}

json MinMaxNorm::get_config() const {
  return {{"min_value", min_value_}, {"max_value", max_value_}, {"rate", rate_}, {"axis", axis_.to_json()}};
}

std::shared_ptr<Constraint> MinMaxNorm::from_config(const json& c) {
  return std::make_shared<MinMaxNorm>(read_number(c, "min_value", 0.0, "MinMaxNorm"),
                                      read_number(c, "max_value", 1.0, "MinMaxNorm"),
                                      read_number(c, "rate", 1.0, "MinMaxNorm"),
                                      Axes::from_json(c.value("axis", json()), 0));
}

Tensor NonNeg::operator()(const Tensor& w) const {
  autodiff::NoGradScope no_grad;
  const Tensor zero = Tensor::scalar(0.f);
  return w * (ops::greater(w, zero) + ops::equal(w, zero));
}

Tensor UnitNorm::operator()(const Tensor& w) const {
  autodiff::NoGradScope no_grad;
  return w / (norms(w, axis_) + kEpsilon);
}

json UnitNorm::get_config() const { return {{"axis", axis_.to_json()}}; }

std::shared_ptr<Constraint> UnitNorm::from_config(const json& c) {
  return std::make_shared<UnitNorm>(Axes::from_json(c.value("axis", json()), 0));
}

}  // namespace keras::constraints
