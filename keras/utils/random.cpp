#include "keras/utils/random.hpp"

namespace keras::utils {

std::mt19937_64& random_generator() {
  static std::mt19937_64 gen(std::random_device{}());
  return gen;
}

void set_random_seed(std::uint64_t seed) { random_generator().seed(seed); }

}  // namespace keras::utils
