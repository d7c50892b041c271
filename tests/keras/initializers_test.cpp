#include <catch2/catch.hpp>

#include <cmath>

#include "keras/initializers/initializers.hpp"
#include "keras/json.hpp"
#include "keras/utils/random.hpp"

using namespace keras;
using namespace keras::initializers;
using Catch::Matchers::Contains;

namespace {

struct Stats {
  double mean = 0, stddev = 0, min = 0, max = 0;
};

Stats stats_of(const Tensor& t) {
  const float* p = t.data<float>();
  const std::int64_t n = t.size();
  Stats s{0, 0, p[0], p[0]};
  for (std::int64_t i = 0; i < n; ++i) {
    s.mean += p[i];
    s.min = std::min<double>(s.min, p[i]);
    s.max = std::max<double>(s.max, p[i]);
  }
  s.mean /= double(n);
  for (std::int64_t i = 0; i < n; ++i) s.stddev += (p[i] - s.mean) * (p[i] - s.mean);
  s.stddev = std::sqrt(s.stddev / double(n));
  return s;
}

const Shape kShape{200, 300};  // fan_in 200, fan_out 300

// Mean near 0 and the expected stddev; for uniform draws also the limits.
void check_distribution(const Initializer& init, double stddev, double limit = 0) {
  Tensor t = init(kShape);
  REQUIRE(t.shape() == kShape);
  const Stats s = stats_of(t);
  INFO(init.class_name() << ": mean " << s.mean << " stddev " << s.stddev << " min " << s.min << " max " << s.max);
  CHECK(std::abs(s.mean) < 0.02 * stddev + 1e-12 + 4 * stddev / std::sqrt(60000.0));
  CHECK(s.stddev == Approx(stddev).epsilon(0.02));
  if (limit > 0) {
    CHECK(s.min >= -limit);
    CHECK(s.max < limit);
    CHECK(s.min < -0.99 * limit);
    CHECK(s.max > 0.99 * limit);
  }
}

double orthogonality_error(const Tensor& t, bool rows) {
  const std::int64_t r = t.dim(0), c = t.dim(1);
  const float* p = t.data<float>();
  const std::int64_t k = rows ? r : c, len = rows ? c : r;
  auto at = [&](std::int64_t vec, std::int64_t e) { return rows ? p[vec * c + e] : p[e * c + vec]; };
  double worst = 0;
  for (std::int64_t a = 0; a < k; ++a)
    for (std::int64_t b = 0; b < k; ++b) {
      double d = 0;
      for (std::int64_t e = 0; e < len; ++e) d += double(at(a, e)) * at(b, e);
      worst = std::max(worst, std::abs(d - (a == b ? 1.0 : 0.0)));
    }
  return worst;
}

}  // namespace

TEST_CASE("constant initializers fill their value") {
  CHECK(Zeros()({2, 3}).to_vector<float>() == std::vector<float>(6, 0.f));
  CHECK(Ones()({4}).to_vector<float>() == std::vector<float>(4, 1.f));
  CHECK(Constant(2.5)({3, 1}).to_vector<float>() == std::vector<float>(3, 2.5f));
  CHECK(Constant()({2}).to_vector<float>() == std::vector<float>(2, 0.f));
  CHECK(Ones()({}).item() == 1.0);
}

TEST_CASE("random initializers have the requested statistics") {
  utils::set_random_seed(20261122);  // statistics within tolerances that a rare unseeded draw could miss
  check_distribution(RandomNormal(), 0.05);
  check_distribution(RandomNormal({.mean = 0.0, .stddev = 2.0}), 2.0);
  check_distribution(RandomUniform(), 0.05 / std::sqrt(3.0), 0.05);
  Tensor shifted = RandomUniform({.minval = 1.0, .maxval = 3.0})(kShape);
  const Stats su = stats_of(shifted);
  CHECK(su.mean == Approx(2.0).epsilon(0.01));
  CHECK(su.min >= 1.0);
  CHECK(su.max < 3.0);
  Tensor shifted_normal = RandomNormal({.mean = 5.0, .stddev = 0.5})(kShape);
  CHECK(stats_of(shifted_normal).mean == Approx(5.0).epsilon(0.002));
  // A standard normal truncated at ±2 has stddev 0.8796.
  check_distribution(TruncatedNormal({.stddev = 1.0}), 0.87962566103423978, 2.0);
  Tensor tn = TruncatedNormal({.mean = 1.0, .stddev = 0.1})(kShape);
  const Stats st = stats_of(tn);
  CHECK(st.min >= 0.8 - 1e-6);
  CHECK(st.max <= 1.2 + 1e-6);
  CHECK(st.mean == Approx(1.0).epsilon(0.002));
}

TEST_CASE("variance scaling presets scale by their fans") {
  utils::set_random_seed(20261122);
  const double fan_in = 200, fan_out = 300, fan_avg = 250;
  check_distribution(GlorotUniform(), std::sqrt(1.0 / fan_avg), std::sqrt(3.0 / fan_avg));
  check_distribution(GlorotNormal(), std::sqrt(1.0 / fan_avg));
  check_distribution(HeUniform(), std::sqrt(2.0 / fan_in), std::sqrt(6.0 / fan_in));
  check_distribution(HeNormal(), std::sqrt(2.0 / fan_in));
  check_distribution(LecunUniform(), std::sqrt(1.0 / fan_in), std::sqrt(3.0 / fan_in));
  check_distribution(LecunNormal(), std::sqrt(1.0 / fan_in));
  check_distribution(VarianceScaling({.scale = 2.0, .mode = "fan_out", .distribution = "untruncated_normal"}),
                     std::sqrt(2.0 / fan_out));
  check_distribution(VarianceScaling({.scale = 0.5, .mode = "fan_avg", .distribution = "uniform"}),
                     std::sqrt(0.5 / fan_avg), std::sqrt(1.5 / fan_avg));
  // Truncated normal draws never pass 2 / 0.8796 standard deviations of the target variance.
  Tensor he = HeNormal()(kShape);
  const double cut = 2.0 * std::sqrt(2.0 / fan_in) / 0.87962566103423978;
  CHECK(stats_of(he).max <= cut + 1e-6);
  CHECK(stats_of(he).min >= -cut - 1e-6);
}

TEST_CASE("VarianceScaling validates its arguments") {
  CHECK_THROWS_AS(VarianceScaling({.scale = 0.0}), ValueError);
  CHECK_THROWS_WITH(VarianceScaling({.mode = "fan_sideways"}), Contains("fan_avg"));
  CHECK_THROWS_WITH(VarianceScaling({.distribution = "cauchy"}), Contains("untruncated_normal"));
  VarianceScaling legacy({.distribution = "Normal"});
  CHECK(legacy.get_config()["distribution"] == "truncated_normal");
  CHECK_THROWS_AS(RandomUniform({.minval = 1.0, .maxval = 0.0}), ValueError);
  CHECK_THROWS_AS(RandomNormal({.stddev = -1.0}), ValueError);
}

TEST_CASE("fans follow Keras for 1-D, 2-D and convolution shapes") {
  CHECK(compute_fans({}) == std::pair<double, double>{1, 1});
  CHECK(compute_fans({7}) == std::pair<double, double>{7, 7});
  CHECK(compute_fans({20, 30}) == std::pair<double, double>{20, 30});
  CHECK(compute_fans({3, 3, 16, 32}) == std::pair<double, double>{9 * 16, 9 * 32});
  CHECK(compute_fans({5, 8, 4}) == std::pair<double, double>{40, 20});
  // A 4-D kernel draws with its convolution fans: HeUniform limit sqrt(6 / (3*3*16)).
  Tensor k = HeUniform()({3, 3, 16, 32});
  const double limit = std::sqrt(6.0 / 144.0);
  CHECK(stats_of(k).max < limit);
  CHECK(stats_of(k).max > 0.95 * limit);
  // A 1-D shape uses its length for both fans.
  Tensor b = LecunUniform()({10000});
  CHECK(stats_of(b).max < std::sqrt(3.0 / 10000.0));
}

TEST_CASE("Orthogonal gives orthonormal rows or columns") {
  Tensor tall = Orthogonal()({300, 200});
  CHECK(orthogonality_error(tall, false) < 1e-5);
  Tensor wide = Orthogonal()({200, 300});
  CHECK(orthogonality_error(wide, true) < 1e-5);
  Tensor square = Orthogonal({.gain = 2.0})({64, 64});
  const Stats s = stats_of(square);
  CHECK(s.stddev == Approx(2.0 / 8.0).epsilon(0.05));  // entries of gain * Q have variance gain^2 / n
  Tensor halved = Orthogonal({.gain = 0.5})({50, 50});
  Tensor unit = Tensor::empty({50, 50});
  for (std::int64_t i = 0; i < 2500; ++i) unit.data<float>()[i] = 2.f * halved.data<float>()[i];
  CHECK(orthogonality_error(unit, true) < 1e-5);
  // More than 2 dimensions flatten to [prod(shape[:-1]), shape[-1]].
  Tensor conv = Orthogonal()({3, 3, 4, 16});
  CHECK(conv.shape() == Shape{3, 3, 4, 16});
  CHECK(orthogonality_error(conv.reshape({36, 16}), false) < 1e-5);
  CHECK_THROWS_WITH(Orthogonal()({5}), Contains("two-dimensional"));
}

TEST_CASE("Orthogonal applies Keras's sign correction") {
  // With R's diagonal positive, each column of Q has a positive dot product with the column of the
  // normal matrix it came from, and Q^T A is upper triangular with a positive diagonal.
  const std::uint64_t seed = 17;
  Tensor q = Orthogonal({.seed = seed})({40, 10});
  Tensor a = random_normal({40, 10}, 0.0, 1.0, seed);
  const float* pq = q.data<float>();
  const float* pa = a.data<float>();
  for (int i = 0; i < 10; ++i)
    for (int j = 0; j < 10; ++j) {
      double r = 0;
      for (int k = 0; k < 40; ++k) r += double(pq[k * 10 + i]) * pa[k * 10 + j];
      if (i == j) CHECK(r > 0);
      if (i > j) CHECK(std::abs(r) < 1e-4);
    }
}

TEST_CASE("Identity fills the diagonal and rejects other ranks") {
  CHECK(Identity()({2, 2}).to_vector<float>() == std::vector<float>{1, 0, 0, 1});
  CHECK(Identity({.gain = 3.0})({2, 3}).to_vector<float>() == std::vector<float>{3, 0, 0, 0, 3, 0});
  CHECK(Identity()({3, 2}).to_vector<float>() == std::vector<float>{1, 0, 0, 1, 0, 0});
  CHECK_THROWS_AS(Identity()({3}), ValueError);
  CHECK_THROWS_WITH(Identity()({2, 2, 2}), Contains("2-D"));
}

TEST_CASE("a seeded initializer repeats its values on every call") {
  std::vector<std::shared_ptr<Initializer>> seeded = {
      std::make_shared<RandomNormal>(RandomNormalOptions{.seed = 3}),
      std::make_shared<RandomUniform>(RandomUniformOptions{.seed = 3}),
      std::make_shared<TruncatedNormal>(TruncatedNormalOptions{.seed = 3}),
      std::make_shared<GlorotUniform>(GlorotUniformOptions{.seed = 3}),
      std::make_shared<HeNormal>(HeNormalOptions{.seed = 3}),
      std::make_shared<Orthogonal>(OrthogonalOptions{.seed = 3}),
  };
  for (const auto& init : seeded) {
    INFO(init->class_name());
    CHECK((*init)({30, 20}).to_vector<float>() == (*init)({30, 20}).to_vector<float>());
  }
  CHECK(GlorotUniform({.seed = 3})({30, 20}).to_vector<float>() != GlorotUniform({.seed = 4})({30, 20}).to_vector<float>());
  // Unseeded initializers draw fresh values each call.
  GlorotUniform fresh;
  CHECK(fresh({30, 20}).to_vector<float>() != fresh({30, 20}).to_vector<float>());
}

TEST_CASE("set_random_seed makes unseeded initializers reproducible") {
  auto draw = [] {
    std::vector<float> out;
    for (auto t : {GlorotUniform()({300, 400}), RandomNormal()({5}), Orthogonal()({8, 8}), HeNormal()({3, 3, 2, 4})}) {
      auto v = t.to_vector<float>();
      out.insert(out.end(), v.begin(), v.end());
    }
    return out;
  };
  utils::set_random_seed(1234);
  const auto first = draw();
  utils::set_random_seed(1234);
  CHECK(draw() == first);
  utils::set_random_seed(4321);
  CHECK(draw() != first);
}

TEST_CASE("large tensors fill in parallel with distinct values") {
  Tensor big = RandomNormal({.stddev = 1.0, .seed = 9})({1000, 1000});
  const Stats s = stats_of(big);
  CHECK(std::abs(s.mean) < 0.01);
  CHECK(s.stddev == Approx(1.0).epsilon(0.01));
  const float* p = big.data<float>();
  CHECK(p[0] != p[1 << 16]);  // chunks use different streams
  CHECK(p[1] != p[(1 << 16) + 1]);
}

TEST_CASE("configs round trip with Keras's keys and names") {
  std::vector<std::shared_ptr<Initializer>> all = {
      std::make_shared<Zeros>(),
      std::make_shared<Ones>(),
      std::make_shared<Constant>(0.25),
      std::make_shared<RandomNormal>(RandomNormalOptions{.mean = 1.0, .stddev = 0.5, .seed = 7}),
      std::make_shared<RandomUniform>(RandomUniformOptions{.minval = -2.0, .maxval = 1.0}),
      std::make_shared<TruncatedNormal>(TruncatedNormalOptions{.stddev = 0.3, .seed = 11}),
      std::make_shared<VarianceScaling>(
          VarianceScalingOptions{.scale = 2.0, .mode = "fan_out", .distribution = "uniform", .seed = 5}),
      std::make_shared<GlorotUniform>(),
      std::make_shared<GlorotNormal>(GlorotNormalOptions{.seed = 1}),
      std::make_shared<HeUniform>(),
      std::make_shared<HeNormal>(),
      std::make_shared<LecunUniform>(),
      std::make_shared<LecunNormal>(),
      std::make_shared<Orthogonal>(OrthogonalOptions{.gain = 1.5, .seed = 2}),
      std::make_shared<Identity>(IdentityOptions{.gain = 0.5}),
  };
  for (const auto& init : all) {
    INFO(init->class_name());
    const json s = serialize(*init);
    auto back = Initializer::deserialize(s);
    CHECK(back->class_name() == init->class_name());
    CHECK(serialize(*back) == s);
  }
  CHECK(serialize(Constant(0.25)) == json::parse(R"({"class_name": "Constant", "config": {"value": 0.25}})"));
  CHECK(serialize(GlorotUniform()) == json::parse(R"({"class_name": "GlorotUniform", "config": {"seed": null}})"));
  CHECK(serialize(HeNormal({.seed = 42})) == json::parse(R"({"class_name": "HeNormal", "config": {"seed": 42}})"));
  CHECK(serialize(Zeros()) == json::parse(R"({"class_name": "Zeros", "config": {}})"));
  CHECK(RandomNormal().get_config() == json::parse(R"({"mean": 0.0, "stddev": 0.05, "seed": null})"));
  CHECK(RandomUniform().get_config() == json::parse(R"({"minval": -0.05, "maxval": 0.05, "seed": null})"));
  CHECK(VarianceScaling().get_config() ==
        json::parse(R"({"scale": 1.0, "mode": "fan_in", "distribution": "truncated_normal", "seed": null})"));
  CHECK(Orthogonal().get_config() == json::parse(R"({"gain": 1.0, "seed": null})"));
  CHECK(Identity().get_config() == json::parse(R"({"gain": 1.0})"));
  // Keras configs may carry a dtype; it is ignored.
  auto from_keras = Initializer::deserialize(json::parse(R"({"class_name": "RandomUniform",
      "config": {"minval": 0.0, "maxval": 1.0, "seed": null, "dtype": "float32"}})"));
  CHECK(from_keras->get_config()["maxval"] == 1.0);
}

TEST_CASE("initializers resolve from snake_case and class names") {
  const std::vector<std::pair<std::string, std::string>> names = {
      {"zeros", "Zeros"},
      {"ones", "Ones"},
      {"constant", "Constant"},
      {"random_normal", "RandomNormal"},
      {"random_uniform", "RandomUniform"},
      {"truncated_normal", "TruncatedNormal"},
      {"variance_scaling", "VarianceScaling"},
      {"glorot_uniform", "GlorotUniform"},
      {"glorot_normal", "GlorotNormal"},
      {"he_uniform", "HeUniform"},
      {"he_normal", "HeNormal"},
      {"lecun_uniform", "LecunUniform"},
      {"lecun_normal", "LecunNormal"},
      {"orthogonal", "Orthogonal"},
      {"identity", "Identity"},
  };
  for (const auto& [alias, cls] : names) {
    INFO(alias);
    CHECK(Initializer::get(alias)->class_name() == cls);
    CHECK(Initializer::get(cls)->class_name() == cls);
  }
  CHECK_THROWS_WITH(Initializer::get("glorot_uniformm"), Contains("glorot_uniformm") && Contains("he_normal"));
  InitializerRef ref = "he_uniform";
  CHECK(ref->class_name() == "HeUniform");
  InitializerRef direct = Constant(3.0);
  CHECK(direct->class_name() == "Constant");
}
