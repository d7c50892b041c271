// ONNX exporter of ConvLSTM1D/2D/3D, unrolled over a known number of time steps (ONNX has no convolutional
// LSTM op): the input convolution of every step at once (time folded into the batch), then per step the
// recurrent "same" convolution of h and Keras's gates i, f, c, o: c = f c + i act(z_c), h = o act(c).
// return_sequences, return_state and go_backwards export; a mask, initial states and stateful layers do not.
#include "keras/export/onnx/export_helpers.hpp"
#include "keras/export/onnx/spatial_padding.hpp"
#include "keras/json.hpp"
#include "keras/layer.hpp"

namespace keras::onnx {
namespace {

// Keras kernel [k..., in, out] → ONNX Conv weight [out, in, k...].
Tensor conv_weight(const Tensor& kernel, std::size_t n) {
  std::vector<int> perm{static_cast<int>(n) + 1, static_cast<int>(n)};
  for (std::size_t i = 0; i < n; ++i) perm.push_back(static_cast<int>(i));
  return transposed(kernel, perm);
}

std::vector<std::string> conv_lstm(GraphBuilder& g, const Layer& layer, const LayerCall& call) {
  const json c = layer.get_config();
  if (call.inputs.size() != 1) not_exportable(layer, "initial states are not exported");
  if (c.value("stateful", false)) not_exportable(layer, "a stateful layer carries states between calls");
  const Shape& in = call.shape();  // [batch, time, spatial..., channels]
  const std::size_t n = in.size() - 3;
  const std::int64_t steps = in[1];
  if (steps <= 0) not_exportable(layer, "its number of time steps is unknown, and the export unrolls the steps");
  for (std::size_t i = 0; i < n + 1; ++i)
    if (in[2 + i] < 0) not_exportable(layer, "its spatial size is unknown");
  const Tensor kernel = weight(layer, "kernel"), recurrent = weight(layer, "recurrent_kernel");
  const std::int64_t filters = recurrent.shape()[n];
  const std::vector<std::int64_t> k(kernel.shape().begin(), kernel.shape().begin() + static_cast<long>(n));
  const auto strides = config_ints(layer, c, "strides", n);
  const auto dilations = config_ints(layer, c, "dilation_rate", n);
  std::vector<std::int64_t> spatial(in.begin() + 2, in.end() - 1), effective, ones(n, 1);
  for (std::size_t i = 0; i < n; ++i) effective.push_back((k[i] - 1) * dilations[i] + 1);

  // [N, T, s..., C] → [N·T, C, s...] → Conv → [N, T, 4F, s'...].
  std::vector<std::int64_t> perm{0, 1, static_cast<std::int64_t>(n) + 2};
  for (std::size_t i = 0; i < n; ++i) perm.push_back(static_cast<std::int64_t>(i) + 2);
  std::vector<std::int64_t> folded{-1, in.back()};
  folded.insert(folded.end(), spatial.begin(), spatial.end());
  std::string x = g.op1("Reshape", {g.op1("Transpose", {call.inputs[0]}, {{"perm", perm}}), g.int64s("folded", folded)});
  std::vector<Attribute> a{{"kernel_shape", k}, {"strides", strides}, {"dilations", dilations}};
  for (auto& p : padding_attributes(c.value("padding", std::string("valid")), {spatial, effective, strides})) a.push_back(p);
  std::vector<std::string> inputs{x, g.initializer("kernel", conv_weight(kernel, n))};
  if (c.value("use_bias", true)) inputs.push_back(g.initializer("bias", weight(layer, "bias")));
  const std::string z = g.op1("Conv", inputs, a);
  const Shape& out = call.output_shapes[0];  // [N, (T,) s'..., F]
  std::vector<std::int64_t> unfolded{-1, steps, 4 * filters};
  unfolded.insert(unfolded.end(), out.end() - 1 - static_cast<long>(n), out.end() - 1);
  const std::string zs = g.op1("Reshape", {z, g.int64s("unfolded", unfolded)});

  const std::string rk = g.initializer("recurrent_kernel", conv_weight(recurrent, n));
  std::vector<Attribute> ra{{"kernel_shape", std::vector<std::int64_t>(recurrent.shape().begin(), recurrent.shape().begin() + static_cast<long>(n))},
                            {"strides", ones}, {"dilations", ones}};
  const std::vector<std::int64_t> state_spatial(unfolded.begin() + 3, unfolded.end());
  std::vector<std::int64_t> rk_size(recurrent.shape().begin(), recurrent.shape().begin() + static_cast<long>(n));
  for (auto& p : padding_attributes("same", {state_spatial, rk_size, ones})) ra.push_back(p);
  const std::string act = c.value("activation", std::string("tanh"));
  const std::string rec = c.value("recurrent_activation", std::string("hard_sigmoid"));
  const bool backwards = c.value("go_backwards", false);
  std::string h, cell;
  std::vector<std::string> outputs;
  for (std::int64_t s = 0; s < steps; ++s) {
    const std::int64_t t = backwards ? steps - 1 - s : s;
    std::string zt = g.op1("Squeeze", {g.op1("Slice", {zs, g.int64s("start", {t}), g.int64s("end", {t + 1}), g.int64s("axes", {1})}),
                                       g.int64s("axes", {1})});
    if (!h.empty()) zt = g.op1("Add", {zt, g.op1("Conv", {h, rk}, ra)});  // h starts at zero: no term at step 0
    const auto gates = g.op("Split", {zt}, {{"axis", std::int64_t{1}}}, 4);
    const std::string i = activation(g, layer, rec, gates[0]), f = activation(g, layer, rec, gates[1]),
                      cand = activation(g, layer, act, gates[2]), o = activation(g, layer, rec, gates[3]);
    const std::string ic = g.op1("Mul", {i, cand});
    cell = cell.empty() ? ic : g.op1("Add", {g.op1("Mul", {f, cell}), ic});
    h = g.op1("Mul", {o, activation(g, layer, act, cell)});
    if (c.value("return_sequences", false)) outputs.push_back(g.op1("Unsqueeze", {h, g.int64s("axes", {1})}));
  }
  // Back to channels-last: [N, F, s'...] → [N, s'..., F].
  const std::size_t state_rank = n + 2;
  std::vector<std::string> result;
  if (c.value("return_sequences", false)) {
    std::vector<std::int64_t> back{0, 1};
    for (std::size_t i = 0; i < n; ++i) back.push_back(static_cast<std::int64_t>(i) + 3);
    back.push_back(2);
    result.push_back(g.op1("Transpose", {g.op1("Concat", outputs, {{"axis", std::int64_t{1}}})}, {{"perm", back}}));
  } else {
    result.push_back(to_channels_last(g, h, state_rank));
  }
  if (c.value("return_state", false)) {
    result.push_back(to_channels_last(g, h, state_rank));
    result.push_back(to_channels_last(g, cell, state_rank));
  }
  return result;
}

const bool registered = register_exporters({
    {"ConvLSTM1D", conv_lstm},
    {"ConvLSTM2D", conv_lstm},
    {"ConvLSTM3D", conv_lstm},
});

}  // namespace
}  // namespace keras::onnx
