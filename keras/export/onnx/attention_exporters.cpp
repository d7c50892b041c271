// ONNX exporters of Attention (dot or concat scores) and AdditiveAttention: scores [batch, Tq, Tv], a softmax
// over Tv (causal: later positions pushed down by 1e9, as Keras), then the weighted sum of the values; and of
// MultiHeadAttention over rank-3 inputs, its projections and per-head products as Einsums.
#include <cmath>

#include "keras/export/onnx/export_helpers.hpp"
#include "keras/json.hpp"
#include "keras/layer.hpp"

namespace keras::onnx {
namespace {

// query [b, Tq, d] + key [b, Tv, d] → [b, Tq, Tv, d].
std::string pairwise_sum(GraphBuilder& g, const std::string& query, const std::string& key) {
  return g.op1("Add", {g.op1("Unsqueeze", {query, g.int64s("axes", {2})}), g.op1("Unsqueeze", {key, g.int64s("axes", {1})})});
}

std::string scores(GraphBuilder& g, const Layer& layer, const std::string& query, const std::string& key) {
  const json c = layer.get_config();
  if (layer.class_name() == "AdditiveAttention") {
    std::string t = g.op1("Tanh", {pairwise_sum(g, query, key)});
    if (c.value("use_scale", true)) t = g.op1("Mul", {t, g.initializer("scale", weight(layer, "scale"))});
    return reduce(g, "Sum", t, {-1}, false);
  }
  const bool scaled = c.value("use_scale", false);
  if (c.value("score_mode", std::string("dot")) == "dot") {
    const std::string kt = g.op1("Transpose", {key}, {{"perm", std::vector<std::int64_t>{0, 2, 1}}});
    const std::string s = g.op1("MatMul", {query, kt});
    return scaled ? g.op1("Mul", {s, g.initializer("scale", weight(layer, "scale"))}) : s;
  }
  std::string sum = pairwise_sum(g, query, key);
  if (scaled) sum = g.op1("Mul", {sum, g.initializer("scale", weight(layer, "scale"))});
  const std::string s = reduce(g, "Sum", g.op1("Tanh", {sum}), {-1}, false);
  return g.op1("Mul", {s, g.initializer("concat_score_weight", weight(layer, "concat_score_weight"))});
}

std::vector<std::string> attention(GraphBuilder& g, const Layer& layer, const LayerCall& call) {
  if (call.inputs.size() < 2 || call.output_shapes.size() != 1)
    not_exportable(layer, "it exports for inputs {query, value[, key]} and one output");
  const std::string& query = call.inputs[0];
  const std::string& value = call.inputs[1];
  const std::string& key = call.inputs.size() > 2 ? call.inputs[2] : value;
  std::string s = scores(g, layer, query, key);
  if (layer.get_config().value("causal", false)) {
    const std::int64_t tq = call.shape(0)[1], tv = call.shape(1)[1];
    if (tq < 0 || tv < 0) not_exportable(layer, "a causal mask needs known query and value lengths");
    std::vector<float> penalty(static_cast<std::size_t>(tq * tv));
    for (std::int64_t i = 0; i < tq; ++i)
      for (std::int64_t j = 0; j < tv; ++j) penalty[i * tv + j] = j <= i ? 0.f : 1e9f;
    s = g.op1("Sub", {s, g.floats("causal_penalty", penalty, {1, tq, tv})});
  }
  const std::string weights = g.op1("Softmax", {s}, {{"axis", std::int64_t{-1}}});
  return one(g.op1("MatMul", {weights, value}));
}

// x [b, t, d] projected by the layer's `name`/kernel [d, heads, size] (+ bias [heads, size]) to [b, t, heads, size].
std::string project(GraphBuilder& g, const Layer& layer, const std::string& name, const std::string& x, bool bias) {
  std::string y = g.op1("Einsum", {x, g.initializer(name + "_kernel", weight(layer, name + "/kernel"))},
                        {{"equation", std::string("btd,dhk->bthk")}});
  return bias ? g.op1("Add", {y, g.initializer(name + "_bias", weight(layer, name + "/bias"))}) : y;
}

std::vector<std::string> multi_head_attention(GraphBuilder& g, const Layer& layer, const LayerCall& call) {
  const json c = layer.get_config();
  for (const auto& shape : call.input_shapes)
    if (shape.size() != 3) not_exportable(layer, "it exports for rank-3 inputs [batch, time, features]");
  const json axes = c.value("attention_axes", json(nullptr));
  if (!axes.is_null() && axes != json::array({1}) && axes != json::array({-2}))
    not_exportable(layer, "attention_axes other than the time axis are not exported");
  if (call.output_shapes.size() != 1) not_exportable(layer, "return_attention_scores is not exported");
  const bool bias = c.value("use_bias", true);
  const std::int64_t key_dim = c.at("key_dim").get<std::int64_t>();
  const std::string& value = call.inputs[1];
  const std::string& key = call.inputs.size() > 2 ? call.inputs[2] : value;
  std::string q = project(g, layer, "query", call.inputs[0], bias);
  q = g.op1("Mul", {q, g.scalar("inverse_sqrt_key_dim", static_cast<float>(1.0 / std::sqrt(double(key_dim))))});
  const std::string k = project(g, layer, "key", key, bias), v = project(g, layer, "value", value, bias);
  const std::string scores = g.op1("Einsum", {q, k}, {{"equation", std::string("bthk,bshk->bhts")}});
  const std::string probs = g.op1("Softmax", {scores}, {{"axis", std::int64_t{-1}}});
  const std::string context = g.op1("Einsum", {probs, v}, {{"equation", std::string("bhts,bshv->bthv")}});
  Tensor kernel = weight(layer, "attention_output/kernel");  // [heads, value_dim, output...]
  const Shape& out_shape = call.output_shapes[0];
  const std::int64_t out = shape_size(Shape(kernel.shape().begin() + 2, kernel.shape().end()));
  kernel = kernel.reshape({kernel.dim(0), kernel.dim(1), out});
  std::string y = g.op1("Einsum", {context, g.initializer("output_kernel", kernel)}, {{"equation", std::string("bthv,hvo->bto")}});
  if (bias) {
    const Tensor b = weight(layer, "attention_output/bias");
    y = g.op1("Add", {y, g.initializer("output_bias", b.reshape({out}))});
  }
  if (out_shape.size() > 3) {
    std::vector<std::int64_t> target{0, 0};
    target.insert(target.end(), out_shape.begin() + 2, out_shape.end());
    y = g.op1("Reshape", {y, g.int64s("output_shape", target)});
  }
  return one(y);
}

const bool registered = register_exporters({{"Attention", attention},
                                            {"AdditiveAttention", attention},
                                            {"MultiHeadAttention", multi_head_attention}});

}  // namespace
}  // namespace keras::onnx
