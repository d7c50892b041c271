#include "layers/normalization/layer_normalization.hpp"

#include <algorithm>

#include "keras/config/fields.hpp"
#include "keras/config/layer_config.hpp"
#include "keras/ops/math.hpp"
#include "keras/ops/normalization.hpp"
#include "keras/ops/shape.hpp"

namespace keras::layers {

// axis is written by hand: Keras writes it as an int or a list, and as the built axes once built; rms_scaling
// (Keras 3 only) is written when set, so tf.keras 2.x still reads the config.
KERAS_FIELDS(LayerNormalizationOptions, epsilon, center, scale, beta_initializer, gamma_initializer, beta_regularizer,
             gamma_regularizer, beta_constraint, gamma_constraint)

LayerNormalization::LayerNormalization(LayerNormalizationOptions options)
    : Layer(options, "layer_normalization"), options_(std::move(options)) {
  if (options_.axis.empty()) throw ValueError("LayerNormalization: `axis` must name at least one axis");
  if (!(options_.epsilon > 0))
    throw ValueError("LayerNormalization: epsilon must be positive, got " + std::to_string(options_.epsilon));
  axis_as_int_ = options_.axis.size() == 1;
}

void LayerNormalization::build(const Shape& input_shape) {
  const int rank = static_cast<int>(input_shape.size());
  std::vector<int> axes;
  Shape param_shape;
  for (int a : options_.axis) {
    const int p = a < 0 ? a + rank : a;
    if (p < 0 || p >= rank)
      throw ValueError("Layer \"" + name() + "\" (LayerNormalization): invalid axis " + std::to_string(a) +
                       " for input shape " + shape_str(input_shape));
    axes.push_back(p);
  }
  std::sort(axes.begin(), axes.end());
  for (std::size_t k = 0; k < axes.size(); ++k) {
    if (k > 0 && axes[k] != axes[k - 1] + 1)
      throw ValueError("Layer \"" + name() + "\" (LayerNormalization): the axes must be contiguous (e.g. -1 or "
                       "[-2, -1]) for input shape " + shape_str(input_shape));
    if (input_shape[axes[k]] <= 0)
      throw ValueError("Layer \"" + name() + "\" (LayerNormalization): axis " + std::to_string(axes[k]) +
                       " of input shape " + shape_str(input_shape) + " must have a known size");
    param_shape.push_back(input_shape[axes[k]]);
  }
  built_axes_ = axes;
  if (options_.scale || options_.rms_scaling)
    gamma_ = add_weight("gamma", param_shape, options_.gamma_initializer, true, options_.gamma_regularizer,
                        options_.gamma_constraint);
  if (options_.center && !options_.rms_scaling)
    beta_ = add_weight("beta", param_shape, options_.beta_initializer, true, options_.beta_regularizer,
                       options_.beta_constraint);
}

Tensor LayerNormalization::call(const Tensor& inputs, bool) {
  const auto& built = *built_input_shape();
  bool ok = inputs.ndim() == static_cast<int>(built.size());
  for (int a : built_axes_) ok = ok && inputs.dim(a) == built[a];
  if (!ok)
    throw ValueError("Input 0 of layer \"" + name() + "\" is incompatible with the layer: it was built for input "
                     "shape " + shape_str(built) + " (normalized axes must match), but received input with shape " +
                     shape_str(inputs.shape()));
  if (options_.rms_scaling) {
    const Tensor centered = ops::subtract(inputs, ops::mean(inputs, built_axes_, true));
    const Tensor variance = ops::mean(ops::square(centered), built_axes_, true);
    Shape broadcast(inputs.ndim(), 1);
    for (int a : built_axes_) broadcast[a] = built[a];
    const Tensor inv = ops::sqrt(ops::add(variance, Tensor::scalar(static_cast<float>(options_.epsilon))));
    return ops::multiply(ops::divide(inputs, inv), ops::reshape(gamma_->value(), broadcast));
  }
  return ops::layer_norm(inputs, gamma_ ? gamma_->value() : Tensor(), beta_ ? beta_->value() : Tensor(), built_axes_,
                         static_cast<float>(options_.epsilon));
}

json LayerNormalization::get_config() const {
  json c = layer_config(*this, options_);
  if (!built_axes_.empty()) c["axis"] = built_axes_;  // Keras writes the built axes as a list
  else if (axis_as_int_) c["axis"] = options_.axis[0];
  else c["axis"] = options_.axis;
  if (options_.rms_scaling) c["rms_scaling"] = true;
  return c;
}

std::shared_ptr<Layer> LayerNormalization::from_config(const json& c) {
  auto o = options_from_config<LayerNormalizationOptions>(c);
  if (auto it = c.find("rms_scaling"); it != c.end() && !it->is_null())
    o.rms_scaling = it->is_boolean() ? it->get<bool>() : it->get<double>() != 0;
  bool as_int = true;
  if (c.contains("axis")) {
    const json& a = c["axis"];
    if (a.is_array()) {
      o.axis = a.get<std::vector<int>>();
      as_int = false;
    } else {
      o.axis = {a.get<int>()};
    }
  }
  auto layer = std::make_shared<LayerNormalization>(o);
  layer->axis_as_int_ = as_int;
  layer->read_base_config(c);
  return layer;
}

KERAS_REGISTER_LAYER(LayerNormalization)

}  // namespace keras::layers
