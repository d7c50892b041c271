#include "keras/initializers/constant.hpp"

#include "keras/json.hpp"

namespace keras::initializers {
namespace {

const bool registered = register_class<Initializer, Zeros>("Zeros", {"zeros"}) &&
                        register_class<Initializer, Ones>("Ones", {"ones"}) &&
                        register_class<Initializer, Constant>("Constant", {"constant"});

}  // namespace

Tensor Zeros::operator()(const Shape& shape) const { return Tensor::zeros(shape); }
std::shared_ptr<Initializer> Zeros::from_config(const json&) { return std::make_shared<Zeros>(); }

Tensor Ones::operator()(const Shape& shape) const { return Tensor::ones(shape); }
std::shared_ptr<Initializer> Ones::from_config(const json&) { return std::make_shared<Ones>(); }

Tensor Constant::operator()(const Shape& shape) const { return Tensor::full(shape, value_); }

json Constant::get_config() const { return {{"value", value_}}; }

std::shared_ptr<Initializer> Constant::from_config(const json& c) {
  if (!c.contains("value")) return std::make_shared<Constant>();
  if (!c["value"].is_number())
    throw ValueError("Constant initializer: 'value' must be a scalar number, got " + c["value"].dump() +
                     ". Fill non-uniform values by assigning the weights after building the layer.");
  return std::make_shared<Constant>(c["value"].get<double>());
}

}  // namespace keras::initializers
