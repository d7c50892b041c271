#include "layers/attention/attention.hpp"

#include "keras/json.hpp"
#include "keras/ops/batch_matmul.hpp"
#include "keras/ops/manipulation.hpp"
#include "keras/ops/math.hpp"
#include "keras/ops/nn.hpp"

namespace keras::layers {

Attention::Attention(AttentionOptions options)
    : BaseDenseAttention(options.name, "attention", options.trainable, options.dropout, options.causal),
      options_(std::move(options)) {
  if (options_.score_mode != "dot" && options_.score_mode != "concat")
    throw ValueError("Attention: received score_mode=\"" + options_.score_mode +
                     "\"; acceptable values are \"dot\" and \"concat\"");
}

void Attention::build_scores(const std::vector<Shape>&) {
  if (options_.use_scale) scale_ = add_weight("scale", {}, "ones");
  if (options_.score_mode == "concat") concat_score_weight_ = add_weight("concat_score_weight", {}, "ones");
}

Tensor Attention::calculate_scores(const Tensor& query, const Tensor& key) const {
  if (options_.score_mode == "dot") {
    Tensor scores = ops::batch_matmul(query, key, false, true);
    return scale_ ? ops::multiply(scores, scale_->value()) : scores;
  }
  // [batch, Tq, 1, dim] + [batch, 1, Tv, dim] → [batch, Tq, Tv, dim]
  Tensor sum = ops::add(ops::expand_dims(query, 2), ops::expand_dims(key, 1));
  if (scale_) sum = ops::multiply(sum, scale_->value());
  return ops::multiply(ops::sum(ops::tanh(sum), {-1}), concat_score_weight_->value());
}

json Attention::get_config() const {
  json c = BaseDenseAttention::get_config();
  c["use_scale"] = options_.use_scale;
  c["score_mode"] = options_.score_mode;
  return c;
}

std::shared_ptr<Layer> Attention::from_config(const json& c) {
  AttentionOptions o{.use_scale = c.value("use_scale", false), .score_mode = c.value("score_mode", "dot"),
                     .name = c.value("name", "")};
  read_attention_config(c, o.dropout, o.causal);
  auto layer = std::make_shared<Attention>(o);
  layer->read_base_config(c);
  return layer;
}

KERAS_REGISTER_LAYER(Attention)

}  // namespace keras::layers
