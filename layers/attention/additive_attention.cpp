#include "layers/attention/additive_attention.hpp"

#include "keras/json.hpp"
#include "keras/ops/manipulation.hpp"
#include "keras/ops/math.hpp"
#include "keras/ops/nn.hpp"

namespace keras::layers {

AdditiveAttention::AdditiveAttention(AdditiveAttentionOptions options)
    : BaseDenseAttention(options.name, "additive_attention", options.trainable, options.dropout, options.causal),
      options_(std::move(options)) {}

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
  json c = BaseDenseAttention::get_config();
  c["use_scale"] = options_.use_scale;
  return c;
}

std::shared_ptr<Layer> AdditiveAttention::from_config(const json& c) {
  AdditiveAttentionOptions o{.use_scale = c.value("use_scale", true), .name = c.value("name", "")};
  read_attention_config(c, o.dropout, o.causal);
  auto layer = std::make_shared<AdditiveAttention>(o);
  layer->read_base_config(c);
  return layer;
}

KERAS_REGISTER_LAYER(AdditiveAttention)

}  // namespace keras::layers
