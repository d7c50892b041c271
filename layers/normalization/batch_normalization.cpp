#include "layers/normalization/batch_normalization.hpp"

#include "keras/autodiff/gradient_tape.hpp"
#include "keras/config/fields.hpp"
#include "keras/config/layer_config.hpp"
#include "keras/ops/normalization.hpp"

namespace keras::layers {

// axis is written by hand: Keras writes it as an int or a list, and as the built axis once built.
KERAS_FIELDS(BatchNormalizationOptions, momentum, epsilon, center, scale, beta_initializer, gamma_initializer,
             moving_mean_initializer, moving_variance_initializer)

BatchNormalization::BatchNormalization(BatchNormalizationOptions options)
    : Layer(options, "batch_normalization"), options_(std::move(options)) {
  if (!(options_.epsilon > 0))
    throw ValueError("BatchNormalization: epsilon must be positive, got " + std::to_string(options_.epsilon));
  if (!(options_.momentum >= 0 && options_.momentum <= 1))
    throw ValueError("BatchNormalization: momentum must be in [0, 1], got " + std::to_string(options_.momentum));
}

void BatchNormalization::build(const Shape& input_shape) {
  const int rank = static_cast<int>(input_shape.size());
  const int axis = options_.axis < 0 ? options_.axis + rank : options_.axis;
  if (axis < 0 || axis >= rank)
    throw ValueError("Layer \"" + name() + "\" (BatchNormalization): invalid axis " + std::to_string(options_.axis) +
                     " for input shape " + shape_str(input_shape) + "; expected an axis in [-" +
                     std::to_string(rank) + ", " + std::to_string(rank) + ")");
  const std::int64_t channels = input_shape[axis];
  if (channels <= 0)
    throw ValueError("Layer \"" + name() + "\" (BatchNormalization): axis " + std::to_string(options_.axis) +
                     " of input shape " + shape_str(input_shape) + " must have a known size");
  built_axis_ = axis;
  if (options_.scale) gamma_ = add_weight("gamma", {channels}, options_.gamma_initializer);
  if (options_.center) beta_ = add_weight("beta", {channels}, options_.beta_initializer);
  moving_mean_ = add_weight("moving_mean", {channels}, options_.moving_mean_initializer, false);
  moving_variance_ = add_weight("moving_variance", {channels}, options_.moving_variance_initializer, false);
}

Tensor BatchNormalization::call(const Tensor& inputs, bool training) {
  const int axis = *built_axis_;
  const std::int64_t channels = moving_mean_->shape()[0];
  if (inputs.ndim() <= axis || inputs.dim(axis) != channels)
    throw ValueError("Input 0 of layer \"" + name() + "\" is incompatible with the layer: expected axis " +
                     std::to_string(axis) + " of input shape to have value " + std::to_string(channels) +
                     ", but received input with shape " + shape_str(inputs.shape()));
  const Tensor gamma = gamma_ ? gamma_->value() : Tensor();
  const Tensor beta = beta_ ? beta_->value() : Tensor();
  const auto eps = static_cast<float>(options_.epsilon);
  // A frozen layer runs in inference mode even when training (Keras 2 behaviour, for fine-tuning).
  if (!training || !trainable())
    return ops::batch_norm_inference(inputs, moving_mean_->value(), moving_variance_->value(), gamma, beta, axis, eps);

  auto batch = ops::batch_norm_train(inputs, gamma, beta, axis, eps);
  autodiff::NoGradScope no_grad;
  // The moving variance follows the Bessel-corrected batch variance (n / (n - 1)), as tf.keras 2.x's
  // default fused kernel does for 4-D NHWC and 2-D inputs (and as PyTorch does); the non-fused
  // path would use the biased variance. Normalization itself always uses the biased variance.
  const double n = static_cast<double>(batch.count);
  const double bessel = n > 1 ? n / (n - 1) : 1.0;
  const double decay = 1.0 - options_.momentum;
  auto update = [&](const std::shared_ptr<Variable>& moving, const Tensor& value, double factor) {
    Tensor next = moving->value().clone();
    float* p = next.data<float>();
    const float* v = value.data<float>();
    for (std::int64_t c = 0; c < channels; ++c) p[c] = static_cast<float>(p[c] - (p[c] - v[c] * factor) * decay);
    moving->assign(next);
  };
  update(moving_mean_, batch.mean, 1.0);
  update(moving_variance_, batch.variance, bessel);
  return batch.output;
}

json BatchNormalization::get_config() const {
  json c = layer_config(*this, options_);
  if (built_axis_) c["axis"] = json::array({*built_axis_});  // Keras writes the built axis as a list
  else c["axis"] = axis_as_list_ ? json::array({options_.axis}) : json(options_.axis);
  for (const char* k : {"beta_regularizer", "gamma_regularizer", "beta_constraint", "gamma_constraint"}) c[k] = nullptr;
  return c;
}

std::shared_ptr<Layer> BatchNormalization::from_config(const json& c) {
  auto o = options_from_config<BatchNormalizationOptions>(c);
  bool as_list = false;
  if (c.contains("axis")) {
    const json& a = c["axis"];
    if (a.is_array()) {
      if (a.size() != 1)
        throw ValueError("BatchNormalization \"" + o.name + "\": only one normalization axis is supported, got " +
                         a.dump());
      o.axis = a[0].get<int>();
      as_list = true;
    } else {
      o.axis = a.get<int>();
    }
  }
  auto layer = std::make_shared<BatchNormalization>(o);
  layer->axis_as_list_ = as_list;
  layer->read_base_config(c);
  return layer;
}

KERAS_REGISTER_LAYER(BatchNormalization)

}  // namespace keras::layers
