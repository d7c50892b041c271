// keras::image::decode_image / load_image: image files into uint8 tensors, decoded by stb_image
// (Debian's libstb).
#include <cstring>
#include <fstream>
#include <memory>
#include <sstream>

#include <fmt/format.h>
#include <stb/stb_image.h>

#include "data/image.hpp"
#include "keras/errors.hpp"

namespace keras::image {

Tensor decode_image(const std::string& contents, int channels, const std::string& what) {
  if (channels != 0 && channels != 1 && channels != 3 && channels != 4)
    throw ValueError(fmt::format("decode_image: channels must be 0, 1, 3 or 4, got {}", channels));
  if (contents.size() > static_cast<std::size_t>(INT32_MAX))
    throw ValueError(fmt::format("{}: the image is larger than 2 GiB", what));
  int width = 0, height = 0, in_file = 0;
  std::unique_ptr<stbi_uc, void (*)(void*)> pixels(
      stbi_load_from_memory(reinterpret_cast<const stbi_uc*>(contents.data()), static_cast<int>(contents.size()), &width,
                            &height, &in_file, channels),
      stbi_image_free);
  if (!pixels)
    throw ValueError(fmt::format("{} is not a PNG, JPEG, BMP or GIF image that can be decoded ({})", what,
                                 stbi_failure_reason() ? stbi_failure_reason() : "unknown reason"));
  const int c = channels == 0 ? in_file : channels;
  Tensor out = Tensor::empty({height, width, c}, DType::uint8);
  std::memcpy(out.data<std::uint8_t>(), pixels.get(), static_cast<std::size_t>(width) * height * c);
  return out;
}

Tensor load_image(const std::string& path, int channels) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw IOError(fmt::format("Cannot open image file '{}'", path));
  std::ostringstream bytes;
  bytes << in.rdbuf();
  return decode_image(bytes.str(), channels, "'" + path + "'");
}

}  // namespace keras::image
