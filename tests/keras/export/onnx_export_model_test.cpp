// ONNX export of whole models: the file's names and metadata, nested, multi-input and multi-output graphs,
// errors for what ONNX cannot express, exporters registered by users, `kerascpp convert MODEL m.onnx`, and
// the real Keras files of tests/real_models run in ONNX Runtime against kerascpp.
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>

#include <catch2/catch.hpp>

#include "keras/export/onnx/export_onnx.hpp"
#include "keras/export/onnx/layer_exporters.hpp"
#include "keras/json.hpp"
#include "keras/keras.hpp"
#include "examples/seed_cnn.hpp"
#include "layers/core/operation.hpp"
#include "layers/core/tf_op_lambda.hpp"
#include "onnx_runtime.hpp"
#include "onnx_test_models.hpp"
#include "temp_dir.hpp"
#include "test_paths.hpp"

using namespace keras;
using keras_test::TempDir;
using keras_test::onnx::expect_matches;
using keras_test::onnx::random_tensor;
using keras_test::onnx::randomize_weights;
namespace fs = std::filesystem;

TEST_CASE("ONNX export keeps Keras's input and output names, a dynamic batch and the producer metadata", "[onnx]") {
  auto image = keras::Input({6, 6, 2}, {.name = "image"}), meta = keras::Input({3}, {.name = "meta"});
  auto features = layers::Flatten()(layers::Conv2D(2, {3, 3}, {.activation = "relu"})(image));
  auto joined = layers::Concatenate()({features, meta});
  auto score = layers::Dense(1, {.activation = "sigmoid", .name = "score"})(joined);
  auto label = layers::Dense(4, {.activation = "softmax", .name = "label"})(joined);
  Model model({image, meta}, {score, label}, "two_heads");
  randomize_weights(model);
  TempDir dir("onnx_meta");
  export_onnx(model, dir / "m.onnx");
  const std::string text = keras_test::onnx::describe(dir / "m.onnx");
  if (!text.empty()) {
    const json d = json::parse(text);
    CHECK(d["graph"] == "two_heads");
    CHECK(d["producer"] == "kerascpp");
    CHECK(d["opsets"]["ai.onnx"] == 17);
    CHECK(d["inputs"] == json::parse(R"([["image", ["batch", 6, 6, 2]], ["meta", ["batch", 3]]])"));
    CHECK(d["outputs"] == json::parse(R"([["score", ["batch", 1]], ["label", ["batch", 4]]])"));
    CHECK(d["initializer_types"] == json::parse(R"(["FLOAT"])"));  // the weights, float32
  }
  // The batch is dynamic: batches of 1 and 5 both run.
  expect_matches(model, {random_tensor({1, 6, 6, 2}, 1), random_tensor({1, 3}, 2)});
  expect_matches(model, {random_tensor({5, 6, 6, 2}, 3), random_tensor({5, 3}, 4)});
}

TEST_CASE("ONNX export of nested models: a Sequential and a functional model used as layers", "[onnx]") {
  auto block = std::make_shared<Sequential>(std::vector<LayerRef>{keras::Input({5}), layers::Dense(4, {.activation = "relu"}),
                                                                  layers::Dense(4)}, "block");
  auto inner_in = keras::Input({4});
  auto inner = std::make_shared<Model>(inner_in, layers::Dense(2)(layers::BatchNormalization()(inner_in)), "head");
  auto in = keras::Input({5});
  auto h = (*block)(in);
  Model model(in, {(*inner)(h), layers::add({h, (*block)(in)})}, "outer");
  randomize_weights(model);
  expect_matches(model, {random_tensor({3, 5}, 8)});
}

TEST_CASE("ONNX export stores the weights of a layer called twice (a shared layer) once", "[onnx]") {
  auto a = keras::Input({6}), b = keras::Input({6});
  auto shared = std::make_shared<layers::Dense>(4, layers::DenseOptions{.activation = "tanh"});
  Model model({a, b}, layers::Dense(1)(layers::subtract({(*shared)(a), (*shared)(b)})));
  randomize_weights(model);
  expect_matches(model, {random_tensor({3, 6}, 1), random_tensor({3, 6}, 2)});
  TempDir dir("onnx_shared");
  export_onnx(model, dir / "m.onnx");
  const std::string text = keras_test::onnx::describe(dir / "m.onnx");
  if (!text.empty()) CHECK(json::parse(text)["initializer_count"] == 4);  // the two Dense layers' kernels and biases
}

TEST_CASE("ONNX export of the seed CNN matches kerascpp", "[onnx]") {
  Sequential model({keras::Input({28, 28, 1}), layers::Conv2D(8, {5, 5}, {.activation = "relu"}), layers::MaxPooling2D({2, 2}),
                    layers::Conv2D(16, {3, 3}, {.activation = "relu"}), layers::MaxPooling2D({2, 2}), layers::Flatten(),
                    layers::Dense(32, {.activation = "relu"}), layers::Dropout(0.5), layers::Dense(10)});
  // As built (Glorot kernels), biases made non-zero.
  std::uint32_t seed = 3;
  for (const auto& w : model.weights())
    if (w->name() == "bias") w->assign(random_tensor(w->value().shape(), seed++, -0.1f, 0.1f));
  const double diff = expect_matches(model, {random_tensor({16, 28, 28, 1}, 5, 0.f, 1.f)});
  WARN("seed CNN: max |ONNX Runtime - kerascpp| = " << diff);
}

TEST_CASE("ONNX export of op layers: arithmetic on symbolic tensors (TFOpLambda nodes)", "[onnx]") {
  auto x = keras::Input({4}), y = keras::Input({4});
  auto h = layers::Dense(4)(x);
  Model model({x, y}, {(h * 2.f + y) / 3.f - x, 1.f - h, -(h * y), h / y});
  randomize_weights(model);
  expect_matches(model, {random_tensor({3, 4}, 1), random_tensor({3, 4}, 2, 0.5f, 1.5f)});
}

namespace {

// A TFOpLambda call as tf.keras records it: `args` and `kwargs` with {"__input__": i} standing for inputs[i].
KerasTensor tf_op(const std::string& function, json args, json kwargs, const std::vector<KerasTensor>& inputs) {
  auto op = std::make_shared<layers::TFOpLambda>(function);
  op->set_call_arguments(std::move(args), std::move(kwargs), layers::OpLayer::NodeForm::keras2);
  return op->call_all(inputs).at(0);
}

}  // namespace

TEST_CASE("ONNX export of op layers that reduce, reshape, transpose and concatenate", "[onnx]") {
  const json in0 = layers::input_placeholder(0), in1 = layers::input_placeholder(1);
  auto x = keras::Input({4, 3}), y = keras::Input({4, 2});
  auto h = layers::Dense(3)(x);
  Model model({x, y}, std::vector<KerasTensor>{
                          tf_op("math.reduce_mean", json::array({in0}), {{"axis", 1}}, {h}),
                          tf_op("math.reduce_max", json::array({in0}), {{"axis", json::array({1, 2})}, {"keepdims", true}}, {h}),
                          tf_op("math.reduce_sum", json::array({in0}), {{"axis", json::array({1, 2})}}, {h}),
                          tf_op("reshape", json::array({in0}), {{"shape", json::array({-1, 12})}}, {h}),
                          tf_op("transpose", json::array({in0}), {{"perm", json::array({0, 2, 1})}}, {h}),
                          tf_op("expand_dims", json::array({in0}), {{"axis", 2}}, {h}),
                          tf_op("concat", json::array({json::array({in0, in1})}), {{"axis", -1}}, {h, y})});
  randomize_weights(model);
  expect_matches(model, {random_tensor({2, 4, 3}, 1), random_tensor({2, 4, 2}, 2)});
}

TEST_CASE("ONNX export of x[key] (SlicingOpLambda): integers, slices with steps, ..., new axes", "[onnx]") {
  auto x = keras::Input({5, 4, 3});
  auto h = layers::Dense(3)(x);
  Model model(x, std::vector<KerasTensor>{getitem(h, {Slice{}, 0}), getitem(h, {Slice{}, -1, Slice{.start = 1}}),
                                          getitem(h, {ellipsis, Slice{.step = -1}}), getitem(h, {Slice{}, Slice{.start = 1, .stop = 5, .step = 2}, newaxis}),
                                          getitem(h, {Slice{}, newaxis, 2, ellipsis, 1})});
  randomize_weights(model);
  expect_matches(model, {random_tensor({2, 5, 4, 3}, 3)});
}

TEST_CASE("ONNX export: what ONNX cannot express is a keras error naming the layer", "[onnx]") {
  TempDir dir("onnx_errors");
  SECTION("a subclassed model has no graph") {
    struct Twice : Model {
      Tensor call(const Tensor& x, bool) override { return x * 2.f; }
    } model;
    CHECK_THROWS_WITH(export_onnx(model, dir / "m.onnx"), Catch::Contains("no graph of layer calls"));
  }
  SECTION("a layer class without an exporter") {
    auto in = keras::Input({5}, {.dtype = DType::int32});
    Model model(in, layers::Hashing(8, {.name = "hashing"})(in));
    CHECK_THROWS_AS(export_onnx(model, dir / "m.onnx"), keras::ValueError);
    CHECK_THROWS_WITH(export_onnx(model, dir / "m.onnx"), Catch::Contains("'hashing' (Hashing) cannot be exported to ONNX"));
    CHECK_FALSE(fs::exists(dir / "m.onnx"));
  }
  SECTION("a mask-reading layer whose masked result the export cannot compute") {
    Sequential model({keras::Input({4, 3}), layers::Masking(), layers::TimeDistributed(layers::Dense(2), {.name = "masked_td"})});
    CHECK_THROWS_WITH(export_onnx(model, dir / "m.onnx"), Catch::Contains("'masked_td' (TimeDistributed)") && Catch::Contains("mask"));
  }
  SECTION("a stateful recurrent layer") {
    Sequential model({keras::Input({4, 3}, {.batch_size = 2}), layers::GRU(2, {.stateful = true, .name = "gru_s"})});
    CHECK_THROWS_WITH(export_onnx(model, dir / "m.onnx"), Catch::Contains("'gru_s' (GRU)") && Catch::Contains("stateful"));
  }
  SECTION("an unsupported opset") {
    Sequential model({keras::Input({3}), layers::Dense(2)});
    CHECK_THROWS_WITH(export_onnx(model, dir / "m.onnx", {.opset = 9}), Catch::Contains("opset 9"));
  }
  SECTION("a failed export keeps the old file") {
    std::ofstream(dir / "m.onnx") << "old";
    auto in = keras::Input({5}, {.dtype = DType::int32});
    Model model(in, layers::Hashing(8)(in));
    CHECK_THROWS(export_onnx(model, dir / "m.onnx"));
    std::ifstream old(dir / "m.onnx");
    CHECK(std::string(std::istreambuf_iterator<char>(old), {}) == "old");
  }
}

TEST_CASE("ONNX export: a Lambda layer exports through an exporter the user registers", "[onnx]") {
  auto in = keras::Input({4});
  Model model(in, layers::Dense(3)(layers::Lambda([](const Tensor& x) { return x * 3.f + 1.f; }, {.name = "affine"})(in)));
  randomize_weights(model);
  TempDir dir("onnx_lambda");
  CHECK_THROWS_WITH(export_onnx(model, dir / "m.onnx"), Catch::Contains("'affine' (Lambda)"));
  onnx::register_layer_exporter("Lambda", [](onnx::GraphBuilder& g, const Layer& layer, const onnx::LayerCall& call) {
    if (layer.name() != "affine") onnx::not_exportable(layer, "only 'affine' has an exporter");
    const std::string y = g.op1("Mul", {call.inputs[0], g.scalar("three", 3.f)});
    return std::vector<std::string>{g.op1("Add", {y, g.scalar("one", 1.f)})};
  });
  expect_matches(model, {random_tensor({2, 4}, 6)});
}

TEST_CASE("kerascpp convert MODEL m.onnx writes a model ONNX Runtime runs as kerascpp does", "[onnx][tools]") {
  TempDir dir("onnx_convert");
  Sequential model({keras::Input({8, 8, 1}), layers::Conv2D(4, {3, 3}, {.activation = "relu"}), layers::Flatten(),
                    layers::Dense(3, {.activation = "softmax"})});
  randomize_weights(model);
  model.save(dir / "m.h5");
  const std::string cli = (fs::path(keras_test::bin_dir) / "kerascpp").string();
  REQUIRE(std::system(("'" + cli + "' convert '" + (dir / "m.h5") + "' '" + (dir / "m.onnx") + "'").c_str()) == 0);
  REQUIRE(fs::exists(dir / "m.onnx"));
  CHECK(keras_test::onnx::check(dir / "m.onnx").empty());
  if (!keras_test::onnx::runtime_available()) return;
  const Tensor x = random_tensor({4, 8, 8, 1}, 2);
  const auto theirs = keras_test::onnx::run(dir / "m.onnx", {x});
  REQUIRE(theirs.size() == 1);
  CHECK(keras_test::onnx::max_abs_diff(model.predict(x), theirs[0]) <= 1e-5);
  // And back: MODEL may be an .onnx file (keras::models::load_onnx).
  REQUIRE(std::system(("'" + cli + "' convert '" + (dir / "m.onnx") + "' '" + (dir / "back.h5") + "'").c_str()) == 0);
  CHECK(keras_test::onnx::max_abs_diff(model.predict(x), models::load_model(dir / "back.h5")->predict(x)) <= 1e-5);
}

TEST_CASE("ONNX export of the real Keras files of tests/real_models matches kerascpp's predictions", "[onnx][real_models]") {
  for (auto& real : keras_test::onnx::committed_real_models()) {
    INFO(real.file);
    const double diff = expect_matches(*real.model, real.inputs, 1e-4);
    WARN(real.file << ": max |ONNX Runtime - kerascpp| = " << diff);
  }
}

TEST_CASE("ONNX export of the Keras files in ../shared/fixtures matches kerascpp - ONNX Runtime reproduces the CNN's accuracy",
          "[onnx][fixtures]") {
  const fs::path folder = fs::path(keras_test::shared_dir) / "fixtures" / "keras-h5";
  if (!fs::exists(folder)) {
    WARN("skipped: " << folder << " is absent");
    return;
  }
  for (const std::string file : {"tf2.7_fashion_cnn_bn.h5", "tf2.2.4_fashion_cnn.h5", "tf2.13_mlp_adam.h5",
                                 "keras3.3_mnist_mlp.h5", "keras2.2.5_functional_lstm.h5"}) {
    INFO(file);
    auto model = models::load_model((folder / file).string());
    const double diff = expect_matches(*model, keras_test::onnx::random_inputs(*model), file.find("lstm") != std::string::npos ? 1e-4 : 1e-5);
    WARN(file << ": max |ONNX Runtime - kerascpp| = " << diff);
  }
  if (!fs::exists("/usr/share/datasets/fashion-mnist") || !keras_test::onnx::runtime_available()) return;
  auto model = models::load_model((folder / "tf2.7_fashion_cnn_bn.h5").string());
  TempDir dir("onnx_accuracy");
  export_onnx(*model, dir / "cnn.onnx");
  auto [train, test] = datasets::fashion_mnist::load_data();
  const Tensor x = (test.x / 255.f).reshape({test.x.dim(0), 28, 28, 1});
  const auto probs = keras_test::onnx::run(dir / "cnn.onnx", {x}).at(0).to_vector<float>();
  const auto labels = test.y.to_vector<std::int32_t>();
  std::size_t right = 0;
  for (std::size_t n = 0; n < labels.size(); ++n)
    right += std::max_element(probs.begin() + n * 10, probs.begin() + (n + 1) * 10) - (probs.begin() + n * 10) == labels[n];
  const double accuracy = double(right) / double(labels.size());
  CHECK(std::round(accuracy * 1e4) / 1e4 == Approx(0.9122).margin(1e-9));  // the Keras author's figure
}

namespace {

// A basic residual block of ResNet-20 (He et al. 2016, CIFAR form): two 3x3 convolutions with batch
// normalization, the shortcut a strided 1x1 convolution where the shape changes.
KerasTensor residual_block(const KerasTensor& x, std::int64_t filters, std::int64_t stride) {
  auto y = layers::Conv2D(filters, {3, 3}, {.strides = {stride, stride}, .padding = "same", .use_bias = false})(x);
  y = layers::Activation("relu")(layers::BatchNormalization()(y));
  y = layers::BatchNormalization()(layers::Conv2D(filters, {3, 3}, {.padding = "same", .use_bias = false})(y));
  auto shortcut = x;
  if (stride != 1 || x.shape().back() != filters)
    shortcut = layers::Conv2D(filters, {1, 1}, {.strides = {stride, stride}})(x);
  return layers::Activation("relu")(layers::add({y, shortcut}));
}


// ResNet-20 for 32x32x3 images, Glorot kernels as initialized, the normalizations' statistics and parameters made
// non-trivial.
Model resnet20() {
  auto in = keras::Input({32, 32, 3});
  auto x = layers::Activation("relu")(layers::BatchNormalization()(layers::Conv2D(16, {3, 3}, {.padding = "same"})(in)));
  for (std::int64_t stage = 0; stage < 3; ++stage)
    for (int block = 0; block < 3; ++block) x = residual_block(x, 16 << stage, stage > 0 && block == 0 ? 2 : 1);
  Model model(in, layers::Dense(10)(layers::GlobalAveragePooling2D()(x)), "resnet20");
  std::uint32_t seed = 1;
  for (const auto& w : model.weights()) {
    const std::string& n = w->name();
    if (n.find("variance") != std::string::npos) w->assign(random_tensor(w->value().shape(), seed++, 0.5f, 1.5f));
    else if (n.find("gamma") != std::string::npos) w->assign(random_tensor(w->value().shape(), seed++, 0.5f, 1.5f));
    else if (n.find("beta") != std::string::npos || n.find("mean") != std::string::npos)
      w->assign(random_tensor(w->value().shape(), seed++, -0.2f, 0.2f));
  }
  return model;
}

}  // namespace

TEST_CASE("ONNX export of ResNet-20 matches kerascpp within 1e-5", "[onnx]") {
  Model model = resnet20();
  const double diff = expect_matches(model, {random_tensor({8, 32, 32, 3}, 4, 0.f, 1.f)});
  WARN("ResNet-20 (" << model.count_params() << " parameters): max |ONNX Runtime - kerascpp| = " << diff);
}

// The issue's numbers: the seed CNN of examples/seed_cnn.hpp and ResNet-20, saved, converted by the command-line
// tool, run in ONNX Runtime.
TEST_CASE("kerascpp convert of the seed CNN and ResNet-20 to ONNX matches kerascpp within 1e-5", "[onnx][tools]") {
  TempDir dir("onnx_convert_issue");
  const std::string cli = (fs::path(keras_test::bin_dir) / "kerascpp").string();
  Sequential seed = seed_cnn();
  std::uint32_t bias_seed = 3;  // as built (Glorot kernels), biases made non-zero
  for (const auto& w : seed.weights())
    if (w->name() == "bias") w->assign(random_tensor(w->value().shape(), bias_seed++, -0.1f, 0.1f));
  Model resnet = resnet20();
  struct Case {
    Model* model;
    std::string name;
    Tensor x;
  };
  for (auto& c : std::vector<Case>{{&seed, "seed_cnn", random_tensor({16, 28, 28, 1}, 5, 0.f, 1.f)},
                                   {&resnet, "resnet20", random_tensor({8, 32, 32, 3}, 6, 0.f, 1.f)}}) {
    INFO(c.name);
    const std::string keras_file = dir / (c.name + ".keras"), onnx_file = dir / (c.name + ".onnx");
    c.model->save(keras_file);
    REQUIRE(std::system(("'" + cli + "' convert '" + keras_file + "' '" + onnx_file + "' > /dev/null").c_str()) == 0);
    CHECK(keras_test::onnx::check(onnx_file).empty());
    if (!keras_test::onnx::runtime_available()) continue;
    const auto theirs = keras_test::onnx::run(onnx_file, {c.x});
    REQUIRE(theirs.size() == 1);
    const double diff = keras_test::onnx::max_abs_diff(c.model->predict(c.x), theirs[0]);
    CHECK(diff <= 1e-5);
    WARN("kerascpp convert " << c.name << " (" << c.model->count_params() << " parameters): max |ONNX Runtime - kerascpp| = "
                             << diff);
  }
}

TEST_CASE("ONNX export keeps unknown time lengths dynamic (same-padded Conv1D, LSTM)", "[onnx]") {
  auto in = keras::Input({-1, 4});
  auto h = layers::Conv1D(6, 3, {.strides = 2, .padding = "same", .activation = "relu"})(in);
  Model model(in, layers::Dense(2)(layers::LSTM(5)(h)));
  randomize_weights(model);
  expect_matches(model, {random_tensor({2, 9, 4}, 1)}, 1e-4);
  expect_matches(model, {random_tensor({3, 4, 4}, 2)}, 1e-4);
}

namespace {

// A Keras 3 keras.ops node (layers::Operation) of class `op` with init arguments `config`, called on `inputs`.
KerasTensor keras_op(const std::string& op, const std::string& module, json config, json args, json kwargs,
                     const std::vector<KerasTensor>& inputs) {
  auto layer = std::make_shared<layers::Operation>(op, module, std::move(config), "");
  layer->set_call_arguments(std::move(args), std::move(kwargs), layers::OpLayer::NodeForm::keras3);
  return layer->call_all(inputs).at(0);
}

}  // namespace

TEST_CASE("ONNX export of op layers beyond elementwise (matmul, softmax, stack, cast, comparisons)", "[onnx]") {
  const json in0 = layers::input_placeholder(0), in1 = layers::input_placeholder(1);
  auto x = keras::Input({4, 3}), y = keras::Input({5, 3});
  auto h = layers::Dense(3)(x);
  Model model({x, y}, std::vector<KerasTensor>{
                          tf_op("linalg.matmul", json::array({in0}), {{"b", in1}, {"transpose_b", true}}, {h, y}),
                          tf_op("linalg.matmul", json::array({in0}), {{"b", in1}, {"transpose_a", true}}, {h, h}),
                          tf_op("nn.softmax", json::array({in0}), {{"axis", 1}}, {h}),
                          tf_op("nn.log_softmax", json::array({in0}), json::object(), {h}),
                          tf_op("stack", json::array({json::array({in0, in1})}), {{"axis", 1}}, {h, x}),
                          tf_op("stack", json::array({json::array({in0, in1})}), {{"axis", -1}}, {h, x}),
                          tf_op("cast", json::array({in0}), {{"dtype", "int32"}}, {h}),
                          tf_op("math.greater", json::array({in0}), {{"y", in1}}, {h, x}),
                          tf_op("math.not_equal", json::array({in0}), {{"y", 0.5}}, {h}),
                          tf_op("math.less_equal", json::array({in0}), {{"y", in1}}, {h, x}),
                          tf_op("math.square", json::array({in0}), json::object(), {h}),
                          tf_op("math.rsqrt", json::array({in0}), json::object(), {x}),
                          tf_op("nn.relu6", json::array({in0}), json::object(), {h}),
                          tf_op("nn.softplus", json::array({in0}), json::object(), {h}),
                          tf_op("nn.silu", json::array({in0}), {{"beta", 1.5}}, {h}),
                          tf_op("nn.leaky_relu", json::array({in0}), {{"alpha", 0.3}}, {h}),
                          tf_op("math.reduce_min", json::array({in0}), {{"axis", 1}}, {h})});
  randomize_weights(model);
  Tensor xs = random_tensor({2, 4, 3}, 1, 0.1f, 3.f);
  xs.data<float>()[0] = 0.5f;  // an exact comparison
  expect_matches(model, {xs, random_tensor({2, 5, 3}, 2)});

  // Keras 3 keras.ops nodes.
  Model k3({x, y}, std::vector<KerasTensor>{
                       keras_op("Matmul", "keras.src.ops.numpy", json::object(), json::array({in0, in1}), json::object(),
                                {h, tf_op("transpose", json::array({in0}), {{"perm", json::array({0, 2, 1})}}, {y})}),
                       keras_op("Softmax", "keras.src.ops.nn", {{"axis", -2}}, json::array({in0}), json::object(), {h}),
                       keras_op("Stack", "keras.src.ops.numpy", {{"axis", 1}}, json::array({json::array({in0, in1})}),
                                json::object(), {h, x}),
                       keras_op("Cast", "keras.src.ops.core", {{"dtype", "int64"}}, json::array({in0}), json::object(), {h})});
  randomize_weights(k3);
  expect_matches(k3, {xs, random_tensor({2, 5, 3}, 2)});
}
