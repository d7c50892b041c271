#pragma once
// Weight and activity regularizers (keras.regularizers): a penalty computed from a tensor that joins the
// model's loss. L1, L2 and L1L2, registered by class name and by Keras's identifiers "l1", "l2", "l1_l2".
#include <memory>
#include <string>

#include "keras/registry.hpp"
#include "keras/tensor.hpp"

namespace keras::regularizers {

class Regularizer {
 public:
  virtual ~Regularizer() = default;
  /// The scalar penalty for x (differentiable: computed with keras::ops).
  virtual Tensor operator()(const Tensor& x) const = 0;
  /// Keras's class_name ("L2").
  virtual std::string class_name() const = 0;
  virtual json get_config() const = 0;

  /// By identifier ("l1", "l2", "l1_l2") or class name ("L2").
  static std::shared_ptr<Regularizer> get(const std::string& identifier);
  /// From {"class_name", "config"} or a string identifier.
  static std::shared_ptr<Regularizer> deserialize(const json& config);
};

using RegularizerRef = Ref<Regularizer>;

/// {"class_name": "L2", "config": {"l2": 0.01}}, or null for an unset reference (as Keras writes None).
json serialize(const RegularizerRef& regularizer);
/// The inverse of serialize: null gives an unset reference.
RegularizerRef deserialize_or_null(const json& config);

/// l1 * sum(|x|).
class L1 : public Regularizer {
 public:
  explicit L1(double l1 = 0.01);
  Tensor operator()(const Tensor& x) const override;
  std::string class_name() const override { return "L1"; }
  json get_config() const override;
  static std::shared_ptr<Regularizer> from_config(const json& config);
  double l1() const { return l1_; }

 private:
  double l1_;
};

/// l2 * sum(x²).
class L2 : public Regularizer {
 public:
  explicit L2(double l2 = 0.01);
  Tensor operator()(const Tensor& x) const override;
  std::string class_name() const override { return "L2"; }
  json get_config() const override;
  static std::shared_ptr<Regularizer> from_config(const json& config);
  double l2() const { return l2_; }

 private:
  double l2_;
};

/// l1 * sum(|x|) + l2 * sum(x²). The class defaults are 0 (as Keras's L1L2); the identifier "l1_l2" gives
/// l1 = l2 = 0.01, as Keras's regularizers.l1_l2() function does.
class L1L2 : public Regularizer {
 public:
  explicit L1L2(double l1 = 0.0, double l2 = 0.0);
  Tensor operator()(const Tensor& x) const override;
  std::string class_name() const override { return "L1L2"; }
  json get_config() const override;
  static std::shared_ptr<Regularizer> from_config(const json& config);
  double l1() const { return l1_; }
  double l2() const { return l2_; }

 private:
  double l1_, l2_;
};

}  // namespace keras::regularizers
