#include "layers/preprocessing/categorical/string_hash.hpp"

#include <cstring>

#include <farmhash.h>

namespace keras::layers::preprocessing {

std::uint64_t fingerprint64(std::string_view bytes) { return util::Fingerprint64(bytes.data(), bytes.size()); }

namespace {

std::uint64_t rotl(std::uint64_t x, int b) { return (x << b) | (x >> (64 - b)); }

struct SipState {
  std::uint64_t v0, v1, v2, v3;
  void round() {
    v0 += v1;
    v1 = rotl(v1, 13) ^ v0;
    v0 = rotl(v0, 32);
    v2 += v3;
    v3 = rotl(v3, 16) ^ v2;
    v0 += v3;
    v3 = rotl(v3, 21) ^ v0;
    v2 += v1;
    v1 = rotl(v1, 17) ^ v2;
    v2 = rotl(v2, 32);
  }
  void absorb(std::uint64_t m) {
    v3 ^= m;
    round();
    round();
    v0 ^= m;
  }
};

std::uint64_t little_endian(const unsigned char* p, std::size_t n) {
  std::uint64_t m = 0;
  for (std::size_t i = 0; i < n; ++i) m |= std::uint64_t(p[i]) << (8 * i);
  return m;
}

}  // namespace

std::uint64_t siphash24(std::string_view bytes, const std::array<std::uint64_t, 2>& key) {
  SipState s{key[0] ^ 0x736f6d6570736575ULL, key[1] ^ 0x646f72616e646f6dULL, key[0] ^ 0x6c7967656e657261ULL,
             key[1] ^ 0x7465646279746573ULL};
  const auto* p = reinterpret_cast<const unsigned char*>(bytes.data());
  const std::size_t n = bytes.size(), whole = n / 8 * 8;
  for (std::size_t i = 0; i < whole; i += 8) s.absorb(little_endian(p + i, 8));
  s.absorb(little_endian(p + whole, n - whole) | (std::uint64_t(n & 0xff) << 56));
  s.v2 ^= 0xff;
  for (int i = 0; i < 4; ++i) s.round();
  return s.v0 ^ s.v1 ^ s.v2 ^ s.v3;
}

std::int64_t hash_bucket(std::string_view bytes, std::int64_t num_bins,
                         const std::optional<std::array<std::uint64_t, 2>>& salt) {
  const std::uint64_t h = salt ? siphash24(bytes, *salt) : fingerprint64(bytes);
  return static_cast<std::int64_t>(h % static_cast<std::uint64_t>(num_bins));
}

}  // namespace keras::layers::preprocessing
