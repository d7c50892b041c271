#include <cmath>

#include <fmt/format.h>

#include "keras/applications/mobilenet.hpp"
#include "layers/layers.hpp"

namespace keras::applications {

namespace {

using namespace layers;

// Keras's _make_divisible: v rounded to the nearest multiple of divisor, never below 90% of v.
std::int64_t make_divisible(double v, std::int64_t divisor) {
  std::int64_t new_v = std::max<std::int64_t>(divisor, static_cast<std::int64_t>(v + divisor / 2.0) / divisor * divisor);
  if (new_v < 0.9 * v) new_v += divisor;
  return new_v;
}

KerasTensor bn(const KerasTensor& x, const std::string& name) {
  return BatchNormalization({.axis = -1, .momentum = 0.999, .epsilon = 1e-3, .name = name})(x);
}

KerasTensor relu6(const KerasTensor& x, const std::string& name) {
  return ReLU({.max_value = 6.0, .name = name})(x);
}

KerasTensor inverted_res_block(const KerasTensor& in, std::int64_t expansion, std::int64_t stride, double alpha,
                               std::int64_t filters, int block_id) {
  const std::int64_t in_channels = in.shape().back();
  const std::int64_t pointwise_filters = make_divisible(static_cast<double>(static_cast<std::int64_t>(filters * alpha)), 8);
  KerasTensor x = in;
  std::string prefix = "block_" + std::to_string(block_id) + "_";
  if (block_id) {
    x = Conv2D(expansion * in_channels, {1, 1}, {.padding = "same", .use_bias = false, .name = prefix + "expand"})(x);
    x = bn(x, prefix + "expand_BN");
    x = relu6(x, prefix + "expand_relu");
  } else {
    prefix = "expanded_conv_";
  }
  if (stride == 2) x = ZeroPadding2D(imagenet_utils::correct_pad(x, 3), {.name = prefix + "pad"})(x);
  x = DepthwiseConv2D({3, 3}, {.strides = {stride, stride}, .padding = stride == 1 ? "same" : "valid",
                               .use_bias = false, .name = prefix + "depthwise"})(x);
  x = bn(x, prefix + "depthwise_BN");
  x = relu6(x, prefix + "depthwise_relu");
  x = Conv2D(pointwise_filters, {1, 1}, {.padding = "same", .use_bias = false, .name = prefix + "project"})(x);
  x = bn(x, prefix + "project_BN");
  if (in_channels == pointwise_filters && stride == 1) return Add({.name = prefix + "add"})({in, x});
  return x;
}

}  // namespace

std::shared_ptr<Model> MobileNetV2(const MobileNetV2Options& options) {
  const ApplicationOptions o = detail::common(options);
  detail::check_common(o, "MobileNetV2");
  const double alpha = options.alpha;
  if (alpha <= 0) throw ValueError("MobileNetV2: alpha must be positive, got " + std::to_string(alpha));
  std::int64_t default_size = 224;
  Shape given = o.input_shape ? *o.input_shape : Shape{};
  if (given.empty() && o.input_tensor && o.input_tensor->shape().size() == 4)
    given = {o.input_tensor->shape()[1], o.input_tensor->shape()[2], o.input_tensor->shape()[3]};
  if (given.size() == 3 && given[0] == given[1] &&
      (given[0] == 96 || given[0] == 128 || given[0] == 160 || given[0] == 192 || given[0] == 224))
    default_size = given[0];
  const Shape shape = imagenet_utils::obtain_input_shape(o.input_shape, default_size, 32, o.include_top, "MobileNetV2");
  const KerasTensor img_input = detail::image_input(o, shape);
  KerasTensor x = Conv2D(make_divisible(32 * alpha, 8), {3, 3},
                         {.strides = {2, 2}, .padding = "same", .use_bias = false, .name = "Conv1"})(img_input);
  x = bn(x, "bn_Conv1");
  x = relu6(x, "Conv1_relu");
  struct Block {
    std::int64_t filters, stride, expansion;
  };
  const Block blocks[17] = {{16, 1, 1},  {24, 2, 6},  {24, 1, 6},  {32, 2, 6},  {32, 1, 6},  {32, 1, 6},
                            {64, 2, 6},  {64, 1, 6},  {64, 1, 6},  {64, 1, 6},  {96, 1, 6},  {96, 1, 6},
                            {96, 1, 6},  {160, 2, 6}, {160, 1, 6}, {160, 1, 6}, {320, 1, 6}};
  for (int i = 0; i < 17; ++i) x = inverted_res_block(x, blocks[i].expansion, blocks[i].stride, alpha, blocks[i].filters, i);
  const std::int64_t last_filters = alpha > 1.0 ? make_divisible(1280 * alpha, 8) : 1280;
  x = Conv2D(last_filters, {1, 1}, {.use_bias = false, .name = "Conv_1"})(x);
  x = bn(x, "Conv_1_bn");
  x = relu6(x, "out_relu");
  x = o.include_top ? detail::predictions(GlobalAveragePooling2D()(x), o) : detail::pooled(x, o.pooling, false);
  const std::string rows = shape[0] < 0 ? "None" : std::to_string(shape[0]);
  return detail::finish(o, img_input, x, fmt::format("mobilenetv2_{:.2f}_{}", alpha, rows));
}

}  // namespace keras::applications
