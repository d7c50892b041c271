#include "layers/preprocessing/image/image_transform.hpp"

#include <cmath>

#include <fmt/format.h>

#include "keras/errors.hpp"

namespace keras::layers::preprocessing {

namespace {

enum class Fill { reflect, wrap, nearest, constant };

Fill fill_of(const std::string& mode) {
  if (mode == "reflect") return Fill::reflect;
  if (mode == "wrap") return Fill::wrap;
  if (mode == "nearest") return Fill::nearest;
  return Fill::constant;
}

// One coordinate brought back inside [0, len - 1] by the fill mode (constant leaves it where it is).
float map_coordinate(float in, float len, Fill fill) {
  if (fill == Fill::constant) return in;
  if (fill == Fill::reflect) {
    if (in < 0) {
      if (len <= 1) return 0;
      const float sz2 = 2 * len;
      if (in < -sz2) in = sz2 * static_cast<float>(static_cast<std::int64_t>(-in / sz2)) + in;
      in = in < -len ? in + sz2 : -in - 1;
    } else if (in > len - 1) {
      if (len <= 1) return 0;
      const float sz2 = 2 * len;
      in -= sz2 * static_cast<float>(static_cast<std::int64_t>(in / sz2));
      if (in >= len) in = sz2 - in - 1;
    }
  } else if (fill == Fill::wrap) {
    if (in < 0) {
      if (len <= 1) return 0;
      const float sz = len - 1;
      in += len * static_cast<float>(static_cast<std::int64_t>(-in / sz) + 1);
    } else if (in > len - 1) {
      if (len <= 1) return 0;
      const float sz = len - 1;
      in -= len * static_cast<float>(static_cast<std::int64_t>(in / sz));
    }
  }
  return std::clamp(in, 0.f, len - 1);
}

}  // namespace

void check_transform_options(const std::string& interpolation, const std::string& fill_mode, const std::string& layer) {
  if (interpolation != "bilinear" && interpolation != "nearest")
    throw ValueError(fmt::format("{}: unknown `interpolation` \"{}\"; use \"bilinear\" or \"nearest\"", layer,
                                 interpolation));
  if (fill_mode != "reflect" && fill_mode != "wrap" && fill_mode != "nearest" && fill_mode != "constant")
    throw ValueError(fmt::format("{}: unknown `fill_mode` \"{}\"; use \"reflect\", \"wrap\", \"constant\" or \"nearest\"",
                                 layer, fill_mode));
}

Tensor transform_images(const Tensor& images, const std::vector<ProjectiveTransform>& transforms,
                        const TransformOptions& options) {
  const auto& s = images.shape();
  const std::int64_t n = s[0], h = s[1], w = s[2], c = s[3];
  const Fill fill = fill_of(options.fill_mode);
  const bool bilinear = options.interpolation == "bilinear";
  const float fv = options.fill_value;
  Tensor out = Tensor::empty(s);
  const float* src = images.data<float>();
  float* dst = out.data<float>();
  for (std::int64_t b = 0; b < n; ++b) {
    const ProjectiveTransform& t = transforms[static_cast<std::size_t>(b)];
    const float* img = src + b * h * w * c;
    auto read = [&](float y, float x, std::int64_t ch) {
      if (y < 0 || x < 0 || y > float(h - 1) || x > float(w - 1)) return fv;
      return img[(static_cast<std::int64_t>(y) * w + static_cast<std::int64_t>(x)) * c + ch];
    };
    for (std::int64_t y = 0; y < h; ++y)
      for (std::int64_t x = 0; x < w; ++x) {
        float* o = dst + ((b * h + y) * w + x) * c;
        const float fx = float(x), fy = float(y);
        const float k = t[6] * fx + t[7] * fy + 1.f;
        if (k == 0.f) {
          for (std::int64_t ch = 0; ch < c; ++ch) o[ch] = fv;
          continue;
        }
        const float in_x = map_coordinate((t[0] * fx + t[1] * fy + t[2]) / k, float(w), fill);
        const float in_y = map_coordinate((t[3] * fx + t[4] * fy + t[5]) / k, float(h), fill);
        for (std::int64_t ch = 0; ch < c; ++ch) {
          if (!bilinear) {
            o[ch] = read(std::round(in_y), std::round(in_x), ch);
            continue;
          }
          const float y0 = std::floor(in_y), x0 = std::floor(in_x), y1 = y0 + 1, x1 = x0 + 1;
          const float top = (x1 - in_x) * read(y0, x0, ch) + (in_x - x0) * read(y0, x1, ch);
          const float bottom = (x1 - in_x) * read(y1, x0, ch) + (in_x - x0) * read(y1, x1, ch);
          o[ch] = (y1 - in_y) * top + (in_y - y0) * bottom;
        }
      }
  }
  return out;
}

ProjectiveTransform rotation_transform(float angle, std::int64_t height, std::int64_t width) {
  const float cos_a = std::cos(angle), sin_a = std::sin(angle);
  const float wd = float(width - 1), hd = float(height - 1);
  const float x_offset = (wd - (cos_a * wd - sin_a * hd)) / 2.f;
  const float y_offset = (hd - (sin_a * wd + cos_a * hd)) / 2.f;
  return {cos_a, -sin_a, x_offset, sin_a, cos_a, y_offset, 0.f, 0.f};
}

}  // namespace keras::layers::preprocessing
