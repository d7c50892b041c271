#include "layers/merging/dot.hpp"

#include <fmt/format.h>

#include "keras/config/fields.hpp"
#include "keras/config/layer_config.hpp"
#include "keras/ops/manipulation.hpp"
#include "keras/ops/math.hpp"
#include "keras/ops/shape.hpp"

namespace keras::layers {

KERAS_FIELDS(DotOptions, normalize)

namespace {

// tf.math.l2_normalize: x / sqrt(max(sum(x²), 1e-12)) along `axis`.
Tensor l2_normalize(const Tensor& x, int axis) {
  return x / ops::sqrt(ops::maximum(ops::sum(ops::square(x), {axis}, true), Tensor::scalar(1e-12f)));
}

// Moves axis `from` of x to position `to`, keeping the order of the others.
Tensor move_axis(const Tensor& x, int from, int to) {
  std::vector<int> perm;
  for (int a = 0; a < x.ndim(); ++a)
    if (a != from) perm.push_back(a);
  perm.insert(perm.begin() + to, from);
  return ops::transpose(x, perm);
}

}  // namespace

Dot::Dot(int axes, DotOptions options)
    : Layer(options, "dot"), axes_{axes, axes}, single_axis_(true), options_(options) {}

Dot::Dot(std::array<int, 2> axes, DotOptions options)
    : Layer(options, "dot"), axes_(axes), single_axis_(false), options_(options) {}

std::array<int, 2> Dot::resolve(const std::vector<Shape>& shapes) const {
  if (shapes.size() != 2)
    throw ValueError(fmt::format("A `Dot` layer (\"{}\") should be called on a list of 2 inputs. Received {} inputs",
                                 name(), shapes.size()));
  const Shape &s1 = shapes[0], &s2 = shapes[1];
  if (s1.size() < 2 || s2.size() < 2)
    throw ValueError(fmt::format("Dot \"{}\": both inputs need a batch axis and at least one more axis, got shapes "
                                 "{} and {}",
                                 name(), shape_str(s1), shape_str(s2)));
  std::array<int, 2> a = axes_;
  const int r1 = static_cast<int>(s1.size()), r2 = static_cast<int>(s2.size());
  if (a[0] < -r1 || a[0] >= r1 || a[1] < -r2 || a[1] >= r2)
    throw ValueError(fmt::format("Dot \"{}\": axes ({}, {}) are out of bounds for shapes {} and {}", name(), a[0],
                                 a[1], shape_str(s1), shape_str(s2)));
  a[0] = (a[0] + r1) % r1;
  a[1] = (a[1] + r2) % r2;
  if (a[0] == 0 || a[1] == 0)
    throw ValueError(fmt::format("Dot \"{}\": cannot take the dot product over the batch axis (axes {}, {})", name(),
                                 a[0], a[1]));
  if (s1[a[0]] >= 0 && s2[a[1]] >= 0 && s1[a[0]] != s2[a[1]])
    throw ValueError(fmt::format("Incompatible input shapes: axis values {} (at axis {}) != {} (at axis {}). Full "
                                 "input shapes: {}, {} (Dot \"{}\")",
                                 s1[a[0]], a[0], s2[a[1]], a[1], shape_str(s1), shape_str(s2), name()));
  return a;
}

void Dot::build(const std::vector<Shape>& input_shapes) { resolve(input_shapes); }

std::vector<Shape> Dot::compute_output_shape(const std::vector<Shape>& shapes) const {
  const auto a = resolve(shapes);
  Shape s1 = shapes[0], s2 = shapes[1];
  s1.erase(s1.begin() + a[0]);
  s2.erase(s2.begin() + a[1]);
  s2.erase(s2.begin());
  s1.insert(s1.end(), s2.begin(), s2.end());
  if (s1.size() == 1) s1.push_back(1);
  return {s1};
}

std::vector<Tensor> Dot::call(const std::vector<Tensor>& inputs, const CallContext&) {
  std::vector<Shape> shapes;
  for (const auto& t : inputs) shapes.push_back(t.shape());
  const auto a = resolve(shapes);
  Tensor x1 = inputs[0], x2 = inputs[1];
  if (options_.normalize) {
    x1 = l2_normalize(x1, a[0]);
    x2 = l2_normalize(x2, a[1]);
  }
  // batch_dot as a broadcast product summed over the shared axis: (B, M, K, 1) * (B, 1, K, N) → (B, M, N).
  const std::int64_t batch = x1.dim(0), k = x1.dim(a[0]);
  Tensor m1 = ops::reshape(move_axis(x1, a[0], x1.ndim() - 1), {batch, -1, k, 1});
  Tensor m2 = ops::reshape(move_axis(x2, a[1], 1), {batch, 1, k, -1});
  Tensor product = ops::sum(ops::multiply(m1, m2), {2});
  return {ops::reshape(product, compute_output_shape(shapes)[0])};
}

json Dot::get_config() const {
  json c = layer_config(*this, options_);
  c["axes"] = single_axis_ ? json(axes_[0]) : json(std::vector<int>{axes_[0], axes_[1]});
  return c;
}

std::shared_ptr<Layer> Dot::from_config(const json& c) {
  const auto o = options_from_config<DotOptions>(c);
  const json& axes = c.at("axes");
  std::shared_ptr<Dot> layer;
  if (axes.is_array()) {
    const auto v = axes.get<std::vector<int>>();
    if (v.size() != 2) throw ValueError("Dot: 'axes' must be an integer or a list of 2 integers, got " + axes.dump());
    layer = std::make_shared<Dot>(std::array<int, 2>{v[0], v[1]}, o);
  } else {
    layer = std::make_shared<Dot>(axes.get<int>(), o);
  }
  layer->read_base_config(c);
  return layer;
}

Tensor dot(const std::vector<Tensor>& inputs, int axes, bool normalize) {
  return Dot(axes, {.normalize = normalize})(inputs);
}
KerasTensor dot(const std::vector<KerasTensor>& inputs, int axes, bool normalize) {
  return std::make_shared<Dot>(axes, DotOptions{.normalize = normalize})->operator()(inputs);
}

KERAS_REGISTER_LAYER(Dot)

}  // namespace keras::layers
