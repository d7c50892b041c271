#pragma once
// Weight constraints (keras.constraints): a projection applied to a variable after each optimizer
// update (variable.assign(constraint(variable)), as tf.keras optimizers do). MaxNorm, MinMaxNorm,
// NonNeg and UnitNorm, registered by class name and by Keras's identifiers ("max_norm", "non_neg", ...).
#include <memory>
#include <string>
#include <vector>

#include "keras/json_fwd.hpp"
#include "keras/registry.hpp"
#include "keras/tensor.hpp"

namespace keras::constraints {

class Constraint {
 public:
  virtual ~Constraint() = default;
  /// The projected value of w (same shape).
  virtual Tensor operator()(const Tensor& w) const = 0;
  virtual std::string class_name() const = 0;
  virtual json get_config() const;

  static std::shared_ptr<Constraint> get(const std::string& identifier);
  static std::shared_ptr<Constraint> deserialize(const json& config);
};

using ConstraintRef = Ref<Constraint>;

/// {"class_name", "config"}, or null for an unset reference.
json serialize(const ConstraintRef& constraint);
/// The inverse of serialize: null gives an unset reference.
ConstraintRef deserialize_or_null(const json& config);

/// The axes a norm constraint reduces over: one axis (Keras's int) or several (a list).
struct Axes {
  Axes(int axis = 0) : axes{axis}, is_list(false) {}
  Axes(std::vector<int> list) : axes(std::move(list)), is_list(true) {}
  Axes(std::initializer_list<int> list) : axes(list), is_list(true) {}
  std::vector<int> axes;
  bool is_list;
  json to_json() const;
  static Axes from_json(const json& j, const Axes& fallback);
};

/// Rescales each slice along `axis` whose L2 norm exceeds max_value down to it.
class MaxNorm : public Constraint {
 public:
  explicit MaxNorm(double max_value = 2.0, Axes axis = 0);
  Tensor operator()(const Tensor& w) const override;
  std::string class_name() const override { return "MaxNorm"; }
  json get_config() const override;
  static std::shared_ptr<Constraint> from_config(const json& config);

 private:
  double max_value_;
  Axes axis_;
};

/// Moves each slice's norm into [min_value, max_value]; rate 1 projects fully, lower rates part way.
class MinMaxNorm : public Constraint {
 public:
  explicit MinMaxNorm(double min_value = 0.0, double max_value = 1.0, double rate = 1.0, Axes axis = 0);
  Tensor operator()(const Tensor& w) const override;
  std::string class_name() const override { return "MinMaxNorm"; }
  json get_config() const override;
  static std::shared_ptr<Constraint> from_config(const json& config);

 private:
  double min_value_, max_value_, rate_;
  Axes axis_;
};

/// Zeroes negative weights.
class NonNeg : public Constraint {
 public:
  Tensor operator()(const Tensor& w) const override;
  std::string class_name() const override { return "NonNeg"; }
  static std::shared_ptr<Constraint> from_config(const json&) { return std::make_shared<NonNeg>(); }
};

/// Scales each slice along `axis` to unit L2 norm.
class UnitNorm : public Constraint {
 public:
  explicit UnitNorm(Axes axis = 0) : axis_(std::move(axis)) {}
  Tensor operator()(const Tensor& w) const override;
  std::string class_name() const override { return "UnitNorm"; }
  json get_config() const override;
  static std::shared_ptr<Constraint> from_config(const json& config);

 private:
  Axes axis_;
};

}  // namespace keras::constraints
