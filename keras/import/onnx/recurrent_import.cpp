// load_onnx's recurrent patterns: ONNX's RNN, LSTM and GRU ops between the Transposes and Squeezes that
// kerascpp's export writes around them, back to SimpleRNN, LSTM and GRU layers with Keras's gate order,
// return_sequences, return_state and go_backwards as the op's readers show them; a bidirectional op and the
// nodes merging its directions (concat, sum, mul, ave) back to Bidirectional.
#include <limits>

#include "keras/import/onnx/onnx_translator.hpp"

namespace keras::onnx {
namespace {

// ONNX's recurrent activations by Keras name.
const std::map<std::string, std::string> kKerasActivation = {
    {"Tanh", "tanh"},         {"Sigmoid", "sigmoid"}, {"Relu", "relu"},         {"HardSigmoid", "hard_sigmoid"},
    {"Affine", "linear"},     {"Softsign", "softsign"}, {"Softplus", "softplus"}, {"Elu", "elu"}};

struct CellKind {
  std::string keras_class;
  std::vector<int> keras_gate;  // for each ONNX gate, its index in Keras's order
  std::vector<std::string> default_activations;
};

CellKind cell_kind(const std::string& op) {
  if (op == "LSTM") return {"LSTM", {0, 3, 1, 2}, {"Sigmoid", "Tanh", "Tanh"}};
  if (op == "GRU") return {"GRU", {0, 1, 2}, {"Sigmoid", "Tanh"}};
  return {"SimpleRNN", {0}, {"Tanh"}};
}

// ONNX's [gates * units, rows] (direction 0 of [1, ...]) as Keras's [rows, gates * units] in Keras's gate order.
Tensor keras_matrix(const Tensor& m, const CellKind& kind, std::int64_t units) {
  const std::int64_t gates = static_cast<std::int64_t>(kind.keras_gate.size()), rows = m.dim(-1);
  const std::vector<float> src = m.to_vector<float>();
  std::vector<float> out(src.size());
  for (std::int64_t gate = 0; gate < gates; ++gate)
    for (std::int64_t j = 0; j < units; ++j)
      for (std::int64_t r = 0; r < rows; ++r)
        out[r * gates * units + kind.keras_gate[gate] * units + j] = src[(gate * units + j) * rows + r];
  return Tensor::from_vector(out, {rows, gates * units});
}

std::vector<float> keras_order(const std::vector<float>& b, const CellKind& kind, std::int64_t units) {
  std::vector<float> out(b.size());
  for (std::size_t gate = 0; gate < kind.keras_gate.size(); ++gate)
    for (std::int64_t j = 0; j < units; ++j) out[kind.keras_gate[gate] * units + j] = b[gate * units + j];
  return out;
}

// Direction `d`'s weights in Keras's layout (kernel, recurrent kernel, bias); sets reset_after for a GRU.
std::vector<Tensor> direction_weights(const OnnxNode& n, const CellKind& kind, std::int64_t units, std::int64_t d,
                                      json& config, const std::map<std::string, Tensor>& constants) {
  const std::size_t per_gate = kind.keras_gate.size() * static_cast<std::size_t>(units);
  std::vector<float> b(2 * per_gate, 0.f);
  if (n.inputs.size() > 3 && !n.inputs[3].empty()) {
    const auto all = constants.at(n.inputs[3]).to_vector<float>();
    b.assign(all.begin() + d * 2 * per_gate, all.begin() + (d + 1) * 2 * per_gate);
  }
  const std::vector<float> input_bias = keras_order({b.begin(), b.begin() + per_gate}, kind, units);
  const std::vector<float> recurrent_bias = keras_order({b.begin() + per_gate, b.end()}, kind, units);
  std::vector<Tensor> weights{keras_matrix(constants.at(n.inputs[1]).slice(d, d + 1), kind, units),
                              keras_matrix(constants.at(n.inputs[2]).slice(d, d + 1), kind, units)};
  if (n.op == "GRU" && n.integer("linear_before_reset", 0) == 1) {  // reset_after: both biases
    config["reset_after"] = true;
    std::vector<float> both(input_bias);
    both.insert(both.end(), recurrent_bias.begin(), recurrent_bias.end());
    weights.push_back(Tensor::from_vector(both, {2, static_cast<std::int64_t>(per_gate)}));
  } else {  // one bias: the two added (outside the reset gate, as ONNX adds them without linear_before_reset)
    if (n.op == "GRU") config["reset_after"] = false;
    std::vector<float> sum(input_bias);
    for (std::size_t i = 0; i < sum.size(); ++i) sum[i] += recurrent_bias[i];
    weights.push_back(Tensor::from_vector(sum, {static_cast<std::int64_t>(per_gate)}));
  }
  return weights;
}

}  // namespace

bool Translator::translate_view(const OnnxNode& n) {
  if (n.inputs.empty() || !values_.count(n.inputs[0])) return false;
  const Value& x = values_.at(n.inputs[0]);
  const std::size_t rank = x.tensor.shape().size();
  if (n.op == "Transpose" && n.integers("perm") == std::vector<std::int64_t>{1, 0, 2} && rank == 3 && !x.reversed) {
    values_[n.outputs[0]] = {x.tensor, false, x.mark.empty() ? "time_major" : x.mark == "time_major" ? "" : "?"};
    return values_[n.outputs[0]].mark != "?";
  }
  if (n.op == "Unsqueeze" && x.mark.empty() && rank == 2 && n.inputs.size() == 2 && is_constant(n.inputs[1]) &&
      constant(n.inputs[1]).to_vector<std::int64_t>() == std::vector<std::int64_t>{0}) {  // an initial state
    values_[n.outputs[0]] = {x.tensor, false, "directions_first"};
    return true;
  }
  if (n.op == "Squeeze" && n.inputs.size() == 2 && is_constant(n.inputs[1])) {
    const auto axes = constant(n.inputs[1]).to_vector<std::int64_t>();
    if (x.mark == "time_major_directions" && axes == std::vector<std::int64_t>{1}) {
      values_[n.outputs[0]] = {x.tensor, false, "time_major", x.reversed};
      return true;
    }
    if (x.mark == "directions_first" && axes == std::vector<std::int64_t>{0}) {
      values_[n.outputs[0]] = {x.tensor};
      return true;
    }
    return false;
  }
  if (n.op == "Slice" && x.mark == "time_major" && n.inputs.size() == 5) {  // the time reversal of go_backwards
    const auto steps = constant(n.inputs[4]).to_vector<std::int64_t>(), axes = constant(n.inputs[3]).to_vector<std::int64_t>();
    const auto starts = constant(n.inputs[1]).to_vector<std::int64_t>();
    if (steps == std::vector<std::int64_t>{-1} && axes == std::vector<std::int64_t>{0} && starts == std::vector<std::int64_t>{-1}) {
      values_[n.outputs[0]] = {x.tensor, false, "time_major", !x.reversed};
      return true;
    }
  }
  return false;
}

void Translator::translate_recurrent(std::size_t index) {
  const OnnxNode& n = graph_.nodes[index];
  const Value& x = value(n.inputs[0]);
  const std::string direction = n.attributes.value("direction", std::string("forward"));
  if (x.mark != "time_major" || x.reversed) return unsupported(n, "input not a time-major view");
  if (n.inputs.size() > 4 && !n.inputs[4].empty()) return unsupported(n, "sequence lengths");
  std::vector<KerasTensor> call_inputs{x.tensor};  // the sequence, then the initial states (Unsqueezed Keras tensors)
  for (std::size_t i = 5; i < n.inputs.size() && i < 7; ++i) {
    if (n.inputs[i].empty()) continue;
    if (direction == "bidirectional" || value(n.inputs[i]).mark != "directions_first")
      return unsupported(n, "initial states of another pattern");
    call_inputs.push_back(value(n.inputs[i]).tensor);
  }
  if (n.inputs.size() > 7) return unsupported(n, "peepholes");
  if (!is_constant(n.inputs[1]) || !is_constant(n.inputs[2]) || (n.inputs.size() > 3 && !n.inputs[3].empty() && !is_constant(n.inputs[3])))
    return unsupported(n, "weights not constant");
  const CellKind kind = cell_kind(n.op);
  const std::int64_t units = n.integer("hidden_size", 0);
  auto names = n.attributes.value("activations", json(kind.default_activations)).get<std::vector<std::string>>();
  for (const auto& a : names)
    if (!kKerasActivation.count(a)) return unsupported(n, "activation " + a);
  if (n.op == "LSTM" && names[1] != names[2]) return unsupported(n, "cell and hidden activations differ");
  auto reads = [&](std::size_t output) { return output < n.outputs.size() && !n.outputs[output].empty() && readers_.count(n.outputs[output]); };
  // Keras's return_state gives the final states beside the sequences (or beside an output that is h itself).
  const bool sequences = reads(0), states = (n.op == "LSTM" && reads(2)) || (sequences && reads(1));
  json config = {{"units", units}, {"activation", kKerasActivation.at(names.back())}, {"return_sequences", sequences},
                 {"return_state", states}, {"go_backwards", direction == "reverse"}};
  if (n.op != "RNN") config["recurrent_activation"] = kKerasActivation.at(names[0]);
  std::vector<Tensor> weights = direction_weights(n, kind, units, 0, config, graph_.constants);
  if (direction == "bidirectional") {
    json backward_config = config;
    const auto backward = direction_weights(n, kind, units, 1, backward_config, graph_.constants);
    weights.insert(weights.end(), backward.begin(), backward.end());
    config["go_backwards"] = false;
    return translate_bidirectional(index, config, kind.keras_class, weights);
  }
  auto layer = Layer::deserialize({{"class_name", kind.keras_class}, {"config", config}});
  const std::vector<KerasTensor> out = layer->call_all(call_inputs);
  layer->set_weights(weights);
  if (sequences) values_[n.outputs[0]] = {out[0], false, "time_major_directions", direction == "reverse"};
  if (reads(1)) values_[n.outputs[1]] = {states ? out[1] : out[0], false, "directions_first"};
  if (states && n.op == "LSTM") values_[n.outputs[2]] = {out[2], false, "directions_first"};
}

// The nodes after a bidirectional op: one merging the directions of Y (or of Y_h without return_sequences) —
// a Transpose then a Reshape for concat, ReduceSum / ReduceProd / ReduceMean for sum / mul / ave — and Splits of
// Y_h and Y_c for return_state.
void Translator::translate_bidirectional(std::size_t index, json cell_config, const std::string& cell_class,
                                         const std::vector<Tensor>& weights) {
  const OnnxNode& n = graph_.nodes[index];
  auto readers_of = [&](std::size_t output) {
    return output < n.outputs.size() && readers_.count(n.outputs[output]) ? readers_.at(n.outputs[output]) : std::vector<std::size_t>{};
  };
  const bool sequences = !readers_of(0).empty();
  std::optional<std::size_t> merge;
  std::vector<std::size_t> splits;
  for (std::size_t output : {1, 2})
    for (auto r : readers_of(output)) {
      if (graph_.nodes[r].op == "Split") splits.push_back(r);
      else if (!sequences && output == 1) merge = r;
    }
  if (sequences && readers_of(0).size() == 1) merge = readers_of(0)[0];
  if (!merge) return unsupported(n, "bidirectional without a merge of its directions");
  const OnnxNode& m = graph_.nodes[*merge];
  const std::map<std::string, std::string> modes = {{"Transpose", "concat"}, {"ReduceSum", "sum"}, {"ReduceProd", "mul"}, {"ReduceMean", "ave"}};
  if (!modes.count(m.op)) return unsupported(n, "bidirectional merged by " + m.op);
  const std::string mode = modes.at(m.op);
  std::optional<std::size_t> reshape;
  if (mode == "concat") {
    const auto perm = m.integers("perm");
    const auto rs = readers_.count(m.outputs[0]) ? readers_.at(m.outputs[0]) : std::vector<std::size_t>{};
    if (perm != (sequences ? std::vector<std::int64_t>{2, 0, 1, 3} : std::vector<std::int64_t>{1, 0, 2}) || rs.size() != 1 ||
        graph_.nodes[rs[0]].op != "Reshape")
      return unsupported(n, "bidirectional concatenation of another pattern");
    reshape = rs[0];
  }
  cell_config["return_sequences"] = sequences;
  cell_config["return_state"] = !splits.empty();
  const json config = {{"layer", {{"class_name", cell_class}, {"config", cell_config}}}, {"merge_mode", mode}};
  auto layer = Layer::deserialize({{"class_name", "Bidirectional"}, {"config", config}});
  const std::vector<KerasTensor> out = layer->call_all(std::vector<KerasTensor>{value(n.inputs[0]).tensor});
  layer->set_weights(weights);
  done_.insert(*merge);
  if (reshape) {
    done_.insert(*reshape);
    values_[graph_.nodes[*reshape].outputs[0]] = {out[0]};
  } else {
    values_[m.outputs[0]] = sequences ? Value{out[0], false, "time_major"} : Value{out[0]};
  }
  const std::size_t per_direction = n.op == "LSTM" ? 2 : 1;  // out = {output, forward states, backward states}
  for (auto r : splits) {
    const OnnxNode& split = graph_.nodes[r];
    const std::size_t which = split.inputs[0] == n.outputs[1] ? 0 : 1;  // h or c
    done_.insert(r);
    values_[split.outputs.at(0)] = {out.at(1 + which), false, "directions_first"};
    values_[split.outputs.at(1)] = {out.at(1 + per_direction + which), false, "directions_first"};
  }
}

}  // namespace keras::onnx
