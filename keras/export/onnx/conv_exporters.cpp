// ONNX exporters of the convolutions: Conv1D/2D/3D (groups, dilation, valid/same/causal), their transposed
// forms, DepthwiseConv1D/2D, SeparableConv1D/2D and LocallyConnected1D/2D. Kernels are converted from Keras's [k..., in, out] to
// ONNX's [out, in, k...]; channels-last inputs are transposed around the node.
#include "keras/export/onnx/export_helpers.hpp"
#include "keras/export/onnx/spatial_padding.hpp"
#include "keras/json.hpp"
#include "keras/layer.hpp"

namespace keras::onnx {
namespace {

// What every convolution reads from its config and input shape.
struct ConvGeometry {
  std::size_t rank, n;  // input rank, spatial dimensions
  bool last;            // channels_last
  std::vector<std::int64_t> in, strides, dilations;
  std::string padding;
};

ConvGeometry geometry(const Layer& layer, const json& c, const LayerCall& call) {
  ConvGeometry geo;
  geo.rank = call.shape().size();
  geo.n = geo.rank - 2;
  geo.last = channels_last(c);
  for (std::size_t i = 0; i < geo.n; ++i) geo.in.push_back(call.shape()[geo.last ? 1 + i : 2 + i]);
  geo.strides = config_ints(layer, c, "strides", geo.n);
  geo.dilations = c.contains("dilation_rate") ? config_ints(layer, c, "dilation_rate", geo.n)
                                              : std::vector<std::int64_t>(geo.n, 1);
  geo.padding = c.value("padding", std::string("valid"));
  return geo;
}

// [k..., a, b] → [b, a, k...] (Keras kernel → ONNX Conv weight).
std::vector<int> kernel_perm(std::size_t n) {
  std::vector<int> perm{static_cast<int>(n) + 1, static_cast<int>(n)};
  for (std::size_t i = 0; i < n; ++i) perm.push_back(static_cast<int>(i));
  return perm;
}

std::vector<std::int64_t> spatial(const Tensor& kernel, std::size_t n) {
  return {kernel.shape().begin(), kernel.shape().begin() + static_cast<long>(n)};
}

std::vector<Attribute> conv_attributes(const ConvGeometry& geo, const std::vector<std::int64_t>& kernel, std::int64_t group) {
  std::vector<std::int64_t> effective;
  for (std::size_t i = 0; i < geo.n; ++i) effective.push_back((kernel[i] - 1) * geo.dilations[i] + 1);
  std::vector<Attribute> a{{"kernel_shape", kernel}, {"strides", geo.strides}, {"dilations", geo.dilations},
                           {"group", group}};
  for (auto& p : padding_attributes(geo.padding, {geo.in, effective, geo.strides})) a.push_back(std::move(p));
  return a;
}

std::string bias_of(GraphBuilder& g, const Layer& layer, const json& c) {
  return c.value("use_bias", true) ? g.initializer("bias", weight(layer, "bias")) : std::string();
}

// Runs `body` on the channels-first form of the input and returns the channels-last result, as the layer's.
template <class F>
std::vector<std::string> channels_first_node(GraphBuilder& g, const Layer& layer, const json& c, const ConvGeometry& geo,
                                             const std::string& x, F&& body) {
  std::string y = body(geo.last ? to_channels_first(g, x, geo.rank) : x);
  if (geo.last) y = to_channels_last(g, y, geo.rank);
  return one(config_activation(g, layer, c, y));
}

std::vector<std::string> conv(GraphBuilder& g, const Layer& layer, const LayerCall& call) {
  const json c = layer.get_config();
  const ConvGeometry geo = geometry(layer, c, call);
  const Tensor kernel = weight(layer, "kernel");
  const std::string w = g.initializer("kernel", transposed(kernel, kernel_perm(geo.n)));
  const std::string b = bias_of(g, layer, c);
  return channels_first_node(g, layer, c, geo, call.inputs[0], [&](const std::string& x) {
    std::vector<std::string> in{x, w};
    if (!b.empty()) in.push_back(b);
    return g.op1("Conv", in, conv_attributes(geo, spatial(kernel, geo.n), c.value("groups", std::int64_t{1})));
  });
}

// Depthwise kernel [k..., in, multiplier] → ONNX [in * multiplier, 1, k...] for a Conv with group = in.
Tensor depthwise_weight(const Tensor& kernel, std::size_t n) {
  std::vector<int> perm{static_cast<int>(n), static_cast<int>(n) + 1};
  for (std::size_t i = 0; i < n; ++i) perm.push_back(static_cast<int>(i));
  Shape shape{kernel.shape()[n] * kernel.shape()[n + 1], 1};
  for (std::size_t i = 0; i < n; ++i) shape.push_back(kernel.shape()[i]);
  return transposed(kernel, perm).reshape(shape);
}

std::vector<std::string> depthwise_conv(GraphBuilder& g, const Layer& layer, const LayerCall& call) {
  const json c = layer.get_config();
  const ConvGeometry geo = geometry(layer, c, call);
  const Tensor kernel = weight(layer, "depthwise_kernel");
  const std::string w = g.initializer("depthwise_kernel", depthwise_weight(kernel, geo.n));
  const std::string b = bias_of(g, layer, c);
  return channels_first_node(g, layer, c, geo, call.inputs[0], [&](const std::string& x) {
    std::vector<std::string> in{x, w};
    if (!b.empty()) in.push_back(b);
    return g.op1("Conv", in, conv_attributes(geo, spatial(kernel, geo.n), kernel.shape()[geo.n]));
  });
}

std::vector<std::string> separable_conv(GraphBuilder& g, const Layer& layer, const LayerCall& call) {
  const json c = layer.get_config();
  const ConvGeometry geo = geometry(layer, c, call);
  const Tensor depthwise = weight(layer, "depthwise_kernel");
  const std::string dw = g.initializer("depthwise_kernel", depthwise_weight(depthwise, geo.n));
  const std::string pw = g.initializer("pointwise_kernel", transposed(weight(layer, "pointwise_kernel"), kernel_perm(geo.n)));
  const std::string b = bias_of(g, layer, c);
  return channels_first_node(g, layer, c, geo, call.inputs[0], [&](const std::string& x) {
    const std::string d = g.op1("Conv", {x, dw}, conv_attributes(geo, spatial(depthwise, geo.n), depthwise.shape()[geo.n]));
    std::vector<std::string> in{d, pw};
    if (!b.empty()) in.push_back(b);
    const std::vector<std::int64_t> ones(geo.n, 1);
    return g.op1("Conv", in, {{"kernel_shape", ones}, {"strides", ones}});
  });
}

// Keras's transposed convolution: output length (in - 1) * s + k_eff for "valid" (at least in * s), in * s for
// "same"; an output_padding makes it (in - 1) * s + k_eff - 2 * pad + output_padding.
std::vector<std::string> conv_transpose(GraphBuilder& g, const Layer& layer, const LayerCall& call) {
  const json c = layer.get_config();
  const ConvGeometry geo = geometry(layer, c, call);
  const Tensor kernel = weight(layer, "kernel");  // [k..., out, in]
  const std::vector<std::int64_t> k = spatial(kernel, geo.n);
  const bool given = c.contains("output_padding") && !c["output_padding"].is_null();
  const std::vector<std::int64_t> output_padding = given ? config_ints(layer, c, "output_padding", geo.n)
                                                         : std::vector<std::int64_t>(geo.n, 0);
  std::vector<std::int64_t> pads(2 * geo.n, 0), extra(geo.n, 0);
  for (std::size_t i = 0; i < geo.n; ++i) {
    const std::int64_t s = geo.strides[i], k_eff = (k[i] - 1) * geo.dilations[i] + 1;
    if (given) {
      const std::int64_t pad = geo.padding == "same" ? k_eff / 2 : 0;
      pads[i] = pads[geo.n + i] = pad;
      extra[i] = output_padding[i];
      continue;
    }
    if (geo.in[i] < 0) not_exportable(layer, "a transposed convolution needs known spatial input sizes");
    const std::int64_t natural = (geo.in[i] - 1) * s + k_eff;
    const std::int64_t target = geo.padding == "same" ? geo.in[i] * s : (geo.in[i] - 1) * s + std::max(k_eff, s);
    if (natural >= target) {
      pads[i] = (natural - target) / 2;
      pads[geo.n + i] = natural - target - pads[i];
    } else {
      extra[i] = target - natural;
    }
  }
  const std::string w = g.initializer("kernel", transposed(kernel, kernel_perm(geo.n)));
  const std::string b = bias_of(g, layer, c);
  return channels_first_node(g, layer, c, geo, call.inputs[0], [&](const std::string& x) {
    std::vector<std::string> in{x, w};
    if (!b.empty()) in.push_back(b);
    return g.op1("ConvTranspose", in, {{"kernel_shape", k}, {"strides", geo.strides}, {"dilations", geo.dilations},
                                       {"pads", pads}, {"output_padding", extra}});
  });
}

// Unshared weights per output position: the windows gathered ([batch, positions, window * channels], each window
// row-major over its spatial offsets, then channels, as Keras's implementation 1 lays them), multiplied by each
// position's kernel [positions, window, filters], plus the bias [positions..., filters].
std::vector<std::string> locally_connected(GraphBuilder& g, const Layer& layer, const LayerCall& call) {
  const json c = layer.get_config();
  const Shape& shape = call.shape();
  const std::size_t n = shape.size() - 2;
  const std::vector<std::int64_t> k = config_ints(layer, c, "kernel_size", n), s = config_ints(layer, c, "strides", n);
  std::vector<std::int64_t> in(shape.begin() + 1, shape.end() - 1), out;
  for (std::size_t i = 0; i < n; ++i) {
    if (in[i] < 0) not_exportable(layer, "its spatial input sizes must be known");
    out.push_back((in[i] - k[i]) / s[i] + 1);
  }
  const std::int64_t rows = n == 2 ? in[1] : 1, out_cols = n == 2 ? out[1] : 1, k_cols = n == 2 ? k[1] : 1;
  const std::int64_t positions = shape_size(out), window = shape_size(k), channels = shape.back();
  std::vector<std::int64_t> indices;  // [positions, window]: the flat input position of each window offset
  for (std::int64_t p = 0; p < positions; ++p)
    for (std::int64_t w = 0; w < window; ++w)
      indices.push_back(((p / out_cols) * s[0] + w / k_cols) * rows + (n == 2 ? (p % out_cols) * s[1] + w % k_cols : 0));
  const std::string flat = g.op1("Reshape", {call.inputs[0], g.int64s("flat_shape", {0, shape_size(in), channels})});
  const std::string idx = g.initializer("window_indices", Tensor::from_vector(indices, {positions, window}));
  const std::string windows = g.op1("Reshape", {g.op1("Gather", {flat, idx}, {{"axis", std::int64_t{1}}}),
                                                g.int64s("windows_shape", {0, positions, window * channels})});
  std::string y = g.op1("Einsum", {windows, g.initializer("kernel", weight(layer, "kernel"))},
                        {{"equation", std::string("npw,pwf->npf")}});
  std::vector<std::int64_t> target{0};
  target.insert(target.end(), out.begin(), out.end());
  target.push_back(c.at("filters").get<std::int64_t>());
  y = g.op1("Reshape", {y, g.int64s("output_shape", target)});
  if (c.value("use_bias", true)) y = g.op1("Add", {y, g.initializer("bias", weight(layer, "bias"))});
  return one(config_activation(g, layer, c, y));
}

const bool registered = register_exporters({
    {"Conv1D", conv},
    {"Conv2D", conv},
    {"Conv3D", conv},
    {"Conv1DTranspose", conv_transpose},
    {"Conv2DTranspose", conv_transpose},
    {"Conv3DTranspose", conv_transpose},
    {"DepthwiseConv1D", depthwise_conv},
    {"DepthwiseConv2D", depthwise_conv},
    {"SeparableConv1D", separable_conv},
    {"SeparableConv2D", separable_conv},
    {"LocallyConnected1D", locally_connected},
    {"LocallyConnected2D", locally_connected},
});

}  // namespace
}  // namespace keras::onnx
