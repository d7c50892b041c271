#include "keras/applications/resnet.hpp"

#include <functional>
#include <string>

#include "layers/layers.hpp"

namespace keras::applications {

namespace {

using namespace layers;
constexpr double kEpsilon = 1.001e-5;

KerasTensor bn(const KerasTensor& x, const std::string& name) {
  return BatchNormalization({.axis = 3, .epsilon = kEpsilon, .name = name})(x);
}

// Keras's residual_block_v1: 1x1 → 3x3 → 1x1 (4 * filters), batch norm after each, relu after the sum.
KerasTensor block_v1(const KerasTensor& in, std::int64_t filters, std::int64_t stride, bool conv_shortcut,
                     const std::string& name) {
  KerasTensor shortcut = in;
  if (conv_shortcut) {
    shortcut = Conv2D(4 * filters, {1, 1}, {.strides = {stride, stride}, .name = name + "_0_conv"})(in);
    shortcut = bn(shortcut, name + "_0_bn");
  }
  KerasTensor x = Conv2D(filters, {1, 1}, {.strides = {stride, stride}, .name = name + "_1_conv"})(in);
  x = bn(x, name + "_1_bn");
  x = Activation("relu", {.name = name + "_1_relu"})(x);
  x = Conv2D(filters, {3, 3}, {.padding = "same", .name = name + "_2_conv"})(x);
  x = bn(x, name + "_2_bn");
  x = Activation("relu", {.name = name + "_2_relu"})(x);
  x = Conv2D(4 * filters, {1, 1}, {.name = name + "_3_conv"})(x);
  x = bn(x, name + "_3_bn");
  x = Add({.name = name + "_add"})({shortcut, x});
  return Activation("relu", {.name = name + "_out"})(x);
}

KerasTensor stack_v1(KerasTensor x, std::int64_t filters, int blocks, std::int64_t stride1, const std::string& name) {
  x = block_v1(x, filters, stride1, true, name + "_block1");
  for (int i = 2; i <= blocks; ++i) x = block_v1(x, filters, 1, false, name + "_block" + std::to_string(i));
  return x;
}

// Keras's residual_block_v2: batch norm and relu before the convolutions; the stride is on the 3x3 of the last
// block of a stack, whose shortcut is then a 1x1 max pooling of stride 2.
KerasTensor block_v2(const KerasTensor& in, std::int64_t filters, std::int64_t stride, bool conv_shortcut,
                     const std::string& name) {
  KerasTensor preact = bn(in, name + "_preact_bn");
  preact = Activation("relu", {.name = name + "_preact_relu"})(preact);
  KerasTensor shortcut = in;
  if (conv_shortcut)
    shortcut = Conv2D(4 * filters, {1, 1}, {.strides = {stride, stride}, .name = name + "_0_conv"})(preact);
  else if (stride > 1)
    shortcut = MaxPooling2D({1, 1}, {.strides = {stride, stride}})(in);
  KerasTensor x = Conv2D(filters, {1, 1}, {.strides = {1, 1}, .use_bias = false, .name = name + "_1_conv"})(preact);
  x = bn(x, name + "_1_bn");
  x = Activation("relu", {.name = name + "_1_relu"})(x);
  x = ZeroPadding2D({{1, 1}, {1, 1}}, {.name = name + "_2_pad"})(x);
  x = Conv2D(filters, {3, 3}, {.strides = {stride, stride}, .use_bias = false, .name = name + "_2_conv"})(x);
  x = bn(x, name + "_2_bn");
  x = Activation("relu", {.name = name + "_2_relu"})(x);
  x = Conv2D(4 * filters, {1, 1}, {.name = name + "_3_conv"})(x);
  return Add({.name = name + "_out"})({shortcut, x});
}

KerasTensor stack_v2(KerasTensor x, std::int64_t filters, int blocks, std::int64_t stride1, const std::string& name) {
  x = block_v2(x, filters, 1, true, name + "_block1");
  for (int i = 2; i < blocks; ++i) x = block_v2(x, filters, 1, false, name + "_block" + std::to_string(i));
  return block_v2(x, filters, stride1, false, name + "_block" + std::to_string(blocks));
}

// Keras's ResNet(): the stem, the stacks, and the top.
std::shared_ptr<Model> build_resnet(const ApplicationOptions& o, bool preact, bool use_bias, const std::string& model,
                              const std::string& default_name,
                              const std::function<KerasTensor(KerasTensor)>& stacks) {
  detail::check_common(o, model);
  const Shape shape = imagenet_utils::obtain_input_shape(o.input_shape, 224, 32, o.include_top, model);
  const KerasTensor img_input = detail::image_input(o, shape);
  KerasTensor x = ZeroPadding2D({{3, 3}, {3, 3}}, {.name = "conv1_pad"})(img_input);
  x = Conv2D(64, {7, 7}, {.strides = {2, 2}, .use_bias = use_bias, .name = "conv1_conv"})(x);
  if (!preact) {
    x = bn(x, "conv1_bn");
    x = Activation("relu", {.name = "conv1_relu"})(x);
  }
  x = ZeroPadding2D({{1, 1}, {1, 1}}, {.name = "pool1_pad"})(x);
  x = MaxPooling2D({3, 3}, {.strides = {2, 2}, .name = "pool1_pool"})(x);
  x = stacks(x);
  if (preact) {
    x = bn(x, "post_bn");
    x = Activation("relu", {.name = "post_relu"})(x);
  }
  x = detail::average_pool_top(x, o, true);
  return detail::finish(o, img_input, x, default_name);
}

}  // namespace

std::shared_ptr<Model> ResNet50(const ApplicationOptions& o) {
  return build_resnet(o, false, true, "ResNet50", "resnet50", [](KerasTensor x) {
    x = stack_v1(x, 64, 3, 1, "conv2");
    x = stack_v1(x, 128, 4, 2, "conv3");
    x = stack_v1(x, 256, 6, 2, "conv4");
    return stack_v1(x, 512, 3, 2, "conv5");
  });
}

std::shared_ptr<Model> ResNet50V2(const ApplicationOptions& o) {
  return build_resnet(o, true, true, "ResNet50V2", "resnet50v2", [](KerasTensor x) {
    x = stack_v2(x, 64, 3, 2, "conv2");
    x = stack_v2(x, 128, 4, 2, "conv3");
    x = stack_v2(x, 256, 6, 2, "conv4");
    return stack_v2(x, 512, 3, 1, "conv5");
  });
}

}  // namespace keras::applications
