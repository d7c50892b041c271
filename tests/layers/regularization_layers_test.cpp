// SpatialDropout, GaussianNoise, GaussianDropout, AlphaDropout, ActivityRegularization, and the
// GroupNormalization / UnitNormalization checks the golden values do not cover.
#include <cmath>

#include <catch2/catch.hpp>

#include "gradient_check.hpp"
#include "keras/json.hpp"
#include "keras/keras.hpp"

using namespace keras;

namespace {
std::pair<double, double> mean_var(const Tensor& t) {
  const auto v = t.to_vector<float>();
  double m = 0, s = 0;
  for (float x : v) m += x;
  m /= double(v.size());
  for (float x : v) s += (x - m) * (x - m);
  return {m, s / double(v.size())};
}
}  // namespace

TEST_CASE("SpatialDropout drops whole channels and keeps the expected sum", "[noise]") {
  const Tensor x = Tensor::ones({4, 6, 5, 32});
  layers::SpatialDropout2D drop(0.5, {.seed = 3});
  CHECK(drop(x, false).to_vector<float>() == x.to_vector<float>());
  const Tensor y = drop(x, true);
  const float* p = y.data<float>();
  int dropped = 0;
  for (std::int64_t b = 0; b < 4; ++b)
    for (std::int64_t c = 0; c < 32; ++c) {
      const float first = p[b * 6 * 5 * 32 + c];
      CHECK((first == 0.f || first == 2.f));
      dropped += first == 0.f;
      for (std::int64_t s = 0; s < 30; ++s) CHECK(p[(b * 30 + s) * 32 + c] == first);  // the whole feature map
    }
  CHECK(dropped > 32);
  CHECK(dropped < 96);
  CHECK(layers::SpatialDropout1D(0.2).get_config()["rate"] == Approx(0.2));
  CHECK(layers::SpatialDropout3D(0.2).get_config()["data_format"] == "channels_last");
  CHECK_THROWS_WITH(layers::SpatialDropout1D(0.2)(Tensor::ones({2, 3}), true), Catch::Contains("expected ndim=3"));
  CHECK_THROWS_WITH(layers::SpatialDropout1D(1.0), Catch::Contains("[0, 1)"));
}

TEST_CASE("GaussianNoise, GaussianDropout and AlphaDropout have the right statistics in training only", "[noise]") {
  const Tensor x = Tensor::full({200, 100}, 2.0);
  layers::GaussianNoise noise(0.5, {.seed = 1});
  CHECK(noise(x, false).to_vector<float>() == x.to_vector<float>());
  auto [m1, v1] = mean_var(noise(x, true));
  CHECK(m1 == Approx(2.0).margin(0.02));
  CHECK(v1 == Approx(0.25).epsilon(0.05));

  layers::GaussianDropout gd(0.2, {.seed = 2});
  auto [m2, v2] = mean_var(gd(x, true));
  CHECK(m2 == Approx(2.0).margin(0.02));
  CHECK(v2 == Approx(4.0 * 0.2 / 0.8).epsilon(0.05));

  // AlphaDropout keeps a standard normal input's mean 0 and variance 1.
  Tensor z = Tensor::empty({200, 100});
  std::mt19937 gen(5);
  std::normal_distribution<float> normal;
  for (std::int64_t i = 0; i < z.size(); ++i) z.data<float>()[i] = normal(gen);
  layers::AlphaDropout ad(0.3, {.seed = 4});
  auto [m3, v3] = mean_var(ad(z, true));
  CHECK(m3 == Approx(0.0).margin(0.03));
  CHECK(v3 == Approx(1.0).epsilon(0.05));
  CHECK(ad.get_config()["seed"] == 4);
  CHECK(Layer::deserialize(serialize_object("GaussianNoise", noise.get_config()))->get_config()["stddev"] == Approx(0.5));
}

TEST_CASE("ActivityRegularization adds its penalty per sample to the layer's losses", "[noise]") {
  layers::ActivityRegularization reg({.l1 = 0.1, .l2 = 0.2});
  const Tensor x = keras::testing::random_tensor({4, 3});
  CHECK(reg(x).to_vector<float>() == x.to_vector<float>());
  REQUIRE(reg.losses().size() == 1);
  double l1 = 0, l2 = 0;
  for (float v : x.to_vector<float>()) {
    l1 += std::abs(v);
    l2 += double(v) * v;
  }
  CHECK(reg.losses()[0].item() == Approx((0.1 * l1 + 0.2 * l2) / 4).epsilon(1e-5));
  CHECK(reg.get_config()["l1"] == Approx(0.1));
}

TEST_CASE("GroupNormalization checks its groups and writes Keras's config", "[normalization]") {
  CHECK_THROWS_WITH(layers::GroupNormalization(8)(Tensor::ones({2, 4})), Catch::Contains("cannot be more than the number of channels"));
  CHECK_THROWS_WITH(layers::GroupNormalization(3)(Tensor::ones({2, 4})), Catch::Contains("must be a multiple"));
  layers::GroupNormalization gn(2, {.gamma_regularizer = "l2"});
  gn(Tensor::ones({2, 3, 4}));
  CHECK(gn.weights().size() == 2);
  CHECK(gn.gamma()->name() == "gamma");
  CHECK(gn.losses().size() == 1);
  const json c = gn.get_config();
  CHECK(c["groups"] == 2);
  CHECK(c["gamma_regularizer"]["class_name"] == "L2");
  CHECK(layers::UnitNormalization().get_config()["axis"] == -1);
  CHECK_THROWS_WITH(layers::UnitNormalization({0})(Tensor::ones({2, 3})), Catch::Contains("invalid axis 0"));
}
