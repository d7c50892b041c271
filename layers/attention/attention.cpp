#include "layers/attention/attention.hpp"

#include "keras/config/fields.hpp"
#include "keras/config/layer_config.hpp"
#include "keras/ops/batch_matmul.hpp"
#include "keras/ops/manipulation.hpp"
#include "keras/ops/math.hpp"
#include "keras/ops/nn.hpp"

namespace keras::layers {

KERAS_FIELDS(AttentionOptions, use_scale, score_mode, dropout, causal)

Attention::Attention(AttentionOptions options)
    : BaseDenseAttention(options, "attention"), options_(std::move(options)) {
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
  json c = layer_config(*this, options_);
  if (!options_.causal) c.erase("causal");  // tf.keras ≤ 2.10's argument, written only when set
  return c;
}

std::shared_ptr<Layer> Attention::from_config(const json& c) {
  return make_from_config<Attention, AttentionOptions>(c);
}

KERAS_REGISTER_LAYER(Attention)

}  // namespace keras::layers
