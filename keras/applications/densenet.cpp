#include "keras/applications/densenet.hpp"

#include "layers/layers.hpp"

namespace keras::applications {

namespace {

using namespace layers;
constexpr double kEpsilon = 1.001e-5;

KerasTensor bn_relu(const KerasTensor& x, const std::string& bn_name, const std::string& relu_name) {
  KerasTensor y = BatchNormalization({.axis = 3, .epsilon = kEpsilon, .name = bn_name})(x);
  return Activation("relu", {.name = relu_name})(y);
}

KerasTensor conv_block(const KerasTensor& x, std::int64_t growth_rate, const std::string& name) {
  KerasTensor x1 = bn_relu(x, name + "_0_bn", name + "_0_relu");
  x1 = Conv2D(4 * growth_rate, {1, 1}, {.use_bias = false, .name = name + "_1_conv"})(x1);
  x1 = bn_relu(x1, name + "_1_bn", name + "_1_relu");
  x1 = Conv2D(growth_rate, {3, 3}, {.padding = "same", .use_bias = false, .name = name + "_2_conv"})(x1);
  return Concatenate(3, {.name = name + "_concat"})({x, x1});
}

KerasTensor dense_block(KerasTensor x, int blocks, const std::string& name) {
  for (int i = 0; i < blocks; ++i) x = conv_block(x, 32, name + "_block" + std::to_string(i + 1));
  return x;
}

KerasTensor transition_block(const KerasTensor& in, double reduction, const std::string& name) {
  KerasTensor x = bn_relu(in, name + "_bn", name + "_relu");
  x = Conv2D(static_cast<std::int64_t>(x.shape()[3] * reduction), {1, 1}, {.use_bias = false, .name = name + "_conv"})(x);
  return AveragePooling2D({2, 2}, {.strides = {2, 2}, .name = name + "_pool"})(x);
}

}  // namespace

std::shared_ptr<Model> DenseNet121(const ApplicationOptions& o) {
  detail::check_common(o, "DenseNet121");
  const Shape shape = imagenet_utils::obtain_input_shape(o.input_shape, 224, 32, o.include_top, "DenseNet121");
  const KerasTensor img_input = detail::image_input(o, shape);
  KerasTensor x = ZeroPadding2D({{3, 3}, {3, 3}})(img_input);
  x = Conv2D(64, {7, 7}, {.strides = {2, 2}, .use_bias = false, .name = "conv1_conv"})(x);
  x = bn_relu(x, "conv1_bn", "conv1_relu");
  x = ZeroPadding2D({{1, 1}, {1, 1}})(x);
  x = MaxPooling2D({3, 3}, {.strides = {2, 2}, .name = "pool1"})(x);
  const int blocks[4] = {6, 12, 24, 16};
  for (int i = 0; i < 4; ++i) {
    x = dense_block(x, blocks[i], "conv" + std::to_string(i + 2));
    if (i < 3) x = transition_block(x, 0.5, "pool" + std::to_string(i + 2));
  }
  x = bn_relu(x, "bn", "relu");
  x = detail::average_pool_top(x, o, true);
  return detail::finish(o, img_input, x, "densenet121");
}

}  // namespace keras::applications
