// Conv1D/2D/3D (groups, causal), Conv1D/2D/3DTranspose, DepthwiseConv1D/2D, SeparableConv1D/2D:
// PyTorch's values (tests/golden/make_conv_nd_golden.py), finite differences, configs and HDF5.
#include <catch2/catch.hpp>

#include <filesystem>

#include "golden.hpp"
#include "gradient_check.hpp"
#include "keras/json.hpp"
#include "keras/keras.hpp"

using namespace keras;
using keras::testing::check_close;
using keras::testing::check_gradients;
using keras::testing::golden_tensor;
using keras::testing::random_tensor;
using V = std::vector<Tensor>;

namespace {

Tensor floats(const json& t) { return Tensor::from_vector(t["data"].get<std::vector<float>>(), t["shape"].get<Shape>()); }

}  // namespace

TEST_CASE("convolution layers of every rank match PyTorch forward and backward") {
  const json golden = keras::testing::load_golden("conv_nd.json");
  for (const auto& c : golden["conv"]) {
    SECTION(c["name"].get<std::string>()) {
      auto layer = Layer::deserialize({{"class_name", c["class_name"]}, {"config", c["config"]}});
      CHECK(layer->class_name() == c["class_name"].get<std::string>());
      Tensor x = floats(c["x"]);
      CHECK(layer->compute_output_shape(x.shape()) == c["y"]["shape"].get<Shape>());
      (*layer)(x);  // builds
      std::vector<Tensor> weights;
      for (const auto& w : c["weights"]) weights.push_back(floats(w));
      REQUIRE(layer->weights().size() == weights.size());
      layer->set_weights(weights);
      GradientTape tape;
      tape.watch(x);
      Tensor y = (*layer)(x, true);
      check_close(y, c["y"]);
      Tensor target = ops::sum(ops::multiply(y, floats(c["w"])));
      std::vector<Tensor> sources{x};
      for (const auto& w : layer->weights()) sources.push_back(w->value());
      auto grads = tape.gradient(target, sources);
      check_close(grads[0], c["dx"]);
      for (std::size_t i = 0; i < weights.size(); ++i) {
        INFO("weight " << layer->weights()[i]->name());
        check_close(grads[i + 1], c["dweights"][i]);
      }
      // The config round trip keeps every key Keras writes.
      json cfg = layer->get_config();
      for (const auto& [key, value] : c["config"].items()) {
        INFO("config key " << key);
        // tf.keras 2.x writes groups = 1 in a transposed convolution's config, which Keras 3 refuses: it is
        // written only when it is not 1.
        if (key == "groups" && value == 1 && layer->class_name().find("Transpose") != std::string::npos) {
          CHECK_FALSE(cfg.contains(key));
          continue;
        }
        CHECK(cfg.at(key) == value);
      }
      CHECK(Layer::deserialize(serialize_object(layer->class_name(), cfg))->get_config() == cfg);
    }
  }
}

TEST_CASE("conv and conv_transpose ops pass a finite-difference check in 1, 2 and 3 dimensions") {
  auto x1 = random_tensor({2, 6, 4}, -1, 1, 1), k1 = random_tensor({3, 2, 4}, -1, 1, 2), b4 = random_tensor({4}, -1, 1, 3);
  check_gradients([](const V& v) { return ops::conv(v[0], v[1], v[2], {1}, "causal", {2}, 2); }, {x1, k1, b4});
  check_gradients([](const V& v) { return ops::conv(v[0], v[1], v[2], {2}, "same", {}, 2, kernels::Eltwise::tanh); },
                  {x1, k1, b4});
  auto x3 = random_tensor({1, 4, 3, 4, 2}, -1, 1, 4), k3 = random_tensor({2, 2, 3, 2, 3}, -1, 1, 5);
  check_gradients([](const V& v) { return ops::conv(v[0], v[1], Tensor(), {2, 1, 1}, "same"); }, {x3, k3});
  auto kt = random_tensor({3, 2, 3, 2}, -1, 1, 6), b3 = random_tensor({3}, -1, 1, 7);
  auto x2 = random_tensor({2, 3, 4, 2}, -1, 1, 8);
  check_gradients([](const V& v) { return ops::conv_transpose(v[0], v[1], v[2], {2, 2}, "same"); }, {x2, kt, b3});
  check_gradients([](const V& v) { return ops::conv_transpose(v[0], v[1], v[2], {2, 3}, "valid", {1, 2}); },
                  {x2, kt, b3});
  auto kt3 = random_tensor({2, 2, 2, 2, 2}, -1, 1, 9);
  check_gradients([](const V& v) { return ops::conv_transpose(v[0], v[1], Tensor(), {1, 2, 1}, "same"); },
                  {x3, kt3});
}

TEST_CASE("a long Conv1D's kernel and bias gradients over a batch are the sums of its per-sample ones") {
  // 4,000 steps of 5 x 128 windows: on AVX2 the weight gradient runs as matrix products over blocks
  // of samples small enough to copy their windows (here one sample per block, accumulated).
  const std::int64_t n = 3, len = 4000, c = 128, oc = 8;
  const Tensor x = random_tensor({n, len, c}, -1, 1, 11), kernel = random_tensor({5, c, oc}, -1, 1, 12);
  const Tensor bias = random_tensor({oc}, -1, 1, 13), w = random_tensor({n, len, oc}, -1, 1, 14);
  auto grads = [&](const Tensor& xs, const Tensor& ws) {
    Tensor k = kernel.clone(), b = bias.clone();
    GradientTape tape;
    tape.watch(k);
    tape.watch(b);
    const Tensor y = ops::conv(xs, k, b, {1}, "same");
    return tape.gradient(ops::sum(ops::multiply(y, ws)), {k, b});
  };
  const V whole = grads(x, w);
  Tensor dk = Tensor::zeros(kernel.shape()), db = Tensor::zeros(bias.shape());
  for (std::int64_t i = 0; i < n; ++i) {
    const V one = grads(ops::slice(x, {i, 0, 0}, {1, len, c}), ops::slice(w, {i, 0, 0}, {1, len, oc}));
    dk = ops::add(dk, one[0]);
    db = ops::add(db, one[1]);
  }
  for (int g = 0; g < 2; ++g) {
    const auto got = whole[g].to_vector<float>(), want = (g == 0 ? dk : db).to_vector<float>();
    REQUIRE(got.size() == want.size());
    for (std::size_t i = 0; i < got.size(); ++i) {
      INFO((g == 0 ? "kernel" : "bias") << " gradient element " << i);
      CHECK(got[i] == Approx(want[i]).epsilon(1e-4).margin(1e-3));
    }
  }
}

TEST_CASE("convolution layers build Keras's weights, names and output shapes") {
  backend::clear_session();
  layers::Conv1D c1(4, 3, {.padding = "causal"});
  layers::Conv3D c3(2, {2, 2, 2}, {.strides = {2, 2, 2}, .padding = "same"});
  layers::Conv2D g(6, {3, 3}, {.groups = 3});
  layers::Conv2DTranspose t(5, {3, 3}, {.strides = {2, 2}, .padding = "same"});
  layers::Conv1DTranspose t1(2, 4, {.strides = 2, .output_padding = 1});
  layers::DepthwiseConv2D d({3, 3}, {.depth_multiplier = 2});
  layers::SeparableConv1D s(7, 3, {.depth_multiplier = 3, .use_bias = false});
  CHECK(c1.name() == "conv1d");
  CHECK(c3.name() == "conv3d");
  CHECK(t.name() == "conv2d_transpose");
  CHECK(t1.name() == "conv1d_transpose");
  CHECK(d.name() == "depthwise_conv2d");
  CHECK(s.name() == "separable_conv1d");
  CHECK(c1(Tensor::ones({2, 9, 3})).shape() == Shape{2, 9, 4});
  CHECK(c1.kernel()->shape() == Shape{3, 3, 4});
  CHECK(c3(Tensor::ones({1, 5, 4, 3, 2})).shape() == Shape{1, 3, 2, 2, 2});
  CHECK(c3.kernel()->shape() == Shape{2, 2, 2, 2, 2});
  CHECK(g(Tensor::ones({1, 5, 5, 9})).shape() == Shape{1, 3, 3, 6});
  CHECK(g.kernel()->shape() == Shape{3, 3, 3, 6});
  CHECK(t(Tensor::ones({1, 4, 3, 2})).shape() == Shape{1, 8, 6, 5});
  CHECK(t.kernel()->shape() == Shape{3, 3, 5, 2});
  CHECK(t1.compute_output_shape({-1, 5, 3}) == Shape{-1, 13, 2});  // (5 - 1) * 2 + 4 + 1
  CHECK(d(Tensor::ones({2, 6, 6, 3})).shape() == Shape{2, 4, 4, 6});
  REQUIRE(d.weights().size() == 2);
  CHECK(d.weights()[0]->name() == "depthwise_kernel");
  CHECK(d.weights()[0]->shape() == Shape{3, 3, 3, 2});
  CHECK(d.weights()[1]->shape() == Shape{6});
  CHECK(s(Tensor::ones({2, 8, 2})).shape() == Shape{2, 6, 7});
  REQUIRE(s.weights().size() == 2);
  CHECK(s.weights()[0]->name() == "depthwise_kernel");
  CHECK(s.weights()[0]->shape() == Shape{3, 2, 3});
  CHECK(s.weights()[1]->name() == "pointwise_kernel");
  CHECK(s.weights()[1]->shape() == Shape{1, 6, 7});
  CHECK(c1.compute_output_shape({-1, -1, 3}) == Shape{-1, -1, 4});

  json dc = d.get_config();
  CHECK(dc["depth_multiplier"] == 2);
  CHECK(!dc.contains("filters"));
  CHECK(dc["depthwise_initializer"]["class_name"] == "GlorotUniform");
  CHECK(t1.get_config()["output_padding"] == json::array({1}));
  CHECK(t.get_config()["output_padding"].is_null());
  CHECK(s.get_config()["pointwise_initializer"]["class_name"] == "GlorotUniform");
  // Keras may write single integers for the tuples.
  json k = c3.get_config();
  k["kernel_size"] = 3;
  k["strides"] = 1;
  CHECK(Layer::deserialize(serialize_object("Conv3D", k))->get_config()["kernel_size"] == json::array({3, 3, 3}));
}

TEST_CASE("convolution layers reject bad arguments and inputs with clear errors") {
  CHECK_THROWS_WITH(layers::Conv2D(2, {3, 3}, {.padding = "causal"}), Catch::Contains("padding"));
  CHECK_THROWS_WITH(layers::Conv1D(5, 3, {.groups = 2}), Catch::Contains("groups"));
  CHECK_THROWS_WITH(layers::Conv2DTranspose(2, {3, 3}, {.strides = {2, 2}, .output_padding = Size2{2, 1}}),
                    Catch::Contains("output padding"));
  CHECK_THROWS_AS(layers::SeparableConv2D(0, {3, 3}), ValueError);
  layers::Conv1D c(4, 3, {.groups = 2, .name = "probe"});
  CHECK_THROWS_WITH(c(Tensor::ones({2, 5, 3})), Catch::Contains("probe") && Catch::Contains("groups"));
  CHECK_THROWS_WITH(c(Tensor::ones({2, 5, 5, 4})), Catch::Contains("ndim=3"));
  layers::Conv3D c3(1, {2, 2, 2});
  CHECK_THROWS_WITH(c3(Tensor::ones({1, 1, 4, 4, 1})), Catch::Contains("larger than the input"));
}

TEST_CASE("a model of every convolution kind trains and survives an HDF5 round trip") {
  backend::clear_session();
  Sequential model({layers::Input({8, 8, 2}), layers::SeparableConv2D(4, {3, 3}, {.padding = "same", .activation = "relu"}),
                    layers::DepthwiseConv2D({3, 3}, {.depth_multiplier = 2}),
                    layers::Conv2DTranspose(4, {2, 2}, {.strides = {2, 2}, .activation = "relu"}),
                    layers::Conv2D(2, {3, 3}, {.strides = {2, 2}, .groups = 2}), layers::Flatten(), layers::Dense(2)});
  Tensor x = random_tensor({16, 8, 8, 2}, -1, 1, 51);
  Tensor y = Tensor::from_vector<int>(std::vector<int>(16, 1), {16});
  for (int i = 0; i < 8; ++i) y.data<int>()[i] = 0;
  for (int i = 0; i < 8; ++i) x.data<float>()[i * 128] += 2.f;
  model.compile({.optimizer = "adam", .loss = losses::SparseCategoricalCrossentropy({.from_logits = true})});
  auto history = model.fit(x, y, {.batch_size = 8, .epochs = 3, .verbose = 0});
  CHECK(history.history["loss"].back() < history.history["loss"].front());

  Sequential seq({layers::Input({9, 3}), layers::Conv1D(4, 3, {.padding = "causal"}),
                  layers::Conv1DTranspose(2, 3, {.strides = 2}), layers::SeparableConv1D(3, 2),
                  layers::DepthwiseConv1D(2), layers::GlobalAveragePooling1D()});
  Sequential vol({layers::Input({4, 4, 4, 1}), layers::Conv3D(2, {2, 2, 2}), layers::Conv3DTranspose(1, {2, 2, 2}),
                  layers::GlobalMaxPooling3D()});
  const std::vector<std::pair<Sequential*, Tensor>> cases{
      {&model, x}, {&seq, random_tensor({2, 9, 3}, -1, 1, 52)}, {&vol, random_tensor({2, 4, 4, 4, 1}, -1, 1, 53)}};
  for (const auto& [m, in] : cases) {
    const auto path = (std::filesystem::temp_directory_path() / "kerascpp_conv_nd_model.h5").string();
    m->save(path);
    auto loaded = models::load_model(path);
    CHECK(loaded->get_config() == m->get_config());
    CHECK(loaded->predict(in).to_vector<float>() == m->predict(in).to_vector<float>());
    std::filesystem::remove(path);
  }
}

TEST_CASE("depthwise and separable convolutions take Keras's depthwise/pointwise regularizers and constraints") {
  backend::clear_session();
  layers::DepthwiseConv2D depthwise({3, 3}, {.depthwise_regularizer = regularizers::L2(0.5),
                                             .bias_regularizer = "l1", .depthwise_constraint = "non_neg"});
  layers::SeparableConv1D separable(2, 3, {.bias_constraint = "max_norm", .pointwise_regularizer = regularizers::L2(0.25),
                                           .pointwise_constraint = "non_neg"});
  depthwise(Tensor::ones({1, 5, 5, 2}));
  separable(Tensor::ones({1, 6, 2}));
  // The penalties: 0.5 * sum(k²) of the depthwise kernel plus l1 of the zero bias; 0.25 * sum(p²).
  const auto dl = depthwise.losses();
  REQUIRE(dl.size() == 2);
  CHECK(dl[0].item() == Approx(0.5 * ops::sum(ops::square(depthwise.kernel()->value())).item()));
  CHECK(dl[1].item() == 0.f);
  const auto sl = separable.losses();
  REQUIRE(sl.size() == 1);
  CHECK(sl[0].item() ==
        Approx(0.25 * ops::sum(ops::square(separable.pointwise_kernel()->value())).item()));
  // The constraints are the weights' (applied by optimizers after each step).
  CHECK(depthwise.kernel()->constraint() != nullptr);
  CHECK(separable.pointwise_kernel()->constraint() != nullptr);
  CHECK(separable.depthwise_kernel()->constraint() == nullptr);
  // Configs carry them, and layers rebuilt from the configs write the same.
  for (Layer* l : std::vector<Layer*>{&depthwise, &separable}) {
    const json c = l->get_config();
    CHECK_FALSE(c.at(l == &depthwise ? "depthwise_regularizer" : "pointwise_regularizer").is_null());
    CHECK_FALSE(c.at(l == &depthwise ? "depthwise_constraint" : "pointwise_constraint").is_null());
    json again = Layer::deserialize(serialize_object(l->class_name(), c))->get_config();
    again["name"] = c["name"];
    CHECK(again == c);
  }
}
