#include "layers/preprocessing/image/image_batch.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>

#include <fmt/format.h>

#include "data/image.hpp"
#include "keras/errors.hpp"

namespace keras::layers::preprocessing {

ImageBatch ImageBatch::of(const Tensor& inputs, const std::string& layer) {
  const auto& s = inputs.shape();
  if (s.size() != 3 && s.size() != 4)
    throw ValueError(fmt::format("{}: expected images of shape (batch, height, width, channels) or (height, width, "
                                 "channels), channels_last; received shape {}. Add or remove the batch axis.",
                                 layer, shape_str(s)));
  ImageBatch b;
  b.batched = s.size() == 4;
  b.n = b.batched ? s[0] : 1;
  b.h = s[s.size() - 3];
  b.w = s[s.size() - 2];
  b.c = s[s.size() - 1];
  b.images = inputs.astype(DType::float32).reshape({b.n, b.h, b.w, b.c});
  return b;
}

Tensor ImageBatch::restore(const Tensor& result) const {
  if (batched) return result;
  const auto& s = result.shape();
  return result.reshape({s[1], s[2], s[3]});
}

Tensor crop_images(const Tensor& images, std::int64_t top, std::int64_t left, std::int64_t height, std::int64_t width) {
  const auto& s = images.shape();
  const std::int64_t n = s[0], h = s[1], w = s[2], c = s[3];
  Tensor out = Tensor::empty({n, height, width, c});
  const float* src = images.data<float>();
  float* dst = out.data<float>();
  for (std::int64_t b = 0; b < n; ++b)
    for (std::int64_t y = 0; y < height; ++y)
      std::memcpy(dst + ((b * height + y) * width) * c, src + ((b * h + top + y) * w + left) * c,
                  sizeof(float) * static_cast<std::size_t>(width * c));
  return out;
}

namespace {

// One output coordinate's taps and weights along one axis.
struct Taps {
  std::array<std::int64_t, 4> index{};
  std::array<float, 4> weight{};
};

// tf.image.resize's bicubic (ResizeBicubic with half-pixel centres): Keys's cubic with a = -0.5 read from
// a table of 1024 steps, taps outside the image weighted 0 and the rest renormalised to sum 1.
Taps bicubic_taps(std::int64_t out, float scale, std::int64_t limit) {
  constexpr int kTable = 1024;
  auto near_coeff = [](float x) { return ((1.5f * x - 2.5f) * x) * x + 1.f; };         // |x| <= 1
  auto far_coeff = [](float x) { return ((-0.5f * x + 2.5f) * x - 4.f) * x + 2.f; };  // 1 < |x| < 2
  const float in = (static_cast<float>(out) + 0.5f) * scale - 0.5f;
  const auto base = static_cast<std::int64_t>(std::floor(in));
  const long offset = std::lrint((in - static_cast<float>(base)) * kTable);
  const float w[4] = {far_coeff(float(offset + kTable) / kTable), near_coeff(float(offset) / kTable),
                      near_coeff(float(kTable - offset) / kTable), far_coeff(float(2 * kTable - offset) / kTable)};
  Taps t;
  float sum = 0;
  for (int k = 0; k < 4; ++k) {
    const std::int64_t i = base - 1 + k;
    t.index[k] = std::clamp<std::int64_t>(i, 0, limit - 1);
    t.weight[k] = (i >= 0 && i < limit) ? w[k] : 0.f;
    sum += t.weight[k];
  }
  for (float& x : t.weight) x /= sum;
  return t;
}

Tensor resize_bicubic(const Tensor& images, std::int64_t oh, std::int64_t ow) {
  const auto& s = images.shape();
  const std::int64_t n = s[0], h = s[1], w = s[2], c = s[3];
  const float sy = float(h) / float(oh), sx = float(w) / float(ow);
  std::vector<Taps> ty(oh), tx(ow);
  for (std::int64_t y = 0; y < oh; ++y) ty[y] = bicubic_taps(y, sy, h);
  for (std::int64_t x = 0; x < ow; ++x) tx[x] = bicubic_taps(x, sx, w);
  Tensor out = Tensor::empty({n, oh, ow, c});
  const float* src = images.data<float>();
  float* dst = out.data<float>();
  for (std::int64_t b = 0; b < n; ++b)
    for (std::int64_t y = 0; y < oh; ++y)
      for (std::int64_t x = 0; x < ow; ++x)
        for (std::int64_t ch = 0; ch < c; ++ch) {
          float acc = 0;
          for (int i = 0; i < 4; ++i) {
            float row = 0;
            for (int j = 0; j < 4; ++j) row += tx[x].weight[j] * src[((b * h + ty[y].index[i]) * w + tx[x].index[j]) * c + ch];
            acc += ty[y].weight[i] * row;
          }
          dst[((b * oh + y) * ow + x) * c + ch] = acc;
        }
  return out;
}

// The input cells [lo, hi) of output cell `out` with the fraction of each the cell covers (ResizeArea).
std::vector<std::pair<std::int64_t, float>> area_cover(std::int64_t out, float scale, std::int64_t limit) {
  std::vector<std::pair<std::int64_t, float>> cover;
  const float lo = float(out) * scale, hi = float(out + 1) * scale;
  for (auto v = static_cast<std::int64_t>(std::floor(lo)); float(v) < hi; ++v) {
    const float a = std::max(lo, float(v)), b = std::min(hi, float(v + 1));
    cover.emplace_back(std::clamp<std::int64_t>(v, 0, limit - 1), b - a);
  }
  return cover;
}

Tensor resize_area(const Tensor& images, std::int64_t oh, std::int64_t ow) {
  const auto& s = images.shape();
  const std::int64_t n = s[0], h = s[1], w = s[2], c = s[3];
  const float sy = float(h) / float(oh), sx = float(w) / float(ow), norm = 1.f / (sy * sx);
  Tensor out = Tensor::zeros({n, oh, ow, c});
  const float* src = images.data<float>();
  float* dst = out.data<float>();
  for (std::int64_t y = 0; y < oh; ++y) {
    const auto cy = area_cover(y, sy, h);
    for (std::int64_t x = 0; x < ow; ++x) {
      const auto cx = area_cover(x, sx, w);
      for (std::int64_t b = 0; b < n; ++b) {
        float* o = dst + ((b * oh + y) * ow + x) * c;
        for (auto [iy, fy] : cy)
          for (auto [ix, fx] : cx) {
            const float* p = src + ((b * h + iy) * w + ix) * c;
            for (std::int64_t ch = 0; ch < c; ++ch) o[ch] += p[ch] * fy * fx;
          }
        for (std::int64_t ch = 0; ch < c; ++ch) o[ch] *= norm;
      }
    }
  }
  return out;
}

}  // namespace

void check_resize_interpolation(const std::string& interpolation, const std::string& layer) {
  if (interpolation != "bilinear" && interpolation != "nearest" && interpolation != "bicubic" && interpolation != "area")
    throw ValueError(fmt::format("{}: unsupported interpolation \"{}\"; use \"bilinear\", \"nearest\", \"bicubic\" or "
                                 "\"area\" (kerascpp does not implement lanczos3, lanczos5, gaussian, mitchellcubic)",
                                 layer, interpolation));
}

Tensor resize_images(const Tensor& images, std::int64_t height, std::int64_t width, const std::string& interpolation,
                     const std::string& layer) {
  check_resize_interpolation(interpolation, layer);
  if (interpolation == "bicubic") return resize_bicubic(images, height, width);
  if (interpolation == "area") return resize_area(images, height, width);
  return image::resize(images, {height, width}, interpolation).astype(DType::float32);
}

Tensor smart_resize(const Tensor& images, std::int64_t height, std::int64_t width, const std::string& interpolation,
                    const std::string& layer) {
  const auto& s = images.shape();
  const std::int64_t h = s[1], w = s[2];
  const auto crop_h = std::min(h, static_cast<std::int64_t>(double(w * height) / double(width)));
  const auto crop_w = std::min(w, static_cast<std::int64_t>(double(h * width) / double(height)));
  const auto top = static_cast<std::int64_t>(double(h - crop_h) / 2), left = static_cast<std::int64_t>(double(w - crop_w) / 2);
  return resize_images(crop_images(images, top, left, crop_h, crop_w), height, width, interpolation, layer);
}

}  // namespace keras::layers::preprocessing
