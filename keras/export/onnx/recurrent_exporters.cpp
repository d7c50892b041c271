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
                             const std::string& direction, const std::vector<std::string>& initial,
                             const std::string& lengths = "") {
  std::vector<Tensor> w, r, b;
  for (const auto& d : weights) {
    w.push_back(d.w);
    r.push_back(d.r);
    b.push_back(d.b);
  }
  std::vector<std::string> in{g.op1("Transpose", {x}, {{"perm", std::vector<std::int64_t>{1, 0, 2}}}),
                              g.initializer("W", stacked(w)), g.initializer("R", stacked(r)),
                              g.initializer("B", stacked(b)), lengths};
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

constexpr std::int64_t kFloat = 1, kInt32 = 6, kInt64 = 7;

std::string cast(GraphBuilder& g, const std::string& x, std::int64_t to) { return g.op1("Cast", {x}, {{"to", to}}); }

// A 0-d int64 constant.
std::string int_scalar(GraphBuilder& g, const char* hint, std::int64_t v) {
  return g.initializer(hint, Tensor::from_vector(std::vector<std::int64_t>{v}, Shape{}));
}

// x reversed along `axis`.
std::string reversed(GraphBuilder& g, const std::string& x, std::int64_t axis) {
  return g.op1("Slice", {x, g.int64s("starts", {-1}), g.int64s("ends", {std::numeric_limits<std::int64_t>::min()}),
                         g.int64s("axes", {axis}), g.int64s("steps", {-1})});
}

// x[:, index[n, t], ...] along axis 1, `index` [batch, time] int64 broadcast over the trailing axis.
std::string gather_steps(GraphBuilder& g, const std::string& x, const std::string& index) {
  const std::string full = g.op1("Expand", {unsqueeze(g, index, 2), g.op1("Shape", {x})});
  return g.op1("GatherElements", {x, full}, {{"axis", std::int64_t{1}}});
}

// One direction of a recurrent layer under a Keras mask, exactly as Keras runs it: a masked step keeps the
// previous states and repeats the previous output (zeros with zero_output_for_mask). Since masked steps change
// nothing, each sample's unmasked steps are moved to the front in their order (TopK of a key), the ONNX op runs
// them with sequence_lens = their count, and step t's output is the op's output after the last unmasked step up
// to t (CumSum of the mask). Returns the sequence [batch, time, units] or the last output, then the states.
std::vector<std::string> masked_direction(GraphBuilder& g, const Layer& layer, const RecurrentSpec& spec,
                                          const DirectionWeights& weights, std::string x, std::string mask,
                                          const std::vector<std::string>& initial) {
  if (spec.config.value("go_backwards", false)) {
    x = reversed(g, x, 1);
    mask = reversed(g, mask, 1);
  }
  const bool sequences = spec.config.value("return_sequences", false);
  const bool zero_output = spec.config.value("zero_output_for_mask", false);
  const std::string steps = g.op1("Squeeze", {g.op1("Slice", {g.op1("Shape", {x}), g.int64s("starts", {1}),
                                                              g.int64s("ends", {2}), g.int64s("axes", {0})}),
                                              g.int64s("axes", {0})});
  const std::string t = cast(g, g.op1("Range", {int_scalar(g, "start", 0), steps, int_scalar(g, "delta", 1)}), kFloat);
  const std::string n_steps = cast(g, steps, kFloat), m = cast(g, mask, kFloat);
  // key = m * T + (T - 1 - t): the unmasked steps first, each group in time order, all keys distinct.
  const std::string key = g.op1("Add", {g.op1("Mul", {m, n_steps}),
                                        g.op1("Sub", {g.op1("Sub", {n_steps, g.scalar("one", 1.f)}), t})});
  const auto top = g.op("TopK", {key, unsqueeze(g, steps, 0)}, {{"axis", std::int64_t{1}}, {"largest", std::int64_t{1}},
                                                                {"sorted", std::int64_t{1}}}, 2);
  const std::string packed = gather_steps(g, x, top[1]);
  const std::string count = g.op1("ReduceSum", {cast(g, mask, kInt64), g.int64s("axes", {1})}, {{"keepdims", std::int64_t{0}}});
  // A sample without unmasked steps runs one (ignored) step: ONNX Runtime's ops need positive lengths.
  const std::string lengths = cast(g, g.op1("Max", {count, g.int64s("one", {1})}), kInt32);
  const auto y = run(g, layer, spec, {weights}, packed, "forward", initial, lengths);
  const std::string any = unsqueeze(g, g.op1("Greater", {count, g.int64s("zero", {0})}), 1);  // [batch, 1]
  const std::string zeros = g.scalar("zero", 0.f);
  std::vector<std::string> out;
  if (sequences) {
    const std::string seen = g.op1("CumSum", {cast(g, mask, kInt64), int_scalar(g, "axis", 1)});  // unmasked steps up to t
    const std::string index = g.op1("Max", {g.op1("Sub", {seen, g.int64s("one", {1})}), g.int64s("zero", {0})});
    const std::string at = gather_steps(g, batch_major(g, squeeze(g, y[0], 1), false), index);
    const std::string keep = zero_output ? mask : g.op1("Greater", {seen, g.int64s("zero", {0})});
    out.push_back(g.op1("Where", {unsqueeze(g, keep, 2), at, zeros}));
  } else {
    // The output after the last step: the last unmasked step's (zeros with zero_output_for_mask when the last
    // step is masked, and without any unmasked step).
    std::string keep = any;
    if (zero_output)
      keep = g.op1("Slice", {mask, g.int64s("starts", {-1}), g.int64s("ends", {std::numeric_limits<std::int64_t>::max()}),
                             g.int64s("axes", {1})});
    out.push_back(g.op1("Where", {keep, squeeze(g, y[1], 0), zeros}));
  }
  // The states: the op's final ones, the initial ones (zeros) for a sample without unmasked steps.
  for (std::size_t i = 1; i < y.size(); ++i)
    out.push_back(g.op1("Where", {any, squeeze(g, y[i], 0), i - 1 < initial.size() ? squeeze(g, initial[i - 1], 0) : zeros}));
  return out;
}

std::vector<std::string> recurrent(GraphBuilder& g, const Layer& layer, const LayerCall& call) {
  const RecurrentSpec spec = recurrent_spec(layer);
  const bool backwards = spec.config.value("go_backwards", false);
  std::vector<std::string> initial;
  for (std::size_t i = 1; i < call.inputs.size(); ++i) initial.push_back(unsqueeze(g, call.inputs[i], 0));
  if (!call.mask().empty()) {
    auto out = masked_direction(g, layer, spec, direction_weights(layer, spec), call.inputs[0], call.mask(), initial);
    if (!spec.config.value("return_state", false)) out.resize(1);
    return out;
  }
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

// Bidirectional under a Keras mask: each direction as masked_direction (the backward one reversed back in time
// when it returns sequences), merged as Keras merges them.
std::vector<std::string> masked_bidirectional(GraphBuilder& g, const Layer& layer, const LayerCall& call,
                                              const std::string& mode, std::size_t states) {
  const auto parts = layer.sublayers();
  std::vector<std::vector<std::string>> y;
  for (std::size_t d = 0; d < 2; ++d) {
    const RecurrentSpec spec = recurrent_spec(*parts[d]);
    std::vector<std::string> initial;
    if (call.inputs.size() == 1 + 2 * states)
      for (std::size_t s = 0; s < states; ++s) initial.push_back(unsqueeze(g, call.inputs[1 + d * states + s], 0));
    y.push_back(masked_direction(g, *parts[d], spec, direction_weights(*parts[d], spec), call.inputs[0], call.mask(), initial));
  }
  if (recurrent_spec(*parts[1]).config.value("return_sequences", false)) y[1][0] = reversed(g, y[1][0], 1);
  std::vector<std::string> out;
  if (mode == "concat") out.push_back(g.op1("Concat", {y[0][0], y[1][0]}, {{"axis", std::int64_t{-1}}}));
  else if (mode == "sum") out.push_back(g.op1("Add", {y[0][0], y[1][0]}));
  else if (mode == "mul") out.push_back(g.op1("Mul", {y[0][0], y[1][0]}));
  else if (mode == "ave") out.push_back(g.op1("Mul", {g.op1("Add", {y[0][0], y[1][0]}), g.scalar("half", 0.5f)}));
  else if (mode == "none") out = {y[0][0], y[1][0]};
  else not_exportable(layer, "its merge_mode '" + mode + "' is not one of concat, sum, mul, ave, none");
  if (recurrent_spec(*parts[0]).config.value("return_state", false))
    for (std::size_t d = 0; d < 2; ++d) out.insert(out.end(), y[d].begin() + 1, y[d].end());
  return out;
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
  const json c = layer.get_config();
  const std::string mode = c.value("merge_mode", json(nullptr)).is_string() ? c["merge_mode"].get<std::string>() : "none";
  const bool sequences = forward.config.value("return_sequences", false);
  if (!call.mask().empty()) return masked_bidirectional(g, layer, call, mode, states);
  const auto y = run(g, layer, forward, {direction_weights(*parts[0], forward), direction_weights(*parts[1], backward)},
                     call.inputs[0], "bidirectional", initial);
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
