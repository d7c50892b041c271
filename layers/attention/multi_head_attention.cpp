#include "layers/attention/multi_head_attention.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "keras/config/fields.hpp"
#include "keras/config/layer_config.hpp"
#include "keras/function/capture.hpp"
#include "keras/ops/batch_matmul.hpp"
#include "keras/ops/fused_attention.hpp"
#include "keras/ops/manipulation.hpp"
#include "keras/ops/math.hpp"
#include "keras/ops/nn.hpp"
#include "keras/ops/shape.hpp"
#include "layers/attention/attention_utils.hpp"

namespace keras::layers {

// value_dim, output_shape and attention_axes are written by hand: Keras writes None for their unset
// values and an int or a list for the last two.
KERAS_FIELDS(MultiHeadAttentionOptions, dropout, use_bias, kernel_initializer, bias_initializer, kernel_regularizer,
             bias_regularizer, activity_regularizer, kernel_constraint, bias_constraint)

namespace {

std::int64_t product(const Shape& s) {
  std::int64_t p = 1;
  for (auto d : s) p *= d;
  return p;
}

json shape_json(const Shape& s) {
  json j = json::array();
  for (auto d : s) j.push_back(d < 0 ? json(nullptr) : json(d));
  return j;
}

Shape shape_from_json(const json& j) {
  Shape s;
  for (const auto& d : j) s.push_back(d.is_null() ? -1 : d.get<std::int64_t>());
  return s;
}

}  // namespace

MultiHeadAttention::MultiHeadAttention(std::int64_t num_heads, std::int64_t key_dim, MultiHeadAttentionOptions options)
    : Layer(options, "multi_head_attention"),
      num_heads_(num_heads),
      key_dim_(key_dim),
      value_dim_(options.value_dim > 0 ? options.value_dim : key_dim),
      options_(std::move(options)) {
  if (num_heads <= 0 || key_dim <= 0)
    throw ValueError(fmt::format("MultiHeadAttention: num_heads and key_dim must be positive, received num_heads={}, "
                                 "key_dim={}",
                                 num_heads, key_dim));
  if (!(options_.dropout >= 0.0 && options_.dropout < 1.0))
    throw ValueError(fmt::format("MultiHeadAttention: dropout must be in [0, 1), received {}", options_.dropout));
  for (auto d : options_.output_shape)
    if (d <= 0) throw ValueError("MultiHeadAttention: output_shape must hold positive sizes, received " +
                                 shape_str(options_.output_shape));
  set_activity_regularizer(options_.activity_regularizer);
}

void MultiHeadAttention::check_shapes(const std::vector<Shape>& s) const {
  if (s.size() != 2 && s.size() != 3)
    throw ValueError(fmt::format("MultiHeadAttention \"{}\" must be called on {{query, value}} or {{query, value, "
                                 "key}}, received {} input(s)",
                                 name(), s.size()));
  const Shape& q = s[0];
  const Shape& v = s[1];
  const Shape& k = s.size() == 3 ? s[2] : s[1];
  if (q.size() < 3 || v.size() != q.size() || k.size() != q.size())
    throw ValueError(fmt::format("MultiHeadAttention \"{}\": query, value and key need the same rank (at least 3: "
                                 "[batch, T, dim]), got {}, {} and {}",
                                 name(), shape_str(q), shape_str(v), shape_str(k)));
  for (const Shape* x : {&q, &v, &k})
    if (x->back() <= 0)
      throw ValueError(fmt::format("MultiHeadAttention \"{}\" needs known last dimensions, got {}", name(),
                                   shape_str(*x)));
  for (std::size_t i = 1; i + 1 < v.size(); ++i)
    if (v[i] >= 0 && k[i] >= 0 && v[i] != k[i])
      throw ValueError(fmt::format("MultiHeadAttention \"{}\": value and key shapes differ: {} vs {}", name(),
                                   shape_str(v), shape_str(k)));
  attention_axes_for(static_cast<int>(q.size()));
}

std::vector<int> MultiHeadAttention::attention_axes_for(int rank) const {
  std::vector<int> axes;
  if (options_.attention_axes.empty()) {
    for (int a = 1; a <= rank - 2; ++a) axes.push_back(a);
    return axes;
  }
  for (int a : options_.attention_axes) {
    const int n = a < 0 ? a + rank : a;
    if (n < 1 || n > rank - 2)
      throw ValueError(fmt::format("MultiHeadAttention \"{}\": attention axis {} is not an axis between the batch and "
                                   "the feature axis of rank-{} inputs",
                                   name(), a, rank));
    axes.push_back(n);
  }
  std::sort(axes.begin(), axes.end());
  axes.erase(std::unique(axes.begin(), axes.end()), axes.end());
  return axes;
}

void MultiHeadAttention::build(const std::vector<Shape>& shapes) {
  check_shapes(shapes);
  const std::int64_t dq = shapes[0].back(), dv = shapes[1].back(), dk = (shapes.size() == 3 ? shapes[2] : shapes[1]).back();
  const auto& o = options_;
  auto kernel = [&](const std::string& n, const Shape& s) {
    return add_weight(n + "/kernel", s, o.kernel_initializer, true, o.kernel_regularizer, o.kernel_constraint);
  };
  auto bias = [&](const std::string& n, const Shape& s) {
    return o.use_bias ? add_weight(n + "/bias", s, o.bias_initializer, true, o.bias_regularizer, o.bias_constraint)
                      : nullptr;
  };
  query_kernel_ = kernel("query", {dq, num_heads_, key_dim_});
  query_bias_ = bias("query", {num_heads_, key_dim_});
  key_kernel_ = kernel("key", {dk, num_heads_, key_dim_});
  key_bias_ = bias("key", {num_heads_, key_dim_});
  value_kernel_ = kernel("value", {dv, num_heads_, value_dim_});
  value_bias_ = bias("value", {num_heads_, value_dim_});
  const Shape out = o.output_shape.empty() ? Shape{dq} : o.output_shape;
  Shape ok{num_heads_, value_dim_};
  ok.insert(ok.end(), out.begin(), out.end());
  output_kernel_ = kernel("attention_output", ok);
  output_bias_ = bias("attention_output", out);
  built_shapes_ = {shapes[0], shapes[1], shapes.size() == 3 ? shapes[2] : shapes[1]};
}

std::vector<Shape> MultiHeadAttention::compute_output_shape(const std::vector<Shape>& shapes) const {
  check_shapes(shapes);
  Shape out(shapes[0].begin(), shapes[0].end() - 1);
  if (options_.output_shape.empty()) out.push_back(shapes[0].back());
  else out.insert(out.end(), options_.output_shape.begin(), options_.output_shape.end());
  return {out};
}

// x [..., d] through kernel [d, heads, size] (+ bias [heads, size]) → [..., heads, size].
Tensor MultiHeadAttention::project(const Tensor& x, const std::shared_ptr<Variable>& kernel,
                                   const std::shared_ptr<Variable>& bias, std::int64_t size) const {
  const std::int64_t d = x.dim(-1);
  const Tensor k = ops::reshape(kernel->value(), {d, num_heads_ * size});
  const Tensor b = bias ? ops::reshape(bias->value(), {num_heads_ * size}) : Tensor();
  Shape s = x.shape();
  s.back() = num_heads_;
  s.push_back(size);
  return ops::reshape(ops::dense(x, k, b), s);
}

std::vector<Tensor> MultiHeadAttention::call(const std::vector<Tensor>& inputs, const CallContext& context) {
  return {call_with_args(inputs, {.query_mask = context.mask(0), .value_mask = context.mask(1),
                                  .key_mask = context.mask(2), .training = context.training})[0]};
}

std::vector<Tensor> MultiHeadAttention::call_with_args(const std::vector<Tensor>& inputs,
                                                       const MultiHeadAttentionCallArgs& args) {
  std::vector<Shape> shapes;
  for (const auto& t : inputs) shapes.push_back(t.shape());
  ensure_built(shapes);
  check_shapes(shapes);
  for (std::size_t i = 0; i < shapes.size(); ++i)
    if (shapes[i].back() != built_shapes_[i].back())
      throw ValueError(fmt::format("MultiHeadAttention \"{}\" was built for last dimensions {}/{}/{}, got input {} of "
                                   "shape {}",
                                   name(), built_shapes_[0].back(), built_shapes_[1].back(), built_shapes_[2].back(), i,
                                   shape_str(shapes[i])));
  const Tensor& q_in = inputs[0];
  const Tensor& v_in = inputs[1];
  const Tensor& k_in = inputs.size() == 3 ? inputs[2] : inputs[1];
  const int r = q_in.ndim(), m = r - 2;
  const std::int64_t batch = q_in.dim(0), H = num_heads_;
  const std::vector<int> axes = attention_axes_for(r);
  std::vector<int> others;
  for (int a = 1; a <= m; ++a)
    if (std::find(axes.begin(), axes.end(), a) == axes.end()) others.push_back(a);

  // [batch, mid..., H, d] → [batch, others..., H, axes..., d] → [N, T, d].
  std::vector<int> perm{0};
  perm.insert(perm.end(), others.begin(), others.end());
  perm.push_back(m + 1);
  perm.insert(perm.end(), axes.begin(), axes.end());
  perm.push_back(m + 2);
  std::vector<int> inverse(perm.size());
  for (std::size_t i = 0; i < perm.size(); ++i) inverse[perm[i]] = static_cast<int>(i);
  auto length = [&](const Tensor& x) {
    std::int64_t t = 1;
    for (int a : axes) t *= x.dim(a);
    return t;
  };
  std::int64_t outer = batch;
  for (int a : others) outer *= q_in.dim(a);
  const std::int64_t T = length(q_in), S = length(v_in);
  auto batched = [&](const Tensor& x, std::int64_t len, std::int64_t d) {
    return ops::reshape(ops::transpose(x, perm), {outer * H, len, d});
  };

  const Tensor q = ops::multiply(project(q_in, query_kernel_, query_bias_, key_dim_),
                                 jit::constant(Tensor::scalar(static_cast<float>(1.0 / std::sqrt(double(key_dim_))))));
  const Tensor k = project(k_in, key_kernel_, key_bias_, key_dim_);
  const Tensor v = project(v_in, value_kernel_, value_bias_, value_dim_);

  // The mask: [outer or 1, 1, T or 1, S or 1] against scores [outer, H, T, S].
  Tensor keep;
  const bool keras_masks = args.query_mask.defined() || args.value_mask.defined() || args.key_mask.defined();
  if ((keras_masks || args.use_causal_mask) && r != 3)
    throw ValueError(fmt::format("MultiHeadAttention \"{}\": query/value/key masks and use_causal_mask need "
                                          "rank-3 inputs [batch, T, dim]; pass attention_mask for rank {}",
                                          name(), r));
  auto check_mask = [&](const Tensor& mk, const Shape& want, const char* what) {
    if (mk.defined() && mk.shape() != want)
      throw ValueError(fmt::format("MultiHeadAttention \"{}\": {} must have shape {}, got {}", name(), what,
                                   shape_str(want), shape_str(mk.shape())));
  };
  check_mask(args.query_mask, {batch, T}, "query_mask");
  check_mask(args.value_mask, {batch, S}, "value_mask");
  check_mask(args.key_mask, {batch, S}, "key_mask");
  if (args.query_mask.defined()) keep = ops::reshape(args.query_mask.astype(DType::float32), {batch, T, 1});
  if (args.value_mask.defined())
    keep = detail::merge_masks(keep, ops::reshape(args.value_mask.astype(DType::float32), {batch, 1, S}));
  if (args.key_mask.defined())
    keep = detail::merge_masks(keep, ops::reshape(args.key_mask.astype(DType::float32), {batch, 1, S}));
  if (args.use_causal_mask) keep = detail::merge_masks(keep, detail::causal_mask(T, S));
  if (args.attention_mask.defined()) {
    const Tensor am = args.attention_mask.astype(DType::float32);
    if (r == 3) {
      const bool ok = am.ndim() == 3 && (am.dim(0) == 1 || am.dim(0) == batch) && (am.dim(1) == 1 || am.dim(1) == T) &&
                      (am.dim(2) == 1 || am.dim(2) == S);
      if (!ok)
        throw ValueError(fmt::format("MultiHeadAttention \"{}\": attention_mask must have shape {} (or broadcast to "
                                     "it), got {}",
                                     name(), shape_str({batch, T, S}), shape_str(am.shape())));
      keep = detail::merge_masks(keep, am);
    } else {
      Shape want{batch};
      for (int a : others) want.push_back(q_in.dim(a));
      for (int a : axes) want.push_back(q_in.dim(a));
      for (int a : axes) want.push_back(v_in.dim(a));
      check_mask(am, want, "attention_mask");
      keep = ops::reshape(am, {outer, T, S});
    }
  }
  if (keep.defined()) keep = ops::reshape(keep, {keep.dim(0), 1, keep.dim(1), keep.dim(2)});
  // Without a mask, dropout or the scores to return, each head's weights need not exist as a tensor; over
  // one attention axis the heads stay where the projections put them ([batch, T, H, d]: no transposes).
  Tensor o, probs;
  const bool fusable = !keep.defined() && !args.return_attention_scores && (options_.dropout == 0.0 || !args.training);
  if (fusable && r == 3) o = ops::fused_attention(q, k, v);
  const bool in_place = o.defined();  // o: [batch, T, H, value_dim]
  if (!in_place) {
    const Tensor qs = batched(q, T, key_dim_), ks = batched(k, S, key_dim_), vs = batched(v, S, value_dim_);
    if (fusable) o = ops::fused_attention(qs, ks, vs);
    if (!o.defined()) {
      probs = detail::masked_softmax(ops::reshape(ops::batch_matmul(qs, ks, false, true), {outer, H, T, S}), keep);
      const Tensor dropped = detail::attention_dropout(probs, options_.dropout, args.training);
      o = ops::batch_matmul(ops::reshape(dropped, {outer * H, T, S}), vs);
    }
  }

  // [N, T, value_dim] → [batch, others..., H, axes..., value_dim] → [batch, mid..., H * value_dim].
  if (!in_place) {
    Shape split{batch};
    for (int a : others) split.push_back(q_in.dim(a));
    split.push_back(H);
    for (int a : axes) split.push_back(q_in.dim(a));
    split.push_back(value_dim_);
    o = ops::transpose(ops::reshape(o, split), inverse);
  }
  Shape joined(q_in.shape().begin(), q_in.shape().end() - 1);
  joined.push_back(H * value_dim_);
  o = ops::reshape(o, joined);
  const Shape out_dims(output_kernel_->shape().begin() + 2, output_kernel_->shape().end());
  const std::int64_t out_size = product(out_dims);
  const Tensor wo = ops::reshape(output_kernel_->value(), {H * value_dim_, out_size});
  const Tensor bo = output_bias_ ? ops::reshape(output_bias_->value(), {out_size}) : Tensor();
  Shape out_shape(q_in.shape().begin(), q_in.shape().end() - 1);
  out_shape.insert(out_shape.end(), out_dims.begin(), out_dims.end());
  Tensor out = ops::reshape(ops::dense(o, wo, bo), out_shape);
  if (!args.return_attention_scores) return {out};

  Shape score_shape{batch};
  for (int a : others) score_shape.push_back(q_in.dim(a));
  score_shape.push_back(H);
  for (int a : axes) score_shape.push_back(q_in.dim(a));
  for (int a : axes) score_shape.push_back(v_in.dim(a));
  return {out, ops::reshape(probs, score_shape)};
}

json MultiHeadAttention::get_config() const {
  json c = layer_config(*this, options_);
  c["num_heads"] = num_heads_;
  c["key_dim"] = key_dim_;
  c["value_dim"] = value_dim_;
  const auto& os = options_.output_shape;
  c["output_shape"] = os.empty() ? json(nullptr) : os.size() == 1 ? json(os[0]) : json(os);
  c["attention_axes"] = options_.attention_axes.empty() ? json(nullptr) : json(options_.attention_axes);
  const bool have = built_shapes_.size() == 3;
  c["query_shape"] = have ? shape_json(built_shapes_[0]) : json(nullptr);
  c["value_shape"] = have ? shape_json(built_shapes_[1]) : json(nullptr);
  c["key_shape"] = have ? shape_json(built_shapes_[2]) : json(nullptr);
  return c;
}

std::shared_ptr<Layer> MultiHeadAttention::from_config(const json& c) {
  auto o = options_from_config<MultiHeadAttentionOptions>(c);
  if (c.contains("value_dim") && !c["value_dim"].is_null()) o.value_dim = c["value_dim"].get<std::int64_t>();
  if (c.contains("output_shape") && !c["output_shape"].is_null()) {
    const json& s = c["output_shape"];
    o.output_shape = s.is_array() ? s.get<Shape>() : Shape{s.get<std::int64_t>()};
  }
  if (c.contains("attention_axes") && !c["attention_axes"].is_null()) {
    const json& a = c["attention_axes"];
    o.attention_axes = a.is_array() ? a.get<std::vector<int>>() : std::vector<int>{a.get<int>()};
  }
  auto layer = std::make_shared<MultiHeadAttention>(config::required<std::int64_t>(c, "num_heads"),
                                                    config::required<std::int64_t>(c, "key_dim"), o);
  layer->read_base_config(c);
  // tf.keras 2.x builds from the recorded shapes, so the weights exist before the first call.
  auto given = [&](const char* k) { return c.contains(k) && c[k].is_array(); };
  if (given("query_shape") && given("value_shape")) {
    std::vector<Shape> shapes{shape_from_json(c["query_shape"]), shape_from_json(c["value_shape"])};
    if (given("key_shape")) shapes.push_back(shape_from_json(c["key_shape"]));
    layer->ensure_built(shapes);
  }
  return layer;
}

KERAS_REGISTER_LAYER(MultiHeadAttention)

}  // namespace keras::layers
