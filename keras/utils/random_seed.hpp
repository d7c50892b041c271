#pragma once
// keras.utils.set_random_seed, apart from the generator itself (keras/utils/random.hpp, which needs
// <random>), so that the umbrella header stays light.
#include <cstdint>

namespace keras::utils {

/// Seeds every random choice kerascpp makes (initialization, shuffling, dropout), like
/// keras.utils.set_random_seed.
void set_random_seed(std::uint64_t seed);

}  // namespace keras::utils
