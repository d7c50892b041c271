#include "keras/applications/vgg16.hpp"

#include <string>

#include "layers/layers.hpp"

namespace keras::applications {

std::shared_ptr<Model> VGG16(const ApplicationOptions& o) {
  using namespace layers;
  detail::check_common(o, "VGG16");
  const Shape shape = imagenet_utils::obtain_input_shape(o.input_shape, 224, 32, o.include_top, "VGG16");
  const KerasTensor img_input = detail::image_input(o, shape);
  KerasTensor x = img_input;
  const std::int64_t filters[5] = {64, 128, 256, 512, 512};
  const int convs[5] = {2, 2, 3, 3, 3};
  for (int b = 0; b < 5; ++b) {
    const std::string block = "block" + std::to_string(b + 1);
    for (int c = 0; c < convs[b]; ++c)
      x = Conv2D(filters[b], {3, 3},
                 {.padding = "same", .activation = "relu", .name = block + "_conv" + std::to_string(c + 1)})(x);
    x = MaxPooling2D({2, 2}, {.strides = {2, 2}, .name = block + "_pool"})(x);
  }
  if (o.include_top) {
    x = Flatten({.name = "flatten"})(x);
    x = Dense(4096, {.activation = "relu", .name = "fc1"})(x);
    x = Dense(4096, {.activation = "relu", .name = "fc2"})(x);
    x = detail::predictions(x, o);
  } else {
    x = detail::pooled(x, o.pooling, false);
  }
  return detail::finish(o, img_input, x, "vgg16");
}

}  // namespace keras::applications
