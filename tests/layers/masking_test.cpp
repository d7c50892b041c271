// Masking: the mask from repeated mask_value steps, zeroing, and the mask reaching SimpleRNN.
#include <catch2/catch.hpp>

#include "keras/keras.hpp"

namespace k = keras;

TEST_CASE("Masking zeroes masked steps and hands the mask to the next layer", "[embedding][mask]") {
  k::layers::Masking masking(-1.f);
  k::Tensor x = k::Tensor::from_vector<float>({1, 2, -1, -1, 3, -1, -1, -1}, {1, 4, 2});
  CHECK(masking.compute_mask(x, k::Tensor()).to_vector<float>() == std::vector<float>{1, 0, 1, 0});
  CHECK(masking(x).to_vector<float>() == std::vector<float>{1, 2, 0, 0, 3, -1, 0, 0});
  // Masking → SimpleRNN: the masked step changes nothing.
  k::utils::set_random_seed(1);
  k::Sequential model({k::layers::Masking(-1.f), k::layers::SimpleRNN(3)});
  k::Tensor with_gap = k::Tensor::from_vector<float>({1, 2, -1, -1, 3, 4}, {1, 3, 2});
  k::Tensor without = k::Tensor::from_vector<float>({1, 2, 3, 4}, {1, 2, 2});
  auto a = model(with_gap).to_vector<float>(), b = (*model.layers()[1])(without).to_vector<float>();
  for (std::size_t i = 0; i < a.size(); ++i) CHECK(a[i] == Approx(b[i]).margin(1e-6));
  auto again = k::Layer::deserialize({{"class_name", "Masking"}, {"config", masking.get_config()}});
  CHECK(again->get_config() == masking.get_config());
}
