#pragma once
// Writes zip archives byte by byte, so tests can make the damaged and hostile archives no zip library
// would write: duplicate names, names that climb out of the folder, sizes that lie, wrong checksums.
#include <cstdint>
#include <fstream>
#include <optional>
#include <string>
#include <vector>

#include <zlib.h>

namespace keras_test {

struct ZipEntry {
  std::string name;
  std::string data;
  std::optional<std::uint32_t> declared_size{};  // the uncompressed size the headers claim
  std::uint16_t method = 0;                      // 0 stored, 8 deflated (the data is then not deflated!)
  bool bad_crc = false;
};

inline void write_zip(const std::string& path, const std::vector<ZipEntry>& entries) {
  std::string out, central;
  auto u16 = [](std::string& s, std::uint16_t v) { s.push_back(char(v & 0xff)), s.push_back(char(v >> 8)); };
  auto u32 = [&](std::string& s, std::uint32_t v) { u16(s, std::uint16_t(v & 0xffff)), u16(s, std::uint16_t(v >> 16)); };
  for (const auto& e : entries) {
    std::uint32_t crc = std::uint32_t(crc32(0, reinterpret_cast<const Bytef*>(e.data.data()), uInt(e.data.size())));
    if (e.bad_crc) crc ^= 0xdeadbeef;
    const std::uint32_t size = e.declared_size.value_or(std::uint32_t(e.data.size()));
    const std::uint32_t offset = std::uint32_t(out.size());
    u32(out, 0x04034b50), u16(out, 20), u16(out, 0), u16(out, e.method), u16(out, 0), u16(out, 0x21);
    u32(out, crc), u32(out, std::uint32_t(e.data.size())), u32(out, size);
    u16(out, std::uint16_t(e.name.size())), u16(out, 0);
    out += e.name + e.data;
    u32(central, 0x02014b50), u16(central, 20), u16(central, 20), u16(central, 0), u16(central, e.method);
    u16(central, 0), u16(central, 0x21), u32(central, crc), u32(central, std::uint32_t(e.data.size())), u32(central, size);
    u16(central, std::uint16_t(e.name.size())), u16(central, 0), u16(central, 0), u16(central, 0), u16(central, 0);
    u32(central, 0), u32(central, offset);
    central += e.name;
  }
  const std::uint32_t cd_offset = std::uint32_t(out.size());
  out += central;
  u32(out, 0x06054b50), u16(out, 0), u16(out, 0), u16(out, std::uint16_t(entries.size())),
      u16(out, std::uint16_t(entries.size())), u32(out, std::uint32_t(central.size())), u32(out, cd_offset), u16(out, 0);
  std::ofstream(path, std::ios::binary) << out;
}

}  // namespace keras_test
