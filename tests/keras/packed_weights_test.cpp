// Packed weights (keras/kernels/packed_weights.hpp): Dense outside a tape, and Conv1D/Conv2D always, multiply
// by a packed copy of their kernel kept between calls, under the kernel's version stamp (Tensor::version).
// Dense products are checked against a plain double-precision loop, convolutions against oneDNN's, and every
// way weights change must reach predict.
#include <cmath>

#include <catch2/catch.hpp>

#include "keras/kernels/cpu_dispatch.hpp"
#include "keras/kernels/packed_weights.hpp"
#include "keras/keras.hpp"

using namespace keras;

namespace {

// act(x w + b) in double, x [m, k], w [k, n].
std::vector<float> reference(const Tensor& x, const Tensor& w, const Tensor& b, const std::string& act) {
  const auto m = x.dim(0), k = x.dim(1), n = w.dim(1);
  const float *xp = x.data<float>(), *wp = w.data<float>(), *bp = b.data<float>();
  std::vector<float> y(static_cast<std::size_t>(m * n));
  for (std::int64_t i = 0; i < m; ++i)
    for (std::int64_t j = 0; j < n; ++j) {
      double s = bp[j];
      for (std::int64_t p = 0; p < k; ++p) s += double(xp[i * k + p]) * wp[p * n + j];
      if (act == "relu") s = std::max(s, 0.0);
      if (act == "sigmoid") s = 1 / (1 + std::exp(-s));
      y[static_cast<std::size_t>(i * n + j)] = static_cast<float>(s);
    }
  return y;
}

void check_close(const std::vector<float>& got, const std::vector<float>& want) {
  REQUIRE(got.size() == want.size());
  for (std::size_t i = 0; i < got.size(); ++i) REQUIRE(got[i] == Approx(want[i]).epsilon(1e-4).margin(1e-4));
}

// predict of a one-Dense model against the reference, with its current weights.
void check_dense_model(Model& model, const Tensor& x, const std::string& act) {
  const auto layer = model.layers().back();
  check_close(model.predict(x, {.batch_size = x.dim(0)}).to_vector<float>(),
              reference(x, layer->weights()[0]->value(), layer->weights()[1]->value(), act));
}

Sequential dense_model(std::int64_t k, std::int64_t n, const std::string& act, std::uint64_t seed) {
  Sequential model({layers::Input({k}), layers::Dense(n, {.activation = act})});
  model.layers().back()->weights()[1]->assign(random::normal({n}, 0, 1, DType::float32, seed));
  return model;
}

bool packs_here() { return kernels::own_kernels() && kernels::cpu_level() >= kernels::CpuLevel::avx2; }

}  // namespace

TEST_CASE("Dense inference with packed weights matches a plain loop over edge shapes and activations", "[packed]") {
  // Rows past a 6-row tile and a 72-row chunk, depths past a 256-step pass, columns past a 16-column panel.
  for (std::int64_t m : {1, 5, 7, 80, 150})
    for (std::int64_t k : {3, 300})
      for (std::int64_t n : {1, 17, 40})
        for (const std::string act : {"linear", "relu", "sigmoid"}) {
          INFO("m " << m << " k " << k << " n " << n << " " << act);
          Sequential model = dense_model(k, n, act, static_cast<std::uint64_t>(m * 1000 + k + n));
          const Tensor x = random::normal({m, k}, 0, 1, DType::float32, static_cast<std::uint64_t>(m + k));
          check_dense_model(model, x, act);
          check_dense_model(model, x, act);  // the second call reuses the pack
        }
  if (packs_here()) CHECK(kernels::packed_weights_cache_bytes() > 0);
}

TEST_CASE("predict sees every change of the weights its packed copy was made from", "[packed]") {
  Sequential model = dense_model(20, 24, "relu", 3);
  const Tensor x = random::normal({9, 20}, 0, 1, DType::float32, 4);
  auto kernel = model.layers().back()->weights()[0];
  check_dense_model(model, x, "relu");

  SECTION("Variable::assign and set_weights") {
    kernel->assign(random::normal({20, 24}, 0, 1, DType::float32, 5));
    check_dense_model(model, x, "relu");
    auto weights = model.get_weights();
    weights[0] = random::normal({20, 24}, 0, 1, DType::float32, 6);
    model.set_weights(weights);
    check_dense_model(model, x, "relu");
  }
  SECTION("an optimizer's update and fit") {
    optimizers::SGD sgd({.learning_rate = 0.5});
    sgd.apply_gradients({Tensor::ones({20, 24})}, {kernel});
    check_dense_model(model, x, "relu");
    model.compile({.optimizer = "adam", .loss = "mse"});
    const Tensor before = kernel->numpy();
    model.fit(x, Tensor::ones({9, 24}), {.epochs = 1, .verbose = 0});
    REQUIRE(kernel->value().to_vector<float>() != before.to_vector<float>());
    check_dense_model(model, x, "relu");
  }
  SECTION("a write through data<float>() followed by mark_modified") {
    kernel->value().data<float>()[0] = 100.0f;
    kernel->value().mark_modified();
    check_dense_model(model, x, "relu");
  }
}

TEST_CASE("a new model whose kernel reuses a freed kernel's memory is not served the old pack", "[packed]") {
  const Tensor x = random::normal({8, 32}, 0, 1, DType::float32, 7);
  for (std::uint64_t seed = 1; seed <= 4; ++seed) {  // the pool hands the same buffers out again
    Sequential model = dense_model(32, 32, "linear", seed);
    model.layers().back()->weights()[0]->assign(random::normal({32, 32}, 0, 1, DType::float32, seed + 10));
    check_dense_model(model, x, "linear");
  }
}

TEST_CASE("version stamps are unique, shared by views and renewed by writes", "[packed]") {
  Tensor a = Tensor::zeros({4, 3}), b = Tensor::zeros({4, 3});
  CHECK(a.version() != b.version());
  const auto v = a.version();
  CHECK(a.slice(1, 2).version() == v);
  CHECK(a.reshape({12}).version() == v);
  a.assign(b);
  CHECK(a.version() != v);
  CHECK(a.version() != b.version());
  const auto w = a.version();
  a.slice(0, 1).mark_modified();
  CHECK(a.version() != w);
  CHECK(!a.is_variable());
  Variable var("w", a);
  CHECK(var.value().is_variable());
}

namespace {

kernels::Eltwise eltwise_of(const std::string& activation) {
  if (activation == "relu") return kernels::Eltwise::relu;
  if (activation == "tanh") return kernels::Eltwise::tanh;
  if (activation == "sigmoid") return kernels::Eltwise::logistic;
  REQUIRE(activation == "linear");
  return kernels::Eltwise::linear;
}

// One Conv1D/Conv2D layer on oneDNN's convolution: ops::conv on copies of the layer's weights, which are
// not a variable's, so nothing packs them.
Tensor reference_conv(const Layer& layer, const Tensor& x) {
  const json c = layer.get_config();
  REQUIRE((layer.class_name() == "Conv1D" || layer.class_name() == "Conv2D"));
  return ops::conv(x, layer.weights()[0]->value().clone(), layer.weights()[1]->value().clone(),
                   c["strides"].get<std::vector<std::int64_t>>(), c["padding"].get<std::string>(), {}, 1,
                   eltwise_of(c["activation"].get<std::string>()));
}

// The output of a Sequential model of convolutions, layer by layer on oneDNN's convolution.
Tensor conv_reference_run(Model& model, const Tensor& x) {
  Tensor y = x;
  for (const auto& layer : model.layers()) y = reference_conv(*layer, y);
  return y;
}

// The model's output as training computes Dense and LSTM layers (oneDNN's kernels): under a recording tape.
Tensor training_run(Model& model, const Tensor& x) {
  GradientTape tape;
  return model(x, false);
}

void check_predict(Model& model, const Tensor& x, const Tensor& want) {
  check_close(model.predict(x, {.batch_size = x.dim(0)}).to_vector<float>(), want.to_vector<float>());
}

}  // namespace

TEST_CASE("Conv2D with a packed kernel matches oneDNN's convolution", "[packed]") {
  std::uint64_t seed = 20;
  for (const std::int64_t c : {1, 3, 16, 32})  // windows of 32 floats and more pack (3 x 16, 5 x 16, 3 x 32, ...)
    for (const std::int64_t filters : {1, 17, 32})
      for (const std::int64_t k : {1, 3, 5})
        for (const std::int64_t stride : {1, 2})
          for (const std::string padding : {"valid", "same"})
            for (const std::string act : {"linear", "relu", "tanh"}) {
              INFO("c " << c << " filters " << filters << " k " << k << " stride " << stride << " " << padding << " "
                        << act);
              // Widths 13 and 9: rows of tiles of 6, 4 + 3 and single columns at the end.
              Sequential model({layers::Input({11, 13, c}),
                                layers::Conv2D(filters, {k, k}, {.strides = {stride, stride}, .padding = padding,
                                                                 .activation = act})});
              model.layers().back()->weights()[1]->assign(random::normal({filters}, 0, 1, DType::float32, ++seed));
              const Tensor x = random::normal({2, 11, 13, c}, 0, 1, DType::float32, ++seed);
              check_predict(model, x, conv_reference_run(model, x));
            }
}

TEST_CASE("Conv2D with a packed kernel over a batch the threads share matches oneDNN's, predicting and training",
          "[packed]") {
  // Each thread copies the padded images of its own work items: 9 images of 3 runs of positions each, split
  // between the threads inside an image, through a stride-2 layer and a layer whose input needs no copy
  // (every layer packs: windows of 3 x 16 floats or more).
  Sequential model({layers::Input({17, 17, 16}), layers::Conv2D(24, {3, 3}, {.padding = "same", .activation = "relu"}),
                    layers::Conv2D(16, {3, 3}, {.strides = {2, 2}, .padding = "same"}),
                    layers::Conv2D(20, {3, 3})});
  for (std::uint64_t seed : {1, 2, 3}) {
    const Tensor x = random::normal({9, 17, 17, 16}, 0, 1, DType::float32, seed);
    const Tensor want = conv_reference_run(model, x);
    check_predict(model, x, want);
    GradientTape tape;  // training's forward convolutions multiply by the packed kernels too
    check_close(model(x, true).to_vector<float>(), want.to_vector<float>());
  }
}

TEST_CASE("Conv1D with a packed kernel matches oneDNN's convolution", "[packed]") {
  for (const std::string padding : {"valid", "same", "causal"})
    for (const std::int64_t stride : {1, 2}) {
      if (padding == "causal" && stride > 1) continue;
      INFO(padding << " stride " << stride);
      Sequential model({layers::Input({40, 7}), layers::Conv1D(20, 4, {.strides = stride, .padding = padding}),
                        layers::Conv1D(9, 3, {.padding = padding, .activation = "sigmoid"})});
      const Tensor x = random::normal({3, 40, 7}, 0, 1, DType::float32, 5);
      check_predict(model, x, conv_reference_run(model, x));
    }
}

TEST_CASE("a fused Conv + BatchNormalization + Add + ReLU chain with a packed kernel matches the layers", "[packed]") {
  const KerasTensor in = layers::Input({9, 9, 16});
  const KerasTensor a = layers::Conv2D(16, {3, 3}, {.padding = "same"})(in);
  const KerasTensor b = layers::BatchNormalization()(a);
  const KerasTensor sum = layers::Add()({b, in});
  Model model(in, layers::ReLU()(sum));
  std::uint64_t seed = 40;
  for (const auto& w : model.weights()) {
    const bool positive = w->name().find("variance") != std::string::npos || w->name().find("gamma") != std::string::npos;
    w->assign(positive ? random::uniform(w->shape(), 0.5, 2.0, DType::float32, ++seed)
                       : random::normal(w->shape(), 0.0, 0.5, DType::float32, ++seed));
  }
  const Tensor x = random::normal({2, 9, 9, 16}, 0, 1, DType::float32, 3);
  // The layers one by one, on oneDNN's convolution and copies of the weights.
  auto reference = [&](const Tensor& input) {
    const auto& bn = model.layers()[2]->weights();  // gamma, beta, moving mean, moving variance
    const Tensor normalized = ops::batch_norm_inference(reference_conv(*model.layers()[1], input),
                                                        bn[2]->value().clone(), bn[3]->value().clone(),
                                                        bn[0]->value().clone(), bn[1]->value().clone(), -1, 1e-3f);
    return ops::relu(ops::add(normalized, input)).to_vector<float>();
  };
  check_close(model.predict(x).to_vector<float>(), reference(x));
  auto kernel = model.layers()[1]->weights()[0];  // a new kernel reaches the next predict
  kernel->assign(random::normal(kernel->shape(), 0, 0.3, DType::float32, 4));
  check_close(model.predict(x).to_vector<float>(), reference(x));
  // So do new statistics, at two batch sizes (where oneDNN runs the convolution, the kernel with the
  // statistics folded in is kept while both stay the same: the second predict reuses it).
  auto variance = model.layers()[2]->weights()[3];
  std::uint64_t variance_seed = 5;
  for (const std::int64_t n : {2, 8}) {
    const Tensor input = random::normal({n, 9, 9, 16}, 0, 1, DType::float32, 6 + static_cast<std::uint64_t>(n));
    variance->assign(random::uniform(variance->shape(), 0.5, 2.0, DType::float32, ++variance_seed));
    check_close(model.predict(input).to_vector<float>(), reference(input));
    check_close(model.predict(input).to_vector<float>(), reference(input));
  }
}

TEST_CASE("weights over 64 MiB are multiplied as they are, not packed", "[packed]") {
  const auto before = kernels::packed_weights_cache_bytes();
  Sequential model = dense_model(4100, 4100, "linear", 9);  // 16.8 M floats, just over the largest pack
  const Tensor x = random::normal({2, 4100}, 0, 1, DType::float32, 10);
  const auto got = model.predict(x).to_vector<float>();
  CHECK(kernels::packed_weights_cache_bytes() == before);
  check_close(got, training_run(model, x).to_vector<float>());
}

TEST_CASE("LSTM inference on packed weights matches training's oneDNN RNN", "[packed]") {
  for (const std::int64_t batch : {1, 5})
    for (const std::int64_t steps : {1, 13})
      for (const bool backwards : {false, true}) {
        INFO("batch " << batch << " steps " << steps << " go_backwards " << backwards);
        // 24 units: 16 at a time on AVX-512 and the last 8 as AVX2 runs them; 8: those alone.
        Sequential model({layers::Input({steps, 6}), layers::LSTM(24, {.return_sequences = true, .go_backwards = backwards}),
                          layers::LSTM(8)});
        std::uint64_t seed = 60;
        for (const auto& w : model.weights()) w->assign(random::normal(w->shape(), 0, 0.6, DType::float32, ++seed));
        const Tensor x = random::normal({batch, steps, 6}, 0, 2, DType::float32, ++seed);
        check_predict(model, x, training_run(model, x));
      }
  // Enough sequences for the threads to share them (17: an uneven split).
  Sequential wide({layers::Input({5, 10}), layers::LSTM(64, {.return_sequences = true})});
  for (const auto& w : wide.weights()) w->assign(random::normal(w->shape(), 0, 0.3, DType::float32, 77));
  const Tensor x17 = random::normal({17, 5, 10}, 0, 1, DType::float32, 78);
  check_predict(wide, x17, training_run(wide, x17));
  // A projection of over 2 MiB for all steps (17 x 130 x 256 floats): each step projected in the loop.
  Sequential per_step({layers::Input({130, 10}), layers::LSTM(64, {.return_sequences = true, .go_backwards = true})});
  for (const auto& w : per_step.weights()) w->assign(random::normal(w->shape(), 0, 0.3, DType::float32, 79));
  const Tensor x130 = random::normal({17, 130, 10}, 0, 1, DType::float32, 80);
  check_predict(per_step, x130, training_run(per_step, x130));
}

TEST_CASE("LSTM inference over fewer sequences than threads splits the units and matches oneDNN's RNN", "[packed]") {
  // 112 units: 7 blocks of 16, an uneven split over 2 threads (and 3: more threads than cores).
  const int threads_before = utils::get_num_threads();
  for (const int threads : {2, 3})
    for (const std::int64_t batch : {1, 2})
      for (const bool backwards : {false, true}) {
        INFO("threads " << threads << " batch " << batch << " go_backwards " << backwards);
        utils::set_num_threads(threads);
        Sequential model({layers::Input({9, 6}), layers::LSTM(112, {.return_sequences = true, .go_backwards = backwards}),
                          layers::LSTM(112)});
        std::uint64_t seed = 110;
        for (const auto& w : model.weights()) w->assign(random::normal(w->shape(), 0, 0.3, DType::float32, ++seed));
        const Tensor x = random::normal({batch, 9, 6}, 0, 2, DType::float32, ++seed);
        check_predict(model, x, training_run(model, x));
      }
  utils::set_num_threads(threads_before);
}

namespace {

// A valid, stride-1 Conv2D of x [n, h, w, c] with kernel [kh, kw, c, oc] and bias, then act, in double.
std::vector<float> reference_conv2d(const Tensor& x, const Tensor& kernel, const Tensor& bias, const std::string& act) {
  const auto n = x.dim(0), h = x.dim(1), w = x.dim(2), c = x.dim(3);
  const auto kh = kernel.dim(0), kw = kernel.dim(1), oc = kernel.dim(3), oh = h - kh + 1, ow = w - kw + 1;
  const float *xp = x.data<float>(), *kp = kernel.data<float>(), *bp = bias.data<float>();
  std::vector<float> y;
  for (std::int64_t b = 0; b < n; ++b)
    for (std::int64_t i = 0; i < oh; ++i)
      for (std::int64_t j = 0; j < ow; ++j)
        for (std::int64_t o = 0; o < oc; ++o) {
          double s = bp[o];
          for (std::int64_t p = 0; p < kh; ++p)
            for (std::int64_t q = 0; q < kw; ++q)
              for (std::int64_t ch = 0; ch < c; ++ch)
                s += double(xp[((b * h + i + p) * w + j + q) * c + ch]) * kp[((p * kw + q) * c + ch) * oc + o];
          y.push_back(static_cast<float>(act == "relu" ? std::max(s, 0.0) : s));
        }
  return y;
}

}  // namespace

TEST_CASE("predict sees every change of a convolution kernel oneDNN keeps reordered", "[packed]") {
  // 3 x 3 over one channel: windows of 3 floats, which packed_conv never takes, so oneDNN's inference
  // primitive runs with the kernel in its own layout, reordered once per version.
  for (const std::string act : {"relu", "linear"}) {
    INFO(act);
    Sequential model({layers::Input({10, 12, 1}), layers::Conv2D(32, {3, 3}, {.activation = act})});
    auto kernel = model.layers().back()->weights()[0];
    auto bias = model.layers().back()->weights()[1];
    bias->assign(random::normal({32}, 0, 1, DType::float32, 90));
    const Tensor x = random::normal({3, 10, 12, 1}, 0, 1, DType::float32, 91);
    auto check = [&] {
      check_close(model.predict(x, {.batch_size = 3}).to_vector<float>(),
                  reference_conv2d(x, kernel->value(), bias->value(), act));
    };
    check();
    check();  // the kept copy
    kernel->assign(random::normal(kernel->shape(), 0, 1, DType::float32, 92));
    check();
    kernel->value().data<float>()[5] = 50.0f;
    kernel->value().mark_modified();
    check();
    model.compile({.optimizer = "sgd", .loss = "mse"});
    const Tensor before = kernel->numpy();
    model.fit(x, Tensor::ones({3, 8, 10, 32}), {.epochs = 1, .verbose = 0});
    REQUIRE(kernel->value().to_vector<float>() != before.to_vector<float>());
    check();
  }
  // Models of the same shape, one after the other: the pool hands the same kernel buffers out again.
  const Tensor x = random::normal({2, 10, 12, 1}, 0, 1, DType::float32, 93);
  for (std::uint64_t seed = 1; seed <= 4; ++seed) {
    Sequential model({layers::Input({10, 12, 1}), layers::Conv2D(32, {3, 3})});
    const auto& w = model.layers().back()->weights();
    w[0]->assign(random::normal(w[0]->shape(), 0, 1, DType::float32, seed + 94));
    check_close(model.predict(x).to_vector<float>(), reference_conv2d(x, w[0]->value(), w[1]->value(), "linear"));
  }
}
