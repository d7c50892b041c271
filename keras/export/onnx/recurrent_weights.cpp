#include "keras/export/onnx/recurrent_weights.hpp"

#include <cstring>

#include "keras/export/onnx/export_helpers.hpp"
#include "keras/json.hpp"
#include "keras/layer.hpp"

namespace keras::onnx {
namespace {

// Keras's [rows, gates * units] as ONNX's [gates * units, rows], the gate blocks in ONNX's order.
Tensor gates_first(const Tensor& m, const RecurrentSpec& spec) {
  const std::int64_t rows = m.dim(0), u = spec.units, gates = static_cast<std::int64_t>(spec.keras_gate.size());
  const std::vector<float> src = m.to_vector<float>();
  std::vector<float> out(src.size());
  for (std::int64_t gate = 0; gate < gates; ++gate)
    for (std::int64_t j = 0; j < u; ++j)
      for (std::int64_t r = 0; r < rows; ++r)
        out[(gate * u + j) * rows + r] = src[r * gates * u + spec.keras_gate[gate] * u + j];
  return Tensor::from_vector(out, {gates * u, rows});
}

// A bias [gates * units] in ONNX's gate order.
std::vector<float> reordered_bias(const std::vector<float>& b, const RecurrentSpec& spec) {
  const std::size_t u = static_cast<std::size_t>(spec.units);
  std::vector<float> out;
  for (int k : spec.keras_gate) out.insert(out.end(), b.begin() + k * u, b.begin() + (k + 1) * u);
  return out;
}

// Keras activation names as ONNX's recurrent activations, with their alpha and beta.
struct RecurrentActivation {
  std::string name;
  float alpha = 0.f, beta = 0.f;
};

RecurrentActivation recurrent_activation(const Layer& layer, const std::string& keras) {
  if (keras == "tanh") return {"Tanh"};
  if (keras == "sigmoid") return {"Sigmoid"};
  if (keras == "relu") return {"Relu"};
  if (keras == "hard_sigmoid") return {"HardSigmoid", 0.2f, 0.5f};
  if (keras == "linear") return {"Affine", 1.f, 0.f};
  if (keras == "softsign") return {"Softsign"};
  if (keras == "softplus") return {"Softplus"};
  if (keras == "elu") return {"Elu", 1.f};
  not_exportable(layer, "its activation '" + keras + "' is not one ONNX's recurrent ops apply");
}

}  // namespace

RecurrentSpec recurrent_spec(const Layer& layer) {
  RecurrentSpec spec;
  spec.config = layer.get_config();
  std::string cell = layer.class_name();
  json cell_config = spec.config;
  if (cell == "RNN") {  // RNN(cell): one LSTMCell, GRUCell or SimpleRNNCell
    const json& c = spec.config.at("cell");
    if (!c.is_object() || !c.contains("class_name"))
      not_exportable(layer, "an RNN of stacked or custom cells has no single ONNX recurrent op");
    cell = c.at("class_name").get<std::string>();
    if (cell.ends_with("Cell")) cell.resize(cell.size() - 4);
    cell_config = c.at("config");
  }
  if (spec.config.value("stateful", false))
    not_exportable(layer, "stateful=true keeps states between calls, and an ONNX graph keeps nothing between runs");
  spec.units = cell_config.at("units").get<std::int64_t>();
  const std::string activation = cell_config.value("activation", std::string("tanh"));
  const std::string recurrent = cell_config.value("recurrent_activation", std::string("sigmoid"));
  if (cell == "LSTM") {
    spec.op = "LSTM";
    spec.keras_gate = {0, 3, 1, 2};  // ONNX i, o, f, c from Keras i, f, c, o
    spec.activations = {recurrent, activation, activation};
  } else if (cell == "GRU") {
    spec.op = "GRU";
    spec.keras_gate = {0, 1, 2};  // z, r, h in both
    spec.activations = {recurrent, activation};
    spec.linear_before_reset = cell_config.value("reset_after", true);
  } else if (cell == "SimpleRNN") {
    spec.op = "RNN";
    spec.keras_gate = {0};
    spec.activations = {activation};
  } else {
    not_exportable(layer, "its cell " + cell + " has no ONNX recurrent op");
  }
  if (!cell_config.value("use_bias", true)) spec.config["use_bias"] = false;
  return spec;
}

DirectionWeights direction_weights(const Layer& layer, const RecurrentSpec& spec) {
  DirectionWeights d;
  d.w = gates_first(weight(layer, "kernel"), spec);
  d.r = gates_first(weight(layer, "recurrent_kernel"), spec);
  const std::size_t n = spec.keras_gate.size() * static_cast<std::size_t>(spec.units);
  std::vector<float> b(2 * n, 0.f);
  if (spec.config.value("use_bias", true) && has_weight(layer, "bias")) {
    const std::vector<float> bias = weight(layer, "bias").to_vector<float>();
    const std::vector<float> input_bias = reordered_bias({bias.begin(), bias.begin() + n}, spec);
    std::copy(input_bias.begin(), input_bias.end(), b.begin());
    if (bias.size() == 2 * n) {  // GRU reset_after: [input bias; recurrent bias]
      const std::vector<float> recurrent_bias = reordered_bias({bias.begin() + n, bias.end()}, spec);
      std::copy(recurrent_bias.begin(), recurrent_bias.end(), b.begin() + n);
    }
  }
  d.b = Tensor::from_vector(b, {static_cast<std::int64_t>(2 * n)});
  return d;
}

std::vector<Attribute> recurrent_attributes(const Layer& layer, const RecurrentSpec& spec, const std::string& direction) {
  const int directions = direction == "bidirectional" ? 2 : 1;
  std::vector<std::string> names;
  // Each activation that has an alpha (a beta) takes the next value of activation_alpha (activation_beta): the
  // lists hold no entries for the others.
  std::vector<float> alphas, betas;
  for (int d = 0; d < directions; ++d)
    for (const auto& keras : spec.activations) {
      const RecurrentActivation a = recurrent_activation(layer, keras);
      names.push_back(a.name);
      if (a.name == "HardSigmoid" || a.name == "Affine" || a.name == "Elu") alphas.push_back(a.alpha);
      if (a.name == "HardSigmoid" || a.name == "Affine") betas.push_back(a.beta);
    }
  std::vector<Attribute> out{{"hidden_size", spec.units}, {"direction", direction}, {"activations", names}};
  if (!alphas.empty()) out.push_back({"activation_alpha", alphas});
  if (!betas.empty()) out.push_back({"activation_beta", betas});
  if (spec.op == "GRU") out.push_back({"linear_before_reset", std::int64_t{spec.linear_before_reset ? 1 : 0}});
  return out;
}

}  // namespace keras::onnx
