#include "layers/preprocessing/image/image_size.hpp"

#include <fmt/format.h>

#include "keras/errors.hpp"

namespace keras::layers::preprocessing {

void check_target_size(std::int64_t height, std::int64_t width, const std::string& layer) {
  if (height <= 0 || width <= 0)
    throw ValueError(fmt::format("{}: height and width must be positive, received height={}, width={}", layer, height,
                                 width));
}

Shape with_image_size(Shape s, std::int64_t height, std::int64_t width) {
  if (s.size() < 3) return s;
  s[s.size() - 3] = height;
  s[s.size() - 2] = width;
  return s;
}

}  // namespace keras::layers::preprocessing
