#include "keras/applications/inception_v3.hpp"

#include "layers/layers.hpp"

namespace keras::applications {

namespace {

using namespace layers;

// Keras's conv2d_bn: a bias-free convolution, batch norm without scale, relu; all named automatically.
KerasTensor conv_bn(const KerasTensor& x, std::int64_t filters, std::int64_t rows, std::int64_t cols,
                    const std::string& padding = "same", std::int64_t stride = 1) {
  KerasTensor y = Conv2D(filters, {rows, cols}, {.strides = {stride, stride}, .padding = padding, .use_bias = false})(x);
  y = BatchNormalization({.axis = 3, .scale = false})(y);
  return Activation("relu")(y);
}

KerasTensor avg_pool_3x3(const KerasTensor& x) {
  return AveragePooling2D({3, 3}, {.strides = {1, 1}, .padding = "same"})(x);
}

KerasTensor concat(const std::vector<KerasTensor>& xs, const std::string& name = "") {
  return Concatenate(3, {.name = name})(xs);
}

}  // namespace

std::shared_ptr<Model> InceptionV3(const ApplicationOptions& o) {
  detail::check_common(o, "InceptionV3");
  const Shape shape = imagenet_utils::obtain_input_shape(o.input_shape, 299, 75, o.include_top, "InceptionV3");
  const KerasTensor img_input = detail::image_input(o, shape);
  KerasTensor x = conv_bn(img_input, 32, 3, 3, "valid", 2);
  x = conv_bn(x, 32, 3, 3, "valid");
  x = conv_bn(x, 64, 3, 3);
  x = MaxPooling2D({3, 3}, {.strides = {2, 2}})(x);
  x = conv_bn(x, 80, 1, 1, "valid");
  x = conv_bn(x, 192, 3, 3, "valid");
  x = MaxPooling2D({3, 3}, {.strides = {2, 2}})(x);

  // mixed0..2: 35x35
  const std::int64_t pool_filters[3] = {32, 64, 64};
  for (int i = 0; i < 3; ++i) {
    KerasTensor b1 = conv_bn(x, 64, 1, 1);
    KerasTensor b5 = conv_bn(x, 48, 1, 1);
    b5 = conv_bn(b5, 64, 5, 5);
    KerasTensor b3 = conv_bn(x, 64, 1, 1);
    b3 = conv_bn(b3, 96, 3, 3);
    b3 = conv_bn(b3, 96, 3, 3);
    KerasTensor bp = conv_bn(avg_pool_3x3(x), pool_filters[i], 1, 1);
    x = concat({b1, b5, b3, bp}, "mixed" + std::to_string(i));
  }
  {  // mixed3: 17x17
    KerasTensor b3 = conv_bn(x, 384, 3, 3, "valid", 2);
    KerasTensor bd = conv_bn(x, 64, 1, 1);
    bd = conv_bn(bd, 96, 3, 3);
    bd = conv_bn(bd, 96, 3, 3, "valid", 2);
    KerasTensor bp = MaxPooling2D({3, 3}, {.strides = {2, 2}})(x);
    x = concat({b3, bd, bp}, "mixed3");
  }
  // mixed4..7: 17x17 with factorized 7x7 convolutions
  const std::int64_t widths[4] = {128, 160, 160, 192};
  for (int i = 0; i < 4; ++i) {
    const std::int64_t w = widths[i];
    KerasTensor b1 = conv_bn(x, 192, 1, 1);
    KerasTensor b7 = conv_bn(x, w, 1, 1);
    b7 = conv_bn(b7, w, 1, 7);
    b7 = conv_bn(b7, 192, 7, 1);
    KerasTensor bd = conv_bn(x, w, 1, 1);
    bd = conv_bn(bd, w, 7, 1);
    bd = conv_bn(bd, w, 1, 7);
    bd = conv_bn(bd, w, 7, 1);
    bd = conv_bn(bd, 192, 1, 7);
    KerasTensor bp = conv_bn(avg_pool_3x3(x), 192, 1, 1);
    x = concat({b1, b7, bd, bp}, "mixed" + std::to_string(4 + i));
  }
  {  // mixed8: 8x8
    KerasTensor b3 = conv_bn(x, 192, 1, 1);
    b3 = conv_bn(b3, 320, 3, 3, "valid", 2);
    KerasTensor b7 = conv_bn(x, 192, 1, 1);
    b7 = conv_bn(b7, 192, 1, 7);
    b7 = conv_bn(b7, 192, 7, 1);
    b7 = conv_bn(b7, 192, 3, 3, "valid", 2);
    KerasTensor bp = MaxPooling2D({3, 3}, {.strides = {2, 2}})(x);
    x = concat({b3, b7, bp}, "mixed8");
  }
  for (int i = 0; i < 2; ++i) {  // mixed9, mixed10: 8x8
    KerasTensor b1 = conv_bn(x, 320, 1, 1);
    KerasTensor b3 = conv_bn(x, 384, 1, 1);
    KerasTensor b3_1 = conv_bn(b3, 384, 1, 3);
    KerasTensor b3_2 = conv_bn(b3, 384, 3, 1);
    b3 = concat({b3_1, b3_2}, "mixed9_" + std::to_string(i));
    KerasTensor bd = conv_bn(x, 448, 1, 1);
    bd = conv_bn(bd, 384, 3, 3);
    KerasTensor bd_1 = conv_bn(bd, 384, 1, 3);
    KerasTensor bd_2 = conv_bn(bd, 384, 3, 1);
    bd = concat({bd_1, bd_2});
    KerasTensor bp = conv_bn(avg_pool_3x3(x), 192, 1, 1);
    x = concat({b1, b3, bd, bp}, "mixed" + std::to_string(9 + i));
  }
  x = detail::average_pool_top(x, o, false);
  return detail::finish(o, img_input, x, "inception_v3");
}

}  // namespace keras::applications
