#include <catch2/catch.hpp>

#include "golden.hpp"
#include "gradient_check.hpp"
#include "keras/json.hpp"
#include "keras/keras.hpp"
#include "keras/kernels/convolution.hpp"
#include "keras/kernels/cpu_dispatch.hpp"
#include "keras/kernels/winograd.hpp"

using namespace keras;
using keras::testing::check_close;
using keras::testing::check_gradients;
using keras::testing::random_tensor;
using V = std::vector<Tensor>;

namespace {
Tensor floats(const json& values, const Shape& shape) { return Tensor::from_vector(values.get<std::vector<float>>(), shape); }
Size2 pair(const json& j) { return {j[0].get<std::int64_t>(), j[1].get<std::int64_t>()}; }
}  // namespace

TEST_CASE("Conv2D forward and gradients match PyTorch (valid, same, strides, dilation)") {
  const json golden = keras::testing::load_golden("conv.json");
  for (const auto& c : golden["conv"]) {
    SECTION(c["name"].get<std::string>()) {
      const Shape xs = c["x_shape"].get<Shape>(), ks = c["kernel_shape"].get<Shape>(), ys = c["y_shape"].get<Shape>();
      const bool use_bias = !c["bias"].is_null();
      layers::Conv2D conv(ks[3], {ks[0], ks[1]},
                          {.strides = pair(c["strides"]), .padding = c["padding"], .dilation_rate = pair(c["dilation_rate"]),
                           .activation = c["activation"].get<std::string>(), .use_bias = use_bias});
      Tensor x = floats(c["x"], xs);
      CHECK(conv.compute_output_shape(xs) == ys);
      conv(x);  // builds
      std::vector<Tensor> weights{floats(c["kernel"], ks)};
      if (use_bias) weights.push_back(floats(c["bias"], {ks[3]}));
      conv.set_weights(weights);
      GradientTape tape;
      tape.watch(x);
      Tensor y = conv(x, true);
      check_close(y, ys, c["y"].get<std::vector<double>>());
      Tensor target = ops::sum(ops::multiply(y, floats(c["w"], ys)));
      std::vector<Tensor> sources{x, conv.kernel()->value()};
      if (use_bias) sources.push_back(conv.bias()->value());
      auto grads = tape.gradient(target, sources);
      check_close(grads[0], xs, c["dx"].get<std::vector<double>>());
      check_close(grads[1], ks, c["dkernel"].get<std::vector<double>>());
      if (use_bias) check_close(grads[2], {ks[3]}, c["dbias"].get<std::vector<double>>());
    }
  }
}

namespace {
// The largest |got - want| over the largest |want|.
double normwise_error(const std::vector<float>& got, const std::vector<double>& want) {
  REQUIRE(got.size() == want.size());
  double largest = 0, worst = 0;
  for (std::size_t i = 0; i < got.size(); ++i) {
    largest = std::max(largest, std::abs(want[i]));
    worst = std::max(worst, std::abs(got[i] - want[i]));
  }
  return worst / largest;
}

struct TwoThreads {  // enough 4 x 4 blocks of outputs for two threads' share in the tests below
  int before = utils::get_num_threads();
  TwoThreads() { utils::set_num_threads(2); }
  ~TwoThreads() { utils::set_num_threads(before); }
};

bool winograd_served() {
  const char* off = std::getenv("KERAS_WINOGRAD");
  return kernels::cpu_level() >= kernels::CpuLevel::avx2 && kernels::own_kernels() && !(off && off == std::string("0"));
}
}  // namespace

TEST_CASE("Our Winograd F(4x4, 3x3) kernels give PyTorch's convolution and gradients within their rounding") {
  // Called directly, whatever their rule (kernels::own_winograd_fits) says of these small shapes:
  // 5 x 5 and 3 x 3 outputs leave blocks that overhang the edge, which the transforms must drop.
  if (kernels::cpu_level() < kernels::CpuLevel::avx2) {
    WARN("our kernels need AVX2");
    return;
  }
  const json golden = keras::testing::load_golden("conv.json");
  int cases = 0;
  for (const auto& c : golden["conv"]) {
    if (c["name"].get<std::string>().rfind("winograd", 0) != 0) continue;
    ++cases;
    SECTION(c["name"].get<std::string>()) {
      const Shape xs = c["x_shape"].get<Shape>(), ks = c["kernel_shape"].get<Shape>(), ys = c["y_shape"].get<Shape>();
      kernels::ConvArgs a{.n = xs[0], .c = xs[3], .oc = ks[3], .in = {xs[1], xs[2], 1}, .k = {3, 3, 1},
                          .out = {ys[1], ys[2], 1}};
      if (c["padding"] == "same") a.pad_l = a.pad_r = {1, 1, 0};
      const bool relu = c["activation"] == "relu";
      const auto x = c["x"].get<std::vector<float>>(), kernel = c["kernel"].get<std::vector<float>>();
      const auto bias = c["bias"].is_null() ? std::vector<float>() : c["bias"].get<std::vector<float>>();
      const auto want_y = c["y"].get<std::vector<double>>();
      const auto w = c["w"].get<std::vector<float>>();
      std::vector<float> y(want_y.size()), dx(x.size()), dk(kernel.size()), db(static_cast<std::size_t>(a.oc));
      kernels::winograd_forward(x.data(), kernel.data(), bias.empty() ? nullptr : bias.data(), y.data(), a, relu);
      // dz = d sum(y * w) / d (the convolution before its activation)
      std::vector<float> dz(w);
      for (std::size_t i = 0; i < dz.size(); ++i)
        if (relu && want_y[i] <= 0) dz[i] = 0;
      kernels::winograd_backward_data(dz.data(), kernel.data(), dx.data(), a);
      kernels::winograd_backward_weights(x.data(), dz.data(), dk.data(), db.data(), a);
      // measured: 1-4e-6 (the direct kernels: 1e-9 on these inputs)
      CHECK(normwise_error(y, want_y) <= 2e-5);
      CHECK(normwise_error(dx, c["dx"].get<std::vector<double>>()) <= 2e-5);
      CHECK(normwise_error(dk, c["dkernel"].get<std::vector<double>>()) <= 2e-5);
      if (!bias.empty()) CHECK(normwise_error(db, c["dbias"].get<std::vector<double>>()) <= 1e-6);

      // Inference one image at a time: at most 4 blocks each, so F(2 x 2, 3 x 3) on AVX-512.
      kernels::ConvArgs image = a;
      image.n = 1;
      CHECK(kernels::winograd_f2_fits(image) == (kernels::cpu_level() == kernels::CpuLevel::avx512));
      const std::int64_t in_floats = xs[1] * xs[2] * xs[3], out_floats = ys[1] * ys[2] * ys[3];
      std::vector<float> inferred(want_y.size());
      for (std::int64_t n = 0; n < a.n; ++n)
        kernels::winograd_inference(x.data() + n * in_floats, kernel.data(), 0, bias.empty() ? nullptr : bias.data(),
                                    nullptr, inferred.data() + n * out_floats, image, relu);
      CHECK(normwise_error(inferred, want_y) <= 2e-5);
    }
  }
  CHECK(cases == 3);
}

TEST_CASE("Conv2D trains on our Winograd kernels, within their rounding of oneDNN's direct ones") {
  // ResNet-20's middle stage, batch 16 (enough 4 x 4 blocks for two threads). The direct kernels (oneDNN's,
  // with our own kernels off) are the reference here; the goldens above tie both to PyTorch.
  TwoThreads two;
  const kernels::ConvArgs a{.n = 16, .c = 32, .oc = 32, .in = {16, 16, 1}, .k = {3, 3, 1}, .out = {16, 16, 1},
                            .pad_l = {1, 1, 0}, .pad_r = {1, 1, 0}};
  CHECK(kernels::own_winograd_fits(a) == (kernels::cpu_level() >= kernels::CpuLevel::avx2 && kernels::own_kernels()));
  if (!winograd_served()) {
    WARN("our Winograd kernels need AVX2, our own kernels allowed and KERAS_WINOGRAD unset");
    return;
  }
  CHECK(kernels::winograd_fits(a));
  kernels::ConvArgs small = a;  // too few blocks to share: direct
  small.n = 2;
  CHECK_FALSE(kernels::winograd_fits(small));
  kernels::ConvArgs few_channels = a;
  few_channels.c = 8;
  CHECK_FALSE(kernels::winograd_fits(few_channels));

  const Tensor x = random_tensor({16, 16, 16, 32}, -1, 1, 31), w = random_tensor({16, 16, 16, 32}, -1, 1, 32);
  auto train = [&](bool own) {
    kernels::set_own_kernels(own);
    backend::clear_session();
    layers::Conv2D conv(32, {3, 3}, {.padding = "same", .activation = "relu"});
    conv(x);
    conv.set_weights({random_tensor({3, 3, 32, 32}, -0.2f, 0.2f, 33), random_tensor({32}, -0.1f, 0.1f, 34)});
    GradientTape tape;
    tape.watch(x);
    Tensor y = conv(x, true);
    auto grads = tape.gradient(ops::sum(ops::multiply(y, w)), std::vector<Tensor>{x, conv.kernel()->value(), conv.bias()->value()});
    kernels::set_own_kernels(true);
    return std::vector<Tensor>{y, grads[0], grads[1], grads[2]};
  };
  const auto winograd = train(true), direct = train(false);
  for (std::size_t i = 0; i < winograd.size(); ++i) {
    INFO("0: y, 1: dx, 2: dkernel, 3: dbias; here " << i);
    const auto want = direct[i].to_vector<float>();
    CHECK(normwise_error(winograd[i].to_vector<float>(), std::vector<double>(want.begin(), want.end())) <= 2e-5);
  }
}

TEST_CASE("predict runs Conv2D + BatchNormalization + Add + relu on our Winograd kernels, its kernel's transform kept until the kernel changes") {
  // One 8 x 8 image: 4 blocks of outputs, two for each thread, which only inference's rule takes (its kernel
  // transform is kept between calls; F(2 x 2, 3 x 3) on AVX-512). The direct kernels (oneDNN's, our own
  // kernels off) are the reference.
  TwoThreads two;
  const kernels::ConvArgs one{.n = 1, .c = 32, .oc = 32, .in = {8, 8, 1}, .k = {3, 3, 1}, .out = {8, 8, 1},
                              .pad_l = {1, 1, 0}, .pad_r = {1, 1, 0}};
  if (!winograd_served()) {
    WARN("our Winograd kernels need AVX2, our own kernels allowed and KERAS_WINOGRAD unset");
    return;
  }
  CHECK(kernels::winograd_fits(one, true));
  CHECK_FALSE(kernels::winograd_fits(one));  // training's rule: too few blocks
  CHECK(kernels::winograd_f2_fits(one) == (kernels::cpu_level() == kernels::CpuLevel::avx512));
  kernels::ConvArgs one_block = one;  // 4 x 4 outputs: one block, for two threads
  one_block.in = one_block.out = {4, 4, 1};
  CHECK_FALSE(kernels::winograd_fits(one_block, true));
  kernels::ConvArgs wide = one;  // 512 channels: a 38 MB transform streamed for 4 blocks
  wide.c = wide.oc = 512;
  CHECK_FALSE(kernels::winograd_fits(wide, true));

  namespace L = layers;
  auto in = Input({8, 8, 32});
  auto y = L::BatchNormalization()(L::Conv2D(32, {3, 3}, {.padding = "same", .use_bias = false})(in));
  Model model(in, L::Activation("relu")(L::add({y, in})));
  auto layer = [&](const std::string& class_name) {
    for (const auto& l : model.layers())
      if (l->class_name() == class_name) return l;
    throw std::runtime_error("no " + class_name);
  };
  const auto conv = layer("Conv2D");
  layer("BatchNormalization")->set_weights({random_tensor({32}, 0.5f, 1.5f, 41), random_tensor({32}, -0.2f, 0.2f, 42),
                     random_tensor({32}, -0.1f, 0.1f, 43), random_tensor({32}, 0.5f, 2.0f, 44)});
  const Tensor x = random_tensor({1, 8, 8, 32}, -1, 1, 45);
  auto compare = [&] {
    const auto winograd = model.predict(x).to_vector<float>();
    kernels::set_own_kernels(false);
    const auto direct = model.predict(x).to_vector<float>();
    kernels::set_own_kernels(true);
    CHECK(normwise_error(winograd, std::vector<double>(direct.begin(), direct.end())) <= 2e-5);
    return winograd;
  };
  conv->set_weights({random_tensor({3, 3, 32, 32}, -0.2f, 0.2f, 46)});
  const auto before = compare();
  conv->set_weights({random_tensor({3, 3, 32, 32}, -0.2f, 0.2f, 47)});  // a new version: transformed again
  const auto after = compare();
  CHECK(before != after);
}

TEST_CASE("conv2d op gradients pass a finite-difference check") {
  auto x = random_tensor({2, 5, 4, 3}, -1, 1, 21), k = random_tensor({3, 2, 3, 2}, -1, 1, 22),
       b = random_tensor({2}, -1, 1, 23);
  check_gradients([](const V& v) { return ops::conv2d(v[0], v[1], v[2]); }, {x, k, b});
  check_gradients([](const V& v) { return ops::conv2d(v[0], v[1], v[2], {2, 2}, "same"); }, {x, k, b});
  check_gradients([](const V& v) { return ops::conv2d(v[0], v[1], Tensor(), {1, 1}, "same", {2, 2}); }, {x, k});
  check_gradients([](const V& v) { return ops::conv2d(v[0], v[1], v[2], {1, 2}, "valid", {1, 1}, kernels::Eltwise::tanh); },
                  {x, k, b});
  check_gradients([](const V& v) { return ops::conv2d(v[0], v[1], v[2], {1, 1}, "same", {1, 1}, kernels::Eltwise::logistic); },
                  {x, k, b});
}

TEST_CASE("Conv2D builds Keras's weights, output shapes, names and config") {
  backend::clear_session();
  layers::Conv2D a(4, {3, 3}), b(8, {5, 3}, {.strides = {2, 2}, .padding = "same", .activation = "relu", .use_bias = false});
  CHECK(a.name() == "conv2d");
  CHECK(b.name() == "conv2d_1");
  CHECK(a(Tensor::ones({2, 7, 6, 3})).shape() == Shape{2, 5, 4, 4});
  REQUIRE(a.weights().size() == 2);
  CHECK(a.weights()[0]->name() == "kernel");
  CHECK(a.weights()[0]->shape() == Shape{3, 3, 3, 4});
  CHECK(a.weights()[1]->shape() == Shape{4});
  CHECK(a.count_params() == 3 * 3 * 3 * 4 + 4);
  CHECK(b(Tensor::ones({1, 7, 6, 2})).shape() == Shape{1, 4, 3, 8});
  CHECK(b.weights().size() == 1);
  CHECK(b.compute_output_shape({-1, 28, 28, 2}) == Shape{-1, 14, 14, 8});
  CHECK(layers::Conv2D(2, {3, 3}, {.dilation_rate = {2, 2}}).compute_output_shape({-1, 9, 8, 1}) == Shape{-1, 5, 4, 2});
  CHECK(layers::Conv2D(2, {3, 3}).compute_output_shape({-1, -1, 8, 1}) == Shape{-1, -1, 6, 2});

  json c = b.get_config();
  CHECK(c["filters"] == 8);
  CHECK(c["kernel_size"] == json::array({5, 3}));
  CHECK(c["strides"] == json::array({2, 2}));
  CHECK(c["padding"] == "same");
  CHECK(c["data_format"] == "channels_last");
  CHECK(c["dilation_rate"] == json::array({1, 1}));
  CHECK(c["groups"] == 1);
  CHECK(c["activation"] == "relu");
  CHECK(c["use_bias"] == false);
  CHECK(c["kernel_initializer"]["class_name"] == "GlorotUniform");
  CHECK(c["bias_initializer"]["class_name"] == "Zeros");
  CHECK(c["kernel_regularizer"].is_null());
  CHECK(c["bias_constraint"].is_null());
  auto again = Layer::deserialize(serialize_object("Conv2D", c));
  CHECK(again->class_name() == "Conv2D");
  CHECK(again->get_config() == c);

  // Keras may write single integers for the pairs.
  json k = a.get_config();
  k["kernel_size"] = 3;
  k["strides"] = 1;
  auto from_ints = Layer::deserialize(serialize_object("Conv2D", k));
  CHECK(from_ints->get_config()["kernel_size"] == json::array({3, 3}));
}

TEST_CASE("Conv2D with a non-fusable activation applies it after the convolution") {
  layers::Conv2D conv(2, {2, 2}, {.activation = "softplus"});
  Tensor x = random_tensor({1, 3, 3, 2}, -1, 1, 31);
  Tensor y = conv(x);
  Tensor want = ops::softplus(ops::conv2d(x, conv.kernel()->value(), conv.bias()->value()));
  auto a = y.to_vector<float>(), b = want.to_vector<float>();
  REQUIRE(a.size() == b.size());
  for (std::size_t i = 0; i < a.size(); ++i) CHECK(a[i] == Approx(b[i]).epsilon(1e-6));
}

TEST_CASE("Conv2D trains inside a Sequential model") {
  Sequential model({layers::Input({6, 6, 1}), layers::Conv2D(2, {3, 3}, {.activation = "relu"}), layers::Flatten(),
                    layers::Dense(1)});
  CHECK(model.compute_output_shape({-1, 6, 6, 1}) == Shape{-1, 1});
  Tensor x = random_tensor({4, 6, 6, 1}, -1, 1, 41);
  CHECK(model(x).shape() == Shape{4, 1});
}

TEST_CASE("Conv2D rejects bad arguments and inputs with clear errors") {
  CHECK_THROWS_AS(layers::Conv2D(0, {3, 3}), ValueError);
  CHECK_THROWS_AS(layers::Conv2D(2, {0, 3}), ValueError);
  CHECK_THROWS_WITH(layers::Conv2D(2, {3, 3}, {.padding = "full"}), Catch::Contains("padding"));
  CHECK_THROWS_WITH(layers::Conv2D(2, {3, 3}, {.strides = {2, 2}, .dilation_rate = {2, 2}}),
                    Catch::Contains("dilation_rate"));
  layers::Conv2D d(4, {3, 3}, {.name = "probe"});
  CHECK_THROWS_WITH(d(Tensor::ones({2, 5, 5})), Catch::Contains("probe") && Catch::Contains("ndim=4") &&
                                                    Catch::Contains(", 5, 5)"));
  d(Tensor::ones({2, 5, 5, 3}));
  CHECK_THROWS_WITH(d(Tensor::ones({2, 5, 5, 2})), Catch::Contains("probe") && Catch::Contains("(2, 5, 5, 2)") &&
                                                       Catch::Contains("3"));
  CHECK_THROWS_WITH(d(Tensor::ones({2, 2, 5, 3})), Catch::Contains("larger than the input"));
  CHECK_THROWS_AS(d.compute_output_shape({-1, 2, 5, 3}), ValueError);
  CHECK_THROWS_AS(ops::conv2d(Tensor::ones({1, 4, 4, 2}), Tensor::ones({3, 3, 3, 1})), ValueError);
}
