// Keras masks through multi-input calls of a functional model: attention layers receive the masks of
// their inputs, merging layers pass on the logical and of them, as tf.keras does.
#include <catch2/catch.hpp>

#include "keras/keras.hpp"

using namespace keras;

namespace {
void check_same(const Tensor& a, const Tensor& b) {
  REQUIRE(a.shape() == b.shape());
  const auto x = a.to_vector<float>(), y = b.to_vector<float>();
  for (std::size_t i = 0; i < x.size(); ++i) CHECK(x[i] == Approx(y[i]).margin(1e-6));
}
}  // namespace

TEST_CASE("Embedding(mask_zero) masks reach Attention and MultiHeadAttention in a functional model", "[mask][attention]") {
  utils::set_random_seed(4);
  auto emb = std::make_shared<layers::Embedding>(10, 4, layers::EmbeddingOptions{.mask_zero = true});
  auto att = std::make_shared<layers::Attention>();
  auto mha = std::make_shared<layers::MultiHeadAttention>(2, 3);
  KerasTensor q_in = Input({3}), v_in = Input({5});
  KerasTensor q = (*emb)(q_in), v = (*emb)(v_in);
  Model model(std::vector<KerasTensor>{q_in, v_in}, std::vector<KerasTensor>{(*att)({q, v}), (*mha)({q, v})});
  Tensor qx = Tensor::from_vector<float>({1, 2, 0, 4, 0, 0}, {2, 3});
  Tensor vx = Tensor::from_vector<float>({3, 1, 4, 0, 0, 2, 7, 5, 9, 0}, {2, 5});
  const auto outs = model.predict_outputs({qx, vx});
  const Tensor qe = (*emb)(qx), ve = (*emb)(vx);
  const Tensor q_mask = emb->compute_mask(qx, Tensor()), v_mask = emb->compute_mask(vx, Tensor());
  check_same(outs[0], att->call_with_args({qe, ve}, {.mask = {q_mask, v_mask}})[0]);
  check_same(outs[1], mha->call_with_args({qe, ve}, {.query_mask = q_mask, .value_mask = v_mask})[0]);
  // Without masks the padded positions would count: the masked result differs from the plain call.
  const auto plain = att->call_with_args({qe, ve})[0].to_vector<float>();
  const auto masked = outs[0].to_vector<float>();
  double diff = 0;
  for (std::size_t i = 0; i < plain.size(); ++i) diff += std::abs(plain[i] - masked[i]);
  CHECK(diff > 1e-4);
}

TEST_CASE("Add and Concatenate pass the and of their inputs' masks on to an LSTM", "[mask]") {
  utils::set_random_seed(6);
  auto e1 = std::make_shared<layers::Embedding>(10, 3, layers::EmbeddingOptions{.mask_zero = true});
  auto e2 = std::make_shared<layers::Embedding>(10, 3, layers::EmbeddingOptions{.mask_zero = true});
  for (bool concat : {false, true}) {
    auto lstm = std::make_shared<layers::LSTM>(4);
    KerasTensor a = Input({4}), b = Input({4});
    KerasTensor merged = concat ? layers::Concatenate()({(*e1)(a), (*e2)(b)}) : layers::Add()({(*e1)(a), (*e2)(b)});
    Model model(std::vector<KerasTensor>{a, b}, (*lstm)(merged));
    // Step 3 is padding in the first input, step 2 in the second: both are skipped by the LSTM.
    Tensor xa = Tensor::from_vector<float>({1, 2, 3, 0}, {1, 4}), xb = Tensor::from_vector<float>({4, 5, 0, 6}, {1, 4});
    const Tensor got = model.predict_outputs({xa, xb})[0];
    Tensor ea = (*e1)(xa), eb = (*e2)(xb);
    Tensor feats = concat ? layers::concatenate({ea, eb}) : ops::add(ea, eb);
    INFO((concat ? "Concatenate" : "Add"));
    check_same(got, lstm->call_all({feats}, {.masks = {Tensor::from_vector<float>({1, 1, 0, 0}, {1, 4})}})[0]);
  }
}

TEST_CASE("a functional model used as a layer receives the mask of the layer before it", "[mask]") {
  utils::set_random_seed(7);
  auto emb = std::make_shared<layers::Embedding>(10, 3, layers::EmbeddingOptions{.mask_zero = true});
  auto lstm = std::make_shared<layers::LSTM>(4);
  KerasTensor seq = Input({4, 3});
  auto inner = std::make_shared<Model>(seq, (*lstm)(seq));
  KerasTensor ids = Input({4});
  Model outer(ids, (*inner)((*emb)(ids)));
  // Step 3 is padding: the inner model's LSTM skips it, as the mask reaches the inner graph's input.
  const Tensor x = Tensor::from_vector<float>({1, 2, 3, 0}, {1, 4});
  check_same(outer.predict(x), lstm->call_all({(*emb)(x)}, {.masks = {Tensor::from_vector<float>({1, 1, 1, 0}, {1, 4})}})[0]);
  const auto plain = (*lstm)((*emb)(x)).to_vector<float>(), masked = outer.predict(x).to_vector<float>();
  CHECK(plain != masked);
}
