#include "keras/utils/random.hpp"

namespace keras::utils {

std::mt19937_64& random_generator() {
  static std::mt19937_64 gen(std::random_device{}());
  return gen;
}

void fill_dropout_mask(float* out, std::int64_t n, double rate, std::mt19937_64& gen) {
  const float keep_scale = static_cast<float>(1.0 / (1.0 - rate));
  // A 32-bit uniform u keeps the element when u < (1 - rate) * 2^32: probability 1 - rate, to 2^-32.
  const std::uint64_t threshold = static_cast<std::uint64_t>((1.0 - rate) * 4294967296.0);
  std::int64_t i = 0;
  for (; i + 1 < n; i += 2) {
    const std::uint64_t r = gen();
    out[i] = (r & 0xffffffffu) < threshold ? keep_scale : 0.f;
    out[i + 1] = (r >> 32) < threshold ? keep_scale : 0.f;
  }
  if (i < n) out[i] = (gen() & 0xffffffffu) < threshold ? keep_scale : 0.f;
}

SeedGenerator::SeedGenerator(std::optional<std::uint64_t> seed)
    : seeded_(seed ? std::make_unique<SeededEngine>(SeededEngine{std::mt19937_64(*seed)}) : nullptr) {}
SeedGenerator::SeedGenerator(const SeedGenerator& other)
    : seeded_(other.seeded_ ? std::make_unique<SeededEngine>(*other.seeded_) : nullptr) {}
SeedGenerator& SeedGenerator::operator=(const SeedGenerator& other) {
  if (this != &other) seeded_ = other.seeded_ ? std::make_unique<SeededEngine>(*other.seeded_) : nullptr;
  return *this;
}
SeedGenerator::SeedGenerator(SeedGenerator&&) noexcept = default;
SeedGenerator& SeedGenerator::operator=(SeedGenerator&&) noexcept = default;
SeedGenerator::~SeedGenerator() = default;

std::mt19937_64& engine(SeedGenerator& generator) {
  std::mt19937_64* own = SeededEngine::of(generator);
  return own ? *own : random_generator();
}

void set_random_seed(std::uint64_t seed) { random_generator().seed(seed); }

}  // namespace keras::utils
