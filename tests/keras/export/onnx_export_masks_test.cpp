// ONNX export of models whose layers read Keras masks (Masking, Embedding(mask_zero=true)): the mask is
// computed in the graph, and GlobalAveragePooling1D, SimpleRNN/LSTM/GRU and Bidirectional give Keras's masked
// results. Inputs are padded after the data, before it, with holes, and one sample is masked entirely; ONNX
// Runtime must match kerascpp's predict within 1e-5 (1e-4 for recurrent layers).
#include <catch2/catch.hpp>

#include "keras/export/onnx/export_onnx.hpp"
#include "keras/keras.hpp"
#include "onnx_runtime.hpp"
#include "onnx_test_models.hpp"
#include "temp_dir.hpp"

using namespace keras;
using keras_test::onnx::expect_matches;
using keras_test::onnx::random_indices;
using keras_test::onnx::random_tensor;
using keras_test::onnx::randomize_weights;

namespace {

constexpr double kRecurrentTolerance = 1e-4;
constexpr std::int64_t kSteps = 6, kFeatures = 3;

// [5, 6, 3] features whose masked steps (all features 0) are: none; the last two (post-padding); the first
// three (pre-padding); steps 1 and 4 (holes); every step.
Tensor padded_features() {
  Tensor x = random_tensor({5, kSteps, kFeatures}, 21, 0.1f, 1.f);
  const std::vector<std::vector<int>> masked{{}, {4, 5}, {0, 1, 2}, {1, 4}, {0, 1, 2, 3, 4, 5}};
  for (std::size_t n = 0; n < masked.size(); ++n)
    for (int t : masked[n])
      for (std::int64_t f = 0; f < kFeatures; ++f) x.data<float>()[(n * kSteps + t) * kFeatures + f] = 0.f;
  return x;
}

// Masking → `layer` (→ Dense when it returns one output), checked on padded_features().
void check_masked(LayerRef layer) {
  auto in = keras::Input({kSteps, kFeatures});
  auto masked = layers::Masking(0.f)(in);
  auto outputs = layer->call_all({masked});
  Model model(in, outputs);
  randomize_weights(model);
  INFO(model.layers().back()->get_config().dump());
  expect_matches(model, {padded_features()}, kRecurrentTolerance);
}

}  // namespace

TEST_CASE("ONNX export: GlobalAveragePooling1D averages over the unmasked steps", "[onnx][masks]") {
  auto ids = keras::Input({7}, {.dtype = DType::int32});
  auto pooled = layers::GlobalAveragePooling1D()(layers::Embedding(12, 4, {.mask_zero = true})(ids));
  Model model(ids, layers::Dense(2)(pooled));
  randomize_weights(model);
  Tensor x = random_indices({4, 7}, 5, 12);
  auto* p = x.data<std::int32_t>();
  p[5] = p[6] = 0;         // post-padded
  p[7] = p[8] = p[9] = 0;  // pre-padded
  for (int t = 0; t < 7; ++t) p[14 + t] = t % 2 ? 0 : p[14 + t] + 1;  // holes (and no other zero)
  expect_matches(model, {x});
  check_masked(layers::GlobalAveragePooling1D());
}

TEST_CASE("ONNX export: SimpleRNN, LSTM and GRU under a mask follow Keras's masked steps", "[onnx][masks][recurrent]") {
  check_masked(layers::SimpleRNN(4));
  check_masked(layers::SimpleRNN(4, {.return_sequences = true}));
  check_masked(layers::LSTM(4));
  check_masked(layers::LSTM(4, {.return_sequences = true}));
  check_masked(layers::LSTM(4, {.return_sequences = true, .return_state = true, .go_backwards = true}));
  check_masked(layers::LSTM(4, {.return_state = true, .go_backwards = true}));
  check_masked(layers::GRU(4, {.return_sequences = true}));
  check_masked(layers::GRU(4, {.reset_after = false, .return_state = true}));
  check_masked(layers::LSTM(4, {.return_sequences = true, .zero_output_for_mask = true}));
  check_masked(layers::GRU(4, {.zero_output_for_mask = true}));
}

TEST_CASE("ONNX export: Bidirectional under a mask", "[onnx][masks][recurrent]") {
  for (const std::string mode : {"concat", "sum", "mul", "ave"}) {
    INFO("merge_mode " << mode);
    check_masked(layers::Bidirectional(layers::LSTM(3, {.return_sequences = true}), {.merge_mode = mode}));
    check_masked(layers::Bidirectional(layers::GRU(3), {.merge_mode = mode}));
  }
  check_masked(layers::Bidirectional(layers::SimpleRNN(3, {.return_sequences = true}), {.merge_mode = "none"}));
  check_masked(layers::Bidirectional(layers::LSTM(3, {.return_state = true})));
}

TEST_CASE("ONNX export: a mask passes through Dense and stacked recurrent layers - initial states under a mask",
          "[onnx][masks][recurrent]") {
  auto ids = keras::Input({kSteps}, {.dtype = DType::int32});
  auto h = layers::Embedding(9, 4, {.mask_zero = true})(ids);
  h = layers::Dense(5, {.activation = "tanh"})(h);
  h = layers::LSTM(4, {.return_sequences = true})(h);
  h = layers::Bidirectional(layers::GRU(3, {.return_sequences = true}))(h);
  Model model(ids, layers::Dense(2)(layers::GRU(3)(h)));
  randomize_weights(model);
  Tensor x = random_indices({4, kSteps}, 8, 9);
  auto* p = x.data<std::int32_t>();
  p[4] = p[5] = 0;
  p[6] = p[7] = 0;
  for (int t = 0; t < kSteps; ++t) p[3 * kSteps + t] = 0;  // sample 3 is all padding
  p[2 * kSteps + 3] = 0;
  for (int t : {0, 1, 2, 4, 5}) p[2 * kSteps + t] = p[2 * kSteps + t] == 0 ? 1 : p[2 * kSteps + t];
  expect_matches(model, {x}, kRecurrentTolerance);

  auto in = keras::Input({kSteps, kFeatures}), h0 = keras::Input({4}), c0 = keras::Input({4});
  auto lstm = std::make_shared<layers::LSTM>(4, layers::LSTMOptions{.return_sequences = true, .return_state = true});
  Model started({in, h0, c0}, lstm->call_all({layers::Masking(0.f)(in), h0, c0}));
  randomize_weights(started);
  expect_matches(started, {padded_features(), random_tensor({5, 4}, 2), random_tensor({5, 4}, 3)}, kRecurrentTolerance);
}

TEST_CASE("ONNX export refuses a mask reaching a layer whose masked result it cannot compute", "[onnx][masks]") {
  auto in = keras::Input({kSteps, kFeatures});
  Model model(in, layers::TimeDistributed(layers::Dense(2))(layers::Masking(0.f)(in)));
  keras_test::TempDir dir("onnx_mask_refused");
  CHECK_THROWS_WITH(export_onnx(model, dir / "m.onnx"), Catch::Contains("TimeDistributed") && Catch::Contains("mask"));
  // A mask entering a nested model whose layers read it.
  auto inner = std::make_shared<Sequential>(std::vector<LayerRef>{keras::Input({kSteps, kFeatures}), layers::LSTM(2)}, "inner");
  Model nested(in, inner->call_all({layers::Masking(0.f)(in)}));
  CHECK_THROWS_WITH(export_onnx(nested, dir / "m.onnx"), Catch::Contains("'inner'") && Catch::Contains("nested"));
}

TEST_CASE("ONNX export: Attention, AdditiveAttention and MultiHeadAttention under Keras masks", "[onnx][masks]") {
  auto q = keras::Input({kSteps, kFeatures}), v = keras::Input({5, kFeatures});
  auto mq = layers::Masking(0.f)(q), mv = layers::Masking(0.f)(v);
  Tensor values = random_tensor({5, 5, kFeatures}, 4, 0.1f, 1.f);
  for (int t : {3, 4})  // sample 0: the last two values masked; sample 1: every value masked
    for (std::int64_t f = 0; f < kFeatures; ++f) values.data<float>()[(0 * 5 + t) * kFeatures + f] = 0.f;
  for (std::int64_t i = 0; i < 5 * kFeatures; ++i) values.data<float>()[1 * 5 * kFeatures + i] = 0.f;
  const std::vector<Tensor> xs{padded_features(), values};
  for (auto layer : std::vector<LayerPtr>{std::make_shared<layers::Attention>(),
                                          std::make_shared<layers::Attention>(layers::AttentionOptions{.score_mode = "concat"}),
                                          std::make_shared<layers::AdditiveAttention>(),
                                          std::make_shared<layers::MultiHeadAttention>(2, 3)}) {
    Model model({q, v}, (*layer)({mq, mv}));
    randomize_weights(model);
    INFO(layer->get_config().dump());
    expect_matches(model, xs);
  }
  // Self-attention with the causal flag and a query mask.
  Model causal(q, layers::Attention({.causal = true})({mq, mq}));
  expect_matches(causal, {padded_features()});
  // MultiHeadAttention with query, value and key masks.
  auto k = keras::Input({5, kFeatures});
  Model three({q, v, k}, layers::MultiHeadAttention(2, 2)({mq, mv, layers::Masking(0.f)(k)}));
  randomize_weights(three);
  expect_matches(three, {padded_features(), values, random_tensor({5, 5, kFeatures}, 8)});
}

TEST_CASE("ONNX export: MultiHeadAttention over inputs of rank 4 (attention over both middle axes)", "[onnx]") {
  auto q = keras::Input({3, 4, 5}), v = keras::Input({2, 3, 6});
  Model model({q, v}, layers::MultiHeadAttention(2, 3, {.output_shape = {2, 3}})({q, v}));
  randomize_weights(model);
  expect_matches(model, {random_tensor({2, 3, 4, 5}, 1), random_tensor({2, 2, 3, 6}, 2)});
  Model self(q, layers::MultiHeadAttention(3, 2)({q, q}));
  randomize_weights(self);
  expect_matches(self, {random_tensor({2, 3, 4, 5}, 3)});
}
