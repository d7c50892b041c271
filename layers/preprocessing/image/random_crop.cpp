#include "layers/preprocessing/image/random_crop.hpp"

#include "keras/config/fields.hpp"
#include "keras/config/layer_config.hpp"
#include "layers/preprocessing/image/image_size.hpp"

namespace keras::layers {

KERAS_FIELDS(RandomCropOptions, seed)

RandomCrop::RandomCrop(std::int64_t height, std::int64_t width, RandomCropOptions options)
    : AugmentationLayer(options, "random_crop"), height_(height), width_(width), options_(std::move(options)) {
  preprocessing::check_target_size(height, width, "RandomCrop");
}

Tensor RandomCrop::call(const Tensor& inputs, bool training) {
  const auto b = preprocessing::ImageBatch::of(inputs, "RandomCrop");
  if (training && b.h >= height_ && b.w >= width_) return b.restore(augment(b.images));
  return b.restore(preprocessing::smart_resize(b.images, height_, width_, "bilinear", "RandomCrop"));
}

Tensor RandomCrop::augment(const Tensor& images) {
  const auto& s = images.shape();
  const std::int64_t h = s[1], w = s[2], c = s[3];
  Tensor out = Tensor::empty({s[0], height_, width_, c});
  const float* src = images.data<float>();
  float* dst = out.data<float>();
  for (std::int64_t b = 0; b < s[0]; ++b) {
    const auto top = std::uniform_int_distribution<std::int64_t>(0, h - height_)(engine());
    const auto left = std::uniform_int_distribution<std::int64_t>(0, w - width_)(engine());
    for (std::int64_t y = 0; y < height_; ++y) {
      const float* row = src + ((b * h + top + y) * w + left) * c;
      std::copy(row, row + width_ * c, dst + (b * height_ + y) * width_ * c);
    }
  }
  return out;
}

Shape RandomCrop::compute_output_shape(const Shape& s) const { return preprocessing::with_image_size(s, height_, width_); }

json RandomCrop::get_config() const {
  json c = layer_config(*this, options_);
  c["height"] = height_;
  c["width"] = width_;
  return c;
}

std::shared_ptr<Layer> RandomCrop::from_config(const json& c) {
  return make_from_config<RandomCrop, RandomCropOptions>(c, config::required<std::int64_t>(c, "height"),
                                                         config::required<std::int64_t>(c, "width"));
}

KERAS_REGISTER_LAYER(RandomCrop)

}  // namespace keras::layers
