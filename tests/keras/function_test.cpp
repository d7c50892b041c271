// keras::function (compiled functions) and the compiled train step: bit-identical to eager execution on
// one thread, retracing per signature, eager fallback where a trace cannot capture the function.
#include <cstring>
#include <functional>
#include <iostream>
#include <sstream>

#include <catch2/catch.hpp>

#include "keras/function/function.hpp"
#include "keras/keras.hpp"

using namespace keras;

namespace {

bool same_bits(const Tensor& a, const Tensor& b) {
  return a.defined() && b.defined() && a.shape() == b.shape() && a.dtype() == b.dtype() &&
         std::memcmp(a.raw_data(), b.raw_data(), a.nbytes()) == 0;
}

Tensor filled(const Shape& shape, unsigned seed, float scale = 1.f) {
  std::mt19937 gen(seed);
  std::normal_distribution<float> d(0.f, scale);
  Tensor t = Tensor::empty(shape);
  for (std::int64_t i = 0; i < t.size(); ++i) t.data<float>()[i] = d(gen);
  return t;
}

// Captures std::cerr for a scope.
struct CaptureCerr {
  std::ostringstream text;
  std::streambuf* old = std::cerr.rdbuf(text.rdbuf());
  ~CaptureCerr() { std::cerr.rdbuf(old); }
};

struct Threads {
  explicit Threads(int n) { utils::set_num_threads(n); }
  ~Threads() { utils::set_num_threads(2); }
};

// loss = mean((model(x) - t)^2): the eager value and gradients, and the compiled ones of a replay.
void check_model_bit_identical(Model& model, const Shape& x_shape, const Shape& t_shape) {
  auto loss_of = [&](const std::vector<Tensor>& in) {
    return std::vector<Tensor>{ops::mean(ops::square(ops::subtract(model.call_all({in[0]}, {.training = true})[0], in[1])))};
  };
  Function f(loss_of);
  const auto vars = model.trainable_weights();
  // The first call traces (its gradient comes from the ops' own records).
  const Tensor x1 = filled(x_shape, 1), t1 = filled(t_shape, 2);
  {
    GradientTape tape;
    const Tensor l = f({x1, t1})[0];
    REQUIRE(tape.gradient(l, vars)[0].defined());
  }
  for (unsigned seed : {3u, 5u}) {  // replays
    const Tensor x = filled(x_shape, seed), t = filled(t_shape, seed + 1);
    GradientTape eager_tape;
    const Tensor eager = loss_of({x, t})[0];
    const auto eager_grads = eager_tape.gradient(eager, vars);
    GradientTape tape;
    const Tensor compiled = f({x, t})[0];
    const auto grads = tape.gradient(compiled, vars);
    CHECK(same_bits(compiled, eager));
    REQUIRE(grads.size() == eager_grads.size());
    for (std::size_t i = 0; i < grads.size(); ++i) CHECK(same_bits(grads[i], eager_grads[i]));
  }
  CHECK(f.tracing_count() == 1);
  // The comparisons above were of replays: of the forward ops and, the second time, of the gradient pass.
  const auto trace = f.trace_for({x1, t1});
  REQUIRE(trace);
  CHECK(trace->valid());
  std::vector<Tensor> sources = trace->input_buffers();
  sources.insert(sources.end(), trace->variables().begin(), trace->variables().end());
  CHECK(trace->variables().size() == vars.size());
  CHECK(trace->gradient_replays(trace->outputs()[0], sources, true));
}

// trained(eager) fits a model from a fixed seed and returns its weights and history: compiled (no fallback
// warning) and run_eagerly, they must agree to the bit.
template <class Trained>
void check_compiled_fit_matches_eager(const Trained& trained) {
  CaptureCerr err;
  const auto [compiled, compiled_history] = trained(false);
  const auto [eager, eager_history] = trained(true);
  CHECK(err.text.str() == "");  // (prints the warning otherwise)
  REQUIRE(compiled.size() == eager.size());
  for (std::size_t i = 0; i < compiled.size(); ++i) CHECK(same_bits(compiled[i], eager[i]));
  CHECK(compiled_history.history == eager_history.history);
}

}  // namespace

TEST_CASE("keras::function replays an MLP bit-identically to eager, outputs and gradients", "[function]") {
  Threads one(1);
  utils::set_random_seed(7);
  Sequential model({layers::Input({8}), layers::Dense(16, {.activation = "relu"}), layers::Dense(4)});
  check_model_bit_identical(model, {5, 8}, {5, 4});
}

TEST_CASE("keras::function replays a small CNN bit-identically to eager, outputs and gradients", "[function]") {
  Threads one(1);
  utils::set_random_seed(8);
  Sequential model({layers::Input({8, 8, 2}), layers::Conv2D(4, {3, 3}, {.activation = "relu"}),
                    layers::MaxPooling2D({2, 2}), layers::Flatten(), layers::Dense(3)});
  check_model_bit_identical(model, {2, 8, 8, 2}, {2, 3});
}

TEST_CASE("keras::function gives gradients to its inputs and retraces on a new batch size", "[function]") {
  utils::set_random_seed(9);
  Sequential model({layers::Input({3}), layers::Dense(2, {.activation = "tanh"})});
  Function f([&](const std::vector<Tensor>& in) { return model.call_all(in); });
  const Tensor a = filled({4, 3}, 1), b = filled({4, 3}, 2), c = filled({6, 3}, 3);
  // A compiled function computes as eager code under a tape does (eager inference outside one may multiply
  // by packed weights, equal to float32 rounding only).
  auto eager = [&](const Tensor& x) {
    GradientTape recording;
    return model(x);
  };
  f({a});
  const Tensor yb = f({b})[0];
  CHECK(f.tracing_count() == 1);
  CHECK(same_bits(yb, eager(b)));
  const Tensor yc = f({c})[0];  // a new signature: traced anew
  CHECK(f.tracing_count() == 2);
  CHECK(same_bits(yc, eager(c)));
  CHECK(same_bits(f({a})[0], eager(a)));  // the first signature still replays
  CHECK(f.tracing_count() == 2);
  // d sum(f(x)) / dx through a replay equals the eager gradient.
  GradientTape tape, eager_tape;
  tape.watch(b);
  eager_tape.watch(b);
  const Tensor dx = tape.gradient(ops::sum(f({b})[0]), b);
  const Tensor eager_dx = eager_tape.gradient(ops::sum(model(b)), b);
  CHECK(same_bits(dx, eager_dx));
}

TEST_CASE("keras::function warns when it retraces often", "[function]") {
  Function f([](const std::vector<Tensor>& in) { return std::vector<Tensor>{ops::relu(in[0])}; },
             {.name = "relu_fn"});
  CaptureCerr err;
  for (std::int64_t n = 1; n <= 5; ++n) f({Tensor::ones({n, 2})});
  CHECK(err.text.str().find("retracing") == std::string::npos);  // 4 retraces: not yet
  f({Tensor::ones({6, 2})});
  CHECK(f.tracing_count() == 6);
  CHECK(err.text.str().find("calls to keras::function 'relu_fn' triggered retracing") != std::string::npos);
}

TEST_CASE("keras::function falls back to eager where a trace cannot capture the function", "[function]") {
  // Control flow on a value: a replay would keep the first branch; the fallback follows the data.
  Function branchy([](const std::vector<Tensor>& in) {
    const Tensor& x = in[0];
    return std::vector<Tensor>{ops::sum(x).item() > 0 ? ops::relu(x) : ops::negative(x)};
  }, {.name = "branchy"});
  CaptureCerr err;
  const Tensor pos = Tensor::full({3}, 2.f), neg = Tensor::full({3}, -2.f);
  CHECK(same_bits(branchy({pos})[0], pos));
  CHECK(same_bits(branchy({neg})[0], pos));  // -(-2) = 2: the other branch ran
  CHECK(err.text.str().find("cannot be compiled") != std::string::npos);
  CHECK(err.text.str().find("item()") != std::string::npos);
  // A variable assigned from another dtype (a conversion the trace does not replay): each call must assign.
  Variable total("total", Tensor::zeros({1}), false);
  Function convert([&](const std::vector<Tensor>& in) {
    total.assign(in[0]);
    return std::vector<Tensor>{total.value()};
  });
  for (int i = 1; i <= 3; ++i) convert({Tensor::full({1}, i, DType::int32)});
  CHECK(total.value().item() == 3.0);
  CHECK(err.text.str().find("wrote in place") != std::string::npos);
  // An op without a replay hook (cumsum) feeding a captured one.
  Function scan([](const std::vector<Tensor>& in) { return std::vector<Tensor>{ops::relu(ops::cumsum(in[0]))}; });
  const Tensor v = Tensor::from_vector<float>({1, -3, 5});
  scan({v});
  CHECK(scan({Tensor::from_vector<float>({2, 2, -9})})[0].to_vector<float>() == std::vector<float>{2, 4, 0});
  CHECK(err.text.str().find("no replay hook") != std::string::npos);
}

TEST_CASE("keras::function: a gradient of a call overwritten by a later call is refused", "[function]") {
  Function f([](const std::vector<Tensor>& in) { return std::vector<Tensor>{ops::square(in[0])}; });
  const Tensor x = Tensor::full({2}, 3.f);
  f({x});  // the trace
  GradientTape tape(true);
  tape.watch(x);
  const Tensor y1 = f({x})[0];
  f({x});  // replays into the same buffers
  CHECK_THROWS_WITH(tape.gradient(y1, x), Catch::Contains("overwritten"));
}

TEST_CASE("fit with the compiled train step equals run_eagerly to 0 ULP on one thread", "[function]") {
  Threads one(1);
  const Tensor x = filled({24, 6}, 11);
  Tensor y = Tensor::empty({24}, DType::int32);
  for (std::int64_t i = 0; i < 24; ++i) y.data<std::int32_t>()[i] = static_cast<std::int32_t>(i % 3);
  // Logits with Dropout and an L2 penalty; then softmax probabilities (the loss takes log(clip(p))).
  for (const bool logits : {true, false}) {
    auto trained = [&](bool eager) {
      utils::set_random_seed(3);
      Sequential model({layers::Input({6}), layers::Dense(12, {.activation = "relu", .kernel_regularizer = "l2"}),
                        layers::Dropout(0.25), layers::Dense(3, {.activation = logits ? "linear" : "softmax"})});
      model.compile({.optimizer = optimizers::Adam({.learning_rate = 0.01}),
                     .loss = losses::SparseCategoricalCrossentropy({.from_logits = logits}),
                     .metrics = {"accuracy"}, .run_eagerly = eager});
      auto history = model.fit(x, y, {.batch_size = 8, .epochs = 2, .verbose = 0});
      return std::pair{model.get_weights(), history};
    };
    check_compiled_fit_matches_eager(trained);  // loss and accuracy alike
  }
}

namespace {

// fit (Adam, mse, 2 epochs) of the model `make` builds, compiled and with run_eagerly, from the same seed: no
// fallback warning, the same weights to the bit and the same losses.
void check_compiled_fit(const std::function<std::shared_ptr<Model>()>& make, const Tensor& x, const Tensor& y) {
  Threads one(1);
  auto trained = [&](bool eager) {
    backend::clear_session();
    utils::set_random_seed(8);
    const auto model = make();
    model->compile({.optimizer = optimizers::Adam({.learning_rate = 0.01}), .loss = "mse", .run_eagerly = eager});
    auto history = model->fit(x, y, {.batch_size = 3, .epochs = 2, .verbose = 0});
    return std::pair{model->get_weights(), history};
  };
  check_compiled_fit_matches_eager(trained);
}

}  // namespace

TEST_CASE("fit compiles a Conv1D text model with global max pooling, 0 ULP from run_eagerly", "[function]") {
  check_compiled_fit([] {
    return std::make_shared<Sequential>(std::vector<LayerRef>{
        layers::Input({10, 4}), layers::Conv1D(6, 3, {.padding = "same", .activation = "relu"}),
        layers::GlobalMaxPooling1D(), layers::Dense(3)});
  }, filled({12, 10, 4}, 41), filled({12, 3}, 42));
}

TEST_CASE("fit compiles a narrow Conv2D and its 2 x 2 max pooling, run in one pass, 0 ULP from run_eagerly",
          "[function]") {
  // The pair keras/kernels/conv_max_pool.hpp serves where it can: its forward and its gradient replay.
  check_compiled_fit([] {
    return std::make_shared<Sequential>(std::vector<LayerRef>{
        layers::Input({11, 10, 1}), layers::Conv2D(16, {3, 3}, {.activation = "relu"}), layers::MaxPooling2D({2, 2}),
        layers::Flatten(), layers::Dense(3)});
  }, filled({12, 11, 10, 1}, 43), filled({12, 3}, 44));
}

TEST_CASE("fit compiles a Transformer encoder block (attention, LayerNormalization), 0 ULP from run_eagerly",
          "[function]") {
  check_compiled_fit([] {
    KerasTensor in = Input({5, 8});
    KerasTensor attended = layers::MultiHeadAttention(2, 4)({in, in});
    KerasTensor h = layers::LayerNormalization()(layers::add({in, attended}));
    h = layers::LayerNormalization({.axis = {1}})(layers::Dense(8, {.activation = "gelu"})(h));  // rows with a stride
    return std::make_shared<Model>(in, layers::Dense(2)(layers::GlobalAveragePooling1D()(h)));
  }, filled({6, 5, 8}, 51), filled({6, 2}, 52));
}

TEST_CASE("fit compiles LSTM and GRU layers (oneDNN's fused RNN, backwards too), 0 ULP from run_eagerly",
          "[function]") {
  check_compiled_fit([] {
    return std::make_shared<Sequential>(std::vector<LayerRef>{
        layers::Input({7, 3}), layers::LSTM(4, {.return_sequences = true, .go_backwards = true}), layers::GRU(3),
        layers::Dense(2)});
  }, filled({6, 7, 3}, 61), filled({6, 2}, 62));
}

TEST_CASE("a variable assigned inside keras::function replays the assignment", "[function]") {
  CaptureCerr err;
  Variable counter("counter", Tensor::zeros({1}), false);
  Function bump([&](const std::vector<Tensor>& in) {
    counter.assign(ops::add(counter.value(), in[0]));
    return std::vector<Tensor>{ops::multiply(counter.value(), in[0])};  // reads the assigned value
  });
  std::uint64_t version = counter.value().version();
  for (int i = 1; i <= 4; ++i) {
    const Tensor out = bump({Tensor::full({1}, 2.f)})[0];
    CHECK(counter.value().item() == 2.0 * i);
    CHECK(out.item() == 4.0 * i);
    CHECK(counter.value().version() != version);  // each replayed assignment renews the stamp
    version = counter.value().version();
  }
  CHECK(bump.tracing_count() == 1);
  CHECK(err.text.str().find("cannot be compiled") == std::string::npos);
}

TEST_CASE("fit compiles BatchNormalization, moving statistics too, and a residual Add, 0 ULP from run_eagerly",
          "[function]") {
  check_compiled_fit([] {
    KerasTensor in = Input({6, 6, 3});
    KerasTensor a = layers::Conv2D(4, {3, 3}, {.padding = "same"})(in);
    KerasTensor b = layers::BatchNormalization()(layers::Conv2D(4, {3, 3}, {.padding = "same"})(a));
    KerasTensor h = layers::ReLU()(layers::add({b, a}));  // the fused BatchNormalization + Add + relu of training
    h = layers::BatchNormalization()(layers::Dense(5)(layers::GlobalAveragePooling2D()(h)));
    return std::make_shared<Model>(in, layers::Dense(2)(h));
  }, filled({9, 6, 6, 3}, 71), filled({9, 2}, 72));
}

namespace {
const bool running_sum_registered = layers::register_lambda_function(
    "running_sum", [](const Tensor& x) { return ops::cumsum(x, 1); });  // cumsum has no replay hook
}  // namespace

TEST_CASE("fit falls back to the eager step, with a warning, for a model the trace cannot capture", "[function]") {
  Threads one(1);
  REQUIRE(running_sum_registered);
  const Tensor x = filled({16, 4}, 21), y = filled({16, 2}, 22);
  auto trained = [&](bool eager) {
    utils::set_random_seed(4);
    Sequential model({layers::Input({4}), layers::Dense(5), layers::Lambda("running_sum"), layers::BatchNormalization(),
                      layers::Dense(2)});
    model.compile({.optimizer = optimizers::SGD({.learning_rate = 0.05}), .loss = "mse", .run_eagerly = eager});
    model.fit(x, y, {.batch_size = 8, .epochs = 2, .verbose = 0});
    return model.get_weights();  // the moving statistics included
  };
  CaptureCerr err;
  const auto compiled = trained(false);
  CHECK(err.text.str().find("no replay hook") != std::string::npos);
  const auto eager = trained(true);
  REQUIRE(compiled.size() == eager.size());
  for (std::size_t i = 0; i < compiled.size(); ++i) CHECK(same_bits(compiled[i], eager[i]));
}

TEST_CASE("fit compiles a two-input, two-output functional model with a merge, 0 ULP from run_eagerly", "[function]") {
  Threads one(1);
  const Tensor xa = filled({12, 4}, 31), xb = filled({12, 3}, 32), y1 = filled({12, 2}, 33);
  Tensor y2 = Tensor::empty({12}, DType::int32);
  for (std::int64_t i = 0; i < 12; ++i) y2.data<std::int32_t>()[i] = static_cast<std::int32_t>(i % 3);
  auto trained = [&](bool eager) {
    backend::clear_session();  // the same layer names, so the same log keys
    utils::set_random_seed(5);
    KerasTensor a = Input({4}), b = Input({3});
    KerasTensor h = layers::Dense(6, {.activation = "tanh"})(layers::Concatenate()({a, b}));
    Model model({a, b}, {layers::Dense(2)(h), layers::Dense(3, {.activation = "softmax"})(h)});
    model.compile({.optimizer = optimizers::SGD({.learning_rate = 0.1}),
                   .loss = std::vector<losses::LossRef>{"mse", "sparse_categorical_crossentropy"},
                   .loss_weights = std::vector<double>{1.0, 0.5}, .run_eagerly = eager});
    auto history = model.fit({xa, xb}, {y1, y2}, {.batch_size = 5, .epochs = 2, .verbose = 0, .shuffle = false});
    return std::pair{model.get_weights(), history};
  };
  check_compiled_fit_matches_eager(trained);  // compiled (batches of 5 and the last of 2: two traces)
  CHECK(trained(false).second.history.size() == 3);  // loss and the two outputs' losses
}
