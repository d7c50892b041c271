#include "keras/applications/xception.hpp"

#include "layers/layers.hpp"

namespace keras::applications {

namespace {

using namespace layers;

KerasTensor sepconv_bn(const KerasTensor& x, std::int64_t filters, const std::string& name) {
  KerasTensor y = SeparableConv2D(filters, {3, 3}, {.padding = "same", .use_bias = false, .name = name})(x);
  return BatchNormalization({.axis = -1, .name = name + "_bn"})(y);
}

KerasTensor relu(const KerasTensor& x, const std::string& name) { return Activation("relu", {.name = name})(x); }

// The automatically named 1x1 stride-2 convolution and batch norm of a downsampling block's shortcut.
KerasTensor residual(const KerasTensor& x, std::int64_t filters) {
  KerasTensor r = Conv2D(filters, {1, 1}, {.strides = {2, 2}, .padding = "same", .use_bias = false})(x);
  return BatchNormalization({.axis = -1})(r);
}

KerasTensor pool(const KerasTensor& x, const std::string& name) {
  return MaxPooling2D({3, 3}, {.strides = {2, 2}, .padding = "same", .name = name})(x);
}

}  // namespace

std::shared_ptr<Model> Xception(const ApplicationOptions& o) {
  detail::check_common(o, "Xception");
  const Shape shape = imagenet_utils::obtain_input_shape(o.input_shape, 299, 71, o.include_top, "Xception");
  const KerasTensor img_input = detail::image_input(o, shape);
  KerasTensor x = Conv2D(32, {3, 3}, {.strides = {2, 2}, .use_bias = false, .name = "block1_conv1"})(img_input);
  x = BatchNormalization({.axis = -1, .name = "block1_conv1_bn"})(x);
  x = relu(x, "block1_conv1_act");
  x = Conv2D(64, {3, 3}, {.use_bias = false, .name = "block1_conv2"})(x);
  x = BatchNormalization({.axis = -1, .name = "block1_conv2_bn"})(x);
  x = relu(x, "block1_conv2_act");

  // Entry flow: blocks 2-4 (block 2 starts without the relu).
  const std::int64_t entry[3] = {128, 256, 728};
  for (int b = 2; b <= 4; ++b) {
    const std::string p = "block" + std::to_string(b);
    KerasTensor r = residual(x, entry[b - 2]);
    if (b > 2) x = relu(x, p + "_sepconv1_act");
    x = sepconv_bn(x, entry[b - 2], p + "_sepconv1");
    x = relu(x, p + "_sepconv2_act");
    x = sepconv_bn(x, entry[b - 2], p + "_sepconv2");
    x = pool(x, p + "_pool");
    x = add({x, r});
  }
  // Middle flow: blocks 5-12.
  for (int b = 5; b <= 12; ++b) {
    const std::string p = "block" + std::to_string(b);
    KerasTensor r = x;
    for (int s = 1; s <= 3; ++s) {
      x = relu(x, p + "_sepconv" + std::to_string(s) + "_act");
      x = sepconv_bn(x, 728, p + "_sepconv" + std::to_string(s));
    }
    x = add({x, r});
  }
  // Exit flow.
  KerasTensor r = residual(x, 1024);
  x = relu(x, "block13_sepconv1_act");
  x = sepconv_bn(x, 728, "block13_sepconv1");
  x = relu(x, "block13_sepconv2_act");
  x = sepconv_bn(x, 1024, "block13_sepconv2");
  x = pool(x, "block13_pool");
  x = add({x, r});
  x = sepconv_bn(x, 1536, "block14_sepconv1");
  x = relu(x, "block14_sepconv1_act");
  x = sepconv_bn(x, 2048, "block14_sepconv2");
  x = relu(x, "block14_sepconv2_act");
  x = detail::average_pool_top(x, o, false);
  return detail::finish(o, img_input, x, "xception");
}

}  // namespace keras::applications
