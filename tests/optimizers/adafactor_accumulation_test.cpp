// Adafactor (Keras 3): arguments, slots (factored for rank >= 2, in Keras's order), config round trip; and
// gradient_accumulation_steps on every optimizer: Keras 3's counters, slots, config and errors. Their
// trajectories are in golden_test.cpp (optimizers.json, from make_optimizer_golden.py).
#include <catch2/catch.hpp>

#include "keras/json.hpp"
#include "keras/variable.hpp"
#include "optimizers/optimizers.hpp"

using namespace keras;
using namespace keras::optimizers;

TEST_CASE("Adafactor: Keras 3's arguments, factored slots and config") {
  auto kernel = std::make_shared<Variable>("kernel", Tensor::full({2, 3, 4}, 0.5));
  auto bias = std::make_shared<Variable>("bias", Tensor::full({4}, 0.1));
  Adafactor opt({.learning_rate = 0.01, .clip_threshold = 0.5});
  opt.apply_gradients({Tensor::full({2, 3, 4}, 0.2), Tensor::full({4}, -0.3)}, {kernel, bias});
  // r and c average out the last and the second-last axis; a rank-1 variable keeps only its velocity.
  const auto ks = opt.slots_of(*kernel);
  REQUIRE(ks.size() == 3);
  CHECK(ks[0].first == "r");
  CHECK(ks[0].second->shape() == Shape{2, 3});
  CHECK(ks[1].first == "c");
  CHECK(ks[1].second->shape() == Shape{2, 4});
  CHECK(ks[2].first == "velocity");
  CHECK(ks[2].second->shape() == Shape{2, 3, 4});
  const auto bs = opt.slots_of(*bias);
  REQUIRE(bs.size() == 1);
  CHECK(bs[0].first == "velocity");
  // Keras's order: per variable r, c, velocity (the rank-1 bias has no r and c).
  CHECK(opt.variables().size() == 4);
  // A constant gradient: v = g^2 + epsilon_1, u = sign(g), rms(u) = 1 > clip 0.5 halves it;
  // the step is max(epsilon_2, rms(var)) * min(lr, 1) * u / 2.
  CHECK(kernel->value().data<float>()[0] == Approx(0.5 - 0.5 * 0.01 * 0.5).epsilon(1e-6));
  CHECK(bias->value().data<float>()[0] == Approx(0.1 + 0.1 * 0.01 * 0.5).epsilon(1e-6));

  const json config = opt.get_config();
  CHECK(config["name"] == "adafactor");
  CHECK(config["beta_2_decay"] == -0.8);
  CHECK(config["epsilon_1"] == 1e-30);
  CHECK(config["epsilon_2"] == 1e-3);
  CHECK(config["clip_threshold"] == 0.5);
  CHECK(config["relative_step"] == true);
  CHECK_FALSE(config.contains("gradient_accumulation_steps"));  // unset: not written (tf.keras 2.x refuses it)
  auto again = Optimizer::deserialize(json{{"class_name", "Adafactor"}, {"config", config}});
  CHECK(again->get_config() == config);
  CHECK(Optimizer::get("adafactor")->class_name() == "Adafactor");
}

TEST_CASE("gradient_accumulation_steps: updates on every n-th call with the mean - Keras 3's counters") {
  auto w = std::make_shared<Variable>("w", Tensor::full({2}, 1.0));
  SGD opt({.learning_rate = 0.5, .gradient_accumulation_steps = 3});
  const std::vector<float> g1{1.f, 2.f}, g2{3.f, -2.f}, g3{2.f, 3.f};
  opt.apply_gradients({Tensor::from_vector(g1, {2})}, {w});
  opt.apply_gradients({Tensor::from_vector(g2, {2})}, {w});
  // Two calls accumulate: nothing moves, Keras's iterations stays at 0 while its _iterations counts calls.
  CHECK(w->value().to_vector<float>() == std::vector<float>{1.f, 1.f});
  CHECK(opt.iterations() == 0);
  CHECK(opt.iterations_variable() == 2);
  const auto slots = opt.slots_of(*w);
  REQUIRE(slots.size() == 2);  // the accumulator, then SGD's momentum
  CHECK(slots[0].first == "gradient_accumulator");
  CHECK(slots[1].first == "m");
  CHECK(slots[0].second->value().to_vector<float>() == std::vector<float>{4.f, 0.f});
  opt.apply_gradients({Tensor::from_vector(g3, {2})}, {w});
  // The third call updates with the mean (2, 1) and empties the accumulator.
  const auto v = w->value().to_vector<float>();
  CHECK(v[0] == Approx(1.f - 0.5f * 2.f));
  CHECK(v[1] == Approx(1.f - 0.5f * 1.f));
  CHECK(opt.iterations() == 1);
  CHECK(opt.iterations_variable() == 3);
  CHECK(slots[0].second->value().to_vector<float>() == std::vector<float>{0.f, 0.f});

  const json config = opt.get_config();
  CHECK(config["gradient_accumulation_steps"] == 3);
  auto again = Optimizer::deserialize(json{{"class_name", "SGD"}, {"config", config}});
  CHECK(again->gradient_accumulation_steps() == 3);
  CHECK(again->get_config() == config);
  CHECK_THROWS_WITH(Adam({.gradient_accumulation_steps = 1}), Catch::Contains("gradient_accumulation_steps") &&
                                                                  Catch::Contains(">= 2"));
}

TEST_CASE("gradient_accumulation_steps: the accumulators come after the EMA averages and before the slots") {
  auto w = std::make_shared<Variable>("w", Tensor::full({3}, 1.0));
  Adam opt({.use_ema = true, .gradient_accumulation_steps = 2});
  opt.build({w});
  const auto slots = opt.slots_of(*w);
  REQUIRE(slots.size() == 4);
  CHECK(slots[0].first == "average");
  CHECK(slots[1].first == "gradient_accumulator");
  CHECK(slots[2].first == "m");
  CHECK(slots[3].first == "v");
  // Restoring the counter a file stores (Keras's _iterations) gives iterations() = calls / steps.
  opt.set_iterations_variable(7);
  CHECK(opt.iterations() == 3);
}
