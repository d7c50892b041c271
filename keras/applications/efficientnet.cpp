#include "keras/applications/efficientnet.hpp"

#include <cmath>

#include "keras/initializers/variance_scaling.hpp"
#include "layers/layers.hpp"
#include "layers/preprocessing/image/rescaling.hpp"
#include "layers/preprocessing/numeric/normalization.hpp"

namespace keras::applications {

namespace {

using namespace layers;

initializers::InitializerRef conv_init() {
  return std::make_shared<initializers::VarianceScaling>(
      initializers::VarianceScalingOptions{.scale = 2.0, .mode = "fan_out", .distribution = "truncated_normal"});
}

initializers::InitializerRef dense_init() {
  return std::make_shared<initializers::VarianceScaling>(
      initializers::VarianceScalingOptions{.scale = 1.0 / 3.0, .mode = "fan_out", .distribution = "uniform"});
}

struct BlockArgs {
  std::int64_t kernel_size, repeats, filters_in, filters_out, expand_ratio, strides;
};

// Keras's DEFAULT_BLOCKS_ARGS (id_skip true and se_ratio 0.25 for every block).
constexpr BlockArgs kBlocks[7] = {{3, 1, 32, 16, 1, 1},  {3, 2, 16, 24, 6, 2},  {5, 2, 24, 40, 6, 2},
                                  {3, 3, 40, 80, 6, 2},  {5, 3, 80, 112, 6, 1}, {5, 4, 112, 192, 6, 2},
                                  {3, 1, 192, 320, 6, 1}};
constexpr double kSeRatio = 0.25;

KerasTensor bn(const KerasTensor& x, const std::string& name) { return BatchNormalization({.axis = 3, .name = name})(x); }

KerasTensor swish(const KerasTensor& x, const std::string& name) { return Activation("swish", {.name = name})(x); }

// Keras's efficientnet block: expansion, depthwise convolution, squeeze-and-excitation, projection, and the
// identity shortcut with stochastic depth (Dropout with noise_shape (None, 1, 1, 1)).
KerasTensor block(const KerasTensor& inputs, double drop_rate, const std::string& name, std::int64_t filters_in,
                  std::int64_t filters_out, std::int64_t kernel_size, std::int64_t strides, std::int64_t expand_ratio) {
  const std::int64_t filters = filters_in * expand_ratio;
  KerasTensor x = inputs;
  if (expand_ratio != 1) {
    x = Conv2D(filters, {1, 1}, {.padding = "same", .use_bias = false, .kernel_initializer = conv_init(),
                                 .name = name + "expand_conv"})(inputs);
    x = bn(x, name + "expand_bn");
    x = swish(x, name + "expand_activation");
  }
  std::string conv_pad = "same";
  if (strides == 2) {
    x = ZeroPadding2D(imagenet_utils::correct_pad(x, kernel_size), {.name = name + "dwconv_pad"})(x);
    conv_pad = "valid";
  }
  x = DepthwiseConv2D({kernel_size, kernel_size}, {.strides = {strides, strides}, .padding = conv_pad, .use_bias = false,
                                                   .depthwise_initializer = conv_init(), .name = name + "dwconv"})(x);
  x = bn(x, name + "bn");
  x = swish(x, name + "activation");
  const std::int64_t filters_se = std::max<std::int64_t>(1, static_cast<std::int64_t>(filters_in * kSeRatio));
  KerasTensor se = GlobalAveragePooling2D({.name = name + "se_squeeze"})(x);
  se = Reshape({1, 1, filters}, {.name = name + "se_reshape"})(se);
  se = Conv2D(filters_se, {1, 1}, {.padding = "same", .activation = "swish", .kernel_initializer = conv_init(),
                                   .name = name + "se_reduce"})(se);
  se = Conv2D(filters, {1, 1}, {.padding = "same", .activation = "sigmoid", .kernel_initializer = conv_init(),
                                .name = name + "se_expand"})(se);
  x = Multiply({.name = name + "se_excite"})({x, se});
  x = Conv2D(filters_out, {1, 1}, {.padding = "same", .use_bias = false, .kernel_initializer = conv_init(),
                                   .name = name + "project_conv"})(x);
  x = bn(x, name + "project_bn");
  if (strides == 1 && filters_in == filters_out) {
    if (drop_rate > 0) x = Dropout(drop_rate, {.noise_shape = Shape{-1, 1, 1, 1}, .name = name + "drop"})(x);
    x = Add({.name = name + "add"})({x, inputs});
  }
  return x;
}

}  // namespace

std::shared_ptr<Model> EfficientNetB0(const ApplicationOptions& o) {
  detail::check_common(o, "EfficientNetB0");
  const Shape shape = imagenet_utils::obtain_input_shape(o.input_shape, 224, 32, o.include_top, "EfficientNetB0");
  const KerasTensor img_input = detail::image_input(o, shape);
  // B0: width and depth coefficients 1, so round_filters and round_repeats leave Keras's numbers as they are.
  constexpr double drop_connect_rate = 0.2, dropout_rate = 0.2;
  KerasTensor x = Rescaling(1.0 / 255.0)(img_input);
  x = Normalization({.axis = std::vector<int>{3}})(x);
  x = ZeroPadding2D(imagenet_utils::correct_pad(x, 3), {.name = "stem_conv_pad"})(x);
  x = Conv2D(32, {3, 3}, {.strides = {2, 2}, .padding = "valid", .use_bias = false, .kernel_initializer = conv_init(),
                          .name = "stem_conv"})(x);
  x = bn(x, "stem_bn");
  x = swish(x, "stem_activation");
  double total = 0;
  for (const auto& a : kBlocks) total += static_cast<double>(a.repeats);
  int b = 0;
  for (int i = 0; i < 7; ++i) {
    const BlockArgs& a = kBlocks[i];
    for (std::int64_t j = 0; j < a.repeats; ++j) {
      const std::string name = "block" + std::to_string(i + 1) + static_cast<char>('a' + j) + "_";
      x = block(x, drop_connect_rate * b / total, name, j > 0 ? a.filters_out : a.filters_in, a.filters_out,
                a.kernel_size, j > 0 ? 1 : a.strides, a.expand_ratio);
      ++b;
    }
  }
  x = Conv2D(1280, {1, 1}, {.padding = "same", .use_bias = false, .kernel_initializer = conv_init(), .name = "top_conv"})(x);
  x = bn(x, "top_bn");
  x = swish(x, "top_activation");
  if (o.include_top) {
    x = GlobalAveragePooling2D({.name = "avg_pool"})(x);
    x = Dropout(dropout_rate, {.name = "top_dropout"})(x);
    x = detail::predictions(x, o, dense_init());
  } else {
    x = detail::pooled(x, o.pooling, true);
  }
  return detail::finish(o, img_input, x, "efficientnetb0");
}

}  // namespace keras::applications
