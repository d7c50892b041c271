#include "layers/preprocessing/image/resizing.hpp"

#include "keras/config/fields.hpp"
#include "keras/config/layer_config.hpp"
#include "layers/preprocessing/image/image_batch.hpp"
#include "layers/preprocessing/image/image_size.hpp"

namespace keras::layers {

KERAS_FIELDS(ResizingOptions, interpolation, crop_to_aspect_ratio)

Resizing::Resizing(std::int64_t height, std::int64_t width, ResizingOptions options)
    : Layer(options, "resizing"), height_(height), width_(width), options_(std::move(options)) {
  preprocessing::check_target_size(height, width, "Resizing");
  preprocessing::check_resize_interpolation(options_.interpolation, "Resizing");
}

Tensor Resizing::call(const Tensor& inputs, bool /*training*/) {
  const auto batch = preprocessing::ImageBatch::of(inputs, "Resizing");
  const auto& resize = options_.crop_to_aspect_ratio ? preprocessing::smart_resize : preprocessing::resize_images;
  return batch.restore(resize(batch.images, height_, width_, options_.interpolation, "Resizing"));
}

Shape Resizing::compute_output_shape(const Shape& s) const { return preprocessing::with_image_size(s, height_, width_); }

json Resizing::get_config() const {
  json c = layer_config(*this, options_);
  c["height"] = height_;
  c["width"] = width_;
  return c;
}

std::shared_ptr<Layer> Resizing::from_config(const json& c) {
  return make_from_config<Resizing, ResizingOptions>(c, config::required<std::int64_t>(c, "height"),
                                                     config::required<std::int64_t>(c, "width"));
}

KERAS_REGISTER_LAYER(Resizing)

}  // namespace keras::layers
