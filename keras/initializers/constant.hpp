#pragma once
// Initializers that fill a constant: Zeros, Ones, Constant (keras.initializers).
#include "keras/initializers/initializer.hpp"

namespace keras::initializers {

/// All zeros ("zeros").
class Zeros : public Initializer {
 public:
  Tensor operator()(const Shape& shape) const override;
  std::string class_name() const override { return "Zeros"; }
  static std::shared_ptr<Initializer> from_config(const json& config);
};

/// All ones ("ones").
class Ones : public Initializer {
 public:
  Tensor operator()(const Shape& shape) const override;
  std::string class_name() const override { return "Ones"; }
  static std::shared_ptr<Initializer> from_config(const json& config);
};

/// Every element equal to `value` ("constant").
class Constant : public Initializer {
 public:
  explicit Constant(double value = 0.0) : value_(value) {}
  double value() const { return value_; }

  Tensor operator()(const Shape& shape) const override;
  std::string class_name() const override { return "Constant"; }
  json get_config() const override;
  static std::shared_ptr<Initializer> from_config(const json& config);

 private:
  double value_;
};

}  // namespace keras::initializers
