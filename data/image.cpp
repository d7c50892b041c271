#include "data/image.hpp"

#include <cmath>
#include <cstring>
#include <mutex>
#include <random>

#include <fmt/format.h>

#include "keras/utils/random.hpp"

namespace keras::image {
namespace {

// Per-thread generators, each seeded once from the global one (so set_random_seed still matters).
std::mt19937_64& thread_generator() {
  static std::mutex mu;
  thread_local std::mt19937_64 gen = [] {
    std::lock_guard lock(mu);
    return std::mt19937_64(utils::random_generator()());
  }();
  return gen;
}

struct Layout {
  std::int64_t n, h, w, c;
};

Layout layout(const Tensor& t, const char* fn) {
  if (t.ndim() == 3) return {1, t.dim(0), t.dim(1), t.dim(2)};
  if (t.ndim() == 4) return {t.dim(0), t.dim(1), t.dim(2), t.dim(3)};
  throw ValueError(fmt::format("image.{}: expected an image [height, width, channels] or a batch of them, got shape {}", fn,
                               shape_str(t.shape())));
}

// out[i] = in[map(i)] for pixels of image b: map gives the source (y, x) of destination (y, x).
template <class Map>
Tensor remap(const Tensor& in, const Layout& l, std::int64_t oh, std::int64_t ow, std::int64_t b0, std::int64_t b1, Map&& map,
             Tensor out) {
  const std::size_t px = static_cast<std::size_t>(l.c) * dtype_size(in.dtype());
  const char* src = static_cast<const char*>(in.raw_data());
  char* dst = static_cast<char*>(out.raw_data());
  for (std::int64_t b = b0; b < b1; ++b)
    for (std::int64_t y = 0; y < oh; ++y)
      for (std::int64_t x = 0; x < ow; ++x) {
        auto [sy, sx] = map(y, x);
        std::memcpy(dst + ((b * oh + y) * ow + x) * px, src + ((b * l.h + sy) * l.w + sx) * px, px);
      }
  return out;
}

Tensor flip(const Tensor& image, bool horizontal, std::optional<std::uint64_t> seed, bool random) {
  const Layout l = layout(image, horizontal ? "flip_left_right" : "flip_up_down");
  Tensor out = image.clone();
  std::mt19937_64 seeded(seed.value_or(0));
  auto& gen = seed ? seeded : thread_generator();
  for (std::int64_t b = 0; b < l.n; ++b) {
    if (random && std::bernoulli_distribution(0.5)(gen) == false) continue;
    remap(image, l, l.h, l.w, b, b + 1,
          [&](std::int64_t y, std::int64_t x) {
            return horizontal ? std::pair{y, l.w - 1 - x} : std::pair{l.h - 1 - y, x};
          },
          out);
  }
  return out;
}

}  // namespace

Tensor flip_left_right(const Tensor& image) { return flip(image, true, {}, false); }
Tensor flip_up_down(const Tensor& image) { return flip(image, false, {}, false); }
Tensor random_flip_left_right(const Tensor& image, std::optional<std::uint64_t> seed) { return flip(image, true, seed, true); }
Tensor random_flip_up_down(const Tensor& image, std::optional<std::uint64_t> seed) { return flip(image, false, seed, true); }

Tensor random_brightness(const Tensor& image, float max_delta, std::optional<std::uint64_t> seed) {
  if (max_delta < 0) throw ValueError("random_brightness: max_delta must be non-negative");
  const Layout l = layout(image, "random_brightness");
  Tensor out = image.astype(DType::float32).clone();
  std::mt19937_64 seeded(seed.value_or(0));
  auto& gen = seed ? seeded : thread_generator();
  std::uniform_real_distribution<float> delta(-max_delta, max_delta);
  const std::int64_t per = l.h * l.w * l.c;
  float* p = out.data<float>();
  for (std::int64_t b = 0; b < l.n; ++b) {
    const float d = delta(gen);
    for (std::int64_t i = 0; i < per; ++i) p[b * per + i] += d;
  }
  return out;
}

Tensor random_crop(const Tensor& value, const Shape& size, std::optional<std::uint64_t> seed) {
  if (static_cast<int>(size.size()) != value.ndim())
    throw ValueError(fmt::format("random_crop: size {} must have the rank of the value {}", shape_str(size), shape_str(value.shape())));
  std::mt19937_64 seeded(seed.value_or(0));
  auto& gen = seed ? seeded : thread_generator();
  Shape offset(size.size());
  for (std::size_t d = 0; d < size.size(); ++d) {
    if (size[d] > value.dim(static_cast<int>(d)) || size[d] < 0)
      throw ValueError(fmt::format("random_crop: size {} does not fit in shape {}", shape_str(size), shape_str(value.shape())));
    offset[d] = std::uniform_int_distribution<std::int64_t>(0, value.dim(static_cast<int>(d)) - size[d])(gen);
  }
  Tensor out = Tensor::empty(size, value.dtype());
  const std::size_t elem = dtype_size(value.dtype());
  const auto& vs = value.shape();
  // Copy rows of the innermost dimension.
  const std::int64_t rows = size.empty() ? 1 : shape_size(size) / std::max<std::int64_t>(size.back(), 1);
  const std::size_t row_bytes = (size.empty() ? 1 : static_cast<std::size_t>(size.back())) * elem;
  for (std::int64_t r = 0; r < rows && row_bytes; ++r) {
    std::int64_t rem = r, src = 0, stride = 1;
    std::vector<std::int64_t> idx(size.size(), 0);
    for (int d = static_cast<int>(size.size()) - 2; d >= 0; --d) {
      idx[d] = rem % size[d];
      rem /= size[d];
    }
    idx.back() = 0;
    for (int d = static_cast<int>(size.size()) - 1; d >= 0; --d) {
      src += (idx[d] + offset[d]) * stride;
      stride *= vs[d];
    }
    std::memcpy(static_cast<char*>(out.raw_data()) + r * row_bytes, static_cast<const char*>(value.raw_data()) + src * elem,
                row_bytes);
  }
  return out;
}

Tensor rot90(const Tensor& image, int k) {
  const Layout l = layout(image, "rot90");
  k = ((k % 4) + 4) % 4;
  if (k == 0) return image.clone();
  const std::int64_t oh = k == 2 ? l.h : l.w, ow = k == 2 ? l.w : l.h;
  Shape shape = image.shape();
  shape[shape.size() - 3] = oh;
  shape[shape.size() - 2] = ow;
  Tensor out = Tensor::empty(shape, image.dtype());
  return remap(image, l, oh, ow, 0, l.n,
               [&](std::int64_t y, std::int64_t x) {
                 if (k == 1) return std::pair{x, l.w - 1 - y};  // counter-clockwise
                 if (k == 2) return std::pair{l.h - 1 - y, l.w - 1 - x};
                 return std::pair{l.h - 1 - x, y};
               },
               out);
}

Tensor convert_image_dtype(const Tensor& image, DType dtype) {
  if (image.dtype() == dtype) return image;
  if (image.dtype() == DType::uint8 && dtype == DType::float32) {
    Tensor out = Tensor::empty(image.shape());
    const auto* s = image.data<std::uint8_t>();
    float* d = out.data<float>();
    for (std::int64_t i = 0; i < image.size(); ++i) d[i] = s[i] * (1.f / 255.f);
    return out;
  }
  if (image.dtype() == DType::float32 && dtype == DType::uint8) {
    Tensor out = Tensor::empty(image.shape(), DType::uint8);
    const float* s = image.data<float>();
    auto* d = out.data<std::uint8_t>();
    for (std::int64_t i = 0; i < image.size(); ++i) d[i] = static_cast<std::uint8_t>(std::clamp(s[i] * 255.5f, 0.f, 255.f));
    return out;
  }
  throw ValueError("convert_image_dtype converts between uint8 and float32, got " + dtype_name(image.dtype()) + " to " +
                   dtype_name(dtype));
}

Tensor resize(const Tensor& images, const Shape& size, const std::string& method) {
  const Layout l = layout(images, "resize");
  if (size.size() != 2 || size[0] <= 0 || size[1] <= 0)
    throw ValueError("resize: size must be {height, width} with positive values, got " + shape_str(size));
  const std::int64_t oh = size[0], ow = size[1];
  const float sy = float(l.h) / float(oh), sx = float(l.w) / float(ow);
  Shape shape = images.shape();
  shape[shape.size() - 3] = oh;
  shape[shape.size() - 2] = ow;
  if (method == "nearest") {
    Tensor out = Tensor::empty(shape, images.dtype());
    return remap(images, l, oh, ow, 0, l.n,
                 [&](std::int64_t y, std::int64_t x) {
                   return std::pair{std::min<std::int64_t>(std::int64_t(std::floor((y + 0.5f) * sy)), l.h - 1),
                                    std::min<std::int64_t>(std::int64_t(std::floor((x + 0.5f) * sx)), l.w - 1)};
                 },
                 out);
  }
  if (method != "bilinear") throw ValueError("resize: method must be \"bilinear\" or \"nearest\", got \"" + method + "\"");
  const Tensor in = images.astype(DType::float32);
  Tensor out = Tensor::empty(shape);
  const float* s = in.data<float>();
  float* d = out.data<float>();
  auto coord = [](std::int64_t o, float scale, std::int64_t n, std::int64_t& lo, std::int64_t& hi, float& f) {
    const float c = std::max(0.f, (o + 0.5f) * scale - 0.5f);
    lo = std::min<std::int64_t>(std::int64_t(c), n - 1);
    hi = std::min<std::int64_t>(lo + 1, n - 1);
    f = c - float(lo);
  };
  for (std::int64_t b = 0; b < l.n; ++b)
    for (std::int64_t y = 0; y < oh; ++y) {
      std::int64_t y0, y1;
      float fy;
      coord(y, sy, l.h, y0, y1, fy);
      for (std::int64_t x = 0; x < ow; ++x) {
        std::int64_t x0, x1;
        float fx;
        coord(x, sx, l.w, x0, x1, fx);
        for (std::int64_t ch = 0; ch < l.c; ++ch) {
          auto at = [&](std::int64_t yy, std::int64_t xx) { return s[((b * l.h + yy) * l.w + xx) * l.c + ch]; };
          const float top = at(y0, x0) + (at(y0, x1) - at(y0, x0)) * fx;
          const float bot = at(y1, x0) + (at(y1, x1) - at(y1, x0)) * fx;
          d[((b * oh + y) * ow + x) * l.c + ch] = top + (bot - top) * fy;
        }
      }
    }
  return out;
}

}  // namespace keras::image
