#include "layers/activation/softmax.hpp"

#include <fmt/format.h>

#include "keras/config/fields.hpp"
#include "keras/config/layer_config.hpp"
#include "keras/ops/manipulation.hpp"
#include "keras/ops/nn.hpp"
#include "keras/ops/shape.hpp"

namespace keras::layers {

KERAS_FIELDS(SoftmaxOptions)  // the base fields only; axis is positional

Softmax::Softmax(int axis, SoftmaxOptions options) : Layer(options, "softmax"), axis_(axis) {}

Tensor Softmax::call(const Tensor& x, bool) {
  const int rank = x.ndim();
  if (axis_ < -rank || axis_ >= rank)
    throw ValueError(fmt::format("Softmax \"{}\": axis {} is out of bounds for an input of shape {}", name(), axis_,
                                 shape_str(x.shape())));
  const int axis = axis_ < 0 ? axis_ + rank : axis_;
  if (rank == 1) return ops::reshape(ops::softmax(ops::reshape(x, {1, x.dim(0)})), x.shape());
  if (axis == rank - 1) return ops::softmax(x);
  // oneDNN's softmax runs over the last axis here: swap the axis there and back.
  std::vector<int> perm(rank);
  for (int a = 0; a < rank; ++a) perm[a] = a;
  std::swap(perm[axis], perm[rank - 1]);
  return ops::transpose(ops::softmax(ops::transpose(x, perm)), perm);
}

json Softmax::get_config() const {
  json c = Layer::get_config();
  c["axis"] = axis_;
  return c;
}

std::shared_ptr<Layer> Softmax::from_config(const json& c) {
  int axis = -1;
  if (c.contains("axis")) {
    const json& a = c["axis"];
    if (a.is_array() && a.size() == 1) axis = a[0].get<int>();
    else if (a.is_number_integer()) axis = a.get<int>();
    else throw ValueError("Softmax: only a single 'axis' is supported, got " + a.dump());
  }
  return make_from_config<Softmax, SoftmaxOptions>(c, axis);
}

KERAS_REGISTER_LAYER(Softmax)

}  // namespace keras::layers
