// keras::models::load_onnx: models exported by keras::export_onnx come back as functional models whose
// predictions match the originals (within 1e-5); ONNX ops without a Keras layer are an error listing them.
#include <algorithm>
#include <filesystem>
#include <fstream>

#include <catch2/catch.hpp>

#include "keras/export/onnx/export_onnx.hpp"
#include "keras/import/onnx/load_onnx.hpp"
#include "keras/keras.hpp"
#include "keras/export/onnx_runtime.hpp"
#include "keras/export/onnx_test_models.hpp"
#include "temp_dir.hpp"
#include "test_paths.hpp"

using namespace keras;
using keras_test::TempDir;
using keras_test::onnx::max_abs_diff;
using keras_test::onnx::random_tensor;
using keras_test::onnx::randomize_weights;

namespace {

// Exports `model`, loads the file back, and returns the largest difference of their predictions on `x`.
double round_trip(Model& model, const Tensor& x) {
  TempDir dir("onnx_import");
  export_onnx(model, dir / "m.onnx");
  auto loaded = models::load_onnx(dir / "m.onnx");
  CHECK(loaded->input_names() == model.input_names());
  return max_abs_diff(model.predict(x), loaded->predict(x));
}

}  // namespace

TEST_CASE("load_onnx reads back the seed CNN kerascpp exported", "[onnx][import]") {
  Sequential model({keras::Input({12, 12, 1}), layers::Conv2D(4, {3, 3}, {.activation = "relu"}), layers::MaxPooling2D({2, 2}),
                    layers::Conv2D(6, {3, 3}, {.strides = {2, 2}, .padding = "same"}), layers::BatchNormalization(),
                    layers::AveragePooling2D({2, 2}, {.padding = "same"}), layers::Flatten(), layers::Dropout(0.5),
                    layers::Dense(8, {.activation = "tanh"}), layers::Dense(3, {.activation = "softmax"})});
  randomize_weights(model);
  CHECK(round_trip(model, random_tensor({5, 12, 12, 1}, 2)) <= 1e-5);
}

TEST_CASE("load_onnx reads back a functional model with a residual Add, Concatenate and global pooling", "[onnx][import]") {
  auto in = keras::Input({9, 3});
  auto a = layers::Conv1D(4, 3, {.padding = "causal", .dilation_rate = 2})(in);
  auto b = layers::Conv1D(4, 3, {.padding = "same", .activation = "sigmoid"})(in);
  auto joined = layers::Concatenate()({layers::add({a, b}), b});
  Model model(in, layers::Dense(2)(layers::GlobalAveragePooling1D()(joined)));
  randomize_weights(model);
  CHECK(round_trip(model, random_tensor({4, 9, 3}, 5)) <= 1e-5);
}

TEST_CASE("load_onnx reads back SimpleRNN, LSTM, GRU and Bidirectional layers", "[onnx][import]") {
  auto in = keras::Input({6, 3});
  auto seq = layers::LSTM(4, {.recurrent_activation = "hard_sigmoid", .return_sequences = true, .go_backwards = true})(in);
  auto gru = layers::GRU(3, {.return_sequences = true})(seq);
  auto gru_plain = layers::GRU(3, {.reset_after = false})(gru);
  auto lstm = std::make_shared<layers::LSTM>(2, layers::LSTMOptions{.return_state = true});
  auto states = lstm->call_all(std::vector<KerasTensor>{in});
  auto rnn = layers::SimpleRNN(2, {.activation = "relu"})(in);
  auto bidi_seq = layers::Bidirectional(layers::GRU(3, {.return_sequences = true}), {.merge_mode = "sum"})(in);
  auto bidi = std::make_shared<layers::Bidirectional>(layers::LSTM(2, {.return_state = true}));
  auto bidi_states = bidi->call_all(std::vector<KerasTensor>{bidi_seq});
  auto bidi_ave = layers::Bidirectional(layers::SimpleRNN(2), {.merge_mode = "ave"})(in);
  Model model(in, std::vector<KerasTensor>{gru_plain, states[0], states[2], rnn, bidi_states[0], bidi_states[2],
                                           bidi_states[3], bidi_ave});
  randomize_weights(model);
  TempDir dir("onnx_import_rnn");
  export_onnx(model, dir / "m.onnx");
  auto loaded = models::load_onnx(dir / "m.onnx");
  const Tensor x = random_tensor({3, 6, 3}, 8);
  const auto ours = model.predict_outputs(x), theirs = loaded->predict_outputs(x);
  REQUIRE(ours.size() == theirs.size());
  for (std::size_t i = 0; i < ours.size(); ++i) CHECK(max_abs_diff(ours[i], theirs[i]) <= 1e-5);
}

TEST_CASE("load_onnx lists the ONNX ops it has no Keras layer for", "[onnx][import]") {
  Sequential model({keras::Input({5, 3}), layers::LayerNormalization(), layers::ThresholdedReLU(0.5), layers::Dense(2)});
  TempDir dir("onnx_import_error");
  export_onnx(model, dir / "m.onnx");
  CHECK_THROWS_AS(models::load_onnx(dir / "m.onnx"), keras::ValueError);
  CHECK_THROWS_WITH(models::load_onnx(dir / "m.onnx"), Catch::Contains("LayerNormalization") && Catch::Contains("Greater"));
  std::ofstream(dir / "bad.onnx") << "not a protobuf";
  CHECK_THROWS_WITH(models::load_onnx(dir / "bad.onnx"), Catch::Contains("not an ONNX model"));
}

TEST_CASE("load_onnx reads back the exported real Keras files of tests/real_models", "[onnx][import]") {
  int imported = 0;
  for (auto& real : keras_test::onnx::committed_real_models()) {
    INFO(real.file);
    TempDir dir("onnx_import_corpus");
    export_onnx(*real.model, dir / "m.onnx");
    auto loaded = models::load_onnx(dir / "m.onnx");
    const auto ours = real.model->predict_outputs(Arrays(real.inputs)), theirs = loaded->predict_outputs(Arrays(real.inputs));
    REQUIRE(ours.size() == theirs.size());
    for (std::size_t i = 0; i < ours.size(); ++i) CHECK(max_abs_diff(ours[i], theirs[i]) <= 1e-5);
    ++imported;
  }
  CHECK(imported == 12);
}

TEST_CASE("load_onnx reads back the exported Keras files of ../shared/fixtures (initial states, Bidirectional)", "[onnx][import]") {
  const std::filesystem::path folder = std::filesystem::path(keras_test::shared_dir) / "fixtures" / "keras-h5";
  if (!std::filesystem::exists(folder)) {
    WARN("skipped: " << folder << " is absent");
    return;
  }
  for (const std::string file : {"keras2.2.5_functional_lstm.h5", "tf2.7_fashion_cnn_bn.h5", "tf2.13_mlp_adam.h5"}) {
    INFO(file);
    auto model = models::load_model((folder / file).string());
    const std::vector<Tensor> inputs = keras_test::onnx::random_inputs(*model, 3);
    TempDir dir("onnx_import_fixture");
    export_onnx(*model, dir / "m.onnx");
    auto loaded = models::load_onnx(dir / "m.onnx");
    const auto ours = model->predict_outputs(Arrays(inputs)), theirs = loaded->predict_outputs(Arrays(inputs));
    REQUIRE(ours.size() == theirs.size());
    for (std::size_t i = 0; i < ours.size(); ++i) CHECK(max_abs_diff(ours[i], theirs[i]) <= 1e-5);
  }
}

TEST_CASE("load_onnx maps tf2onnx's patterns (Unsqueeze, NCHW Reshape, Conv, Transpose, Reshape, MatMul + Add)",
          "[onnx][import]") {
  // A LeNet in the node patterns tf2onnx 1.16.1 writes (tests/golden/make_onnx_tf2onnx_patterns.py); ONNX Runtime
  // running the file is the reference.
  const std::string file =
      (std::filesystem::path(keras_test::golden_dir) / ".." / "keras" / "import" / "onnx" / "fixtures" / "tf2onnx_lenet_patterns.onnx")
          .string();
  auto model = models::load_onnx(file);
  REQUIRE(model->input_names() == std::vector<std::string>{"input"});
  std::vector<std::string> classes;
  for (const auto& layer : model->layers()) classes.push_back(layer->class_name());
  CHECK(std::count(classes.begin(), classes.end(), "Conv2D") == 2);
  CHECK(std::count(classes.begin(), classes.end(), "Dense") == 3);
  const Tensor x = random_tensor({4, 28, 28}, 3, 0.f, 1.f);
  const Tensor ours = model->predict(x);
  CHECK(ours.shape() == Shape{4, 10});
  if (!keras_test::onnx::runtime_available()) return;
  const auto theirs = keras_test::onnx::run(file, {x});
  REQUIRE(theirs.size() == 1);
  const double diff = max_abs_diff(ours, theirs[0]);
  CHECK(diff <= 1e-5);
  WARN("tf2onnx-pattern LeNet: max |kerascpp load_onnx - ONNX Runtime| = " << diff);
}
