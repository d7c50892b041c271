// ONNX export of the recurrent layers (ONNX's RNN, LSTM and GRU ops with Keras's gate order, GRU's reset_after
// as linear_before_reset), Bidirectional in every merge mode, TimeDistributed and the attention layers;
// ONNX Runtime must match kerascpp within 1e-4 for recurrent layers, 1e-5 for the others.
#include <catch2/catch.hpp>

#include "keras/keras.hpp"
#include "onnx_test_models.hpp"

using namespace keras;
using keras_test::onnx::expect_matches;
using keras_test::onnx::random_tensor;
using keras_test::onnx::randomize_weights;

namespace {

constexpr double kRecurrentTolerance = 1e-4;

void check_sequence_model(LayerRef layer, double tolerance = kRecurrentTolerance) {
  auto in = keras::Input({6, 4});
  const LayerPtr layer_ptr = layer.ptr();
  const auto outputs = layer_ptr->call_all(std::vector<KerasTensor>{in});
  Model model(in, outputs);
  randomize_weights(model);
  INFO(layer_ptr->class_name() << " " << layer_ptr->get_config().dump());
  expect_matches(model, {random_tensor({3, 6, 4}, 9)}, tolerance);
}

}  // namespace

TEST_CASE("ONNX export: SimpleRNN, LSTM and GRU", "[onnx][recurrent]") {
  check_sequence_model(layers::SimpleRNN(5));
  check_sequence_model(layers::SimpleRNN(5, {.activation = "relu", .return_sequences = true}));
  check_sequence_model(layers::LSTM(5));
  check_sequence_model(layers::LSTM(5, {.return_sequences = true, .go_backwards = true}));
  check_sequence_model(layers::LSTM(5, {.recurrent_activation = "hard_sigmoid", .return_sequences = true, .return_state = true}));
  check_sequence_model(layers::GRU(5));
  check_sequence_model(layers::GRU(5, {.reset_after = false, .return_sequences = true}));
  check_sequence_model(layers::GRU(5, {.return_state = true, .go_backwards = true}));
}

TEST_CASE("ONNX export: Bidirectional in every merge mode", "[onnx][recurrent]") {
  for (const std::string mode : {"concat", "sum", "mul", "ave"}) {
    INFO("merge_mode " << mode);
    check_sequence_model(layers::Bidirectional(layers::LSTM(4, {.return_sequences = true}), {.merge_mode = mode}));
    check_sequence_model(layers::Bidirectional(layers::GRU(4), {.merge_mode = mode}));
  }
  check_sequence_model(layers::Bidirectional(layers::SimpleRNN(3, {.return_sequences = true}), {.merge_mode = "none"}));
  check_sequence_model(layers::Bidirectional(layers::LSTM(3, {.return_state = true})));
  // Activations with parameters in both directions: each takes its own entries of activation_alpha/beta.
  check_sequence_model(layers::Bidirectional(layers::LSTM(3, {.recurrent_activation = "hard_sigmoid", .return_sequences = true})));
  check_sequence_model(layers::Bidirectional(layers::GRU(3, {.activation = "elu", .recurrent_activation = "linear"})));
}

TEST_CASE("ONNX export: recurrent layers started from given initial states", "[onnx][recurrent]") {
  auto x = keras::Input({6, 4}), h = keras::Input({5}), c = keras::Input({5});
  auto lstm = std::make_shared<layers::LSTM>(5, layers::LSTMOptions{.return_sequences = true});
  Model model({x, h, c}, (*lstm)({x, h, c}));
  randomize_weights(model);
  expect_matches(model, {random_tensor({2, 6, 4}, 1), random_tensor({2, 5}, 2), random_tensor({2, 5}, 3)},
                 kRecurrentTolerance);
}

TEST_CASE("ONNX export: TimeDistributed", "[onnx]") {
  check_sequence_model(layers::TimeDistributed(layers::Dense(3, {.activation = "tanh"})), 1e-5);
  auto in = keras::Input({3, 6, 5, 2});
  Model conv(in, layers::TimeDistributed(layers::Conv2D(4, {3, 3}, {.padding = "same"}))(in));
  randomize_weights(conv);
  expect_matches(conv, {random_tensor({2, 3, 6, 5, 2}, 4)});
}

TEST_CASE("ONNX export: MultiHeadAttention", "[onnx]") {
  auto q = keras::Input({4, 6}), v = keras::Input({5, 3});
  Model self(q, layers::MultiHeadAttention(2, 3)({q, q}));
  randomize_weights(self);
  expect_matches(self, {random_tensor({2, 4, 6}, 1)});
  Model cross({q, v}, layers::MultiHeadAttention(3, 2, {.value_dim = 4, .use_bias = false, .output_shape = {2, 5}})({q, v}));
  randomize_weights(cross);
  expect_matches(cross, {random_tensor({2, 4, 6}, 2), random_tensor({2, 5, 3}, 3)});
}

TEST_CASE("ONNX export: Attention and AdditiveAttention", "[onnx]") {
  auto q = keras::Input({4, 6}), v = keras::Input({5, 6}), k = keras::Input({5, 6});
  const std::vector<Tensor> qv{random_tensor({2, 4, 6}, 1), random_tensor({2, 5, 6}, 2)};
  for (auto layer : std::vector<LayerPtr>{std::make_shared<layers::Attention>(),
                                          std::make_shared<layers::Attention>(layers::AttentionOptions{.use_scale = true}),
                                          std::make_shared<layers::Attention>(layers::AttentionOptions{.score_mode = "concat"}),
                                          std::make_shared<layers::AdditiveAttention>()}) {
    Model model({q, v}, (*layer)({q, v}));
    randomize_weights(model);
    INFO(layer->get_config().dump());
    expect_matches(model, qv);
  }
  Model with_key({q, v, k}, layers::Attention({.use_scale = true})({q, v, k}));
  randomize_weights(with_key);
  expect_matches(with_key, {qv[0], qv[1], random_tensor({2, 5, 6}, 3)});
  auto s = keras::Input({5, 6});
  Model causal(s, layers::Attention({.causal = true})({s, s}));
  expect_matches(causal, {qv[1]});
}

TEST_CASE("ONNX export: ConvLSTM1D/2D/3D unrolled over their time steps", "[onnx][recurrent]") {
  auto check = [](const Shape& shape, LayerRef layer) {
    auto in = keras::Input(shape);
    Model model(in, layer->call_all({in}));
    randomize_weights(model);
    INFO(layer->get_config().dump());
    Shape batch{2};
    batch.insert(batch.end(), shape.begin(), shape.end());
    expect_matches(model, {random_tensor(batch, 5)}, kRecurrentTolerance);
  };
  check({4, 6, 5, 2}, layers::ConvLSTM2D(3, {3, 3}));
  check({4, 6, 5, 2}, layers::ConvLSTM2D(3, {3, 2}, {.strides = {2, 1}, .padding = "same", .return_sequences = true}));
  check({4, 7, 5, 2}, layers::ConvLSTM2D(2, {3, 3}, {.dilation_rate = {2, 1}, .activation = "relu",
                                                      .recurrent_activation = "sigmoid", .go_backwards = true}));
  check({3, 6, 5, 2}, layers::ConvLSTM2D(2, {2, 2}, {.padding = "same", .return_sequences = true, .return_state = true}));
  check({5, 8, 3}, layers::ConvLSTM1D(4, 3, {.padding = "same", .use_bias = false, .return_sequences = true, .go_backwards = true}));
  check({3, 4, 4, 4, 1}, layers::ConvLSTM3D(2, {2, 2, 2}));
}
