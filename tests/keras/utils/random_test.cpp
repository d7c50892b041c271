#include "keras/utils/random.hpp"
#include "keras/utils/threads.hpp"

#include <catch2/catch.hpp>
#include <cmath>
#include <vector>

using namespace keras;

TEST_CASE("fill_dropout_mask keeps each element with probability 1 - rate, scaled, from both halves of a draw") {
  const double rate = 0.3;
  const std::int64_t n = 100001;  // odd: the last element takes a draw of its own
  std::vector<float> m(n, -1.f);
  std::mt19937_64 gen(7);
  utils::fill_dropout_mask(m.data(), n, rate, gen);
  const float scale = static_cast<float>(1.0 / (1.0 - rate));
  std::int64_t kept[2] = {0, 0};
  for (std::int64_t i = 0; i < n; ++i) {
    REQUIRE((m[i] == 0.f || m[i] == scale));
    kept[i % 2] += m[i] != 0.f;
  }
  // Even and odd elements come from the low and high 32 bits of one draw: each half alone must keep
  // 70% (binomial standard deviation ~ 0.2% here; 5 of them allowed).
  for (std::int64_t k : kept) CHECK(std::abs(double(k) / (n / 2) - 0.7) < 0.01);

  std::vector<float> again(n);
  std::mt19937_64 same(7);
  utils::fill_dropout_mask(again.data(), n, rate, same);
  CHECK(again == m);

  // The threads fill pieces of one stream: the same mask on one thread, and a new one from the next draw.
  const int threads = utils::get_num_threads();
  utils::set_num_threads(1);
  std::vector<float> serial(n);
  std::mt19937_64 seven(7);
  utils::fill_dropout_mask(serial.data(), n, rate, seven);
  utils::set_num_threads(threads);
  CHECK(serial == m);
  utils::fill_dropout_mask(serial.data(), n, rate, seven);
  CHECK(serial != m);

  std::vector<float> none(9);
  utils::fill_dropout_mask(none.data(), 9, 0.0, gen);
  for (float v : none) CHECK(v == 1.f);
}
