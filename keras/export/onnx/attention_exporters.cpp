// ONNX exporters of Attention (dot or concat scores) and AdditiveAttention: scores [batch, Tq, Tv], a softmax
// over Tv (masked keys, and later positions when causal, pushed down by 1e9 as Keras), then the weighted sum of
// the values (zero for masked queries); and of MultiHeadAttention (its projections and per-head products as
// Einsums, Keras's query/value/key masks, inputs of rank > 3 with attention over all their middle axes).
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

// A bool [batch, steps] Keras mask as float32 [batch, 1, steps] (axis 1) or [batch, steps, 1] (axis 2).
std::string mask_as_float(GraphBuilder& g, const std::string& mask, std::int64_t axis) {
  return g.op1("Unsqueeze", {g.op1("Cast", {mask}, {{"to", std::int64_t{1}}}), g.int64s("axes", {axis})});
}

// The product of the given keep factors ("" skipped), "" when none.
std::string product(GraphBuilder& g, const std::vector<std::string>& factors) {
  std::string all;
  for (const auto& f : factors)
    if (!f.empty()) all = all.empty() ? f : g.op1("Mul", {all, f});
  return all;
}

// [1, tq, tv]: 1 where key j <= query i.
std::string causal_keep(GraphBuilder& g, const Layer& layer, std::int64_t tq, std::int64_t tv) {
  if (tq < 0 || tv < 0) not_exportable(layer, "a causal mask needs known query and value lengths");
  std::vector<float> keep(static_cast<std::size_t>(tq * tv));
  for (std::int64_t i = 0; i < tq; ++i)
    for (std::int64_t j = 0; j < tv; ++j) keep[i * tv + j] = j <= i ? 1.f : 0.f;
  return g.floats("causal_mask", keep, {1, tq, tv});
}

// Keras's masked softmax over the last axis: scores - (1 - keep) * 1e9 (keep "" for none).
std::string masked_softmax(GraphBuilder& g, std::string scores, const std::string& keep) {
  if (!keep.empty())
    scores = g.op1("Sub", {scores, g.op1("Mul", {g.op1("Sub", {g.scalar("one", 1.f), keep}), g.scalar("big", 1e9f)})});
  return g.op1("Softmax", {scores}, {{"axis", std::int64_t{-1}}});
}

std::vector<std::string> attention(GraphBuilder& g, const Layer& layer, const LayerCall& call) {
  if (call.inputs.size() < 2 || call.output_shapes.size() != 1)
    not_exportable(layer, "it exports for inputs {query, value[, key]} and one output");
  const std::string& query = call.inputs[0];
  const std::string& value = call.inputs[1];
  const std::string& key = call.inputs.size() > 2 ? call.inputs[2] : value;
  const std::string s = scores(g, layer, query, key);
  // Keras masks: the value mask hides keys; the query mask zeroes the outputs of masked queries.
  std::string keep = call.mask(1).empty() ? "" : mask_as_float(g, call.mask(1), 1);
  if (layer.get_config().value("causal", false))
    keep = product(g, {keep, causal_keep(g, layer, call.shape(0)[1], call.shape(1)[1])});
  std::string out = g.op1("MatMul", {masked_softmax(g, s, keep), value});
  if (!call.mask(0).empty()) out = g.op1("Mul", {out, mask_as_float(g, call.mask(0), 2)});
  return one(out);
}

// x [b, t, d] projected by the layer's `name`/kernel [d, heads, size] (+ bias [heads, size]) to [b, t, heads, size].
std::string project(GraphBuilder& g, const Layer& layer, const std::string& name, const std::string& x, bool bias) {
  std::string y = g.op1("Einsum", {x, g.initializer(name + "_kernel", weight(layer, name + "/kernel"))},
                        {{"equation", std::string("btd,dhk->bthk")}});
  return bias ? g.op1("Add", {y, g.initializer(name + "_bias", weight(layer, name + "/bias"))}) : y;
}

std::vector<std::string> multi_head_attention(GraphBuilder& g, const Layer& layer, const LayerCall& call) {
  const json c = layer.get_config();
  const std::size_t rank = call.shape(0).size();
  for (const auto& shape : call.input_shapes)
    if (shape.size() != rank || rank < 3) not_exportable(layer, "its inputs are not all of one rank >= 3");
  // Attention over every axis between the batch and the features (Keras's default): the same as attention over
  // one time axis of those axes flattened, which is how inputs of rank > 3 are exported.
  json all_middle = json::array();
  for (std::size_t a = 1; a + 1 < rank; ++a) all_middle.push_back(a);
  json axes = c.value("attention_axes", json(nullptr));
  if (axes.is_number()) axes = json::array({axes});
  if (axes.is_array() && axes.empty()) axes = nullptr;
  if (axes.is_array())
    for (auto& a : axes)
      if (a.get<std::int64_t>() < 0) a = a.get<std::int64_t>() + static_cast<std::int64_t>(rank);
  if (!axes.is_null() && axes != all_middle)
    not_exportable(layer, "attention_axes " + axes.dump() + " leave axes between the batch and the features out of "
                          "the attention; only attention over all of them (the default) is exported");
  if (call.output_shapes.size() != 1) not_exportable(layer, "return_attention_scores is not exported");
  const bool bias = c.value("use_bias", true);
  const std::int64_t key_dim = c.at("key_dim").get<std::int64_t>();
  auto flat = [&](std::size_t i) {  // [batch, mid..., d] → [batch, prod(mid), d]
    return rank == 3 ? call.inputs[i] : g.op1("Reshape", {call.inputs[i], g.int64s("flat", {0, -1, call.shape(i).back()})});
  };
  const std::string query = flat(0), value = flat(1);
  const std::string key = call.inputs.size() > 2 ? flat(2) : value;
  std::string q = project(g, layer, "query", query, bias);
  q = g.op1("Mul", {q, g.scalar("inverse_sqrt_key_dim", static_cast<float>(1.0 / std::sqrt(double(key_dim))))});
  const std::string k = project(g, layer, "key", key, bias), v = project(g, layer, "value", value, bias);
  const std::string scores = g.op1("Einsum", {q, k}, {{"equation", std::string("bthk,bshk->bhts")}});
  // Keras masks: keep [batch, T, S] = query mask [batch, T, 1] * value and key masks [batch, 1, S], per head.
  std::string keep = product(g, {call.mask(0).empty() ? "" : mask_as_float(g, call.mask(0), 2),
                                 call.mask(1).empty() ? "" : mask_as_float(g, call.mask(1), 1),
                                 call.mask(2).empty() ? "" : mask_as_float(g, call.mask(2), 1)});
  if (!keep.empty()) keep = g.op1("Unsqueeze", {keep, g.int64s("axes", {1})});
  const std::string probs = masked_softmax(g, scores, keep);
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
  if (out_shape.size() > 3 || rank > 3) {
    // [batch, mid..., output dims...]: the query's leading dimensions, then the output kernel's.
    const std::string lead = g.op1("Slice", {g.op1("Shape", {call.inputs[0]}), g.int64s("starts", {0}),
                                             g.int64s("ends", {static_cast<std::int64_t>(rank) - 1}), g.int64s("axes", {0})});
    const Shape full = weight(layer, "attention_output/kernel").shape();
    const std::vector<std::int64_t> out_dims(full.begin() + 2, full.end());
    const std::string target = g.op1("Concat", {lead, g.int64s("output_dims", out_dims)}, {{"axis", std::int64_t{0}}});
    y = g.op1("Reshape", {y, target});
  }
  return one(y);
}

const bool registered = register_exporters({{"Attention", attention},
                                            {"AdditiveAttention", attention},
                                            {"MultiHeadAttention", multi_head_attention}});

}  // namespace
}  // namespace keras::onnx
