// Lamb (Keras 3): names, slots and config; its trajectories are in golden_test.cpp (optimizers.json).
#include <catch2/catch.hpp>

#include "keras/json.hpp"
#include "keras/variable.hpp"
#include "optimizers/lamb.hpp"

using namespace keras;
using namespace keras::optimizers;

TEST_CASE("Lamb: Keras 3's name, slots and config - a zero variable takes the plain Adam step") {
  auto w = std::make_shared<Variable>("w", Tensor::zeros({3}));
  Lamb opt({.learning_rate = 0.1, .beta_1 = 0.8});
  opt.apply_gradients({Tensor::from_vector<float>({1.f, -2.f, 0.5f}, {3})}, {w});
  // |w| = 0: the trust ratio is 1, and the first bias-corrected step is g / (|g| + epsilon).
  const auto v = w->value().to_vector<float>();
  CHECK(v[0] == Approx(-0.1f).epsilon(1e-5));
  CHECK(v[1] == Approx(0.1f).epsilon(1e-5));
  CHECK(v[2] == Approx(-0.1f).epsilon(1e-5));
  const auto slots = opt.slots_of(*w);
  REQUIRE(slots.size() == 2);
  CHECK(slots[0].first == "momentum");
  CHECK(slots[1].first == "velocity");

  const json config = opt.get_config();
  CHECK(config["name"] == "lamb");
  CHECK(config["beta_1"] == 0.8);
  CHECK(config["epsilon"] == 1e-7);
  auto again = Optimizer::deserialize(json{{"class_name", "Lamb"}, {"config", config}});
  CHECK(again->class_name() == "Lamb");
  CHECK(again->get_config() == config);
  CHECK(Optimizer::get("lamb")->class_name() == "Lamb");
}
