#pragma once
// The protocol buffer wire format, as far as tf.train.Example and SequenceExample need it: a bounds-
// checked reader and an appending writer (data/example_parsing.cpp, data/example_encoding.cpp).
#include <cstdint>
#include <cstring>
#include <string>
#include <utility>

#include <fmt/format.h>

#include "keras/errors.hpp"

namespace keras::data::detail {

enum WireType { kVarint = 0, kFixed64 = 1, kLengthDelimited = 2, kFixed32 = 5 };

class WireReader {
 public:
  WireReader(const char* p, std::size_t n, const char* what) : p_(p), end_(p + n), what_(what) {}
  bool done() const { return p_ >= end_; }
  std::uint64_t varint() {
    std::uint64_t v = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      if (p_ >= end_) fail("a varint runs past the end");
      const auto b = static_cast<unsigned char>(*p_++);
      v |= std::uint64_t(b & 0x7F) << shift;
      if (!(b & 0x80)) return v;
    }
    fail("a varint is longer than 10 bytes");
  }
  WireReader sub() {
    const std::uint64_t n = varint();
    if (n > static_cast<std::uint64_t>(end_ - p_)) fail("a length-delimited field runs past the end");
    WireReader r(p_, n, what_);
    p_ += n;
    return r;
  }
  std::string bytes() {
    WireReader r = sub();
    return {r.p_, r.end_};
  }
  float fixed32_float() {
    if (end_ - p_ < 4) fail("a 32-bit field runs past the end");
    float f;
    std::memcpy(&f, p_, 4);  // little-endian on every supported host
    p_ += 4;
    return f;
  }
  void skip(int wire) {
    switch (wire) {
      case kVarint: varint(); break;
      case kFixed64: advance(8); break;
      case kLengthDelimited: sub(); break;
      case kFixed32: advance(4); break;
      default: fail(fmt::format("unknown wire type {}", wire));
    }
  }
  /// The next field's number and wire type.
  std::pair<std::uint32_t, int> tag() {
    const std::uint64_t t = varint();
    return {static_cast<std::uint32_t>(t >> 3), static_cast<int>(t & 7)};
  }
  [[noreturn]] void fail(const std::string& what) const {
    throw IOError(fmt::format("Malformed tf.train.{}: {} (is the record really a serialized {}?)", what_, what, what_));
  }

 private:
  const char* p_;
  const char* end_;
  const char* what_;
  void advance(std::size_t n) {
    if (static_cast<std::size_t>(end_ - p_) < n) fail("a fixed-size field runs past the end");
    p_ += n;
  }
};

inline void put_varint(std::string& out, std::uint64_t v) {
  while (v >= 0x80) {
    out.push_back(static_cast<char>((v & 0x7F) | 0x80));
    v >>= 7;
  }
  out.push_back(static_cast<char>(v));
}
inline void put_tag(std::string& out, std::uint32_t field, int wire) { put_varint(out, (std::uint64_t(field) << 3) | unsigned(wire)); }
inline void put_bytes(std::string& out, std::uint32_t field, const std::string& data) {
  put_tag(out, field, kLengthDelimited);
  put_varint(out, data.size());
  out += data;
}

}  // namespace keras::data::detail
