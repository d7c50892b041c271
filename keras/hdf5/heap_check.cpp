#include "keras/hdf5/heap_check.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <vector>

#include <fmt/format.h>

#include "keras/errors.hpp"

namespace keras::hdf5 {
namespace {

// Layouts from the HDF5 file format specification: the superblock (version 0/1: size of lengths at
// byte 14; version 2/3: at byte 10) and the global heap collection ("GCOL", version 1, 3 reserved
// bytes, collection size; then objects: index u16, reference count u16, 4 reserved bytes, size,
// data padded to 8 bytes; index 0 is the free space, whose size counts its own header).
constexpr char kSuperblock[] = "\x89HDF\r\n\x1a\n";
constexpr char kCollection[] = {'G', 'C', 'O', 'L', 1, 0, 0, 0};

std::uint64_t little_endian(const unsigned char* p, int bytes) {
  std::uint64_t v = 0;
  for (int i = bytes - 1; i >= 0; --i) v = (v << 8) | p[i];
  return v;
}

/// The file's "size of lengths" (2, 4 or 8 bytes), or 0 when no superblock is found (HDF5 will refuse the file).
int length_size(std::ifstream& in) {
  std::array<unsigned char, 16> head{};
  for (std::uint64_t at = 0; at <= (std::uint64_t(1) << 30); at = at ? at * 2 : 512) {
    in.clear();
    in.seekg(static_cast<std::streamoff>(at));
    if (!in.read(reinterpret_cast<char*>(head.data()), head.size())) return 0;
    if (std::memcmp(head.data(), kSuperblock, 8) != 0) continue;
    const int size = head[8] <= 1 ? head[14] : head[10];
    return size == 2 || size == 4 || size == 8 ? size : 0;
  }
  return 0;
}

void check_collection(std::ifstream& in, std::uint64_t at, std::uint64_t file_size, int length, const std::string& path) {
  const std::uint64_t header = 8 + length, object_header = 8 + length;
  if (at + header > file_size) return;  // truncated: HDF5 reports it
  std::vector<unsigned char> bytes(header);
  in.clear();
  in.seekg(static_cast<std::streamoff>(at));
  in.read(reinterpret_cast<char*>(bytes.data()), static_cast<std::streamsize>(header));
  const std::uint64_t size = little_endian(bytes.data() + 8, length);
  auto corrupt = [&](const std::string& why) {
    throw IOError(fmt::format("Cannot read the HDF5 file '{}': the global heap at byte {} is corrupt ({}); the "
                              "file is damaged",
                              path, at, why));
  };
  if (size < header) corrupt(fmt::format("its size {} is smaller than its header", size));
  if (size > file_size - at) return;  // runs past the end: HDF5 reports the truncation
  bytes.resize(size);
  in.read(reinterpret_cast<char*>(bytes.data() + header), static_cast<std::streamsize>(size - header));
  std::uint64_t p = header;
  while (p < size && size - p >= object_header) {
    const unsigned index = static_cast<unsigned>(little_endian(bytes.data() + p, 2));
    const std::uint64_t object_size = little_endian(bytes.data() + p + 8, length);
    if (object_size > size - p) corrupt(fmt::format("object {} claims {} bytes", index, object_size));
    const std::uint64_t need = index > 0 ? object_header + (object_size + 7) / 8 * 8 : object_size;
    if (need == 0 || need > size - p) corrupt(fmt::format("object {} claims {} bytes", index, object_size));
    p += need;
  }
}

}  // namespace

void check_global_heaps(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return;  // the caller's open reports it
  in.seekg(0, std::ios::end);
  const auto file_size = static_cast<std::uint64_t>(in.tellg());
  const int length = length_size(in);
  if (length == 0) return;
  // Scan for collection signatures chunk by chunk; chunks overlap by a signature's length less one, so
  // a signature across a chunk boundary is found (once: it cannot start in the overlap).
  constexpr std::size_t kChunk = std::size_t(1) << 20, kOverlap = sizeof(kCollection) - 1;
  std::vector<char> chunk(kChunk + kOverlap);
  std::vector<std::uint64_t> found;
  for (std::uint64_t start = 0; start < file_size; start += kChunk) {
    const std::size_t n = static_cast<std::size_t>(std::min<std::uint64_t>(chunk.size(), file_size - start));
    in.clear();
    in.seekg(static_cast<std::streamoff>(start));
    if (!in.read(chunk.data(), static_cast<std::streamsize>(n))) return;
    for (const char* p = chunk.data(); (p = static_cast<const char*>(
                                            memmem(p, n - (p - chunk.data()), kCollection, sizeof(kCollection))));
         ++p) {
      found.push_back(start + static_cast<std::uint64_t>(p - chunk.data()));
    }
  }
  for (std::uint64_t at : found) check_collection(in, at, file_size, length, path);
}

}  // namespace keras::hdf5
