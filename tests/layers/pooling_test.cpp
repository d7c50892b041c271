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
Tensor floats(const json& values, const Shape& shape) { return Tensor::from_vector(values.get<std::vector<float>>(), shape); }
Size2 pair(const json& j) { return {j[0].get<std::int64_t>(), j[1].get<std::int64_t>()}; }

std::shared_ptr<Layer> pooling_layer(const json& c) {
  const Size2 pool = pair(c["pool_size"]), strides = pair(c["strides"]);
  const std::string padding = c["padding"];
  if (c["kind"] == "max")
    return std::make_shared<layers::MaxPooling2D>(pool, layers::MaxPooling2DOptions{.strides = strides, .padding = padding});
  return std::make_shared<layers::AveragePooling2D>(pool,
                                                    layers::AveragePooling2DOptions{.strides = strides, .padding = padding});
}
}  // namespace

TEST_CASE("MaxPooling2D and AveragePooling2D match PyTorch forward and backward") {
  const json golden = keras::testing::load_golden("conv.json");
  for (const auto& c : golden["pool"]) {
    SECTION(c["name"].get<std::string>()) {
      const Shape xs = c["x_shape"].get<Shape>(), ys = c["y_shape"].get<Shape>();
      auto layer = pooling_layer(c);
      CHECK(layer->compute_output_shape(xs) == ys);
      Tensor x = floats(c["x"], xs);
      GradientTape tape;
      tape.watch(x);
      Tensor y = (*layer)(x, true);
      check_close(y, ys, c["y"].get<std::vector<double>>());
      Tensor dx = tape.gradient(ops::sum(ops::multiply(y, floats(c["w"], ys))), x);
      check_close(dx, xs, c["dx"].get<std::vector<double>>());
      // The inference path (no tape: no workspace) gives the same values.
      check_close((*layer)(x), ys, c["y"].get<std::vector<double>>());
    }
  }
}

TEST_CASE("pooling op gradients pass a finite-difference check") {
  auto x = random_tensor({2, 5, 6, 3}, -1, 1, 51);
  check_gradients([](const V& v) { return ops::max_pool2d(v[0], {2, 2}, {2, 2}); }, {x}, 1e-3f);
  check_gradients([](const V& v) { return ops::max_pool2d(v[0], {3, 3}, {2, 1}, "same"); }, {x}, 1e-3f);
  check_gradients([](const V& v) { return ops::avg_pool2d(v[0], {2, 2}, {2, 2}); }, {x});
  check_gradients([](const V& v) { return ops::avg_pool2d(v[0], {3, 2}, {2, 2}, "same"); }, {x});
  check_gradients([](const V& v) { return ops::mean(v[0], {1, 2}); }, {x});
}

TEST_CASE("pooling layers: defaults, output shapes, names and config round trip") {
  backend::clear_session();
  layers::MaxPooling2D m;
  layers::AveragePooling2D a({3, 3}, {.strides = {1, 1}, .padding = "same"});
  CHECK(m.name() == "max_pooling2d");
  CHECK(a.name() == "average_pooling2d");
  CHECK(m.strides() == Sizes{2, 2});  // strides default to the pool size
  CHECK(m(Tensor::ones({2, 7, 6, 3})).shape() == Shape{2, 3, 3, 3});
  CHECK(a(Tensor::ones({2, 7, 6, 3})).shape() == Shape{2, 7, 6, 3});
  CHECK(m.compute_output_shape({-1, 28, 28, 32}) == Shape{-1, 14, 14, 32});
  CHECK(layers::MaxPooling2D({2, 2}, {.padding = "same"}).compute_output_shape({-1, 7, -1, 1}) == Shape{-1, 4, -1, 1});
  CHECK(m.weights().empty());

  json c = a.get_config();
  CHECK(c["pool_size"] == json::array({3, 3}));
  CHECK(c["strides"] == json::array({1, 1}));
  CHECK(c["padding"] == "same");
  CHECK(c["data_format"] == "channels_last");
  for (const auto* layer : {static_cast<const Layer*>(&m), static_cast<const Layer*>(&a)}) {
    json cfg = layer->get_config();
    auto again = Layer::deserialize(serialize_object(layer->class_name(), cfg));
    CHECK(again->class_name() == layer->class_name());
    CHECK(again->get_config() == cfg);
  }
  // Keras writes strides=null for "same as pool_size" and may write single integers.
  json k = m.get_config();
  k["strides"] = nullptr;
  k["pool_size"] = 3;
  auto from_null = Layer::deserialize(serialize_object("MaxPooling2D", k));
  CHECK(from_null->get_config()["strides"] == json::array({3, 3}));
}

TEST_CASE("average pooling with same padding excludes the padding") {
  Tensor x = Tensor::from_vector<float>({1, 2, 3, 4, 5, 6, 7, 8, 9}, {1, 3, 3, 1});
  Tensor y = layers::AveragePooling2D({2, 2}, {.padding = "same"})(x);
  CHECK(y.shape() == Shape{1, 2, 2, 1});
  CHECK(y.to_vector<float>() == std::vector<float>{3, 4.5f, 7.5f, 9});
  Tensor z = layers::MaxPooling2D({2, 2}, {.padding = "same"})(ops::negative(x));
  CHECK(z.to_vector<float>() == std::vector<float>{-1, -3, -7, -9});
}

TEST_CASE("global pooling layers reduce height and width") {
  backend::clear_session();
  Tensor x = random_tensor({2, 3, 4, 5}, -1, 1, 61);
  layers::GlobalAveragePooling2D gap;
  layers::GlobalMaxPooling2D gmp({.keepdims = true});
  CHECK(gap.name() == "global_average_pooling2d");
  CHECK(gmp.name() == "global_max_pooling2d");
  Tensor avg = gap(x), mx = gmp(x);
  CHECK(avg.shape() == Shape{2, 5});
  CHECK(mx.shape() == Shape{2, 1, 1, 5});
  CHECK(gap.compute_output_shape({-1, 7, 7, 8}) == Shape{-1, 8});
  CHECK(gmp.compute_output_shape({-1, 7, 7, 8}) == Shape{-1, 1, 1, 8});
  const float* px = x.data<float>();
  for (int n = 0; n < 2; ++n)
    for (int ch = 0; ch < 5; ++ch) {
      double s = 0;
      float m = -1e30f;
      for (int i = 0; i < 12; ++i) {
        s += px[(n * 12 + i) * 5 + ch];
        m = std::max(m, px[(n * 12 + i) * 5 + ch]);
      }
      CHECK(avg.data<float>()[n * 5 + ch] == Approx(s / 12).epsilon(1e-5));
      CHECK(mx.data<float>()[n * 5 + ch] == m);
    }
  check_gradients([&](const V& v) { return gmp(v[0]); }, {x}, 1e-3f);
  check_gradients([&](const V& v) { return gap(v[0]); }, {x});
  for (const auto* layer : {static_cast<const Layer*>(&gap), static_cast<const Layer*>(&gmp)}) {
    json cfg = layer->get_config();
    CHECK(cfg["data_format"] == "channels_last");
    CHECK(cfg.contains("keepdims"));
    auto again = Layer::deserialize(serialize_object(layer->class_name(), cfg));
    CHECK(again->get_config() == cfg);
  }
}

TEST_CASE("pooling layers reject bad arguments and inputs with clear errors") {
  CHECK_THROWS_AS(layers::MaxPooling2D({0, 2}), ValueError);
  CHECK_THROWS_WITH(layers::AveragePooling2D({2, 2}, {.padding = "causal"}), Catch::Contains("padding"));
  layers::MaxPooling2D m({2, 2}, {.name = "pool_probe"});
  CHECK_THROWS_WITH(m(Tensor::ones({2, 4, 4})), Catch::Contains("pool_probe") && Catch::Contains("(2, 4, 4)"));
  CHECK_THROWS_WITH(m(Tensor::ones({2, 1, 4, 3})), Catch::Contains("larger than the input"));
  CHECK_THROWS_AS(layers::GlobalAveragePooling2D()(Tensor::ones({2, 3})), ValueError);
  json bad = m.get_config();
  bad["data_format"] = "channels_middle";  // channels_first is supported (tests/layers/channels_first_test.cpp)
  CHECK_THROWS_WITH(Layer::deserialize(serialize_object("MaxPooling2D", bad)), Catch::Contains("channels_last"));
}

TEST_CASE("GlobalAveragePooling1D under a mask averages the unmasked steps, as Keras") {
  backend::clear_session();
  auto in = Input({4});
  auto embedding = std::make_shared<layers::Embedding>(5, 2, layers::EmbeddingOptions{.mask_zero = true});
  Model model(in, layers::GlobalAveragePooling1D()((*embedding)(in)));
  const Tensor ids = Tensor::from_vector<float>({1, 2, 0, 0, 3, 4, 1, 0}, {2, 4});
  const auto table = embedding->get_weights()[0].to_vector<float>();  // [5, 2]
  const auto got = model.predict(ids).to_vector<float>();
  // Sample 0 has two real steps (ids 1, 2), sample 1 three (3, 4, 1): padding does not count.
  for (int c = 0; c < 2; ++c) {
    CHECK(got[c] == Approx((table[1 * 2 + c] + table[2 * 2 + c]) / 2.f).epsilon(1e-6));
    CHECK(got[2 + c] == Approx((table[3 * 2 + c] + table[4 * 2 + c] + table[1 * 2 + c]) / 3.f).epsilon(1e-6));
  }
  // Without a mask it is the plain mean over every step.
  const Tensor x = random_tensor({2, 3, 2}, -1.f, 1.f, 3);
  const auto plain = layers::GlobalAveragePooling1D()(x).to_vector<float>(), mean = ops::mean(x, {1}).to_vector<float>();
  REQUIRE(plain.size() == mean.size());
  for (std::size_t i = 0; i < plain.size(); ++i) CHECK(plain[i] == Approx(mean[i]).epsilon(1e-6));
}
