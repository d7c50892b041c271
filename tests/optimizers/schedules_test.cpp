// Learning-rate schedules: values against tests/golden/optimizers_schedules.json (Python transcriptions of
// keras/optimizers/schedules/learning_rate_schedule.py), configs, and optimizers driven by schedules.
#include <catch2/catch.hpp>

#include "golden.hpp"
#include "keras/json.hpp"
#include "optimizers/optimizers.hpp"

using namespace keras;
using namespace keras::optimizers;
using namespace keras::optimizers::schedules;
using Catch::Matchers::Contains;

TEST_CASE("schedules match the golden values at every listed step") {
  const json golden = testing::load_golden("optimizers_schedules.json");
  REQUIRE(golden["schedules"].size() >= 10);
  for (const auto& s : golden["schedules"]) {
    const std::string name = s["name"].get<std::string>();
    SECTION(name) {
      auto schedule = LearningRateSchedule::deserialize(s["schedule"]);
      CHECK(schedule->class_name() == s["schedule"]["class_name"].get<std::string>());
      const auto steps = s["steps"].get<std::vector<std::int64_t>>();
      const auto values = s["values"].get<std::vector<double>>();
      for (std::size_t i = 0; i < steps.size(); ++i) {
        INFO(name << " at step " << steps[i]);
        CHECK((*schedule)(steps[i]) == Approx(values[i]).epsilon(1e-12).margin(1e-15));
      }
      // The config round trip gives the same schedule.
      auto again = LearningRateSchedule::deserialize(serialize(*schedule));
      CHECK(again->get_config() == schedule->get_config());
      for (auto step : steps) CHECK((*again)(step) == (*schedule)(step));
    }
  }
}

TEST_CASE("schedules construct directly with Keras defaults and write Keras configs") {
  ExponentialDecay exp(0.1, 1000, 0.96, {.staircase = true});
  CHECK(exp(0) == Approx(0.1));
  CHECK(exp(999) == Approx(0.1));
  CHECK(exp(1000) == Approx(0.096));
  const json c = exp.get_config();
  CHECK(c == json::parse(R"({"initial_learning_rate": 0.1, "decay_steps": 1000, "decay_rate": 0.96,
                             "staircase": true, "name": null})"));

  PolynomialDecay poly(0.1, 100);
  CHECK(poly(100) == Approx(1e-4));
  CHECK(poly(1000) == Approx(1e-4));
  CHECK(poly.get_config()["end_learning_rate"].get<double>() == Approx(1e-4));
  CHECK(poly.get_config()["power"].get<double>() == 1.0);
  CHECK_FALSE(poly.get_config()["cycle"].get<bool>());

  CosineDecay cosine(1.0, 10, {.alpha = 0.1, .name = "cos"});
  CHECK(cosine(0) == Approx(1.0));
  CHECK(cosine(5) == Approx(0.55));
  CHECK(cosine(10) == Approx(0.1));
  CHECK(cosine.get_config()["name"] == "cos");
  CHECK(cosine.get_config()["warmup_target"].is_null());
  CHECK(cosine.get_config()["warmup_steps"] == 0);
  CosineDecay warm(0.0, 10, {.warmup_target = 1.0, .warmup_steps = 4});
  CHECK(warm(2) == Approx(0.5));
  CHECK(warm(4) == Approx(1.0));
  CHECK(warm(14) == Approx(0.0).margin(1e-12));

  CosineDecayRestarts restarts(1.0, 10);
  CHECK(restarts(0) == Approx(1.0));
  CHECK(restarts(10) == Approx(1.0));  // first restart, the next period lasts 20 steps
  CHECK(restarts(20) == Approx(0.5));
  CHECK(restarts.get_config() == json::parse(R"({"initial_learning_rate": 1.0, "first_decay_steps": 10,
      "t_mul": 2.0, "m_mul": 1.0, "alpha": 0.0, "name": null})"));

  PiecewiseConstantDecay piecewise({100, 200}, {1.0, 0.5, 0.1});
  CHECK(piecewise(100) == 1.0);
  CHECK(piecewise(101) == 0.5);
  CHECK(piecewise(200) == 0.5);
  CHECK(piecewise(201) == 0.1);
  CHECK(piecewise.get_config() ==
        json::parse(R"({"boundaries": [100, 200], "values": [1.0, 0.5, 0.1], "name": null})"));

  InverseTimeDecay inverse(0.1, 1.0, 0.5);
  CHECK(inverse(2) == Approx(0.05));
}

TEST_CASE("schedules reject bad arguments and unknown names with clear errors") {
  CHECK_THROWS_AS(ExponentialDecay(0.1, 0, 0.5), ValueError);
  CHECK_THROWS_WITH(PiecewiseConstantDecay({10, 20}, {1.0, 0.5}), Contains("1 less than"));
  CHECK_THROWS_AS(PiecewiseConstantDecay({20, 10}, {1.0, 0.5, 0.1}), ValueError);
  CHECK_THROWS_AS(CosineDecayRestarts(0.1, 0), ValueError);
  CHECK_THROWS_WITH(LearningRateSchedule::deserialize(json{{"class_name", "ExponentialDecay"},
                                                           {"config", {{"initial_learning_rate", 0.1}}}}),
                    Contains("decay_steps"));
  CHECK_THROWS_WITH(LearningRateSchedule::deserialize(json{{"class_name", "CosineDecayy"}, {"config", json::object()}}),
                    Contains("CosineDecayy") && Contains("CosineDecay") && Contains("PiecewiseConstantDecay"));
  CHECK_THROWS_AS(LearningRateSchedule::deserialize(json::array()), ValueError);
  LambdaSchedule fn([](std::int64_t step) { return 1.0 / double(step + 1); });
  CHECK(fn(3) == 0.25);
  CHECK_THROWS_WITH(fn.get_config(), Contains("cannot be serialized"));
}

TEST_CASE("an optimizer's learning rate follows its schedule at iterations()") {
  SGD opt({.learning_rate = ExponentialDecay(0.1, 1, 0.5)});
  CHECK(opt.learning_rate() == Approx(0.1));
  auto x = std::make_shared<Variable>("x", Tensor::from_vector<float>({0.f}));
  opt.apply_gradients({Tensor::from_vector<float>({1.f})}, {x});  // uses lr(0) = 0.1
  CHECK(opt.learning_rate() == Approx(0.05));
  opt.apply_gradients({Tensor::from_vector<float>({1.f})}, {x});  // uses lr(1) = 0.05
  CHECK(x->value().to_vector<float>()[0] == Approx(-0.15));
  REQUIRE(opt.learning_rate_schedule() != nullptr);
  CHECK(opt.learning_rate_schedule()->class_name() == "ExponentialDecay");

  const json c = opt.get_config();
  CHECK(c["learning_rate"]["class_name"] == "ExponentialDecay");
  CHECK(c["learning_rate"]["config"]["decay_rate"].get<double>() == Approx(0.5));
  auto back = Optimizer::deserialize(serialize(opt));
  CHECK(back->get_config() == c);
  CHECK(back->learning_rate() == Approx(0.1));  // a fresh optimizer starts at step 0

  opt.set_learning_rate(0.3);  // a number replaces the schedule
  CHECK(opt.learning_rate_schedule() == nullptr);
  CHECK(opt.learning_rate() == Approx(0.3));
  CHECK(opt.get_config()["learning_rate"].get<double>() == Approx(0.3));
  opt.set_learning_rate(LearningRate(std::make_shared<PiecewiseConstantDecay>(
      std::vector<std::int64_t>{5}, std::vector<double>{1.0, 2.0})));
  CHECK(opt.learning_rate() == 1.0);
  opt.set_iterations(6);
  CHECK(opt.learning_rate() == 2.0);
}

TEST_CASE("learning_rate accepts a number, a schedule object, a shared schedule or a callable") {
  auto shared = std::make_shared<CosineDecay>(0.2, 10);
  Adam a({.learning_rate = shared});
  CHECK(a.learning_rate_schedule() == shared);
  Adam b({.learning_rate = 2});
  CHECK(b.learning_rate() == 2.0);
  Adam c({.learning_rate = [](std::int64_t step) { return 0.1 / double(step + 1); }});
  CHECK(c.learning_rate() == Approx(0.1));
  c.set_iterations(1);
  CHECK(c.learning_rate() == Approx(0.05));
  // A C++ callable has no config: the optimizer writes its current value, as Keras does for callables.
  CHECK(c.get_config()["learning_rate"].get<double>() == Approx(0.05));
  CHECK_THROWS_AS(LearningRate(std::shared_ptr<LearningRateSchedule>()), ValueError);
}

TEST_CASE("optimizer configs read schedules in Keras's serialized form") {
  const json keras_config = json::parse(R"({"name": "SGD", "weight_decay": null, "clipnorm": null,
      "global_clipnorm": null, "clipvalue": null, "use_ema": false, "ema_momentum": 0.99,
      "ema_overwrite_frequency": null, "jit_compile": false, "is_legacy_optimizer": false,
      "learning_rate": {"module": "keras.optimizers.schedules", "class_name": "PolynomialDecay",
                        "config": {"initial_learning_rate": 0.1, "decay_steps": 10, "end_learning_rate": 0.0001,
                                   "power": 1.0, "cycle": false, "name": null}, "registered_name": null},
      "momentum": 0.0, "nesterov": false})");
  auto opt = SGD::from_config(keras_config);
  CHECK(opt->learning_rate_schedule()->class_name() == "PolynomialDecay");
  opt->set_iterations(5);
  CHECK(opt->learning_rate() == Approx((0.1 - 1e-4) * 0.5 + 1e-4));
  CHECK_THROWS_WITH(SGD::from_config(json{{"learning_rate", "fast"}}), Contains("learning_rate"));
}
