#include <cmath>
#include <filesystem>
#include <random>

#include <catch2/catch.hpp>

#include "keras/json.hpp"
#include "temp_dir.hpp"

#include "golden.hpp"
#include "gradient_check.hpp"
#include "keras/keras.hpp"
#include "keras/ops/normalization.hpp"

using namespace keras;
using keras::testing::golden_tensor;
using keras::testing::random_tensor;

namespace {
void check_close(const Tensor& got, const json& want) {
  Tensor w = golden_tensor(want);
  const auto values = w.to_vector<float>();
  keras::testing::check_close(got, w.shape(), std::vector<double>(values.begin(), values.end()));
}

// Per-channel biased mean and variance over every axis but the last, in double.
std::pair<std::vector<double>, std::vector<double>> channel_stats(const Tensor& x) {
  const auto c = x.dim(-1), n = x.size() / c;
  std::vector<double> mean(c, 0.0), var(c, 0.0);
  const float* p = x.data<float>();
  for (std::int64_t i = 0; i < n; ++i)
    for (std::int64_t k = 0; k < c; ++k) mean[k] += p[i * c + k] / double(n);
  for (std::int64_t i = 0; i < n; ++i)
    for (std::int64_t k = 0; k < c; ++k) var[k] += (p[i * c + k] - mean[k]) * (p[i * c + k] - mean[k]) / double(n);
  return {mean, var};
}
}  // namespace

TEST_CASE("BatchNormalization matches PyTorch in training and inference, moving statistics included") {
  const json golden = keras::testing::load_golden("norm.json");
  int index = 0;
  for (const auto& c : golden["batch_norm"]) {
    SECTION("case " + std::to_string(index++)) {
      Tensor x = golden_tensor(c["x"]);
      layers::BatchNormalization bn({.momentum = c["momentum"].get<double>(), .epsilon = c["epsilon"].get<double>()});
      bn(x);  // builds
      bn.set_weights({golden_tensor(c["gamma"]), golden_tensor(c["beta"]), golden_tensor(c["moving_mean"]),
                      golden_tensor(c["moving_variance"])});
      GradientTape tape;
      tape.watch(x);
      Tensor y = bn(x, true);
      check_close(y, c["y"]);
      Tensor target = ops::sum(ops::multiply(y, golden_tensor(c["w"])));
      auto grads = tape.gradient(target, {x, bn.gamma()->value(), bn.beta()->value()});
      check_close(grads[0], c["dx"]);
      check_close(grads[1], c["dgamma"]);
      check_close(grads[2], c["dbeta"]);
      check_close(bn.moving_mean()->value(), c["new_moving_mean"]);
      check_close(bn.moving_variance()->value(), c["new_moving_variance"]);
      check_close(bn(golden_tensor(c["x_test"]), false), c["y_test"]);
    }
  }
}

TEST_CASE("LayerNormalization matches PyTorch") {
  const json golden = keras::testing::load_golden("norm.json");
  int index = 0;
  for (const auto& c : golden["layer_norm"]) {
    SECTION("case " + std::to_string(index++)) {
      Tensor x = golden_tensor(c["x"]);
      layers::LayerNormalization ln({.axis = c["axis"].get<std::vector<int>>(), .epsilon = c["epsilon"].get<double>()});
      ln(x);
      ln.set_weights({golden_tensor(c["gamma"]), golden_tensor(c["beta"])});
      GradientTape tape;
      tape.watch(x);
      Tensor y = ln(x, true);
      check_close(y, c["y"]);
      Tensor target = ops::sum(ops::multiply(y, golden_tensor(c["w"])));
      auto grads = tape.gradient(target, {x, ln.gamma()->value(), ln.beta()->value()});
      check_close(grads[0], c["dx"]);
      check_close(grads[1], c["dgamma"]);
      check_close(grads[2], c["dbeta"]);
    }
  }
}

TEST_CASE("normalization ops pass finite-difference gradient checks") {
  using keras::testing::check_gradients;
  Tensor g4 = random_tensor({4}, 0.5f, 1.5f, 1), b4 = random_tensor({4}, -0.5f, 0.5f, 2);
  Tensor g3 = random_tensor({3}, 0.5f, 1.5f, 3), b3 = random_tensor({3}, -0.5f, 0.5f, 4);
  SECTION("batch_norm_train, channels last") {
    check_gradients([](const std::vector<Tensor>& v) { return ops::batch_norm_train(v[0], v[1], v[2], -1, 1e-3f).output; },
                    {random_tensor({5, 2, 4}, -1, 1, 5), g4, b4}, 1e-2f, 3e-2f);
  }
  SECTION("batch_norm_train, channels at axis 1") {
    check_gradients([](const std::vector<Tensor>& v) { return ops::batch_norm_train(v[0], v[1], v[2], 1, 1e-3f).output; },
                    {random_tensor({3, 3, 4}, -1, 1, 6), g3, b3}, 1e-2f, 3e-2f);
  }
  SECTION("batch_norm_inference") {
    Tensor mean = random_tensor({4}, -0.5f, 0.5f, 7), var = random_tensor({4}, 0.5f, 1.5f, 8);
    check_gradients([&](const std::vector<Tensor>& v) { return ops::batch_norm_inference(v[0], mean, var, v[1], v[2], -1, 1e-3f); },
                    {random_tensor({3, 4}, -1, 1, 9), g4, b4});
  }
  SECTION("layer_norm over the last axis and over a middle axis") {
    check_gradients([](const std::vector<Tensor>& v) { return ops::layer_norm(v[0], v[1], v[2], {-1}, 1e-3f); },
                    {random_tensor({3, 4}, -1, 1, 10), g4, b4}, 1e-2f, 3e-2f);
    check_gradients([](const std::vector<Tensor>& v) { return ops::layer_norm(v[0], v[1], v[2], {1}, 1e-3f); },
                    {random_tensor({2, 3, 4}, -1, 1, 11), g3, b3}, 1e-2f, 3e-2f);
  }
  SECTION("layers without center and scale") {
    layers::BatchNormalization bn({.center = false, .scale = false});
    layers::LayerNormalization ln({.center = false, .scale = false});
    Tensor x = random_tensor({4, 3}, -1, 1, 12);
    check_gradients([&](const std::vector<Tensor>& v) { return ln(bn(v[0], true)); }, {x}, 1e-2f, 3e-2f);
  }
}

TEST_CASE("batch norm statistics stay exact on inputs large enough to run in parallel") {
  for (int axis : {-1, 1}) {
    Tensor x = random_tensor({64, 37, 33}, -3, 5, 13);
    auto r = ops::batch_norm_train(x, Tensor(), Tensor(), axis, 1e-3f);
    if (axis == -1) {
      auto [mean, var] = channel_stats(x);
      for (std::size_t k = 0; k < mean.size(); ++k) {
        CHECK(r.mean.data<float>()[k] == Approx(mean[k]).epsilon(1e-5).margin(1e-6));
        CHECK(r.variance.data<float>()[k] == Approx(var[k]).epsilon(1e-5));
      }
      CHECK(r.count == 64 * 37);
    } else {
      CHECK(r.mean.shape() == Shape{37});
      CHECK(r.count == 64 * 33);
    }
    // Normalized channels have mean 0 and variance var / (var + eps).
    auto back = ops::batch_norm_train(r.output, Tensor(), Tensor(), axis, 1e-3f);
    for (std::int64_t k = 0; k < back.mean.size(); ++k) {
      CHECK(back.mean.data<float>()[k] == Approx(0).margin(1e-5));
      const double v = r.variance.data<float>()[k];
      CHECK(back.variance.data<float>()[k] == Approx(v / (v + 1e-3)).epsilon(1e-4));
    }
  }
  Tensor x = random_tensor({300, 200}, -2, 2, 14);
  Tensor y = ops::layer_norm(x, Tensor(), Tensor(), {-1}, 1e-3f);
  auto t = y.to_vector<float>();
  for (int r = 0; r < 300; r += 37) {
    double s = 0;
    for (int k = 0; k < 200; ++k) s += t[r * 200 + k];
    CHECK(s / 200 == Approx(0).margin(1e-5));
  }
}

TEST_CASE("BatchNormalization weights: Keras's names, order and trainability") {
  backend::clear_session();
  layers::BatchNormalization bn;
  CHECK(bn.name() == "batch_normalization");
  Tensor y = bn(Tensor::ones({2, 5, 5, 3}));
  CHECK(y.shape() == Shape{2, 5, 5, 3});
  REQUIRE(bn.weights().size() == 4);
  const std::vector<std::string> names{"gamma", "beta", "moving_mean", "moving_variance"};
  for (int i = 0; i < 4; ++i) {
    CHECK(bn.weights()[i]->name() == names[i]);
    CHECK(bn.weights()[i]->shape() == Shape{3});
  }
  CHECK(bn.trainable_weights().size() == 2);
  CHECK(bn.non_trainable_weights().size() == 2);
  CHECK(bn.count_params() == 12);
  CHECK(bn.get_weights()[0].to_vector<float>() == std::vector<float>{1, 1, 1});
  CHECK(bn.get_weights()[3].to_vector<float>() == std::vector<float>{1, 1, 1});
  bn.set_trainable(false);
  CHECK(bn.trainable_weights().empty());
  CHECK(bn.non_trainable_weights().size() == 4);
  bn.set_trainable(true);
  CHECK(bn.trainable_weights().size() == 2);  // the moving statistics stay non-trainable

  layers::BatchNormalization plain({.center = false, .scale = false});
  plain(Tensor::ones({2, 3}));
  CHECK(plain.weights().size() == 2);
  CHECK(plain.trainable_weights().empty());

  layers::LayerNormalization ln;
  CHECK(ln.name() == "layer_normalization");
  ln(Tensor::ones({2, 4, 6}));
  REQUIRE(ln.weights().size() == 2);
  CHECK(ln.weights()[0]->name() == "gamma");
  CHECK(ln.weights()[1]->name() == "beta");
  CHECK(ln.weights()[0]->shape() == Shape{6});
  layers::LayerNormalization ln2({.axis = {-2, -1}});
  ln2(Tensor::ones({2, 4, 6}));
  CHECK(ln2.weights()[0]->shape() == Shape{4, 6});
}

TEST_CASE("BatchNormalization uses moving statistics in inference and when frozen") {
  Tensor x = random_tensor({8, 3}, -2, 4, 15);
  layers::BatchNormalization bn({.momentum = 0.5});
  bn(x);
  bn.set_weights({Tensor::ones({3}), Tensor::zeros({3}), Tensor::full({3}, 0.5), Tensor::full({3}, 2.0)});
  // Inference: (x - 0.5) / sqrt(2 + 1e-3); the moving statistics do not move.
  Tensor inf = bn(x, false);
  for (std::int64_t i = 0; i < x.size(); ++i)
    CHECK(inf.data<float>()[i] == Approx((x.data<float>()[i] - 0.5) / std::sqrt(2.001)).epsilon(1e-5));
  CHECK(bn.moving_mean()->value().to_vector<float>() == std::vector<float>{0.5f, 0.5f, 0.5f});

  // Frozen: training=true still runs in inference mode and leaves the statistics alone.
  bn.set_trainable(false);
  CHECK(bn(x, true).to_vector<float>() == inf.to_vector<float>());
  CHECK(bn.moving_variance()->value().to_vector<float>() == std::vector<float>{2.f, 2.f, 2.f});

  // Training: batch statistics normalize, moving = moving * m + batch * (1 - m), variance unbiased.
  bn.set_trainable(true);
  Tensor tr = bn(x, true);
  auto [mean, var] = channel_stats(x);
  for (int k = 0; k < 3; ++k) {
    CHECK(bn.moving_mean()->value().data<float>()[k] == Approx(0.5 * 0.5 + mean[k] * 0.5).epsilon(1e-5));
    CHECK(bn.moving_variance()->value().data<float>()[k] == Approx(2.0 * 0.5 + var[k] * 8.0 / 7.0 * 0.5).epsilon(1e-5));
    CHECK(tr.data<float>()[k] == Approx((x.data<float>()[k] - mean[k]) / std::sqrt(var[k] + 1e-3)).epsilon(1e-4));
  }
}

TEST_CASE("predict folds BatchNormalization into the convolution before it, again whenever a weight changes") {
  // predict runs Conv2D + BatchNormalization as one convolution, the normalization's scale and shift kept
  // between calls; calling the layers one by one (no fusion) is the reference.
  auto in = Input({6, 6, 4});
  Model model(in, layers::BatchNormalization()(layers::Conv2D(8, {3, 3}, {.padding = "same"})(in)));
  model.compile({.optimizer = "sgd", .loss = "mse"});
  const LayerPtr conv = model.layers().at(1), bn = model.layers().at(2);
  REQUIRE(conv->class_name() == "Conv2D");
  REQUIRE(bn->class_name() == "BatchNormalization");
  const Tensor x = random_tensor({2, 6, 6, 4}, -1, 1, 61);
  auto check = [&] {
    const Tensor want = (*bn)((*conv)(x), false);
    const Tensor got = model.predict(x);
    REQUIRE(got.shape() == want.shape());
    const auto g = got.to_vector<float>(), w = want.to_vector<float>();
    for (std::size_t i = 0; i < g.size(); ++i) CHECK(g[i] == Approx(w[i]).margin(1e-5));
    return g;
  };
  bn->set_weights({random_tensor({8}, 0.5f, 1.5f, 62), random_tensor({8}, -0.2f, 0.2f, 63),
                   random_tensor({8}, -0.1f, 0.1f, 64), random_tensor({8}, 0.5f, 2.0f, 65)});
  const auto first = check();
  bn->set_weights({random_tensor({8}, 0.5f, 1.5f, 66), random_tensor({8}, -0.2f, 0.2f, 67),
                   random_tensor({8}, -0.1f, 0.1f, 68), random_tensor({8}, 0.5f, 2.0f, 69)});
  CHECK(check() != first);
  model.fit(x, random_tensor({2, 6, 6, 8}, -1, 1, 70), {.epochs = 1, .verbose = 0});  // moves every weight
  check();
}

TEST_CASE("normalization configs carry Keras's keys and round-trip") {
  backend::clear_session();
  layers::BatchNormalization bn({.axis = 1, .momentum = 0.9, .epsilon = 1e-5, .center = false});
  json unbuilt = bn.get_config();
  CHECK(unbuilt["axis"] == 1);
  bn(Tensor::ones({2, 3, 4}));
  json c = bn.get_config();
  CHECK(c["axis"] == json::array({1}));
  CHECK(c["momentum"] == 0.9);
  CHECK(c["epsilon"] == 1e-5);
  CHECK(c["center"] == false);
  CHECK(c["scale"] == true);
  CHECK(c["gamma_initializer"]["class_name"] == "Ones");
  CHECK(c["moving_mean_initializer"]["class_name"] == "Zeros");
  CHECK(c["moving_variance_initializer"]["class_name"] == "Ones");
  for (const char* k : {"beta_regularizer", "gamma_regularizer", "beta_constraint", "gamma_constraint"})
    CHECK(c[k].is_null());
  auto again = Layer::deserialize(serialize_object("BatchNormalization", c));
  CHECK(again->class_name() == "BatchNormalization");
  CHECK(again->get_config() == c);
  again->ensure_built({-1, 3, 4});
  CHECK(again->weights().size() == 3);  // gamma, moving_mean, moving_variance
  CHECK(Layer::deserialize(serialize_object("BatchNormalization", unbuilt))->get_config() == unbuilt);

  layers::LayerNormalization ln({.epsilon = 1e-6, .scale = false});
  json lu = ln.get_config();
  CHECK(lu["axis"] == -1);
  ln(Tensor::ones({2, 5}));
  json lc = ln.get_config();
  CHECK(lc["axis"] == json::array({1}));
  CHECK(lc["epsilon"] == 1e-6);
  CHECK(lc["scale"] == false);
  CHECK(lc["beta_initializer"]["class_name"] == "Zeros");
  CHECK(Layer::deserialize(serialize_object("LayerNormalization", lc))->get_config() == lc);
  CHECK(Layer::deserialize(serialize_object("LayerNormalization", lu))->get_config() == lu);
}

TEST_CASE("normalization layers reject bad arguments and inputs with clear errors") {
  CHECK_THROWS_AS(layers::BatchNormalization({.epsilon = 0}), ValueError);
  CHECK_THROWS_AS(layers::BatchNormalization({.momentum = 1.5}), ValueError);
  layers::BatchNormalization bn({.axis = 3, .name = "bn_probe"});
  CHECK_THROWS_WITH(bn(Tensor::ones({2, 3})), Catch::Contains("bn_probe") && Catch::Contains("axis 3"));
  layers::BatchNormalization ok({.name = "bn_ok"});
  ok(Tensor::ones({2, 3}));
  CHECK_THROWS_WITH(ok(Tensor::ones({2, 4})), Catch::Contains("bn_ok") && Catch::Contains("(2, 4)"));
  CHECK_THROWS_AS(layers::LayerNormalization({.axis = {}}), ValueError);
  layers::LayerNormalization gap({.axis = {1, 3}});
  CHECK_THROWS_WITH(gap(Tensor::ones({2, 3, 4, 5})), Catch::Contains("contiguous"));
}

TEST_CASE("a small model with BatchNormalization trains with fit, saves and reloads") {
  backend::clear_session();
  utils::set_random_seed(3);
  std::mt19937 gen(0);
  std::normal_distribution<float> noise(0.f, 0.3f);
  const std::int64_t n = 240;
  Tensor x = Tensor::empty({n, 4});
  Tensor y = Tensor::empty({n}, DType::int32);
  for (std::int64_t i = 0; i < n; ++i) {
    const int c = int(i % 3);
    y.data<std::int32_t>()[i] = c;
    for (int j = 0; j < 4; ++j) x.data<float>()[i * 4 + j] = (j == c ? 6.f : 3.f) + noise(gen);  // off-centre inputs
  }
  Sequential model({layers::Input({4}), layers::Dense(16), layers::BatchNormalization(),
                    layers::Activation("relu"), layers::LayerNormalization(), layers::Dense(3)});
  model.compile({.optimizer = optimizers::Adam({.learning_rate = 0.01}),
                 .loss = losses::SparseCategoricalCrossentropy({.from_logits = true}), .metrics = {"accuracy"}});
  CHECK(model.trainable_weights().size() == 8);
  CHECK(model.non_trainable_weights().size() == 2);
  auto bn = model.get_layer("batch_normalization");
  const auto before = bn->weights()[2]->value().to_vector<float>();
  auto history = model.fit(x, y, {.batch_size = 16, .epochs = 10, .verbose = 0});
  CHECK(history.history["loss"].back() < history.history["loss"].front());
  CHECK(bn->weights()[2]->value().to_vector<float>() != before);  // moving mean moved
  Logs results = model.evaluate(x, y, {.verbose = 0});
  CHECK(results.at("accuracy") > 0.9);

  keras_test::TempDir dir("normalization");
  const auto path = dir / "model.h5";
  model.save(path);
  auto loaded = models::load_model(path);
  CHECK(loaded->get_config() == model.get_config());
  CHECK(loaded->predict(x).to_vector<float>() == model.predict(x).to_vector<float>());
  std::filesystem::remove(path);
}
