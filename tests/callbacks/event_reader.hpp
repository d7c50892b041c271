#pragma once
// An event-file reader written apart from the writer (callbacks/event_file.cpp) to check it: its own bitwise
// CRC-32C and its own protocol-buffer decoder. It throws on any bad CRC, truncated frame or undecodable field.
#include <cstdint>
#include <cstring>
#include <fstream>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace evreader {

inline std::uint32_t crc32c_bitwise(const std::string& data) {
  std::uint32_t crc = ~0u;
  for (unsigned char byte : data) {
    crc ^= byte;
    for (int bit = 0; bit < 8; ++bit) crc = (crc >> 1) ^ (0x82F63B78u & (0u - (crc & 1u)));
  }
  return ~crc;
}

inline std::uint32_t masked(const std::string& data) {
  const std::uint32_t c = crc32c_bitwise(data);
  return ((c >> 15) | (c << 17)) + 0xA282EAD8u;
}

struct Histo {
  double min = 0, max = 0, num = 0, sum = 0, sum_squares = 0;
  std::vector<double> bucket_limit, bucket;
};

struct Value {
  std::string tag;
  std::optional<float> simple_value;
  std::optional<Histo> histo;
};

struct Event {
  double wall_time = 0;
  std::int64_t step = 0;
  std::string file_version;
  std::vector<Value> values;
};

// A cursor over protobuf wire data.
class Wire {
 public:
  explicit Wire(const std::string& s) : s_(s) {}
  bool done() const { return pos_ >= s_.size(); }
  std::uint64_t varint() {
    std::uint64_t v = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      if (pos_ >= s_.size()) throw std::runtime_error("truncated varint");
      const auto b = static_cast<unsigned char>(s_[pos_++]);
      v |= static_cast<std::uint64_t>(b & 0x7F) << shift;
      if (!(b & 0x80)) return v;
    }
    throw std::runtime_error("varint longer than 10 bytes");
  }
  std::string bytes(std::size_t n) {
    if (pos_ + n > s_.size()) throw std::runtime_error("truncated field");
    std::string out = s_.substr(pos_, n);
    pos_ += n;
    return out;
  }
  double f64() {
    const std::string b = bytes(8);
    std::uint64_t u = 0;
    for (int i = 7; i >= 0; --i) u = (u << 8) | static_cast<unsigned char>(b[static_cast<std::size_t>(i)]);
    double d;
    std::memcpy(&d, &u, 8);
    return d;
  }
  float f32() {
    const std::string b = bytes(4);
    std::uint32_t u = 0;
    for (int i = 3; i >= 0; --i) u = (u << 8) | static_cast<unsigned char>(b[static_cast<std::size_t>(i)]);
    float f;
    std::memcpy(&f, &u, 4);
    return f;
  }
  std::string length_delimited() { return bytes(static_cast<std::size_t>(varint())); }
  // Skips a field of an unexpected number by its wire type.
  void skip(int wire_type) {
    if (wire_type == 0) varint();
    else if (wire_type == 1) bytes(8);
    else if (wire_type == 2) length_delimited();
    else if (wire_type == 5) bytes(4);
    else throw std::runtime_error("unknown wire type " + std::to_string(wire_type));
  }

 private:
  const std::string& s_;
  std::size_t pos_ = 0;
};

inline std::vector<double> packed_doubles(const std::string& s) {
  std::vector<double> out;
  Wire w(s);
  while (!w.done()) out.push_back(w.f64());
  return out;
}

inline Histo decode_histo(const std::string& s) {
  Histo h;
  Wire w(s);
  while (!w.done()) {
    const auto key = w.varint();
    const int field = static_cast<int>(key >> 3), type = static_cast<int>(key & 7);
    if (field >= 1 && field <= 5 && type == 1) {
      const double v = w.f64();
      (field == 1 ? h.min : field == 2 ? h.max : field == 3 ? h.num : field == 4 ? h.sum : h.sum_squares) = v;
    } else if (field == 6 && type == 2) {
      h.bucket_limit = packed_doubles(w.length_delimited());
    } else if (field == 7 && type == 2) {
      h.bucket = packed_doubles(w.length_delimited());
    } else {
      w.skip(type);
    }
  }
  return h;
}

inline Value decode_value(const std::string& s) {
  Value v;
  Wire w(s);
  while (!w.done()) {
    const auto key = w.varint();
    const int field = static_cast<int>(key >> 3), type = static_cast<int>(key & 7);
    if (field == 1 && type == 2) v.tag = w.length_delimited();
    else if (field == 2 && type == 5) v.simple_value = w.f32();
    else if (field == 5 && type == 2) v.histo = decode_histo(w.length_delimited());
    else w.skip(type);
  }
  return v;
}

inline Event decode_event(const std::string& s) {
  Event e;
  Wire w(s);
  while (!w.done()) {
    const auto key = w.varint();
    const int field = static_cast<int>(key >> 3), type = static_cast<int>(key & 7);
    if (field == 1 && type == 1) e.wall_time = w.f64();
    else if (field == 2 && type == 0) e.step = static_cast<std::int64_t>(w.varint());
    else if (field == 3 && type == 2) e.file_version = w.length_delimited();
    else if (field == 5 && type == 2) {
      const std::string summary = w.length_delimited();
      Wire sw(summary);
      while (!sw.done()) {
        const auto k = sw.varint();
        if ((k >> 3) == 1 && (k & 7) == 2) e.values.push_back(decode_value(sw.length_delimited()));
        else sw.skip(static_cast<int>(k & 7));
      }
    } else {
      w.skip(type);
    }
  }
  return e;
}

/// Every event of a TFRecord file; throws on a bad frame or CRC.
inline std::vector<Event> read_events(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot open " + path);
  std::stringstream ss;
  ss << in.rdbuf();
  const std::string file = ss.str();
  std::vector<Event> events;
  std::size_t pos = 0;
  auto le32 = [&](std::size_t at) {
    std::uint32_t u = 0;
    for (int i = 3; i >= 0; --i) u = (u << 8) | static_cast<unsigned char>(file[at + static_cast<std::size_t>(i)]);
    return u;
  };
  while (pos < file.size()) {
    if (pos + 12 > file.size()) throw std::runtime_error("truncated record header");
    const std::string len_bytes = file.substr(pos, 8);
    std::uint64_t len = 0;
    for (int i = 7; i >= 0; --i) len = (len << 8) | static_cast<unsigned char>(len_bytes[static_cast<std::size_t>(i)]);
    if (le32(pos + 8) != masked(len_bytes)) throw std::runtime_error("bad length CRC");
    if (pos + 12 + len + 4 > file.size()) throw std::runtime_error("truncated record");
    const std::string data = file.substr(pos + 12, static_cast<std::size_t>(len));
    if (le32(pos + 12 + static_cast<std::size_t>(len)) != masked(data)) throw std::runtime_error("bad data CRC");
    events.push_back(decode_event(data));
    pos += 12 + static_cast<std::size_t>(len) + 4;
  }
  return events;
}

}  // namespace evreader
