#pragma once
// Protocol-buffer wire format, written by hand (varint keys and lengths, little-endian fixed-width numbers): the
// encoders of TensorBoard's messages (event_file.cpp, summary_graph.cpp, summary_image.cpp) share these.
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

namespace keras::summary::wire {

inline void put_varint(std::string& out, std::uint64_t v) {
  while (v >= 0x80) {
    out += static_cast<char>((v & 0x7F) | 0x80);
    v >>= 7;
  }
  out += static_cast<char>(v);
}
inline void put_key(std::string& out, int field, int wire_type) {
  put_varint(out, (static_cast<std::uint64_t>(field) << 3) | static_cast<std::uint64_t>(wire_type));
}
template <class T>
void put_fixed(std::string& out, T value) {
  char bytes[sizeof(T)];
  std::memcpy(bytes, &value, sizeof(T));  // the machine is little-endian (x86-64, aarch64), as the wire format
  out.append(bytes, sizeof(T));
}
/// A varint field (int32/int64/uint64/bool/enum); negative values take ten bytes, as protobuf writes them.
inline void put_int(std::string& out, int field, std::int64_t v) {
  put_key(out, field, 0);
  put_varint(out, static_cast<std::uint64_t>(v));
}
inline void put_double(std::string& out, int field, double v) {
  put_key(out, field, 1);
  put_fixed(out, v);
}
inline void put_float(std::string& out, int field, float v) {
  put_key(out, field, 5);
  put_fixed(out, v);
}
/// A length-delimited field: a string, bytes or an embedded message.
inline void put_bytes(std::string& out, int field, std::string_view bytes) {
  put_key(out, field, 2);
  put_varint(out, bytes.size());
  out.append(bytes);
}
inline void put_packed_doubles(std::string& out, int field, const std::vector<double>& values) {
  std::string packed;
  for (double v : values) put_fixed(packed, v);
  put_bytes(out, field, packed);
}

}  // namespace keras::summary::wire
