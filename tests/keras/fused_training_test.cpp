// Training-time fusion (keras/fused_chains.hpp): a BatchNormalization followed by a residual Add and a relu
// trains as one batch normalization pass (ops::batch_norm_train with a BatchNormEpilogue), and must give
// what the three ops, and the three layers called one by one, give: outputs, gradients, moving statistics.
#include <map>
#include <string>

#include <catch2/catch.hpp>

#include "gradient_check.hpp"
#include "keras/kernels/cpu_dispatch.hpp"
#include "keras/keras.hpp"
#include "keras/profiler/trace_hooks.hpp"

using namespace keras;
using keras::testing::max_relative_error;
using keras::testing::random_tensor;

namespace {

// Counts the ops recorded while it is set (keras/profiler), by name.
struct OpCounter : profiler::Tracer {
  std::map<std::string, int> ops;
  OpCounter() { profiler::set_tracer(this); }
  ~OpCounter() override { profiler::set_tracer(nullptr); }
  void op(const char* op, const Tensor&, const std::vector<Tensor>&) override { ++ops[op]; }
  void gradient(const char*, const Tensor&, const Tensor&, const std::vector<Tensor>&, std::int64_t) override {}
  void kernel(const char*, const char*, std::int64_t, std::int64_t) override {}
  void scope_begin(const std::string&) override {}
  void scope_end() override {}
  void variable(const Tensor&, const std::string&) override {}
};

// Output and gradients (inputs in order) of sum(f(inputs) * w).
std::vector<Tensor> value_and_gradients(const std::function<Tensor(const std::vector<Tensor>&)>& f,
                                        const std::vector<Tensor>& inputs, const Tensor& w) {
  GradientTape tape;
  for (const auto& t : inputs) tape.watch(t);
  std::vector<Tensor> out{f(inputs)};
  for (const auto& g : tape.gradient(ops::sum(ops::multiply(out[0], w)), inputs)) out.push_back(g);
  return out;
}

}  // namespace

TEST_CASE("batch_norm_train with a residual and a relu fused in equals batch_norm_train then add then relu") {
  for (const int axis : {-1, 1}) {
    const Shape shape = axis == -1 ? Shape{6, 5, 4} : Shape{3, 4, 5};
    const std::int64_t channels = 4;
    const std::vector<Tensor> inputs{random_tensor(shape, -2, 2, 1), random_tensor({channels}, 0.5f, 1.5f, 2),
                                     random_tensor({channels}, -0.5f, 0.5f, 3), random_tensor(shape, -1, 1, 4)};
    const Tensor w = random_tensor(shape, -1, 1, 5);
    for (const bool add : {false, true})
      for (const bool relu : {false, true}) {
        INFO("axis " << axis << ", add " << add << ", relu " << relu);
        const auto fused = value_and_gradients([&](const std::vector<Tensor>& v) {
          return ops::batch_norm_train(v[0], v[1], v[2], axis, 1e-3f, {.residual = add ? v[3] : Tensor(), .relu = relu}).output;
        }, inputs, w);
        const auto reference = value_and_gradients([&](const std::vector<Tensor>& v) {
          Tensor y = ops::batch_norm_train(v[0], v[1], v[2], axis, 1e-3f).output;
          if (add) y = ops::add(y, v[3]);
          return relu ? ops::relu(y) : y;
        }, inputs, w);
        if (relu) CHECK(fused[0].to_vector<float>() != ops::batch_norm_train(inputs[0], inputs[1], inputs[2], axis, 1e-3f).output.to_vector<float>());
        REQUIRE(fused.size() == 5);  // the output, then the gradients of x, gamma, beta and the residual
        for (std::size_t i = 0; i < fused.size(); ++i) {
          INFO("output or gradient " << i);
          CHECK(fused[i].defined() == reference[i].defined());
          if (fused[i].defined() && reference[i].defined()) CHECK(max_relative_error(fused[i], reference[i]) < 1e-5);
        }
      }
  }
  // The residual's gradient against central differences (a relu's kink would make those unreliable).
  keras::testing::check_gradients([](const std::vector<Tensor>& v) {
    return ops::batch_norm_train(v[0], v[1], v[2], -1, 1e-3f, {.residual = v[3]}).output;
  }, {random_tensor({5, 3}, -1, 1, 6), random_tensor({3}, 0.5f, 1.5f, 7), random_tensor({3}, -0.5f, 0.5f, 8),
      random_tensor({5, 3}, -1, 1, 9)}, 1e-2f, 3e-2f);
  CHECK_THROWS_WITH(ops::batch_norm_train(random_tensor({4, 3}), Tensor(), Tensor(), -1, 1e-3f,
                                          {.residual = random_tensor({4, 1})}),
                    Catch::Contains("(4, 1)") && Catch::Contains("(4, 3)"));
}

TEST_CASE("training fuses BatchNormalization + Add + relu chains and matches the layers called one by one") {
  utils::set_random_seed(5);
  auto conv1 = std::make_shared<layers::Conv2D>(4, Size2{3, 3}, layers::Conv2DOptions{.padding = "same"});
  auto conv2 = std::make_shared<layers::Conv2D>(4, Size2{3, 3}, layers::Conv2DOptions{.padding = "same"});
  auto bn1 = std::make_shared<layers::BatchNormalization>(), bn2 = std::make_shared<layers::BatchNormalization>();
  auto relu1 = std::make_shared<layers::Activation>("relu");
  auto relu2 = std::make_shared<layers::ReLU>();
  auto add = std::make_shared<layers::Add>();
  auto pool = std::make_shared<layers::GlobalAveragePooling2D>();
  auto dense = std::make_shared<layers::Dense>(3);
  // The first relu's output is read twice (the second convolution and the Add): it ends its chain.
  KerasTensor in = Input({6, 6, 3});
  KerasTensor a = (*relu1)((*bn1)((*conv1)(in)));
  KerasTensor out = (*dense)((*pool)((*relu2)((*add)(std::vector<KerasTensor>{(*bn2)((*conv2)(a)), a}))));
  Model model(in, out);
  const Tensor x = random::normal({4, 6, 6, 3}, 0.0, 1.0, DType::float32, 11);
  const Tensor w = random_tensor({4, 3}, -1, 1, 12);
  const std::vector<Tensor> start = model.get_weights();

  // Outputs, the gradients of every trainable weight, then every weight after the step (moving statistics).
  auto train_step = [&](const std::function<Tensor()>& forward) {
    model.set_weights(start);
    std::vector<Tensor> got;
    {
      GradientTape tape;
      got.push_back(forward());
      for (const auto& g : tape.gradient(ops::sum(ops::multiply(got[0], w)), model.trainable_weights())) got.push_back(g);
    }
    for (const auto& v : model.get_weights()) got.push_back(v);
    return got;
  };
  auto one_by_one = [&] {
    Tensor h = (*relu1)((*bn1)((*conv1)(x, true), true), true);
    Tensor r = add->call_all(std::vector<Tensor>{(*bn2)((*conv2)(h, true), true), h}, CallContext{.training = true})[0];
    return (*dense)((*pool)((*relu2)(r, true), true), true);
  };
  auto check_same = [&](const std::vector<Tensor>& got, const std::vector<Tensor>& want) {
    REQUIRE(got.size() == want.size());
    for (std::size_t i = 0; i < got.size(); ++i) {
      INFO("output, gradient or weight " << i);
      CHECK(max_relative_error(got[i], want[i]) < 1e-5);
    }
  };

  const auto reference = train_step(one_by_one);
  std::map<std::string, int> fused_ops;
  const auto fused = train_step([&] {
    OpCounter counter;
    Tensor y = model(x, true);
    fused_ops = counter.ops;
    return y;
  });
  // Both relus and the Add ran inside the two batch normalizations.
  CHECK(fused_ops["batch_norm"] == 2);
  CHECK(fused_ops["activation"] == 0);
  CHECK(fused_ops["add"] == 0);
  check_same(fused, reference);

  // A frozen BatchNormalization (inference statistics while training) still runs its chain, step by step.
  bn2->set_trainable(false);
  check_same(train_step([&] { return model(x, true); }), train_step(one_by_one));
}

namespace {

// The shapes of the relus (ops::relu, the "activation" op) that ran while it lived.
struct ReluShapes : profiler::Tracer {
  std::vector<Shape> shapes;
  ReluShapes() { profiler::set_tracer(this); }
  ~ReluShapes() override { profiler::set_tracer(nullptr); }
  void op(const char* op, const Tensor& out, const std::vector<Tensor>&) override {
    if (std::string(op) == "activation") shapes.push_back(out.shape());
  }
  void gradient(const char*, const Tensor&, const Tensor&, const std::vector<Tensor>&, std::int64_t) override {}
  void kernel(const char*, const char*, std::int64_t, std::int64_t) override {}
  void scope_begin(const std::string&) override {}
  void scope_end() override {}
  void variable(const Tensor&, const std::string&) override {}
};

// The model's output and weight gradients (of sum(output * w)) from `forward`, once with the layers one by
// one and once through the model in training, which must run its relus over `relu_shapes` (the pooled
// tensors) with the same values and gradients. Returns the layers' output.
Tensor check_pooled_before_relu(Model& model, const Tensor& x, const Tensor& w, const std::function<Tensor()>& layers,
                                const std::vector<Shape>& relu_shapes) {
  auto value_and_weight_gradients = [&](const std::function<Tensor()>& forward) {
    GradientTape tape;
    std::vector<Tensor> got{forward()};
    for (const auto& g : tape.gradient(ops::sum(ops::multiply(got[0], w)), model.trainable_weights())) got.push_back(g);
    return got;
  };
  const auto reference = value_and_weight_gradients(layers);
  std::vector<Shape> relus;
  const auto reordered = value_and_weight_gradients([&] {
    ReluShapes tracer;
    Tensor y = model(x, true);
    relus = tracer.shapes;
    return y;
  });
  CHECK(relus == relu_shapes);
  REQUIRE(reordered.size() == reference.size());
  for (std::size_t i = 0; i < reference.size(); ++i) {
    INFO("output or gradient " << i);
    CHECK(max_relative_error(reordered[i], reference[i]) < 1e-6);
  }
  return reference[0];
}

}  // namespace

TEST_CASE("training pools before the relu (a convolution's own, or an Activation layer's) and matches the layers") {
  utils::set_random_seed(6);
  auto conv1 = std::make_shared<layers::Conv2D>(4, Size2{3, 3}, layers::Conv2DOptions{.activation = "relu"});
  auto conv2 = std::make_shared<layers::Conv2D>(5, Size2{3, 3}, layers::Conv2DOptions{.padding = "same"});
  auto relu = std::make_shared<layers::Activation>("relu");
  auto pool1 = std::make_shared<layers::MaxPooling2D>(Size2{2, 2});
  auto pool2 = std::make_shared<layers::MaxPooling2D>(Size2{3, 3}, layers::Pooling2DOptions{.strides = Size2{2, 2},
                                                                                            .padding = "same"});
  auto flatten = std::make_shared<layers::Flatten>();
  auto dense = std::make_shared<layers::Dense>(3);
  KerasTensor in = Input({10, 10, 2});
  KerasTensor out = (*dense)((*flatten)((*pool2)((*relu)((*conv2)((*pool1)((*conv1)(in)))))));
  Model model(in, out);
  // Whole numbers everywhere, so that windows tie (the pool takes the first maximum) and hold exact zeros
  // and negative values only (the relu's zero gradient).
  for (const auto& conv : {conv1, conv2}) conv->kernel()->assign(ops::round(conv->kernel()->value() * 6.f));
  Tensor x = ops::round(random::normal({3, 10, 10, 2}, 0.0, 1.5, DType::float32, 21));
  const Tensor w = random_tensor({3, 3}, -1, 1, 22);

  // Both relus run on the pooled tensors.
  const Tensor reference = check_pooled_before_relu(model, x, w, [&] {
    Tensor h = (*pool1)((*conv1)(x, true), true);
    return (*dense)((*flatten)((*pool2)((*relu)((*conv2)(h, true), true), true), true), true);
  }, {{3, 4, 4, 4}, {3, 2, 2, 5}});
  // Predicting runs the layers as they are (the relus inside the convolutions and the Activation).
  CHECK(max_relative_error(model.predict_on_batch(x), reference) < 1e-5);
}

TEST_CASE("an image's first Conv2D and its 2 x 2 max pooling train without storing the unpooled gradient") {
  // 5 x 5 over one channel to 32, as the seed CNN's first layer: no input gradient, so on our weight-gradient
  // tiles (either ISA) the pooling's gradient is unpooled a band of rows at a time inside them.
  utils::set_random_seed(9);
  auto conv = std::make_shared<layers::Conv2D>(32, Size2{5, 5}, layers::Conv2DOptions{.activation = "relu"});
  auto pool = std::make_shared<layers::MaxPooling2D>(Size2{2, 2});
  auto flatten = std::make_shared<layers::Flatten>();
  auto dense = std::make_shared<layers::Dense>(3);
  KerasTensor in = Input({15, 14, 1});
  Model model(in, (*dense)((*flatten)((*pool)((*conv)(in)))));
  conv->kernel()->assign(ops::round(conv->kernel()->value() * 6.f));  // whole numbers: ties as the layers break them
  conv->bias()->assign(ops::round(random::normal({32}, 0.0, 1.0, DType::float32, 40)));
  const Tensor x = ops::round(random::normal({5, 15, 14, 1}, 0.0, 1.5, DType::float32, 41));
  const Tensor w = random_tensor({5, 3}, -1, 1, 42);
  const bool served = kernels::own_kernels() && kernels::cpu_level() != kernels::CpuLevel::baseline;
  check_pooled_before_relu(model, x, w, [&] { return (*dense)((*flatten)((*pool)((*conv)(x, true), true), true), true); },
                           served ? std::vector<Shape>{} : std::vector<Shape>{{5, 5, 5, 32}});
}

TEST_CASE("training takes a global max pooling before a Conv1D's relu, with the same values and gradients") {
  utils::set_random_seed(7);
  auto conv = std::make_shared<layers::Conv1D>(6, 3, layers::Conv1DOptions{.activation = "relu"});
  auto pool = std::make_shared<layers::GlobalMaxPooling1D>();
  auto dense = std::make_shared<layers::Dense>(2);
  KerasTensor in = Input({9, 3});
  Model model(in, (*dense)((*pool)((*conv)(in))));
  // Whole numbers: ties within a channel, and channels whose every value is negative or zero.
  conv->kernel()->assign(ops::round(conv->kernel()->value() * 6.f) - 1.f);
  const Tensor x = ops::round(random::normal({4, 9, 3}, 0.0, 1.5, DType::float32, 23));
  const Tensor w = random_tensor({4, 2}, -1, 1, 24);
  check_pooled_before_relu(model, x, w, [&] { return (*dense)((*pool)((*conv)(x, true), true), true); }, {{4, 6}});
}

TEST_CASE("training runs a narrow Conv2D and its 2 x 2 max pooling in one pass, with the layers' values and gradients") {
  // Two pairs the kernel serves (keras/kernels/conv_max_pool.hpp): 5 x 5 over 2 channels with a relu, on an
  // odd width (the pooling floors); 2 x 2 over 16 channels, "same", linear, whose input gradient feeds the
  // first pair's weight gradients.
  utils::set_random_seed(8);
  auto conv1 = std::make_shared<layers::Conv2D>(16, Size2{5, 5}, layers::Conv2DOptions{.activation = "relu"});
  auto conv2 = std::make_shared<layers::Conv2D>(16, Size2{2, 2}, layers::Conv2DOptions{.padding = "same"});
  auto pool1 = std::make_shared<layers::MaxPooling2D>(Size2{2, 2}), pool2 = std::make_shared<layers::MaxPooling2D>(Size2{2, 2});
  auto flatten = std::make_shared<layers::Flatten>();
  auto dense = std::make_shared<layers::Dense>(3);
  KerasTensor in = Input({12, 13, 2});
  Model model(in, (*dense)((*flatten)((*pool2)((*conv2)((*pool1)((*conv1)(in)))))));
  // Whole numbers: exact sums in any order, so windows tie as the layers' do (the first maximum wins), and
  // exact zeros and negative values under the relu.
  std::uint64_t seed = 30;
  for (const auto& conv : {conv1, conv2}) {
    conv->kernel()->assign(ops::round(conv->kernel()->value() * 6.f));
    conv->bias()->assign(ops::round(random::normal({16}, 0.0, 1.0, DType::float32, ++seed)));
  }
  const Tensor x = ops::round(random::normal({3, 12, 13, 2}, 0.0, 1.5, DType::float32, 31));
  const Tensor w = random_tensor({3, 3}, -1, 1, 32);
  auto layers_one_by_one = [&] {
    Tensor h = (*pool1)((*conv1)(x, true), true);
    return (*dense)((*flatten)((*pool2)((*conv2)(h, true), true), true), true);
  };
  const bool served = kernels::own_kernels() && kernels::cpu_level() != kernels::CpuLevel::baseline;
  std::map<std::string, int> ops_run;
  check_pooled_before_relu(model, x, w, layers_one_by_one, served ? std::vector<Shape>{} : std::vector<Shape>{{3, 4, 4, 16}});
  {
    OpCounter counter;
    GradientTape tape;
    model(x, true);
    ops_run = counter.ops;
  }
  CHECK(ops_run["convolution and max pooling"] == (served ? 2 : 0));
  CHECK(ops_run["pooling"] == (served ? 0 : 2));
}
