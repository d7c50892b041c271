#include "layers/pooling/global_pooling.hpp"

#include <fmt/format.h>

#include "keras/config/fields.hpp"
#include "keras/config/layer_config.hpp"
#include "keras/ops/manipulation.hpp"
#include "keras/ops/math.hpp"
#include "layers/data_format.hpp"

namespace keras::layers {

KERAS_FIELDS(GlobalPoolingOptions, keepdims, data_format)

BaseGlobalPooling::BaseGlobalPooling(Kind kind, const std::string& class_name, std::int64_t rank,
                                     GlobalPoolingOptions options)
    : Layer(options, to_snake_case(class_name)), kind_(kind), cls_(class_name), rank_(rank), options_(std::move(options)) {
  channels_first_ = is_channels_first(options_.data_format, cls_);
  options_.data_format = channels_first_ ? "channels_first" : "channels_last";
}

void BaseGlobalPooling::check_rank(const Shape& shape) const {
  if (static_cast<std::int64_t>(shape.size()) != rank_ + 2)
    throw ValueError(fmt::format("Input 0 of layer \"{}\" ({}) is incompatible with the layer: expected ndim={} "
                                 "(batch, {}channels), found ndim={}. Full shape received: {}", name(), cls_,
                                 rank_ + 2, rank_ == 1 ? "steps, " : rank_ == 2 ? "height, width, "
                                 : "depth, height, width, ", shape.size(), shape_str(shape)));
}

Tensor BaseGlobalPooling::call(const Tensor& inputs, bool) {
  check_rank(inputs.shape());
  std::vector<int> axes;
  const int first = channels_first_ ? 2 : 1;  // the spatial axes follow the channels, or precede them
  for (int i = 0; i < rank_; ++i) axes.push_back(first + i);
  return kind_ == Kind::max ? ops::max(inputs, axes, options_.keepdims) : ops::mean(inputs, axes, options_.keepdims);
}

std::vector<Tensor> BaseGlobalPooling::call(const std::vector<Tensor>& inputs, const CallContext& context) {
  const Tensor mask = context.mask(0);
  if (kind_ != Kind::average || rank_ != 1 || !mask.defined() || inputs.size() != 1) return Layer::call(inputs, context);
  check_rank(inputs[0].shape());
  const int steps = channels_first_ ? 2 : 1;
  if (mask.shape() != Shape{inputs[0].dim(0), inputs[0].dim(steps)})
    throw ValueError("Layer \"" + name() + "\": the mask has shape " + shape_str(mask.shape()) + ", expected (batch, steps) " +
                     "of the input " + shape_str(inputs[0].shape()));
  const Tensor m = ops::expand_dims(mask.astype(DType::float32), channels_first_ ? 1 : 2);
  return {ops::divide(ops::sum(ops::multiply(inputs[0], m), {steps}, options_.keepdims),
                      ops::sum(m, {steps}, options_.keepdims))};
}

Shape BaseGlobalPooling::compute_output_shape(const Shape& s) const {
  check_rank(s);
  const auto channels = channels_first_ ? s[1] : s.back();
  if (!options_.keepdims) return {s[0], channels};
  Shape out(s.size(), 1);
  out.front() = s[0];
  (channels_first_ ? out[1] : out.back()) = channels;
  return out;
}

json BaseGlobalPooling::get_config() const {
  return layer_config(*this, options_);
}

template <class L>
std::shared_ptr<Layer> BaseGlobalPooling::from_config_as(const json& c, const std::string& cls) {
  return make_from_config<L, GlobalPoolingOptions>(c);
}

#define KERAS_GLOBAL_POOLING_FROM_CONFIG(Name) \
  std::shared_ptr<Layer> Name::from_config(const json& config) { return from_config_as<Name>(config, #Name); }
KERAS_GLOBAL_POOLING_FROM_CONFIG(GlobalAveragePooling1D)
KERAS_GLOBAL_POOLING_FROM_CONFIG(GlobalAveragePooling2D)
KERAS_GLOBAL_POOLING_FROM_CONFIG(GlobalAveragePooling3D)
KERAS_GLOBAL_POOLING_FROM_CONFIG(GlobalMaxPooling1D)
KERAS_GLOBAL_POOLING_FROM_CONFIG(GlobalMaxPooling2D)
KERAS_GLOBAL_POOLING_FROM_CONFIG(GlobalMaxPooling3D)
#undef KERAS_GLOBAL_POOLING_FROM_CONFIG

KERAS_REGISTER_LAYER(GlobalAveragePooling1D, "GlobalAvgPool1D")
KERAS_REGISTER_LAYER(GlobalAveragePooling2D, "GlobalAvgPool2D")
KERAS_REGISTER_LAYER(GlobalAveragePooling3D, "GlobalAvgPool3D")
KERAS_REGISTER_LAYER(GlobalMaxPooling1D, "GlobalMaxPool1D")
KERAS_REGISTER_LAYER(GlobalMaxPooling2D, "GlobalMaxPool2D")
KERAS_REGISTER_LAYER(GlobalMaxPooling3D, "GlobalMaxPool3D")

}  // namespace keras::layers
