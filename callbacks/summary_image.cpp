#include "callbacks/summary_image.hpp"

#include <stb/stb_image_write.h>

#include <algorithm>
#include <cmath>
#include <type_traits>

#include "keras/autodiff/gradient_tape.hpp"
#include "keras/errors.hpp"
#include "keras/ops/manipulation.hpp"
#include "keras/ops/shape.hpp"
#include "keras/ops/stacking.hpp"

namespace keras::summary {

std::string encode_png(const std::uint8_t* pixels, int height, int width, int channels) {
  if (channels < 1 || channels > 4)
    throw ValueError("encode_png: an image has 1 to 4 channels (gray, gray + alpha, RGB, RGBA), got " +
                     std::to_string(channels));
  std::string png;
  const int ok = stbi_write_png_to_func(
      [](void* context, void* data, int size) { static_cast<std::string*>(context)->append(static_cast<const char*>(data), size); },
      &png, width, height, channels, pixels, width * channels);
  if (!ok) throw IOError("encode_png: stb_image_write could not encode a " + std::to_string(height) + "x" +
                         std::to_string(width) + " image");
  return png;
}

Tensor image_to_uint8(const Tensor& images) {
  if (images.dtype() == DType::uint8) return images;
  if (images.dtype() != DType::float32 && images.dtype() != DType::float64)
    throw ValueError("summary::image: images must be float32, float64 (values in [0, 1]) or uint8, got " + images.str());
  Tensor out = Tensor::empty(images.shape(), DType::uint8);
  auto* o = out.data<std::uint8_t>();
  auto convert = [&](const auto* p) {  // in the images' own precision, as TensorFlow multiplies
    using T = std::remove_cv_t<std::remove_pointer_t<decltype(p)>>;
    for (std::int64_t i = 0; i < images.size(); ++i) {
      const T v = p[i] * static_cast<T>(255.5);
      o[i] = std::isnan(v) || v <= 0 ? 0 : v >= 255 ? 255 : static_cast<std::uint8_t>(v);  // a saturating cast
    }
  };
  if (images.dtype() == DType::float32) convert(images.data<float>());
  else convert(images.data<double>());
  return out;
}

std::vector<std::string> image_summary_strings(const Tensor& images, int max_outputs) {
  if (images.ndim() != 4)
    throw ValueError("summary::image: images must be of rank 4 [k, h, w, c], got " + images.str());
  if (max_outputs < 0) throw ValueError("summary::image: max_outputs must be >= 0, got " + std::to_string(max_outputs));
  const auto k = images.dim(0), h = images.dim(1), w = images.dim(2), c = images.dim(3);
  if (c < 1 || c > 4)
    throw ValueError("summary::image: the last axis holds 1 to 4 channels (gray, gray + alpha, RGB, RGBA), got " +
                     images.str());
  const Tensor u8 = image_to_uint8(images);
  std::vector<std::string> out{std::to_string(w), std::to_string(h)};
  const auto* p = u8.data<std::uint8_t>();
  for (std::int64_t i = 0; i < std::min<std::int64_t>(k, max_outputs); ++i)
    out.push_back(encode_png(p + i * h * w * c, static_cast<int>(h), static_cast<int>(w), static_cast<int>(c)));
  return out;
}

Tensor weight_as_image(const Tensor& weight) {
  autodiff::NoGradScope no_grad;
  Tensor w = ops::squeeze(weight.astype(DType::float32));
  Shape s = w.shape();
  if (s.size() == 1) {
    w = ops::reshape(w, {1, s[0], 1, 1});
  } else if (s.size() == 2) {
    if (s[0] > s[1]) w = ops::transpose(w, {1, 0});
    s = w.shape();
    w = ops::reshape(w, {1, s[0], s[1], 1});
  } else if (s.size() == 3) {  // channels_last: one image per kernel
    w = ops::transpose(w, {2, 0, 1});
    s = w.shape();
    w = ops::reshape(w, {s[0], s[1], s[2], 1});
  }
  s = w.shape();
  if (s.size() == 4 && (s[3] == 1 || s[3] == 3 || s[3] == 4)) return w;
  return Tensor();
}

}  // namespace keras::summary
