#include "keras/applications/mobilenet.hpp"

#include <fmt/format.h>

#include "layers/layers.hpp"

namespace keras::applications {

namespace {

using namespace layers;

KerasTensor relu6(const KerasTensor& x, const std::string& name) {
  return ReLU({.max_value = 6.0, .name = name})(x);
}

KerasTensor depthwise_conv_block(const KerasTensor& in, std::int64_t pointwise_filters, double alpha,
                                 std::int64_t depth_multiplier, std::int64_t stride, int block_id) {
  const std::string id = std::to_string(block_id);
  pointwise_filters = static_cast<std::int64_t>(pointwise_filters * alpha);
  KerasTensor x = in;
  if (stride != 1) x = ZeroPadding2D({{0, 1}, {0, 1}}, {.name = "conv_pad_" + id})(in);
  x = DepthwiseConv2D({3, 3}, {.strides = {stride, stride}, .padding = stride == 1 ? "same" : "valid",
                               .depth_multiplier = depth_multiplier, .use_bias = false, .name = "conv_dw_" + id})(x);
  x = BatchNormalization({.name = "conv_dw_" + id + "_bn"})(x);
  x = relu6(x, "conv_dw_" + id + "_relu");
  x = Conv2D(pointwise_filters, {1, 1}, {.padding = "same", .use_bias = false, .name = "conv_pw_" + id})(x);
  x = BatchNormalization({.name = "conv_pw_" + id + "_bn"})(x);
  return relu6(x, "conv_pw_" + id + "_relu");
}

}  // namespace

std::shared_ptr<Model> MobileNet(const MobileNetOptions& options) {
  const ApplicationOptions o = detail::common(options);
  detail::check_common(o, "MobileNet");
  if (options.alpha <= 0) throw ValueError("MobileNet: alpha must be positive, got " + std::to_string(options.alpha));
  if (options.depth_multiplier < 1)
    throw ValueError("MobileNet: depth_multiplier must be at least 1, got " + std::to_string(options.depth_multiplier));
  std::int64_t default_size = 224;
  if (o.input_shape && o.input_shape->size() == 3) {
    const std::int64_t rows = (*o.input_shape)[0], cols = (*o.input_shape)[1];
    if (rows == cols && (rows == 128 || rows == 160 || rows == 192 || rows == 224)) default_size = rows;
  }
  const Shape shape = imagenet_utils::obtain_input_shape(o.input_shape, default_size, 32, o.include_top, "MobileNet");
  const KerasTensor img_input = detail::image_input(o, shape);
  const double alpha = options.alpha;
  const std::int64_t dm = options.depth_multiplier;
  KerasTensor x = Conv2D(static_cast<std::int64_t>(32 * alpha), {3, 3},
                         {.strides = {2, 2}, .padding = "same", .use_bias = false, .name = "conv1"})(img_input);
  x = BatchNormalization({.name = "conv1_bn"})(x);
  x = relu6(x, "conv1_relu");
  const std::int64_t filters[13] = {64, 128, 128, 256, 256, 512, 512, 512, 512, 512, 512, 1024, 1024};
  const std::int64_t strides[13] = {1, 2, 1, 2, 1, 2, 1, 1, 1, 1, 1, 2, 1};
  for (int i = 0; i < 13; ++i) x = depthwise_conv_block(x, filters[i], alpha, dm, strides[i], i + 1);
  if (o.include_top) {
    x = GlobalAveragePooling2D({.keepdims = true})(x);
    x = Dropout(options.dropout, {.name = "dropout"})(x);
    x = Conv2D(o.classes, {1, 1}, {.padding = "same", .name = "conv_preds"})(x);
    x = Reshape({o.classes}, {.name = "reshape_2"})(x);
    detail::validate_activation(o);
    x = Activation(detail::classifier_activation(o), {.name = "predictions"})(x);
  } else {
    x = detail::pooled(x, o.pooling, false);
  }
  const std::string rows = shape[0] < 0 ? "None" : std::to_string(shape[0]);
  return detail::finish(o, img_input, x, fmt::format("mobilenet_{:.2f}_{}", alpha, rows));
}

}  // namespace keras::applications
