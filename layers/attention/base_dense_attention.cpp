#include "layers/attention/base_dense_attention.hpp"

#include <fmt/format.h>

#include "keras/json.hpp"
#include "keras/ops/batch_matmul.hpp"
#include "keras/ops/math.hpp"
#include "keras/ops/shape.hpp"
#include "layers/attention/attention_utils.hpp"

namespace keras::layers {

void BaseDenseAttention::check_dropout(const std::string& owner) const {
  if (!(dropout_ >= 0.0 && dropout_ < 1.0))
    throw ValueError(fmt::format("{}: `dropout` must be a float in [0, 1), received dropout={}", owner, dropout_));
}

void BaseDenseAttention::check_shapes(const std::vector<Shape>& s) const {
  if (s.size() != 2 && s.size() != 3)
    throw ValueError(fmt::format("{} layer \"{}\" must be called on a list of inputs, namely [query, value] or "
                                 "[query, value, key]. Received {} input(s).",
                                 class_name(), name(), s.size()));
  for (const auto& x : s)
    if (x.size() != 3)
      throw ValueError(fmt::format("{} \"{}\": query, value and key must have shape [batch, T, dim], got {}",
                                   class_name(), name(), shape_str(x)));
  const Shape& q = s[0];
  const Shape& v = s[1];
  const Shape& k = s.size() == 3 ? s[2] : s[1];
  auto differ = [](std::int64_t a, std::int64_t b) { return a >= 0 && b >= 0 && a != b; };
  if (differ(v[1], k[1]))
    throw ValueError(fmt::format("{} \"{}\": value and key need the same length Tv, got shapes {} and {}",
                                 class_name(), name(), shape_str(v), shape_str(k)));
  if (differ(q[2], k[2]))
    throw ValueError(fmt::format("{} \"{}\": query and key need the same last dimension, got shapes {} and {}",
                                 class_name(), name(), shape_str(q), shape_str(k)));
}

void BaseDenseAttention::build(const std::vector<Shape>& input_shapes) {
  check_shapes(input_shapes);
  build_scores(input_shapes);
}

std::vector<Shape> BaseDenseAttention::compute_output_shape(const std::vector<Shape>& input_shapes) const {
  check_shapes(input_shapes);
  return {{input_shapes[0][0], input_shapes[0][1], input_shapes[1][2]}};
}

std::vector<Tensor> BaseDenseAttention::call(const std::vector<Tensor>& inputs, const CallContext& context) {
  AttentionCallArgs args{.training = context.training};
  if (context.mask(0).defined() || context.mask(1).defined()) args.mask = {context.mask(0), context.mask(1)};
  return {call_with_args(inputs, args)[0]};
}

std::vector<Tensor> BaseDenseAttention::call_with_args(const std::vector<Tensor>& inputs,
                                                       const AttentionCallArgs& args) {
  std::vector<Shape> shapes;
  for (const auto& t : inputs) shapes.push_back(t.shape());
  ensure_built(shapes);
  check_shapes(shapes);
  if (!args.mask.empty() && args.mask.size() != 2)
    throw ValueError(fmt::format("{} \"{}\": `mask` must be a list [query_mask, value_mask], got {} masks",
                                 class_name(), name(), args.mask.size()));
  const Tensor& q = inputs[0];
  const Tensor& v = inputs[1];
  const Tensor& k = inputs.size() == 3 ? inputs[2] : inputs[1];
  const std::int64_t batch = q.dim(0), tq = q.dim(1), tv = v.dim(1);
  const Tensor q_mask = args.mask.empty() ? Tensor() : args.mask[0];
  const Tensor v_mask = args.mask.empty() ? Tensor() : args.mask[1];
  if (q_mask.defined() && q_mask.shape() != Shape{batch, tq})
    throw ValueError(fmt::format("{} \"{}\": query_mask must have shape {}, got {}", class_name(), name(),
                                 shape_str({batch, tq}), shape_str(q_mask.shape())));
  if (v_mask.defined() && v_mask.shape() != Shape{batch, tv})
    throw ValueError(fmt::format("{} \"{}\": value_mask must have shape {}, got {}", class_name(), name(),
                                 shape_str({batch, tv}), shape_str(v_mask.shape())));

  const Tensor scores = calculate_scores(q, k);
  Tensor keep = v_mask.defined() ? ops::reshape(v_mask.astype(DType::float32), {batch, 1, tv}) : Tensor();
  if (causal_ || args.use_causal_mask) keep = detail::merge_masks(keep, detail::causal_mask(tq, tv));
  Tensor weights = detail::masked_softmax(scores, keep);
  weights = detail::attention_dropout(weights, dropout_, args.training);
  Tensor out = ops::batch_matmul(weights, v);
  if (q_mask.defined()) out = ops::multiply(out, ops::reshape(q_mask.astype(DType::float32), {batch, tq, 1}));
  if (args.return_attention_scores) return {out, weights};
  return {out};
}

}  // namespace keras::layers
