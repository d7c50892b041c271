// ONNX exporters of the normalizations: BatchNormalization (its moving statistics folded into one scale and
// one shift), LayerNormalization (ONNX's op from opset 17 over trailing axes, else its decomposition),
// GroupNormalization, RMSNormalization and UnitNormalization (decomposed into reductions); SpectralNormalization
// as the layer it wraps (in inference it runs that layer with the kernel normalized in training).
#include <cmath>

#include "keras/export/onnx/export_helpers.hpp"
#include "keras/json.hpp"
#include "keras/layer.hpp"

namespace keras::onnx {
namespace {

// The layer's axes (config "axis": an int or a list) as positive axes of a rank-`rank` input.
std::vector<std::int64_t> axes_of(const json& c, std::size_t rank, int fallback = -1) {
  const json a = c.value("axis", json(fallback));
  std::vector<std::int64_t> axes;
  for (const auto& v : a.is_array() ? a : json::array({a})) {
    const std::int64_t x = v.get<std::int64_t>();
    axes.push_back(x < 0 ? x + static_cast<std::int64_t>(rank) : x);
  }
  std::sort(axes.begin(), axes.end());
  return axes;
}

// A parameter over `axes` reshaped to broadcast against the rank-`rank` input: 1 along the other axes.
Tensor broadcastable(const Tensor& p, const Shape& input, const std::vector<std::int64_t>& axes) {
  Shape shape(input.size(), 1);
  for (auto a : axes) shape[a] = input[a];
  return p.reshape(shape);
}

std::vector<std::string> batch_normalization(GraphBuilder& g, const Layer& layer, const LayerCall& call) {
  const json c = layer.get_config();
  const auto axes = axes_of(c, call.shape().size());
  const float eps = c.value("epsilon", 1e-3f);
  const auto mean = weight(layer, "moving_mean").to_vector<float>();
  const auto variance = weight(layer, "moving_variance").to_vector<float>();
  const bool scale = c.value("scale", true), center = c.value("center", true);
  const auto gamma = scale ? weight(layer, "gamma").to_vector<float>() : std::vector<float>(mean.size(), 1.f);
  const auto beta = center ? weight(layer, "beta").to_vector<float>() : std::vector<float>(mean.size(), 0.f);
  std::vector<float> mul(mean.size()), add(mean.size());
  for (std::size_t i = 0; i < mean.size(); ++i) {
    mul[i] = gamma[i] / std::sqrt(variance[i] + eps);
    add[i] = beta[i] - mean[i] * mul[i];
  }
  Shape shape(call.shape().size(), 1);
  for (auto a : axes) shape[a] = call.shape()[a];
  const std::string y = g.op1("Mul", {call.inputs[0], g.floats("scale", mul, shape)});
  return one(g.op1("Add", {y, g.floats("shift", add, shape)}));
}

// x - mean and sqrt(variance + eps) over `axes` (keepdims), both reductions in ONNX.
struct Moments {
  std::string centered, deviation;
};
Moments moments(GraphBuilder& g, const std::string& x, const std::vector<std::int64_t>& axes, float eps) {
  const std::vector<Attribute> over{{"axes", axes}, {"keepdims", std::int64_t{1}}};
  const std::string centered = g.op1("Sub", {x, g.op1("ReduceMean", {x}, over)});
  const std::string variance = g.op1("ReduceMean", {g.op1("Mul", {centered, centered})}, over);
  return {centered, g.op1("Sqrt", {g.op1("Add", {variance, g.scalar("epsilon", eps)})})};
}

// (x - mean) / sqrt(variance + eps) over `axes`.
std::string standardize(GraphBuilder& g, const std::string& x, const std::vector<std::int64_t>& axes, float eps) {
  const Moments m = moments(g, x, axes, eps);
  return g.op1("Div", {m.centered, m.deviation});
}

std::vector<std::string> layer_normalization(GraphBuilder& g, const Layer& layer, const LayerCall& call) {
  const json c = layer.get_config();
  const Shape& shape = call.shape();
  const auto axes = axes_of(c, shape.size());
  const float eps = c.value("epsilon", 1e-3f);
  const std::string& x = call.inputs[0];
  if (c.value("rms_scaling", false)) {  // x / sqrt(variance + eps) * gamma, as Keras's rms_scaling
    const std::string y = g.op1("Div", {x, moments(g, x, axes, eps).deviation});
    return one(g.op1("Mul", {y, g.initializer("gamma", broadcastable(weight(layer, "gamma"), shape, axes))}));
  }
  const bool scale = c.value("scale", true), center = c.value("center", true);
  const bool trailing = axes.back() == static_cast<std::int64_t>(shape.size()) - 1;
  if (g.opset() >= 17 && trailing) {
    Shape param(shape.begin() + axes.front(), shape.end());
    const std::string gamma = g.initializer("gamma", scale ? weight(layer, "gamma").reshape(param) : Tensor::ones(param));
    std::vector<std::string> in{x, gamma};
    if (center) in.push_back(g.initializer("beta", weight(layer, "beta").reshape(param)));
    return one(g.op1("LayerNormalization", in, {{"axis", axes.front()}, {"epsilon", eps}}));
  }
  std::string y = standardize(g, x, axes, eps);
  if (scale) y = g.op1("Mul", {y, g.initializer("gamma", broadcastable(weight(layer, "gamma"), shape, axes))});
  if (center) y = g.op1("Add", {y, g.initializer("beta", broadcastable(weight(layer, "beta"), shape, axes))});
  return one(y);
}

// Channels split into groups ([N, ..., groups, C / groups]), each group standardized over its positions and
// channels, then gamma and beta per channel.
std::vector<std::string> group_normalization(GraphBuilder& g, const Layer& layer, const LayerCall& call) {
  const json c = layer.get_config();
  const std::size_t rank = call.shape().size();
  const std::int64_t axis = axes_of(c, rank).front(), groups = c.value("groups", std::int64_t{32});
  const std::int64_t channels = call.shape()[axis];
  std::vector<std::int64_t> perm;
  for (std::size_t i = 0; i < rank; ++i) perm.push_back(static_cast<std::int64_t>(i));
  std::swap(perm[axis], perm.back());
  const bool moved = axis != static_cast<std::int64_t>(rank) - 1;
  std::string x = moved ? g.op1("Transpose", {call.inputs[0]}, {{"perm", perm}}) : call.inputs[0];
  const std::string grouped = g.op1("Reshape", {x, g.int64s("grouped", {0, -1, groups, channels / groups})});
  std::string y = standardize(g, grouped, {1, 3}, c.value("epsilon", 1e-3f));
  y = g.op1("Reshape", {y, g.op1("Shape", {x})});
  if (c.value("scale", true)) y = g.op1("Mul", {y, g.initializer("gamma", weight(layer, "gamma"))});
  if (c.value("center", true)) y = g.op1("Add", {y, g.initializer("beta", weight(layer, "beta"))});
  return one(moved ? g.op1("Transpose", {y}, {{"perm", perm}}) : y);
}

std::vector<std::string> rms_normalization(GraphBuilder& g, const Layer& layer, const LayerCall& call) {
  const json c = layer.get_config();
  const auto axes = axes_of(c, call.shape().size());
  const std::string& x = call.inputs[0];
  const std::string ms = g.op1("ReduceMean", {g.op1("Mul", {x, x})}, {{"axes", axes}, {"keepdims", std::int64_t{1}}});
  const std::string rms = g.op1("Sqrt", {g.op1("Add", {ms, g.scalar("epsilon", c.value("epsilon", 1e-6f))})});
  const std::string scale = g.initializer("scale", broadcastable(weight(layer, "scale"), call.shape(), axes));
  return one(g.op1("Mul", {g.op1("Div", {x, rms}), scale}));
}

std::vector<std::string> unit_normalization(GraphBuilder& g, const Layer& layer, const LayerCall& call) {
  const auto axes = axes_of(layer.get_config(), call.shape().size());
  const std::string& x = call.inputs[0];
  const std::string sum = g.op1("ReduceSum", {g.op1("Mul", {x, x}), g.int64s("axes", axes)}, {{"keepdims", std::int64_t{1}}});
  return one(g.op1("Div", {x, g.op1("Sqrt", {g.op1("Max", {sum, g.scalar("epsilon", 1e-12f)})})}));
}

std::vector<std::string> spectral_normalization(GraphBuilder& g, const Layer& layer, const LayerCall& call) {
  const auto inner = layer.sublayers();
  if (inner.size() != 1) not_exportable(layer, "it does not wrap one layer");
  const std::string scope = g.scope();
  g.set_scope(scope + "/" + inner[0]->name());
  auto out = export_layer_call(g, *inner[0], call);
  g.set_scope(scope);
  return out;
}

const bool registered = register_exporters({
    {"BatchNormalization", batch_normalization},
    {"LayerNormalization", layer_normalization},
    {"GroupNormalization", group_normalization},
    {"RMSNormalization", rms_normalization},
    {"UnitNormalization", unit_normalization},
    {"SpectralNormalization", spectral_normalization},
});

}  // namespace
}  // namespace keras::onnx
