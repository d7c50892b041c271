#include "layers/preprocessing/image/center_crop.hpp"

#include "keras/config/fields.hpp"
#include "keras/config/layer_config.hpp"
#include "layers/preprocessing/image/image_batch.hpp"
#include "layers/preprocessing/image/image_size.hpp"

namespace keras::layers {

KERAS_FIELDS(CenterCropOptions)

CenterCrop::CenterCrop(std::int64_t height, std::int64_t width, CenterCropOptions options)
    : Layer(options, "center_crop"), height_(height), width_(width), options_(std::move(options)) {
  preprocessing::check_target_size(height, width, "CenterCrop");
}

Tensor CenterCrop::call(const Tensor& inputs, bool /*training*/) {
  const auto b = preprocessing::ImageBatch::of(inputs, "CenterCrop");
  const std::int64_t dh = b.h - height_, dw = b.w - width_;
  if (dh < 0 || dw < 0) return b.restore(preprocessing::smart_resize(b.images, height_, width_, "bilinear", "CenterCrop"));
  return b.restore(preprocessing::crop_images(b.images, dh / 2, dw / 2, height_, width_));
}

Shape CenterCrop::compute_output_shape(const Shape& s) const { return preprocessing::with_image_size(s, height_, width_); }

json CenterCrop::get_config() const {
  json c = layer_config(*this, options_);
  c["height"] = height_;
  c["width"] = width_;
  return c;
}

std::shared_ptr<Layer> CenterCrop::from_config(const json& c) {
  return make_from_config<CenterCrop, CenterCropOptions>(c, config::required<std::int64_t>(c, "height"),
                                                         config::required<std::int64_t>(c, "width"));
}

KERAS_REGISTER_LAYER(CenterCrop)

}  // namespace keras::layers
