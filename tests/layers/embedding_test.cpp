// Embedding: gather forward, scatter-add backward, mask_zero, config and errors.
#include <catch2/catch.hpp>

#include "gradient_check.hpp"
#include "keras/json.hpp"
#include "keras/keras.hpp"

namespace k = keras;

TEST_CASE("Embedding gathers rows and scatters gradients back, repeated ids adding up", "[embedding]") {
  k::layers::Embedding emb(4, 3);
  k::Tensor ids = k::Tensor::from_vector<std::int32_t>({2, 0, 2, 3, 1, 2}, {2, 3});
  k::Tensor y;
  std::vector<k::Tensor> g;
  {
    k::GradientTape tape;
    y = emb(ids);
    k::Tensor w = k::Tensor::from_vector<float>({1, 2, 3, 4, 5, 6}, {2, 3, 1});
    g = tape.gradient(k::ops::sum(k::ops::multiply(y, w)), emb.trainable_weights());
  }
  REQUIRE(y.shape() == k::Shape{2, 3, 3});
  const auto table = emb.embeddings()->value().to_vector<float>();
  const auto out = y.to_vector<float>();
  const int id[] = {2, 0, 2, 3, 1, 2};
  for (int p = 0; p < 6; ++p)
    for (int d = 0; d < 3; ++d) CHECK(out[p * 3 + d] == table[id[p] * 3 + d]);
  // Row r of the gradient sums the weights of the positions holding id r.
  const float want[] = {2, 5, 1 + 3 + 6, 4};
  const auto grad = g[0].to_vector<float>();
  for (int r = 0; r < 4; ++r)
    for (int d = 0; d < 3; ++d) CHECK(grad[r * 3 + d] == want[r]);
  for (float v : table) CHECK(std::abs(v) <= 0.05f);  // "uniform": U(-0.05, 0.05)
}

TEST_CASE("Embedding masks, config and errors", "[embedding]") {
  k::layers::Embedding emb(10, 2, {.mask_zero = true, .input_length = 3});
  k::Tensor ids = k::Tensor::from_vector<float>({5, 0, 1, 0, 0, 9}, {2, 3});
  CHECK(emb.compute_mask(ids, k::Tensor()).to_vector<float>() == std::vector<float>{1, 0, 1, 0, 0, 1});
  CHECK(emb.compute_output_shape({-1, 3}) == k::Shape{-1, 3, 2});
  CHECK(*emb.batch_input_shape() == k::Shape{-1, 3});
  const k::json c = emb.get_config();
  CHECK(c["embeddings_initializer"]["class_name"] == "RandomUniform");
  CHECK(c["mask_zero"] == true);
  CHECK(c["input_length"] == 3);
  auto again = k::Layer::deserialize({{"class_name", "Embedding"}, {"config", c}});
  CHECK(again->get_config() == c);
  CHECK_THROWS_AS(emb(k::Tensor::from_vector<float>({10}, {1, 1})), k::ValueError);
  CHECK_THROWS_AS(emb(k::Tensor::from_vector<float>({1.5f}, {1, 1})), k::ValueError);
  k::layers::Embedding plain(10, 2);
  CHECK_FALSE(plain.compute_mask(ids, k::Tensor()).defined());
}
