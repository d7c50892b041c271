// keras::random: shapes, ranges, moments of large draws, seeds (an integer repeats, a SeedGenerator advances),
// dropout's scaling and gradient, categorical's frequencies.
#include <catch2/catch.hpp>

#include <cmath>

#include "keras/ops/math.hpp"
#include "keras/ops/random.hpp"
#include "keras/utils/seed_generator.hpp"
#include "keras/autodiff/gradient_tape.hpp"

using namespace keras;

namespace {
std::pair<double, double> moments(const Tensor& t) {
  const auto v = t.astype(DType::float32).to_vector<float>();
  double m = 0, s = 0;
  for (float x : v) m += x;
  m /= static_cast<double>(v.size());
  for (float x : v) s += (x - m) * (x - m);
  return {m, std::sqrt(s / static_cast<double>(v.size()))};
}
}  // namespace

TEST_CASE("random.normal, uniform and truncated_normal have the requested moments and ranges", "[ops2][random]") {
  const Tensor n = random::normal({200, 500}, 1.5, 2.0, DType::float32, 3);
  CHECK(n.shape() == Shape{200, 500});
  auto [m, s] = moments(n);
  CHECK(m == Approx(1.5).margin(0.03));
  CHECK(s == Approx(2.0).margin(0.03));

  const Tensor u = random::uniform({100000}, -1.0, 3.0, DType::float32, 4);
  const auto uv = u.to_vector<float>();
  CHECK(*std::min_element(uv.begin(), uv.end()) >= -1.f);
  CHECK(*std::max_element(uv.begin(), uv.end()) < 3.f);
  std::tie(m, s) = moments(u);
  CHECK(m == Approx(1.0).margin(0.02));
  CHECK(s == Approx(4.0 / std::sqrt(12.0)).margin(0.02));

  const Tensor t = random::truncated_normal({100000}, 0.0, 1.0, DType::float32, 5);
  const auto tv = t.to_vector<float>();
  CHECK(*std::max_element(tv.begin(), tv.end()) <= 2.f);
  CHECK(*std::min_element(tv.begin(), tv.end()) >= -2.f);
  std::tie(m, s) = moments(t);
  CHECK(s == Approx(0.8796).margin(0.01));  // the standard deviation of N(0, 1) truncated to [-2, 2]
}

TEST_CASE("random.randint covers minval up to but excluding maxval uniformly, as int32", "[ops2][random]") {
  const Tensor r = random::randint({60000}, -2, 4, DType::int32, 6);
  CHECK(r.dtype() == DType::int32);
  std::vector<int> counts(6, 0);
  for (auto v : r.to_vector<std::int32_t>()) {
    REQUIRE(v >= -2);
    REQUIRE(v < 4);
    ++counts[static_cast<std::size_t>(v + 2)];
  }
  for (int c : counts) CHECK(c == Approx(10000).margin(400));
  CHECK_THROWS_AS(random::randint({2}, 3, 3), ValueError);
}

TEST_CASE("random seeds: an integer repeats its draw, a SeedGenerator advances and replays from its seed", "[ops2][random]") {
  CHECK(random::normal({5}, 0, 1, DType::float32, 7).to_vector<float>() ==
        random::normal({5}, 0, 1, DType::float32, 7).to_vector<float>());
  CHECK(random::normal({5}, 0, 1, DType::float32, 7).to_vector<float>() !=
        random::normal({5}, 0, 1, DType::float32, 8).to_vector<float>());
  utils::SeedGenerator g1(11), g2(11);
  const auto a1 = random::uniform({4}, 0, 1, DType::float32, g1).to_vector<float>();
  const auto b1 = random::uniform({4}, 0, 1, DType::float32, g1).to_vector<float>();
  CHECK(a1 != b1);
  CHECK(random::uniform({4}, 0, 1, DType::float32, g2).to_vector<float>() == a1);
  CHECK(random::uniform({4}, 0, 1, DType::float32, g2).to_vector<float>() == b1);
}

TEST_CASE("random.shuffle permutes along an axis and passes the gradient back", "[ops2][random]") {
  Tensor x = Tensor::from_vector(std::vector<float>{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}, {4, 3});
  GradientTape tape;
  tape.watch(x);
  const Tensor y = random::shuffle(x, 0, 13);
  const auto v = y.to_vector<float>();
  std::vector<float> firsts;
  for (int r = 0; r < 4; ++r) {
    CHECK(v[r * 3 + 1] == v[r * 3] + 1);  // rows move whole
    firsts.push_back(v[r * 3]);
  }
  std::sort(firsts.begin(), firsts.end());
  CHECK(firsts == std::vector<float>{0, 3, 6, 9});
  const Tensor w = Tensor::from_vector(std::vector<float>{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}, {4, 3});
  const Tensor g = tape.gradient(ops::sum(ops::multiply(y, w)), x);
  // d/dx of sum(y * w): each x element gets the weight of the place it moved to.
  for (int i = 0; i < 12; ++i) {
    const auto at = std::find(v.begin(), v.end(), float(i)) - v.begin();
    CHECK(g.data<float>()[i] == w.data<float>()[at]);
  }
}

TEST_CASE("random.dropout zeroes about `rate` of the entries, scales the rest, and shares draws over noise_shape", "[ops2][random]") {
  Tensor x = Tensor::ones({100, 200});
  GradientTape tape;
  tape.watch(x);
  const Tensor y = random::dropout(x, 0.25, std::nullopt, 17);
  int zeros = 0;
  for (float v : y.to_vector<float>()) {
    if (v == 0.f) ++zeros;
    else REQUIRE(v == Approx(1.f / 0.75f));
  }
  CHECK(zeros == Approx(5000).margin(300));
  const Tensor g = tape.gradient(ops::sum(y), x);
  CHECK(g.to_vector<float>() == y.to_vector<float>());  // d(x * mask)/dx = mask
  const Tensor shared = random::dropout(Tensor::ones({4, 50}), 0.5, Shape{1, 50}, 18);
  for (int c = 0; c < 50; ++c)
    for (int r = 1; r < 4; ++r) CHECK(shared.data<float>()[r * 50 + c] == shared.data<float>()[c]);
  CHECK_THROWS_AS(random::dropout(x, 1.0), ValueError);
}

TEST_CASE("random.categorical draws classes with softmax frequencies", "[ops2][random]") {
  const Tensor logits = Tensor::from_vector(std::vector<float>{std::log(0.2f), std::log(0.3f), std::log(0.5f), 0.f, -1e9f, 0.f}, {2, 3});
  const Tensor s = random::categorical(logits, 20000, DType::int32, 19);
  REQUIRE(s.shape() == Shape{2, 20000});
  CHECK(s.dtype() == DType::int32);
  std::vector<int> row0(3, 0), row1(3, 0);
  for (int i = 0; i < 20000; ++i) {
    ++row0[static_cast<std::size_t>(s.data<std::int32_t>()[i])];
    ++row1[static_cast<std::size_t>(s.data<std::int32_t>()[20000 + i])];
  }
  CHECK(row0[0] == Approx(4000).margin(250));
  CHECK(row0[1] == Approx(6000).margin(250));
  CHECK(row0[2] == Approx(10000).margin(250));
  CHECK(row1[1] == 0);
  CHECK(row1[0] == Approx(10000).margin(300));
}
