#pragma once
// The hashes of Keras's Hashing and HashedCrossing layers, as TensorFlow computes them:
// tf.strings.to_hash_bucket_fast is FarmHash Fingerprint64 of the bytes (Debian's libfarmhash), and
// to_hash_bucket_strong with a key is SipHash-2-4 keyed by the two 64-bit halves of the salt.
#include <array>
#include <cstdint>
#include <optional>
#include <string_view>

namespace keras::layers::preprocessing {

/// FarmHash Fingerprint64 of `bytes`.
std::uint64_t fingerprint64(std::string_view bytes);
/// SipHash-2-4 of `bytes` under the key (k0, k1).
std::uint64_t siphash24(std::string_view bytes, const std::array<std::uint64_t, 2>& key);
/// The bucket of `bytes` among `num_bins`: fingerprint64 without a salt, siphash24 with one.
std::int64_t hash_bucket(std::string_view bytes, std::int64_t num_bins,
                         const std::optional<std::array<std::uint64_t, 2>>& salt = std::nullopt);

}  // namespace keras::layers::preprocessing
