// load_onnx: ONNX nodes back to Keras layers. Values are KerasTensors; a value seen through a channels-last →
// channels-first Transpose is the same KerasTensor marked channels-first, so the Conv or pooling reading it
// becomes Keras's channels-last layer and the Transpose back unmarks it. Elementwise activations commute with
// the marks. Reshapes (and Unsqueezes) that only move a single channel between the layouts, as tf2onnx writes
// them before a Conv, are marks too. A MatMul whose only reader adds a bias is one Dense; a Mul by a per-channel constant whose only
// reader adds one is a BatchNormalization holding that scale and shift.
#include "keras/import/onnx/load_onnx.hpp"

#include <map>
#include <set>

#include "keras/errors.hpp"
#include "keras/import/onnx/onnx_translator.hpp"
#include "keras/json.hpp"
#include "keras/ops/manipulation.hpp"
#include "layers/merging/elementwise.hpp"

namespace keras::onnx {
namespace {

const std::map<std::string, std::string> kActivations = {
    {"Relu", "relu"}, {"Sigmoid", "sigmoid"}, {"Tanh", "tanh"}, {"Softplus", "softplus"}, {"Softsign", "softsign"},
    {"Exp", "exponential"}, {"Selu", "selu"}, {"Elu", "elu"}};

std::vector<std::int64_t> channels_first_perm(std::size_t rank) {
  std::vector<std::int64_t> p{0, static_cast<std::int64_t>(rank) - 1};
  for (std::size_t i = 1; i + 1 < rank; ++i) p.push_back(static_cast<std::int64_t>(i));
  return p;
}

std::vector<std::int64_t> channels_last_perm(std::size_t rank) {
  std::vector<std::int64_t> p{0};
  for (std::size_t i = 2; i < rank; ++i) p.push_back(static_cast<std::int64_t>(i));
  p.push_back(1);
  return p;
}

// Keras's padding for ONNX pads, or "" when none gives them.
std::string keras_padding(const OnnxNode& n, const Shape& in_spatial, const std::vector<std::int64_t>& kernel_eff,
                          const std::vector<std::int64_t>& strides) {
  const std::size_t k = kernel_eff.size();
  if (n.attributes.value("auto_pad", std::string("NOTSET")) == "SAME_UPPER") return "same";
  const auto pads = n.integers("pads", std::vector<std::int64_t>(2 * k, 0));
  if (std::all_of(pads.begin(), pads.end(), [](auto p) { return p == 0; })) return "valid";
  bool same = true, causal = k == 1 && pads[0] == kernel_eff[0] - 1 && pads[1] == 0;
  for (std::size_t i = 0; i < k; ++i) {
    if (in_spatial[i] < 0) return "";
    const std::int64_t out = (in_spatial[i] + strides[i] - 1) / strides[i];
    const std::int64_t total = std::max<std::int64_t>((out - 1) * strides[i] + kernel_eff[i] - in_spatial[i], 0);
    same = same && pads[i] == total / 2 && pads[k + i] == total - total / 2;
  }
  return same ? "same" : causal ? "causal" : "";
}

Shape spatial_of(const KerasTensor& t) { return Shape(t.shape().begin() + 1, t.shape().end() - 1); }

}  // namespace

void Translator::translate_conv(const OnnxNode& n) {
  if (n.inputs.size() < 2 || !is_constant(n.inputs[1])) return unsupported(n, "weights not constant");
  const Value& x = value(n.inputs[0]);
  if (!x.channels_first) return unsupported(n, "input not channels-first");
  const Tensor& w = constant(n.inputs[1]);
  const std::size_t k = w.shape().size() - 2;
  const auto kernel = n.integers("kernel_shape", Shape(w.shape().begin() + 2, w.shape().end()));
  const auto strides = n.integers("strides", std::vector<std::int64_t>(k, 1));
  const auto dilations = n.integers("dilations", std::vector<std::int64_t>(k, 1));
  std::vector<std::int64_t> eff;
  for (std::size_t i = 0; i < k; ++i) eff.push_back((kernel[i] - 1) * dilations[i] + 1);
  const std::string padding = keras_padding(n, spatial_of(x.tensor), eff, strides);
  if (padding.empty()) return unsupported(n, "pads of no Keras padding");
  std::vector<int> inverse(k + 2);  // ONNX [out, in, k...] → Keras [k..., in, out]
  for (std::size_t i = 0; i < k; ++i) inverse[i] = static_cast<int>(i) + 2;
  inverse[k] = 1;
  inverse[k + 1] = 0;
  std::vector<Tensor> weights{ops::transpose(w, inverse).clone()};
  const bool bias = n.inputs.size() > 2 && !n.inputs[2].empty();
  if (bias) weights.push_back(constant(n.inputs[2]));
  const json config = {{"filters", w.dim(0)}, {"kernel_size", kernel}, {"strides", strides}, {"padding", padding},
                       {"dilation_rate", dilations}, {"groups", n.integer("group", 1)}, {"use_bias", bias}};
  values_[n.outputs[0]] = {apply("Conv" + std::to_string(k) + "D", config, {x.tensor}, weights), true};
}

void Translator::translate_pool(const OnnxNode& n) {
  const Value& x = value(n.inputs[0]);
  if (!x.channels_first) return unsupported(n, "input not channels-first");
  const auto kernel = n.integers("kernel_shape");
  const std::size_t k = kernel.size();
  const auto strides = n.integers("strides", std::vector<std::int64_t>(k, 1));
  const std::string padding = keras_padding(n, spatial_of(x.tensor), kernel, strides);
  if (padding.empty() || padding == "causal") return unsupported(n, "pads of no Keras padding");
  const std::string kind = n.op == "MaxPool" ? "MaxPooling" : "AveragePooling";
  const json config = {{"pool_size", kernel}, {"strides", strides}, {"padding", padding}};
  values_[n.outputs[0]] = {apply(kind + std::to_string(k) + "D", config, {x.tensor}), true};
}

void Translator::translate_matmul(std::size_t index) {
  const OnnxNode& n = graph_.nodes[index];
  if (!is_constant(n.inputs[1]) || constant(n.inputs[1]).ndim() != 2) return unsupported(n, "a product of two inputs");
  const Tensor& kernel = constant(n.inputs[1]);
  std::vector<Tensor> weights{kernel};
  std::string out = n.outputs[0];
  if (auto add = only_reader(out, "Add"); add && constant(graph_.nodes[*add].inputs[1]).shape() == Shape{kernel.dim(1)}) {
    weights.push_back(constant(graph_.nodes[*add].inputs[1]));
    out = graph_.nodes[*add].outputs[0];
    done_.insert(*add);
  }
  const json config = {{"units", kernel.dim(1)}, {"use_bias", weights.size() == 2}};
  values_[out] = {apply("Dense", config, {value(n.inputs[0]).tensor}, weights)};
}

// Mul by a constant [1, ..., C] then Add of one: BatchNormalization with gamma = scale, beta = shift, mean 0 and
// variance 1 - epsilon.
void Translator::translate_scale(std::size_t index) {
  const OnnxNode& n = graph_.nodes[index];
  const Value& x = value(n.inputs[0]);
  const auto add = only_reader(n.outputs[0], "Add");
  const Tensor& scale = constant(n.inputs[1]);
  const std::int64_t channels = x.tensor.shape().back();
  const bool per_channel = scale.size() == channels && scale.shape().back() == channels;
  if (!add || x.channels_first || !per_channel || constant(graph_.nodes[*add].inputs[1]).size() != channels)
    return unsupported(n, "a product other than a per-channel scale and shift");
  constexpr float eps = 1e-3f;
  const Shape c{channels};
  const std::vector<Tensor> weights{scale.reshape(c), constant(graph_.nodes[*add].inputs[1]).reshape(c), Tensor::zeros(c),
                                    Tensor::full(c, 1.0 - eps)};
  done_.insert(*add);
  values_[graph_.nodes[*add].outputs[0]] = {apply("BatchNormalization", {{"epsilon", eps}}, {x.tensor}, weights)};
}

// Reshape (with a leading 0, or -1 before known dimensions, as tf2onnx writes it) and Unsqueeze with constant
// axes: Keras's Reshape. A reshape between the channels-last and channels-first layouts of a tensor with one
// channel (tf2onnx's [N, H, W, 1] → [N, 1, H, W] before a Conv) only marks the value.
void Translator::translate_reshape(const OnnxNode& n) {
  const Value& x = value(n.inputs[0]);
  const Shape& in = x.tensor.shape();  // Keras's (channels-last) shape, batch -1
  const auto arg = constant(n.inputs[1]).to_vector<std::int64_t>();
  Shape target;
  if (n.op == "Unsqueeze") {
    if (x.channels_first) return unsupported(n, "an unsqueeze of a channels-first value");
    const auto rank = static_cast<std::int64_t>(in.size() + arg.size());
    std::set<std::int64_t> axes;
    for (auto a : arg) axes.insert(a < 0 ? a + rank : a);
    if (axes.count(0)) return unsupported(n, "an unsqueeze of the batch axis");
    for (std::int64_t i = 0, j = 0; i < rank; ++i) target.push_back(axes.count(i) ? 1 : in[static_cast<std::size_t>(j++)]);
  } else {
    if (arg.empty() || (arg[0] != 0 && arg[0] != -1)) return unsupported(n, "a reshape of the batch axis");
    target = {-1};
    for (std::size_t i = 1; i < arg.size(); ++i) target.push_back(arg[i] == 0 && i < in.size() ? in[i] : arg[i]);
    if (arg[0] == -1 && std::any_of(target.begin() + 1, target.end(), [](auto d) { return d < 0; }))
      return unsupported(n, "a reshape with the batch and another dimension unknown");
  }
  // The same elements in the other layout: only the mark changes.
  if (in.size() >= 3 && target.size() == in.size() && in.back() == 1) {
    Shape cf{in[0], 1};
    cf.insert(cf.end(), in.begin() + 1, in.end() - 1);
    if (!x.channels_first && std::equal(target.begin() + 1, target.end(), cf.begin() + 1)) {
      values_[n.outputs[0]] = {x.tensor, true};
      return;
    }
  }
  if (x.channels_first) {
    if (in.back() == 1 && target.size() == in.size() && std::equal(target.begin() + 1, target.end(), in.begin() + 1)) {
      values_[n.outputs[0]] = {x.tensor, false};
      return;
    }
    return unsupported(n, "a reshape of a channels-first value");
  }
  values_[n.outputs[0]] = {apply("Reshape", {{"target_shape", std::vector<std::int64_t>(target.begin() + 1, target.end())}},
                                 {x.tensor})};
}

void Translator::translate(std::size_t index) {
  const OnnxNode& n = graph_.nodes[index];
  for (const auto& in : n.inputs)
    if (!in.empty() && !is_constant(in) && !values_.count(in)) return unsupported(n, "reads an untranslated value");
  if (n.op == "LSTM" || n.op == "GRU" || n.op == "RNN") return translate_recurrent(index);
  if (translate_view(n)) return;
  for (const auto& in : n.inputs)
    if (values_.count(in) && !values_.at(in).mark.empty()) return unsupported(n, "reads a recurrent op's " + values_.at(in).mark + " view");
  if (n.op == "Identity" || n.op == "Dropout") {
    values_[n.outputs[0]] = value(n.inputs[0]);
  } else if (n.op == "Transpose") {
    const Value& x = value(n.inputs[0]);
    const std::size_t rank = x.tensor.shape().size();
    const auto perm = n.integers("perm");
    if (!x.channels_first && perm == channels_first_perm(rank)) values_[n.outputs[0]] = {x.tensor, true};
    else if (x.channels_first && perm == channels_last_perm(rank)) values_[n.outputs[0]] = {x.tensor, false};
    else if (!x.channels_first && !perm.empty() && perm[0] == 0)
      values_[n.outputs[0]] = {apply("Permute", {{"dims", std::vector<std::int64_t>(perm.begin() + 1, perm.end())}}, {x.tensor})};
    else unsupported(n, "a permutation of the batch axis");
  } else if (n.op == "Conv") {
    translate_conv(n);
  } else if (n.op == "MaxPool" || n.op == "AveragePool") {
    translate_pool(n);
  } else if (n.op == "MatMul") {
    translate_matmul(index);
  } else if (n.op == "Mul" && is_constant(n.inputs[1])) {
    translate_scale(index);
  } else if (n.op == "Cast") {  // the indices of an Embedding (which casts them itself)
    values_[n.outputs[0]] = value(n.inputs[0]);
  } else if (n.op == "Gather" && is_constant(n.inputs[0]) && constant(n.inputs[0]).ndim() == 2 && n.integer("axis", 0) == 0) {
    const Tensor& table = constant(n.inputs[0]);
    values_[n.outputs[0]] = {apply("Embedding", {{"input_dim", table.dim(0)}, {"output_dim", table.dim(1)}},
                                   {value(n.inputs[1]).tensor}, {table})};
  } else if (n.op == "LeakyRelu") {
    const Value& x = value(n.inputs[0]);
    values_[n.outputs[0]] = {apply("LeakyReLU", {{"alpha", n.attributes.value("alpha", 0.01f)}}, {x.tensor}), x.channels_first};
  } else if (kActivations.count(n.op) && (n.op != "Elu" || n.attributes.value("alpha", 1.f) == 1.f)) {
    const Value& x = value(n.inputs[0]);
    values_[n.outputs[0]] = {apply("Activation", {{"activation", kActivations.at(n.op)}}, {x.tensor}), x.channels_first};
  } else if (n.op == "Softmax" && !value(n.inputs[0]).channels_first &&
             (n.integer("axis", -1) == -1 || n.integer("axis", -1) + 1 == static_cast<std::int64_t>(value(n.inputs[0]).tensor.shape().size()))) {
    values_[n.outputs[0]] = {apply("Activation", {{"activation", "softmax"}}, {value(n.inputs[0]).tensor})};
  } else if (n.op == "Flatten" && n.integer("axis", 1) == 1 && !value(n.inputs[0]).channels_first) {
    values_[n.outputs[0]] = {apply("Flatten", json::object(), {value(n.inputs[0]).tensor})};
  } else if ((n.op == "Reshape" || n.op == "Unsqueeze") && n.inputs.size() == 2 && is_constant(n.inputs[1])) {
    translate_reshape(n);
  } else if ((n.op == "Add" || n.op == "Sum") && n.inputs.size() >= 2 &&
             std::none_of(n.inputs.begin(), n.inputs.end(), [&](const std::string& s) { return is_constant(s) || value(s).channels_first; })) {
    std::vector<KerasTensor> xs;
    for (const auto& s : n.inputs) xs.push_back(value(s).tensor);
    values_[n.outputs[0]] = {layers::add(xs)};
  } else if (n.op == "Concat" && std::none_of(n.inputs.begin(), n.inputs.end(), [&](const std::string& s) { return is_constant(s) || value(s).channels_first; })) {
    std::vector<KerasTensor> xs;
    for (const auto& s : n.inputs) xs.push_back(value(s).tensor);
    values_[n.outputs[0]] = {apply("Concatenate", {{"axis", n.integer("axis", -1)}}, xs)};
  } else if ((n.op == "ReduceMean" || n.op == "ReduceMax") && !value(n.inputs[0]).channels_first) {
    const std::size_t rank = value(n.inputs[0]).tensor.shape().size();
    std::vector<std::int64_t> spatial;
    for (std::size_t i = 1; i + 1 < rank; ++i) spatial.push_back(static_cast<std::int64_t>(i));
    if (n.integers("axes") != spatial) return unsupported(n, "a reduction over other axes than the spatial ones");
    const std::string kind = n.op == "ReduceMean" ? "GlobalAveragePooling" : "GlobalMaxPooling";
    values_[n.outputs[0]] = {apply(kind + std::to_string(rank - 2) + "D", {{"keepdims", n.integer("keepdims", 1) == 1}},
                                   {value(n.inputs[0]).tensor})};
  } else {
    unsupported(n);
  }
}

std::shared_ptr<Model> Translator::run() {
  std::vector<KerasTensor> inputs;
  for (const auto& in : graph_.inputs) {
    Shape shape(in.shape.begin() + 1, in.shape.end());
    inputs.push_back(keras::Input(shape, {.name = in.name, .dtype = in.dtype}));
    values_[in.name] = {inputs.back()};
  }
  for (std::size_t i = 0; i < graph_.nodes.size(); ++i)
    if (!done_.count(i)) translate(i);
  if (!unsupported_.empty()) {
    std::string list;
    for (const auto& op : unsupported_) list += (list.empty() ? "" : ", ") + op;
    throw ValueError("load_onnx: " + path_ + " has ONNX ops or patterns without a Keras layer here: " + list);
  }
  std::vector<KerasTensor> outputs;
  for (const auto& name : graph_.outputs) {
    const Value& v = value(name);
    if (v.channels_first || !v.mark.empty())
      throw ValueError("load_onnx: output '" + name + "' of " + path_ + " is not in Keras's layout");
    outputs.push_back(v.tensor);
  }
  return std::make_shared<Model>(inputs, outputs, graph_.name);
}

}  // namespace keras::onnx

namespace keras::models {

std::shared_ptr<Model> load_onnx(const std::string& path) {
  const onnx::OnnxGraph graph = onnx::read_onnx(path);
  return onnx::Translator(graph, path).run();
}

}  // namespace keras::models
