#include "keras/variable.hpp"

namespace keras {

Variable::Variable(std::string name, Tensor value, bool trainable)
    : name_(std::move(name)), value_(value.clone()), trainable_(trainable) {
  value_.mark_variable(trainable_);
}

void Variable::set_trainable(bool trainable) {
  trainable_ = trainable;
  value_.mark_variable(trainable);
}

void Variable::assign(const Tensor& values) {
  if (values.shape() != value_.shape())
    throw ValueError("Cannot assign a value of shape " + shape_str(values.shape()) + " to variable '" + name_ +
                     "' of shape " + shape_str(value_.shape()));
  value_.assign(values);
}

}  // namespace keras
