#pragma once
// SeedGenerator: the random stream of a layer given Keras's `seed` argument (Dropout, the noise layers),
// or, without a seed, the process-wide one (keras/utils/random.hpp). Its engine is kept out of this header
// so that layer headers need no <random>; code that draws includes keras/utils/random.hpp and calls
// engine(generator). A copy continues from the same state on its own.
#include <cstdint>
#include <memory>
#include <optional>

namespace keras::utils {

struct SeededEngine;

class SeedGenerator {
 public:
  explicit SeedGenerator(std::optional<std::uint64_t> seed = std::nullopt);
  SeedGenerator(const SeedGenerator& other);
  SeedGenerator& operator=(const SeedGenerator& other);
  SeedGenerator(SeedGenerator&&) noexcept;
  SeedGenerator& operator=(SeedGenerator&&) noexcept;
  ~SeedGenerator();

 private:
  friend struct SeededEngine;
  std::unique_ptr<SeededEngine> seeded_;  // null: the process-wide generator
};

}  // namespace keras::utils
