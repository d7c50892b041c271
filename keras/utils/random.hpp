#pragma once
// The global random generator behind initializers, shuffling and dropout.
#include <cstdint>
#include <random>

#include "keras/utils/random_seed.hpp"
#include "keras/utils/seed_generator.hpp"

namespace keras::utils {
/// The process-wide generator (use from one thread at a time).
std::mt19937_64& random_generator();

/// Fills out[0..n) with a dropout mask: 1 / (1 - rate) with probability 1 - rate, else 0 (multiplying
/// by it drops and rescales in one product). One draw of `gen` keys a counter-based stream (SplitMix64 over
/// element pairs, two 32-bit uniforms from each output) that the OpenMP threads fill in pieces: the mask
/// depends on `gen` and `n` only, not on the thread count.
void fill_dropout_mask(float* out, std::int64_t n, double rate, std::mt19937_64& gen);

/// The engine a SeedGenerator draws from: its own when seeded, else random_generator().
std::mt19937_64& engine(SeedGenerator& generator);

struct SeededEngine {
  std::mt19937_64 engine;
  static std::mt19937_64* of(SeedGenerator& g) { return g.seeded_ ? &g.seeded_->engine : nullptr; }
};

}  // namespace keras::utils
