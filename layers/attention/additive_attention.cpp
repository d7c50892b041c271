#include "layers/attention/additive_attention.hpp"

#include "keras/config/fields.hpp"
#include "keras/config/layer_config.hpp"
#include "keras/ops/manipulation.hpp"
#include "keras/ops/math.hpp"
#include "keras/ops/nn.hpp"

namespace keras::layers {

KERAS_FIELDS(AdditiveAttentionOptions, use_scale, dropout, causal)

AdditiveAttention::AdditiveAttention(AdditiveAttentionOptions options)
    : BaseDenseAttention(options, "additive_attention"), options_(std::move(options)) {}

void AdditiveAttention::build_scores(const std::vector<Shape>& shapes) {
  const std::int64_t dim = shapes[1].back();  // tf.keras 2.x sizes the scale by the value's last axis
  if (options_.use_scale) {
    if (dim <= 0)
      throw ValueError("AdditiveAttention \"" + name() + "\" needs a known last dimension of value, got shape " +
                       shape_str(shapes[1]));
    scale_ = add_weight("scale", {dim}, "glorot_uniform");
  }
}

Tensor AdditiveAttention::calculate_scores(const Tensor& query, const Tensor& key) const {
  Tensor t = ops::tanh(ops::add(ops::expand_dims(query, 2), ops::expand_dims(key, 1)));
  if (scale_) t = ops::multiply(t, scale_->value());
  return ops::sum(t, {-1});
}

json AdditiveAttention::get_config() const {
  json c = layer_config(*this, options_);
  if (!options_.causal) c.erase("causal");  // tf.keras ≤ 2.10's argument, written only when set
  return c;
}

std::shared_ptr<Layer> AdditiveAttention::from_config(const json& c) {
  return make_from_config<AdditiveAttention, AdditiveAttentionOptions>(c);
}

KERAS_REGISTER_LAYER(AdditiveAttention)

}  // namespace keras::layers
