#include "layers/normalization/batch_normalization.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <mutex>

#include "keras/autodiff/gradient_tape.hpp"
#include "keras/config/fields.hpp"
#include "keras/config/layer_config.hpp"
#include "keras/function/capture.hpp"
#include "keras/ops/math.hpp"
#include "keras/ops/nn.hpp"
#include "keras/ops/normalization.hpp"

namespace keras::layers {

// axis is written by hand: Keras writes it as an int or a list, and as the built axis once built.
KERAS_FIELDS(BatchNormalizationOptions, momentum, epsilon, center, scale, beta_initializer, gamma_initializer,
             moving_mean_initializer, moving_variance_initializer, beta_regularizer, gamma_regularizer,
             beta_constraint, gamma_constraint)

BatchNormalization::BatchNormalization(BatchNormalizationOptions options)
    : Layer(options, "batch_normalization"), options_(std::move(options)), folded_(std::make_shared<Folded>()) {
  if (!(options_.epsilon > 0))
    throw ValueError("BatchNormalization: epsilon must be positive, got " + std::to_string(options_.epsilon));
  if (!(options_.momentum >= 0 && options_.momentum <= 1))
    throw ValueError("BatchNormalization: momentum must be in [0, 1], got " + std::to_string(options_.momentum));
}

void BatchNormalization::build(const Shape& input_shape) {
  const int rank = static_cast<int>(input_shape.size());
  const std::vector<int> given = options_.axes.empty() ? std::vector<int>{options_.axis} : options_.axes;
  std::vector<int> axes;
  for (int a : given) {
    const int p = a < 0 ? a + rank : a;
    if (p < 0 || p >= rank)
      throw ValueError("Layer \"" + name() + "\" (BatchNormalization): invalid axis " + std::to_string(a) +
                       " for input shape " + shape_str(input_shape) + "; expected an axis in [-" +
                       std::to_string(rank) + ", " + std::to_string(rank) + ")");
    if (std::find(axes.begin(), axes.end(), p) != axes.end())
      throw ValueError("Layer \"" + name() + "\" (BatchNormalization): duplicate axis " + std::to_string(a));
    if (input_shape[p] <= 0)
      throw ValueError("Layer \"" + name() + "\" (BatchNormalization): axis " + std::to_string(a) +
                       " of input shape " + shape_str(input_shape) + " must have a known size");
    axes.push_back(p);
  }
  std::sort(axes.begin(), axes.end());
  built_axes_ = axes;
  Shape param_shape;
  if (axes.size() == 1) {
    built_axis_ = axes[0];
    param_shape = {input_shape[axes[0]]};
  } else {
    // tf.keras: the input's rank, 1 on every axis but the kept ones.
    param_shape = Shape(rank, 1);
    for (int a : axes) param_shape[a] = input_shape[a];
    for (int a = 0; a < rank; ++a)
      if (std::find(axes.begin(), axes.end(), a) == axes.end()) reduction_axes_.push_back(a);
  }
  if (options_.scale)
    gamma_ = add_weight("gamma", param_shape, options_.gamma_initializer, true, options_.gamma_regularizer,
                        options_.gamma_constraint);
  if (options_.center)
    beta_ = add_weight("beta", param_shape, options_.beta_initializer, true, options_.beta_regularizer,
                       options_.beta_constraint);
  moving_mean_ = add_weight("moving_mean", param_shape, options_.moving_mean_initializer, false);
  moving_variance_ = add_weight("moving_variance", param_shape, options_.moving_variance_initializer, false);
}

Tensor BatchNormalization::call_multi_axis(const Tensor& x, bool training) {
  const Shape& p = moving_mean_->shape();
  bool ok = x.ndim() == static_cast<int>(p.size());
  for (int a : built_axes_) ok = ok && x.dim(a) == p[a];
  if (!ok)
    throw ValueError("Input 0 of layer \"" + name() + "\" (BatchNormalization) is incompatible with the layer: it "
                     "was built for input shape " + shape_str(*built_input_shape()) + " (the kept axes must match), "
                     "but received input with shape " + shape_str(x.shape()));
  const Tensor eps = Tensor::scalar(static_cast<float>(options_.epsilon));
  auto affine = [&](const Tensor& mean, const Tensor& variance) {
    Tensor y = ops::divide(ops::subtract(x, mean), ops::sqrt(ops::add(variance, eps)));
    if (gamma_) y = ops::multiply(y, gamma_->value());
    if (beta_) y = ops::add(y, beta_->value());
    return y;
  };
  if (!training || !trainable()) return affine(moving_mean_->value(), moving_variance_->value());
  const Tensor mean = ops::mean(x, reduction_axes_, true);
  const Tensor variance = ops::mean(ops::square(ops::subtract(x, mean)), reduction_axes_, true);
  Tensor y = affine(mean, variance);
  autodiff::NoGradScope no_grad;
  const Tensor decay = Tensor::scalar(static_cast<float>(1.0 - options_.momentum));
  for (auto [moving, batch] : {std::pair{moving_mean_, mean}, std::pair{moving_variance_, variance}})
    moving->assign(ops::subtract(moving->value(), ops::multiply(ops::subtract(moving->value(), batch), decay)));
  return y;
}

Tensor BatchNormalization::call(const Tensor& inputs, bool training) {
  if (!built_axis_) return call_multi_axis(inputs, training);
  // A frozen layer runs in inference mode even when training (Keras 2 behaviour, for fine-tuning).
  if (training && trainable()) return train_one_axis(inputs, {});
  check_channels(inputs);
  return ops::batch_norm_inference(inputs, moving_mean_->value(), moving_variance_->value(),
                                   gamma_ ? gamma_->value() : Tensor(), beta_ ? beta_->value() : Tensor(),
                                   *built_axis_, static_cast<float>(options_.epsilon));
}

void BatchNormalization::check_channels(const Tensor& inputs) const {
  const int axis = *built_axis_;
  const std::int64_t channels = moving_mean_->shape()[0];
  if (inputs.ndim() <= axis || inputs.dim(axis) != channels)
    throw ValueError("Input 0 of layer \"" + name() + "\" is incompatible with the layer: expected axis " +
                     std::to_string(axis) + " of input shape to have value " + std::to_string(channels) +
                     ", but received input with shape " + shape_str(inputs.shape()));
}

Tensor BatchNormalization::train_one_axis(const Tensor& inputs, const ops::BatchNormEpilogue& epilogue) {
  check_channels(inputs);
  auto batch = ops::batch_norm_train(inputs, gamma_ ? gamma_->value() : Tensor(), beta_ ? beta_->value() : Tensor(),
                                     *built_axis_, static_cast<float>(options_.epsilon), epilogue);
  autodiff::NoGradScope no_grad;
  // The moving variance follows the Bessel-corrected batch variance (n / (n - 1)), as tf.keras 2.x's
  // default fused kernel does for 4-D NHWC and 2-D inputs (and as PyTorch does); the non-fused
  // path would use the biased variance. Normalization itself always uses the biased variance.
  const double n = static_cast<double>(batch.count);
  const double bessel = n > 1 ? n / (n - 1) : 1.0;
  const double decay = 1.0 - options_.momentum;
  // In place, and captured, so that a compiled train step (keras::function) replays the update.
  auto update = [&](const std::shared_ptr<Variable>& moving, const Tensor& value, double factor) {
    auto step = [target = moving->value(), value, factor, decay]() mutable {
      float* p = target.data<float>();
      const float* v = value.data<float>();
      for (std::int64_t c = 0; c < target.size(); ++c) p[c] = static_cast<float>(p[c] - (p[c] - v[c] * factor) * decay);
      target.mark_modified();
    };
    step();
    if (jit::tracing()) jit::capture("batch normalization moving statistics", {value, moving->value()}, {}, step);
  };
  update(moving_mean_, batch.mean, 1.0);
  update(moving_variance_, batch.variance, bessel);
  return batch.output;
}

bool BatchNormalization::trains_with_epilogue() const { return built_axis_.has_value(); }

Tensor BatchNormalization::train_with_epilogue(const Tensor& inputs, const Epilogue& epilogue) {
  const bool relu = epilogue.activation == kernels::Eltwise::relu;
  if (!trains_with_epilogue() || !epilogue.scale.empty() || !(relu || epilogue.activation == kernels::Eltwise::linear))
    return Layer::train_with_epilogue(inputs, epilogue);
  if (trainable()) return train_one_axis(inputs, {.residual = epilogue.residual, .relu = relu});
  Tensor y = call(inputs, true);  // frozen: the moving statistics, then the steps one by one
  if (epilogue.residual.defined()) y = ops::add(y, epilogue.residual);
  return relu ? ops::relu(y) : y;
}

struct BatchNormalization::Folded {
  std::mutex lock;  // predict may run on several threads at once
  std::array<std::uint64_t, 4> versions{};
  std::vector<float> scale, shift;
};

EpilogueStep BatchNormalization::epilogue_step() const {
  const auto& shape = built_input_shape();
  if (!built_axis_ || !shape || *built_axis_ != static_cast<int>(shape->size()) - 1) return {};
  // Folded again only when a weight changes (a fit, set_weights, a load): predict calls this on every batch.
  const std::array<std::uint64_t, 4> versions{moving_mean_->value().version(), moving_variance_->value().version(),
                                              gamma_ ? gamma_->value().version() : 0,
                                              beta_ ? beta_->value().version() : 0};
  std::lock_guard<std::mutex> hold(folded_->lock);
  if (folded_->scale.empty() || folded_->versions != versions) {
    ops::batch_norm_scale_shift(moving_mean_->value(), moving_variance_->value(), gamma_ ? gamma_->value() : Tensor(),
                                beta_ ? beta_->value() : Tensor(), static_cast<float>(options_.epsilon),
                                folded_->scale, folded_->shift);
    folded_->versions = versions;
  }
  return {.kind = EpilogueStep::Kind::affine, .scale = folded_->scale, .shift = folded_->shift};
}

json BatchNormalization::get_config() const {
  json c = layer_config(*this, options_);
  if (!built_axes_.empty()) c["axis"] = built_axes_;  // Keras writes the built axes as a list
  else if (!options_.axes.empty()) c["axis"] = options_.axes;
  else c["axis"] = axis_as_list_ ? json::array({options_.axis}) : json(options_.axis);
  return c;
}

std::shared_ptr<Layer> BatchNormalization::from_config(const json& c) {
  auto o = options_from_config<BatchNormalizationOptions>(c);
  auto unsupported = [&](const std::string& what) {
    throw ValueError("BatchNormalization \"" + o.name + "\": " + what + " is not supported (its extra statistics have "
                     "no counterpart here); retrain or re-save the model without it");
  };
  if (auto it = c.find("renorm");
      it != c.end() && ((it->is_boolean() && it->get<bool>()) || (it->is_number() && it->get<double>() != 0)))
    unsupported("batch renormalization (renorm=true)");
  if (c.contains("virtual_batch_size") && !c["virtual_batch_size"].is_null()) unsupported("virtual_batch_size");
  bool as_list = false;
  if (c.contains("axis") && !c["axis"].is_null()) {
    const json& a = c["axis"];
    if (a.is_array()) {
      const auto axes = a.get<std::vector<int>>();
      if (axes.empty()) throw ValueError("BatchNormalization \"" + o.name + "\": `axis` must name at least one axis");
      if (axes.size() == 1) o.axis = axes[0];
      else o.axes = axes;
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
