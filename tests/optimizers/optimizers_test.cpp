#include <catch2/catch.hpp>

#include <cmath>
#include <fstream>

#include "keras/keras.hpp"
#include "optimizers/optimizers.hpp"

using namespace keras;
using namespace keras::optimizers;
using Catch::Matchers::Contains;
using VarList = std::vector<std::shared_ptr<Variable>>;

namespace {

json load_golden() {
  std::ifstream in(std::string(KERAS_GOLDEN_DIR) + "/optimizers.json");
  REQUIRE(in.good());
  return json::parse(in);
}

std::shared_ptr<Variable> make_var(const std::string& name, std::vector<float> values, Shape shape) {
  return std::make_shared<Variable>(name, Tensor::from_vector(values, shape));
}

Tensor grad_of(std::vector<float> values) { return Tensor::from_vector(values); }

}  // namespace

TEST_CASE("optimizers match the golden trajectories step by step") {
  const json golden = load_golden();
  const auto shapes = golden["shapes"].get<std::vector<Shape>>();
  for (const auto& c : golden["cases"]) {
    const std::string case_name = c["name"].get<std::string>();
    SECTION(case_name) {
      auto opt = Optimizer::deserialize(c["optimizer"]);
      VarList vars;
      for (std::size_t k = 0; k < shapes.size(); ++k)
        vars.push_back(make_var("v" + std::to_string(k), c.contains("initial") ? c["initial"][k].get<std::vector<float>>()
                                                                               : golden["initial"][k].get<std::vector<float>>(),
                                shapes[k]));
      for (std::size_t step = 0; step < c["expected"].size(); ++step) {
        std::vector<Tensor> grads;
        for (std::size_t k = 0; k < shapes.size(); ++k)
          grads.push_back(Tensor::from_vector(golden["gradients"][step][k].get<std::vector<float>>(), shapes[k]));
        opt->apply_gradients(grads, vars);
        for (std::size_t k = 0; k < shapes.size(); ++k) {
          const auto want = c["expected"][step][k].get<std::vector<double>>();
          const auto got = vars[k]->value().to_vector<float>();
          REQUIRE(got.size() == want.size());
          for (std::size_t i = 0; i < want.size(); ++i) {
            INFO(case_name << " step " << step + 1 << " variable " << k << " element " << i);
            CHECK(got[i] == Approx(want[i]).epsilon(1e-5).margin(1e-6));
          }
        }
      }
      CHECK(opt->iterations() == std::int64_t(c["expected"].size()));
    }
  }
}

TEST_CASE("direct construction uses Keras defaults and options") {
  SGD sgd;
  CHECK(sgd.learning_rate() == Approx(0.01));
  CHECK(sgd.momentum() == 0.0);
  CHECK(sgd.name() == "SGD");
  Adam adam({.learning_rate = 1e-3, .amsgrad = true});
  CHECK(adam.beta_1() == Approx(0.9));
  CHECK(adam.beta_2() == Approx(0.999));
  CHECK(adam.epsilon() == Approx(1e-7));
  CHECK(adam.amsgrad());
  RMSprop rms({.centered = true, .name = "my_rms"});
  CHECK(rms.learning_rate() == Approx(0.001));
  CHECK(rms.rho() == Approx(0.9));
  CHECK(rms.centered());
  CHECK(rms.name() == "my_rms");
  CHECK_THROWS_AS(SGD({.momentum = 1.5}), ValueError);
  CHECK_THROWS_AS(SGD({.clipnorm = 1.0, .global_clipnorm = 1.0}), ValueError);
}

TEST_CASE("clipvalue clips each gradient element") {
  auto x = make_var("x", {0, 0, 0}, {3});
  SGD opt({.learning_rate = 1.0, .clipvalue = 0.5});
  opt.apply_gradients({grad_of({2, -0.25f, -3})}, {x});
  CHECK(x->value().to_vector<float>() == std::vector<float>{-0.5f, 0.25f, 0.5f});
}

TEST_CASE("clipnorm rescales each gradient separately") {
  auto a = make_var("a", {0, 0}, {2});
  auto b = make_var("b", {0, 0}, {2});
  SGD opt({.learning_rate = 1.0, .clipnorm = 1.0});
  opt.apply_gradients({grad_of({3, 4}), grad_of({0.3f, 0.4f})}, {a, b});
  auto va = a->value().to_vector<float>(), vb = b->value().to_vector<float>();
  CHECK(va[0] == Approx(-0.6));  // norm 5 scaled to 1
  CHECK(va[1] == Approx(-0.8));
  CHECK(vb[0] == Approx(-0.3));  // norm 0.5 untouched
  CHECK(vb[1] == Approx(-0.4));
}

TEST_CASE("global_clipnorm rescales all gradients together") {
  auto a = make_var("a", {0, 0}, {2});
  auto b = make_var("b", {0}, {1});
  SGD opt({.learning_rate = 1.0, .global_clipnorm = 1.0});
  // Global norm sqrt(9 + 16 + 144) = 13.
  opt.apply_gradients({grad_of({3, 4}), grad_of({12})}, {a, b});
  auto va = a->value().to_vector<float>(), vb = b->value().to_vector<float>();
  CHECK(va[0] == Approx(-3.0 / 13));
  CHECK(va[1] == Approx(-4.0 / 13));
  CHECK(vb[0] == Approx(-12.0 / 13));
  SGD small({.learning_rate = 1.0, .global_clipnorm = 100.0});
  small.apply_gradients({grad_of({3, 4}), grad_of({12})}, {a, b});
  CHECK(b->value().to_vector<float>()[0] == Approx(-12.0 / 13 - 12));
}

TEST_CASE("iterations count apply_gradients calls and undefined gradients are skipped") {
  auto a = make_var("a", {1, 1}, {2});
  auto b = make_var("b", {5}, {1});
  Adam opt({.learning_rate = 0.1});
  CHECK(opt.iterations() == 0);
  for (int i = 0; i < 4; ++i) opt.apply_gradients({grad_of({1, -1}), Tensor()}, {a, b});
  CHECK(opt.iterations() == 4);
  CHECK(b->value().to_vector<float>()[0] == 5.f);
  // Adam's first step moves by ~lr in the direction of -sign(g) whatever the gradient's scale.
  Adam fresh({.learning_rate = 0.1});
  auto c = make_var("c", {0}, {1});
  fresh.apply_gradients({grad_of({1000})}, {c});
  CHECK(c->value().to_vector<float>()[0] == Approx(-0.1).epsilon(1e-4));
  CHECK(fresh.variables().size() == 2);  // m and v
}

TEST_CASE("learning_rate can change between steps") {
  auto x = make_var("x", {0}, {1});
  SGD opt({.learning_rate = 0.1});
  opt.apply_gradients({grad_of({1})}, {x});
  CHECK(x->value().to_vector<float>()[0] == Approx(-0.1));
  opt.set_learning_rate(0.5);
  CHECK(opt.learning_rate() == Approx(0.5));
  opt.apply_gradients({grad_of({1})}, {x});
  CHECK(x->value().to_vector<float>()[0] == Approx(-0.6));
}

TEST_CASE("get_config and from_config round trip with Keras keys") {
  Adam adam({.learning_rate = 0.02, .beta_1 = 0.8, .beta_2 = 0.99, .epsilon = 1e-6, .amsgrad = true, .clipnorm = 2.0});
  json c = adam.get_config();
  CHECK(c["learning_rate"].get<double>() == Approx(0.02));
  CHECK(c["beta_1"].get<double>() == Approx(0.8));
  CHECK(c["beta_2"].get<double>() == Approx(0.99));
  CHECK(c["epsilon"].get<double>() == Approx(1e-6));
  CHECK(c["amsgrad"].get<bool>());
  CHECK(c["clipnorm"].get<double>() == Approx(2.0));
  CHECK(c["clipvalue"].is_null());
  CHECK(c["global_clipnorm"].is_null());
  CHECK(c["name"] == "Adam");
  auto back = Optimizer::deserialize(serialize(adam));
  CHECK(back->class_name() == "Adam");
  CHECK(back->get_config() == c);

  SGD sgd({.learning_rate = 0.3, .momentum = 0.7, .nesterov = true, .clipvalue = 1.0});
  json s = sgd.get_config();
  CHECK(s["momentum"].get<double>() == Approx(0.7));
  CHECK(s["nesterov"].get<bool>());
  CHECK(SGD::from_config(s)->get_config() == s);

  RMSprop rms({.learning_rate = 0.004, .rho = 0.8, .momentum = 0.2, .epsilon = 1e-5, .centered = true,
               .global_clipnorm = 3.0});
  json r = rms.get_config();
  CHECK(r["rho"].get<double>() == Approx(0.8));
  CHECK(r["momentum"].get<double>() == Approx(0.2));
  CHECK(r["centered"].get<bool>());
  CHECK(r["global_clipnorm"].get<double>() == Approx(3.0));
  CHECK(RMSprop::from_config(r)->get_config() == r);
}

TEST_CASE("from_config accepts real Keras configs and rejects what it cannot honour") {
  json keras_adam = json::parse(R"({"name": "Adam", "weight_decay": null, "clipnorm": null, "global_clipnorm": null,
      "clipvalue": null, "use_ema": false, "ema_momentum": 0.99, "ema_overwrite_frequency": null,
      "jit_compile": false, "is_legacy_optimizer": false, "learning_rate": 0.0010000000474974513,
      "beta_1": 0.9, "beta_2": 0.999, "epsilon": 1e-07, "amsgrad": false})");
  auto opt = Adam::from_config(keras_adam);
  CHECK(opt->learning_rate() == Approx(1e-3));
  auto legacy = SGD::from_config(json{{"lr", 0.2}, {"decay", 0.0}, {"momentum", 0.5}});
  CHECK(legacy->learning_rate() == Approx(0.2));
  CHECK_THROWS_AS(Adam::from_config(json{{"weight_decay", 0.01}}), ValueError);
  CHECK_THROWS_WITH(SGD::from_config(json{{"learning_rate", {{"class_name", "ExponentialDecay"}}}}),
                    Contains("schedules"));
}

TEST_CASE("Optimizer::get resolves names and lists valid ones on error") {
  CHECK(Optimizer::get("adam")->class_name() == "Adam");
  CHECK(Optimizer::get("Adam")->class_name() == "Adam");
  CHECK(Optimizer::get("sgd")->class_name() == "SGD");
  CHECK(Optimizer::get("SGD")->learning_rate() == Approx(0.01));
  CHECK(Optimizer::get("rmsprop")->class_name() == "RMSprop");
  CHECK(Optimizer::get("RMSprop")->class_name() == "RMSprop");
  CHECK_THROWS_AS(Optimizer::get("adamw_typo"), ValueError);
  CHECK_THROWS_WITH(Optimizer::get("adamw_typo"), Contains("adamw_typo") && Contains("adam") && Contains("rmsprop"));
  OptimizerRef ref = "adam";
  CHECK(ref->class_name() == "Adam");
  OptimizerRef direct = SGD({.learning_rate = 0.5});
  CHECK(direct->learning_rate() == Approx(0.5));
}

TEST_CASE("minimize drives (x - 3)^2 to its minimum") {
  auto check_converges = [](Optimizer& opt, int steps) {
    auto x = make_var("x", {0}, {1});
    for (int i = 0; i < steps; ++i)
      opt.minimize([&] { return ops::sum(ops::square(ops::subtract(x->value(), Tensor::scalar(3.f)))); }, {x});
    INFO(opt.class_name());
    CHECK(x->value().to_vector<float>()[0] == Approx(3.0).margin(1e-2));
    CHECK(opt.iterations() == steps);
  };
  SGD sgd({.learning_rate = 0.1});
  check_converges(sgd, 100);
  SGD nesterov({.learning_rate = 0.05, .momentum = 0.9, .nesterov = true});
  check_converges(nesterov, 200);
  Adam adam({.learning_rate = 0.1});
  check_converges(adam, 500);
  RMSprop rms({.learning_rate = 0.01, .momentum = 0.5, .centered = true});
  check_converges(rms, 1000);
}

TEST_CASE("large variables update in parallel with the same values as the scalar formula") {
  const std::int64_t n = 200000;
  std::vector<float> init(n), grad(n);
  for (std::int64_t i = 0; i < n; ++i) {
    init[i] = std::sin(0.001f * float(i));
    grad[i] = std::cos(0.003f * float(i));
  }
  auto x = make_var("x", init, {n});
  Adam opt({.learning_rate = 0.01});
  opt.apply_gradients({Tensor::from_vector(grad)}, {x});
  const auto got = x->value().to_vector<float>();
  for (std::int64_t i = 0; i < n; i += 9973) {
    const double g = grad[i], m = 0.1 * g, v = 0.001 * g * g;
    const double alpha = 0.01 * std::sqrt(1 - 0.999) / (1 - 0.9);
    CHECK(got[i] == Approx(init[i] - m * alpha / (std::sqrt(v) + 1e-7)).epsilon(1e-5).margin(1e-6));
  }
}
