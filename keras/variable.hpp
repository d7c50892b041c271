#pragma once
// Variable: a named, mutable tensor owned by a layer or an optimizer (tf.Variable).
// Its value keeps one identity for its whole life, so a GradientTape can find it, and
// updates (assign) write in place.
#include <memory>
#include <string>

#include "keras/tensor.hpp"

namespace keras {

namespace constraints {
class Constraint;
}

class Variable {
 public:
  Variable(std::string name, Tensor value, bool trainable = true);

  const std::string& name() const { return name_; }
  /// The tensor to compute with; ops on it are recorded against this variable.
  const Tensor& value() const { return value_; }
  const Shape& shape() const { return value_.shape(); }
  bool trainable() const { return trainable_; }
  void set_trainable(bool trainable);

  /// Copies new values in place; the shape must match.
  void assign(const Tensor& values);
  Tensor numpy() const { return value_.clone(); }

  /// The projection optimizers apply after each update of this variable (tf.Variable.constraint); may be null.
  const std::shared_ptr<constraints::Constraint>& constraint() const { return constraint_; }
  void set_constraint(std::shared_ptr<constraints::Constraint> c) { constraint_ = std::move(c); }

 private:
  std::string name_;
  Tensor value_;
  bool trainable_;
  std::shared_ptr<constraints::Constraint> constraint_{};
};

}  // namespace keras
