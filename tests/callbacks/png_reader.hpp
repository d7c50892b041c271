#pragma once
// A PNG decoder written apart from the encoder (stb_image_write) to check it: chunk framing with each chunk's CRC-32
// (zlib's crc32), the IDAT stream inflated by zlib, the five scanline filters undone here. 8-bit gray, gray + alpha,
// RGB and RGBA, not interlaced: what image summaries hold. Throws on anything else.
#include <zlib.h>

#include <cstdint>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <vector>

namespace pngreader {

struct Image {
  int width = 0, height = 0, channels = 0;
  std::vector<std::uint8_t> pixels;  // row-major, channels interleaved
};

inline std::uint32_t be32(const std::string& s, std::size_t at) {
  if (at + 4 > s.size()) throw std::runtime_error("PNG truncated");
  return (std::uint32_t(std::uint8_t(s[at])) << 24) | (std::uint32_t(std::uint8_t(s[at + 1])) << 16) |
         (std::uint32_t(std::uint8_t(s[at + 2])) << 8) | std::uint32_t(std::uint8_t(s[at + 3]));
}

inline Image decode(const std::string& png) {
  if (png.size() < 8 || png.compare(0, 8, "\x89PNG\r\n\x1a\n") != 0) throw std::runtime_error("not a PNG signature");
  Image img;
  std::string idat;
  bool end = false;
  for (std::size_t pos = 8; !end;) {
    const std::uint32_t len = be32(png, pos);
    if (pos + 12 + len > png.size()) throw std::runtime_error("PNG chunk truncated");
    const std::string type = png.substr(pos + 4, 4), data = png.substr(pos + 8, len);
    const auto crc = crc32(crc32(0, reinterpret_cast<const Bytef*>(type.data()), 4),
                           reinterpret_cast<const Bytef*>(data.data()), len);
    if (crc != be32(png, pos + 8 + len)) throw std::runtime_error("PNG chunk " + type + ": bad CRC");
    if (type == "IHDR") {
      img.width = static_cast<int>(be32(data, 0));
      img.height = static_cast<int>(be32(data, 4));
      const int depth = std::uint8_t(data[8]), color = std::uint8_t(data[9]), interlace = std::uint8_t(data[12]);
      if (depth != 8 || interlace != 0) throw std::runtime_error("PNG: only 8-bit, non-interlaced images are read");
      img.channels = color == 0 ? 1 : color == 4 ? 2 : color == 2 ? 3 : color == 6 ? 4 : 0;
      if (!img.channels) throw std::runtime_error("PNG: unsupported color type " + std::to_string(color));
    } else if (type == "IDAT") {
      idat += data;
    } else if (type == "IEND") {
      end = true;
    }
    pos += 12 + len;
  }
  const std::size_t stride = static_cast<std::size_t>(img.width) * img.channels;
  std::vector<std::uint8_t> raw((stride + 1) * img.height);
  uLongf raw_len = raw.size();
  if (uncompress(raw.data(), &raw_len, reinterpret_cast<const Bytef*>(idat.data()), idat.size()) != Z_OK ||
      raw_len != raw.size())
    throw std::runtime_error("PNG: the image data does not inflate to its size");
  img.pixels.assign(stride * img.height, 0);
  const std::size_t bpp = img.channels;
  for (int y = 0; y < img.height; ++y) {
    const std::uint8_t filter = raw[y * (stride + 1)];
    const std::uint8_t* in = &raw[y * (stride + 1) + 1];
    std::uint8_t* out = &img.pixels[y * stride];
    const std::uint8_t* up = y > 0 ? &img.pixels[(y - 1) * stride] : nullptr;
    for (std::size_t x = 0; x < stride; ++x) {
      const int a = x >= bpp ? out[x - bpp] : 0, b = up ? up[x] : 0, c = up && x >= bpp ? up[x - bpp] : 0;
      int pred = 0;
      if (filter == 1) pred = a;
      else if (filter == 2) pred = b;
      else if (filter == 3) pred = (a + b) / 2;
      else if (filter == 4) {
        const int p = a + b - c, pa = std::abs(p - a), pb = std::abs(p - b), pc = std::abs(p - c);
        pred = pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
      } else if (filter != 0) {
        throw std::runtime_error("PNG: unknown filter " + std::to_string(filter));
      }
      out[x] = static_cast<std::uint8_t>(in[x] + pred);
    }
  }
  return img;
}

}  // namespace pngreader
