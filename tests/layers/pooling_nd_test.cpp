// MaxPooling1D/3D, AveragePooling1D/3D, GlobalMax/GlobalAveragePooling1D/3D: PyTorch's values
// (tests/golden/make_conv_nd_golden.py), finite differences, configs.
#include <catch2/catch.hpp>

#include "golden.hpp"
#include "gradient_check.hpp"
#include "keras/json.hpp"
#include "keras/keras.hpp"

using namespace keras;
using keras::testing::check_close;
using keras::testing::check_gradients;
using keras::testing::random_tensor;
using V = std::vector<Tensor>;

namespace {
Tensor floats(const json& t) { return Tensor::from_vector(t["data"].get<std::vector<float>>(), t["shape"].get<Shape>()); }
}  // namespace

TEST_CASE("1-D and 3-D pooling layers match PyTorch forward and backward") {
  const json golden = keras::testing::load_golden("conv_nd.json");
  for (const auto& c : golden["pool"]) {
    SECTION(c["name"].get<std::string>()) {
      auto layer = Layer::deserialize({{"class_name", c["class_name"]}, {"config", c["config"]}});
      Tensor x = floats(c["x"]);
      CHECK(layer->compute_output_shape(x.shape()) == c["y"]["shape"].get<Shape>());
      GradientTape tape;
      tape.watch(x);
      Tensor y = (*layer)(x, true);
      check_close(y, c["y"]);
      check_close(tape.gradient(ops::sum(ops::multiply(y, floats(c["w"]))), x), c["dx"]);
      json cfg = layer->get_config();
      for (const auto& [key, value] : c["config"].items()) CHECK(cfg.at(key) == value);
      CHECK(Layer::deserialize(serialize_object(layer->class_name(), cfg))->get_config() == cfg);
    }
  }
}

TEST_CASE("pooling ops of every rank pass a finite-difference check") {
  auto x1 = random_tensor({2, 7, 3}, -1, 1, 71), x3 = random_tensor({1, 4, 5, 3, 2}, -1, 1, 72);
  check_gradients([](const V& v) { return ops::max_pool(v[0], {2}, {2}); }, {x1}, 1e-3f);
  check_gradients([](const V& v) { return ops::avg_pool(v[0], {3}, {2}, "same"); }, {x1});
  check_gradients([](const V& v) { return ops::max_pool(v[0], {2, 2, 2}, {}, "same"); }, {x3}, 1e-3f);
  check_gradients([](const V& v) { return ops::avg_pool(v[0], {2, 3, 2}, {1, 2, 1}, "same"); }, {x3});
}

TEST_CASE("1-D and 3-D pooling layers: defaults, names, shapes, configs") {
  backend::clear_session();
  layers::MaxPooling1D m1;
  layers::AveragePooling1D a1(3, {.strides = 1, .padding = "same"});
  layers::MaxPooling3D m3;
  layers::AveragePooling3D a3({2, 2, 1}, {.padding = "same"});
  CHECK(m1.name() == "max_pooling1d");
  CHECK(a1.name() == "average_pooling1d");
  CHECK(m3.name() == "max_pooling3d");
  CHECK(a3.name() == "average_pooling3d");
  CHECK(m1.strides() == Sizes{2});
  CHECK(m1(Tensor::ones({2, 7, 3})).shape() == Shape{2, 3, 3});
  CHECK(a1(Tensor::ones({2, 7, 3})).shape() == Shape{2, 7, 3});
  CHECK(m3(Tensor::ones({1, 4, 5, 6, 2})).shape() == Shape{1, 2, 2, 3, 2});
  CHECK(a3.compute_output_shape({-1, 5, -1, 3, 4}) == Shape{-1, 3, -1, 3, 4});
  CHECK(a1.get_config()["pool_size"] == json::array({3}));
  CHECK(a1.get_config()["strides"] == json::array({1}));
  json k = m3.get_config();
  k["strides"] = nullptr;
  k["pool_size"] = 3;
  CHECK(Layer::deserialize(serialize_object("MaxPooling3D", k))->get_config()["strides"] == json::array({3, 3, 3}));
  CHECK_THROWS_WITH(m1(Tensor::ones({2, 7, 3, 1})), Catch::Contains("ndim=3"));
  CHECK_THROWS_AS(layers::MaxPooling1D(0), ValueError);
}

TEST_CASE("global pooling layers of every rank reduce the spatial axes, keepdims keeps them") {
  backend::clear_session();
  Tensor x1 = random_tensor({2, 5, 3}, -1, 1, 81), x3 = random_tensor({2, 3, 2, 4, 3}, -1, 1, 82);
  layers::GlobalAveragePooling1D ga1;
  layers::GlobalMaxPooling1D gm1({.keepdims = true});
  layers::GlobalAveragePooling3D ga3({.keepdims = true});
  layers::GlobalMaxPooling3D gm3;
  CHECK(ga1.name() == "global_average_pooling1d");
  CHECK(gm3.name() == "global_max_pooling3d");
  const auto v1 = x1.to_vector<float>(), v3 = x3.to_vector<float>();
  Tensor y = ga1(x1), z = gm1(x1), w = ga3(x3), u = gm3(x3);
  CHECK(y.shape() == Shape{2, 3});
  CHECK(z.shape() == Shape{2, 1, 3});
  CHECK(w.shape() == Shape{2, 1, 1, 1, 3});
  CHECK(u.shape() == Shape{2, 3});
  CHECK(gm1.compute_output_shape({-1, -1, 3}) == Shape{-1, 1, 3});
  for (int b = 0; b < 2; ++b)
    for (int c = 0; c < 3; ++c) {
      float sum = 0, mx = -1e9f, sum3 = 0, mx3 = -1e9f;
      for (int t = 0; t < 5; ++t) sum += v1[(b * 5 + t) * 3 + c], mx = std::max(mx, v1[(b * 5 + t) * 3 + c]);
      for (int t = 0; t < 24; ++t) sum3 += v3[(b * 24 + t) * 3 + c], mx3 = std::max(mx3, v3[(b * 24 + t) * 3 + c]);
      CHECK(y.to_vector<float>()[b * 3 + c] == Approx(sum / 5));
      CHECK(z.to_vector<float>()[b * 3 + c] == mx);
      CHECK(w.to_vector<float>()[b * 3 + c] == Approx(sum3 / 24));
      CHECK(u.to_vector<float>()[b * 3 + c] == mx3);
    }
  for (const Layer* l : {static_cast<const Layer*>(&gm1), static_cast<const Layer*>(&ga3)}) {
    json cfg = l->get_config();
    CHECK(cfg["keepdims"] == true);
    CHECK(cfg["data_format"] == "channels_last");
    CHECK(Layer::deserialize(serialize_object(l->class_name(), cfg))->get_config() == cfg);
  }
  check_gradients([&](const V& v) { return layers::GlobalMaxPooling1D()(v[0], true); }, {x1}, 1e-3f);
}
