#include "layers/merging/elementwise.hpp"

#include <fmt/format.h>

#include "keras/config/fields.hpp"
#include "keras/config/layer_config.hpp"
#include "keras/ops/math.hpp"

namespace keras::layers {

// No fields beyond the base layer's.
KERAS_FIELDS(MergeOptions)

namespace {

template <class F>
Tensor fold(const std::vector<Tensor>& xs, F f) {
  Tensor out = xs[0];
  for (std::size_t i = 1; i < xs.size(); ++i) out = f(out, xs[i]);
  return out;
}


}  // namespace

KERAS_REGISTER_LAYER(Add)
KERAS_REGISTER_LAYER(Subtract)
KERAS_REGISTER_LAYER(Multiply)
KERAS_REGISTER_LAYER(Average)
KERAS_REGISTER_LAYER(Maximum)
KERAS_REGISTER_LAYER(Minimum)

Tensor Add::merge_function(const std::vector<Tensor>& xs) const { return fold(xs, ops::add); }
Tensor Subtract::merge_function(const std::vector<Tensor>& xs) const { return ops::subtract(xs[0], xs[1]); }
Tensor Multiply::merge_function(const std::vector<Tensor>& xs) const { return fold(xs, ops::multiply); }
Tensor Average::merge_function(const std::vector<Tensor>& xs) const {
  return fold(xs, ops::add) * (1.f / static_cast<float>(xs.size()));
}
Tensor Maximum::merge_function(const std::vector<Tensor>& xs) const { return fold(xs, ops::maximum); }
Tensor Minimum::merge_function(const std::vector<Tensor>& xs) const { return fold(xs, ops::minimum); }

void Subtract::check_inputs(const std::vector<Shape>& shapes) const {
  if (shapes.size() != 2)
    throw ValueError(fmt::format("A `Subtract` layer (\"{}\") should be called on exactly 2 inputs. Received {} inputs",
                                 name(), shapes.size()));
}

#define KERAS_MERGE_FACTORY(Class, fn)                                                                          \
  std::shared_ptr<Layer> Class::from_config(const json& c) { return make_from_config<Class, MergeOptions>(c); } \
  Tensor fn(const std::vector<Tensor>& inputs) { return Class()(inputs); }                                      \
  KerasTensor fn(const std::vector<KerasTensor>& inputs) { return std::make_shared<Class>()->operator()(inputs); }

KERAS_MERGE_FACTORY(Add, add)
KERAS_MERGE_FACTORY(Subtract, subtract)
KERAS_MERGE_FACTORY(Multiply, multiply)
KERAS_MERGE_FACTORY(Average, average)
KERAS_MERGE_FACTORY(Maximum, maximum)
KERAS_MERGE_FACTORY(Minimum, minimum)

}  // namespace keras::layers
