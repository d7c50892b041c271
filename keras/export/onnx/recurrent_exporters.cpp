// ONNX exporters of SimpleRNN, LSTM, GRU (and RNN of one of their cells) and of Bidirectional: ONNX's RNN,
// LSTM and GRU ops, time-major inside ([time, batch, features]), return_sequences, return_state,
// go_backwards, initial states and Bidirectional's merge modes as Keras computes them.
#include <limits>

#include "keras/export/onnx/export_helpers.hpp"
#include "keras/export/onnx/recurrent_weights.hpp"
#include "keras/json.hpp"
#include "keras/layer.hpp"

namespace keras::onnx {
namespace {

// Tensors of the same shape stacked along a new first axis (one per direction).
Tensor stacked(const std::vector<Tensor>& parts) {
  std::vector<float> all;
  for (const auto& p : parts) {
    const auto v = p.to_vector<float>();
    all.insert(all.end(), v.begin(), v.end());
  }
  Shape shape{static_cast<std::int64_t>(parts.size())};
  shape.insert(shape.end(), parts[0].shape().begin(), parts[0].shape().end());
  return Tensor::from_vector(all, shape);
}

// The op's outputs: Y [time, directions, batch, units], Y_h [directions, batch, units] (and Y_c for LSTM).
std::vector<std::string> run(GraphBuilder& g, const Layer& layer, const RecurrentSpec& spec,
                             const std::vector<DirectionWeights>& weights, const std::string& x,
                             const std::string& direction, const std::vector<std::string>& initial) {
  std::vector<Tensor> w, r, b;
  for (const auto& d : weights) {
    w.push_back(d.w);
    r.push_back(d.r);
    b.push_back(d.b);
  }
  std::vector<std::string> in{g.op1("Transpose", {x}, {{"perm", std::vector<std::int64_t>{1, 0, 2}}}),
                              g.initializer("W", stacked(w)), g.initializer("R", stacked(r)),
                              g.initializer("B", stacked(b)), ""};
  for (const auto& s : initial) in.push_back(s);
  return g.op(spec.op, in, recurrent_attributes(layer, spec, direction), spec.op == "LSTM" ? 3 : 2);
}

std::string squeeze(GraphBuilder& g, const std::string& x, std::int64_t axis) {
  return g.op1("Squeeze", {x, g.int64s("axes", {axis})});
}

std::string unsqueeze(GraphBuilder& g, const std::string& x, std::int64_t axis) {
  return g.op1("Unsqueeze", {x, g.int64s("axes", {axis})});
}

// [time, batch, units] → [batch, time, units], reversed in time first when `reversed`.
std::string batch_major(GraphBuilder& g, std::string y, bool reversed) {
  if (reversed)
    y = g.op1("Slice", {y, g.int64s("starts", {-1}), g.int64s("ends", {std::numeric_limits<std::int64_t>::min()}),
                        g.int64s("axes", {0}), g.int64s("steps", {-1})});
  return g.op1("Transpose", {y}, {{"perm", std::vector<std::int64_t>{1, 0, 2}}});
}

std::vector<std::string> recurrent(GraphBuilder& g, const Layer& layer, const LayerCall& call) {
  const RecurrentSpec spec = recurrent_spec(layer);
  const bool backwards = spec.config.value("go_backwards", false);
  std::vector<std::string> initial;
  for (std::size_t i = 1; i < call.inputs.size(); ++i) initial.push_back(unsqueeze(g, call.inputs[i], 0));
  const auto y = run(g, layer, spec, {direction_weights(layer, spec)}, call.inputs[0], backwards ? "reverse" : "forward",
                     initial);
  std::vector<std::string> out{spec.config.value("return_sequences", false)
                                   ? batch_major(g, squeeze(g, y[0], 1), backwards)
                                   : squeeze(g, y[1], 0)};
  if (spec.config.value("return_state", false))
    for (std::size_t i = 1; i < y.size(); ++i) out.push_back(squeeze(g, y[i], 0));
  return out;
}

// Both directions' [2, ...] split into two values without the direction axis.
std::vector<std::string> per_direction(GraphBuilder& g, const std::string& x, std::int64_t axis) {
  auto parts = g.op("Split", {x}, {{"axis", axis}}, 2);
  return {squeeze(g, parts[0], axis), squeeze(g, parts[1], axis)};
}

std::vector<std::string> bidirectional(GraphBuilder& g, const Layer& layer, const LayerCall& call) {
  const auto parts = layer.sublayers();
  if (parts.size() != 2) not_exportable(layer, "it does not hold a forward and a backward layer");
  const RecurrentSpec forward = recurrent_spec(*parts[0]), backward = recurrent_spec(*parts[1]);
  if (forward.op != backward.op || forward.units != backward.units || forward.activations != backward.activations ||
      forward.linear_before_reset != backward.linear_before_reset)
    not_exportable(layer, "its backward layer differs from its forward layer, and ONNX's bidirectional op runs one cell");
  if (forward.config.value("go_backwards", false) || !backward.config.value("go_backwards", false))
    not_exportable(layer, "its forward layer runs backwards");
  const std::size_t states = forward.op == "LSTM" ? 2 : 1;
  std::vector<std::string> initial;
  if (call.inputs.size() == 1 + 2 * states)
    for (std::size_t s = 0; s < states; ++s)
      initial.push_back(g.op1("Concat", {unsqueeze(g, call.inputs[1 + s], 0), unsqueeze(g, call.inputs[1 + states + s], 0)},
                              {{"axis", std::int64_t{0}}}));
  const auto y = run(g, layer, forward, {direction_weights(*parts[0], forward), direction_weights(*parts[1], backward)},
                     call.inputs[0], "bidirectional", initial);
  const json c = layer.get_config();
  const std::string mode = c.value("merge_mode", json(nullptr)).is_string() ? c["merge_mode"].get<std::string>() : "none";
  const bool sequences = forward.config.value("return_sequences", false);
  // The direction axis: 1 of Y [time, 2, batch, units], 0 of Y_h [2, batch, units].
  const std::string& both = sequences ? y[0] : y[1];
  const std::int64_t axis = sequences ? 1 : 0;
  auto finish = [&](const std::string& v) { return sequences ? batch_major(g, v, false) : v; };
  std::vector<std::string> out;
  if (mode == "concat") {
    const std::string v = g.op1("Transpose", {both}, {{"perm", sequences ? std::vector<std::int64_t>{2, 0, 1, 3}
                                                                         : std::vector<std::int64_t>{1, 0, 2}}});
    const std::vector<std::int64_t> shape = sequences ? std::vector<std::int64_t>{0, 0, 2 * forward.units}
                                                      : std::vector<std::int64_t>{0, 2 * forward.units};
    out.push_back(g.op1("Reshape", {v, g.int64s("shape", shape)}));
  } else if (mode == "sum" || mode == "mul" || mode == "ave") {
    const std::string op = mode == "sum" ? "Sum" : mode == "mul" ? "Prod" : "Mean";
    out.push_back(finish(reduce(g, op, both, {axis}, false)));
  } else if (mode == "none") {
    for (const auto& v : per_direction(g, both, axis)) out.push_back(finish(v));
  } else {
    not_exportable(layer, "its merge_mode '" + mode + "' is not one of concat, sum, mul, ave, none");
  }
  if (forward.config.value("return_state", false)) {
    std::vector<std::vector<std::string>> split;  // per state: {forward, backward}
    for (std::size_t s = 0; s < states; ++s) split.push_back(per_direction(g, y[1 + s], 0));
    for (int d = 0; d < 2; ++d)
      for (std::size_t s = 0; s < states; ++s) out.push_back(split[s][d]);
  }
  return out;
}

const bool registered = register_exporters({
    {"SimpleRNN", recurrent},
    {"LSTM", recurrent},
    {"GRU", recurrent},
    {"RNN", recurrent},
    {"Bidirectional", bidirectional},
});

}  // namespace
}  // namespace keras::onnx
