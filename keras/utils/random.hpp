#pragma once
// The global random generator behind initializers, shuffling and dropout.
#include <cstdint>
#include <random>

namespace keras::utils {

/// Seeds every random choice kerascpp makes (initialization, shuffling, dropout), like
/// keras.utils.set_random_seed.
void set_random_seed(std::uint64_t seed);
/// The process-wide generator (use from one thread at a time).
std::mt19937_64& random_generator();

}  // namespace keras::utils
