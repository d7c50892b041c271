// The optimizer API: defaults, clipping, weight decay, EMA, slot order, configs, identifiers, minimize.
// Numerical trajectories are in golden_test.cpp, schedules in schedules_test.cpp.
#include <catch2/catch.hpp>

#include <cmath>

#include "keras/json.hpp"
#include "keras/keras.hpp"
#include "optimizers/optimizers.hpp"

using namespace keras;
using namespace keras::optimizers;
using Catch::Matchers::Contains;
using VarList = std::vector<std::shared_ptr<Variable>>;

namespace {

std::shared_ptr<Variable> make_var(const std::string& name, std::vector<float> values, Shape shape) {
  return std::make_shared<Variable>(name, Tensor::from_vector(values, shape));
}

Tensor grad_of(std::vector<float> values) { return Tensor::from_vector(values); }

float value0(const std::shared_ptr<Variable>& v) { return v->value().to_vector<float>()[0]; }

std::vector<std::string> names_of(const VarList& vars) {
  std::vector<std::string> out;
  for (const auto& v : vars) out.push_back(v->name());
  return out;
}

const std::vector<std::string> kAllClassNames{"SGD",     "Adam",     "AdamW", "Adamax", "Nadam",
                                              "RMSprop", "Adagrad", "Adadelta", "Ftrl", "Lion"};

}  // namespace

TEST_CASE("direct construction uses Keras defaults and options") {
  SGD sgd;
  CHECK(sgd.learning_rate() == Approx(0.01));
  CHECK(sgd.momentum() == 0.0);
  CHECK(sgd.name() == "SGD");
  CHECK_FALSE(sgd.weight_decay());
  CHECK_FALSE(sgd.use_ema());
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

  AdamW adamw;
  CHECK(adamw.learning_rate() == Approx(0.001));
  CHECK(*adamw.weight_decay() == Approx(0.004));
  CHECK(adamw.epsilon() == Approx(1e-7));
  CHECK(adamw.name() == "AdamW");
  Adamax adamax;
  CHECK(adamax.learning_rate() == Approx(0.001));
  CHECK(adamax.beta_2() == Approx(0.999));
  Nadam nadam;
  CHECK(nadam.learning_rate() == Approx(0.001));
  CHECK(nadam.epsilon() == Approx(1e-7));
  Adagrad adagrad;
  CHECK(adagrad.learning_rate() == Approx(0.001));
  CHECK(adagrad.initial_accumulator_value() == Approx(0.1));
  CHECK(adagrad.epsilon() == Approx(1e-7));
  Adadelta adadelta;
  CHECK(adadelta.learning_rate() == Approx(0.001));
  CHECK(adadelta.rho() == Approx(0.95));
  CHECK(adadelta.epsilon() == Approx(1e-7));
  Ftrl ftrl;
  CHECK(ftrl.learning_rate() == Approx(0.001));
  CHECK(ftrl.options().learning_rate_power == -0.5);
  CHECK(ftrl.options().initial_accumulator_value == Approx(0.1));
  CHECK(ftrl.options().l1_regularization_strength == 0.0);
  CHECK(ftrl.options().beta == 0.0);
  Lion lion;
  CHECK(lion.learning_rate() == Approx(1e-4));
  CHECK(lion.beta_1() == Approx(0.9));
  CHECK(lion.beta_2() == Approx(0.99));

  // Partial designated initializers on every options struct.
  Nadam custom({.learning_rate = 0.01, .beta_2 = 0.99, .weight_decay = 0.1, .use_ema = true, .name = "n"});
  CHECK(custom.use_ema());
  CHECK(*custom.weight_decay() == Approx(0.1));
}

TEST_CASE("constructors reject invalid arguments as Keras does") {
  CHECK_THROWS_AS(SGD({.momentum = 1.5}), ValueError);
  CHECK_THROWS_AS(SGD({.clipnorm = 1.0, .global_clipnorm = 1.0}), ValueError);
  CHECK_THROWS_AS(RMSprop({.momentum = -0.1}), ValueError);
  CHECK_THROWS_AS(Adagrad({.initial_accumulator_value = -1}), ValueError);
  CHECK_THROWS_WITH(Ftrl({.learning_rate_power = 0.5}), Contains("learning_rate_power"));
  CHECK_THROWS_AS(Ftrl({.initial_accumulator_value = -0.1}), ValueError);
  CHECK_THROWS_AS(Ftrl({.l1_regularization_strength = -1}), ValueError);
  CHECK_THROWS_AS(Ftrl({.l2_regularization_strength = -1}), ValueError);
  CHECK_THROWS_AS(Ftrl({.l2_shrinkage_regularization_strength = -1}), ValueError);
  CHECK_THROWS_WITH(Lion({.beta_1 = 0.0}), Contains("SignSGD"));
  CHECK_THROWS_AS(Lion({.beta_1 = 1.5}), ValueError);
  CHECK_THROWS_WITH(Adam({.use_ema = true, .ema_momentum = 1.5}), Contains("ema_momentum"));
  CHECK_THROWS_WITH(Adam({.use_ema = true, .ema_overwrite_frequency = -1}), Contains("ema_overwrite_frequency"));
  CHECK_NOTHROW(Adam({.use_ema = true, .ema_overwrite_frequency = 0}));  // Keras: 0 means never, like None
}

TEST_CASE("clipvalue clips each gradient element") {
  auto x = make_var("x", {0, 0, 0}, {3});
  SGD opt({.learning_rate = 1.0, .clipvalue = 0.5});
  const Tensor g = grad_of({2, -0.25f, -3});
  opt.apply_gradients({g}, {x});
  CHECK(x->value().to_vector<float>() == std::vector<float>{-0.5f, 0.25f, 0.5f});
  CHECK(g.to_vector<float>() == std::vector<float>{2, -0.25f, -3});  // the caller's gradient is untouched
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
  CHECK(value0(b) == Approx(-12.0 / 13 - 12));
}

TEST_CASE("only one kind of clipping applies, clipnorm first, as in Keras") {
  auto x = make_var("x", {0, 0}, {2});
  SGD opt({.learning_rate = 1.0, .clipnorm = 1.0, .clipvalue = 0.1});
  opt.apply_gradients({grad_of({3, 4})}, {x});
  CHECK(x->value().to_vector<float>()[0] == Approx(-0.6));  // clipvalue ignored
}

TEST_CASE("iterations count apply_gradients calls and undefined gradients are skipped") {
  auto a = make_var("a", {1, 1}, {2});
  auto b = make_var("b", {5}, {1});
  Adam opt({.learning_rate = 0.1});
  CHECK(opt.iterations() == 0);
  for (int i = 0; i < 4; ++i) opt.apply_gradients({grad_of({1, -1}), Tensor()}, {a, b});
  CHECK(opt.iterations() == 4);
  CHECK(value0(b) == 5.f);
  // As Keras's build(), state exists for every variable passed, with a gradient or not.
  CHECK(opt.variables().size() == 4);
  // No gradient at all: nothing happens, not even the step count.
  opt.apply_gradients({Tensor(), Tensor()}, {a, b});
  CHECK(opt.iterations() == 4);
  // Adam's first step moves by ~lr in the direction of -sign(g) whatever the gradient's scale.
  Adam fresh({.learning_rate = 0.1});
  auto c = make_var("c", {0}, {1});
  fresh.apply_gradients({grad_of({1000})}, {c});
  CHECK(value0(c) == Approx(-0.1).epsilon(1e-4));
  CHECK(fresh.variables().size() == 2);  // m and v
}

TEST_CASE("apply_gradients reports mismatched arguments") {
  auto a = make_var("a", {1, 1}, {2});
  SGD opt;
  CHECK_THROWS_WITH(opt.apply_gradients({grad_of({1})}, {a}), Contains("shape") && Contains("'a'"));
  CHECK_THROWS_WITH(opt.apply_gradients({grad_of({1, 1}), grad_of({1})}, {a}), Contains("2 gradients for 1"));
  CHECK_THROWS_WITH(opt.apply_gradients({Tensor::from_vector<float>({1, 1}).astype(DType::int32)}, {a}),
                    Contains("float32"));
}

TEST_CASE("learning_rate can change between steps") {
  auto x = make_var("x", {0}, {1});
  SGD opt({.learning_rate = 0.1});
  opt.apply_gradients({grad_of({1})}, {x});
  CHECK(value0(x) == Approx(-0.1));
  opt.set_learning_rate(0.5);
  CHECK(opt.learning_rate() == Approx(0.5));
  opt.apply_gradients({grad_of({1})}, {x});
  CHECK(value0(x) == Approx(-0.6));
}

TEST_CASE("weight decay is decoupled and applied before the update, for every optimizer") {
  // With a zero gradient only the decay moves the variable: var *= 1 - wd * lr.
  for (const auto& cls : kAllClassNames) {
    INFO(cls);
    json config{{"learning_rate", 0.1}, {"weight_decay", 0.5}};
    if (cls == "Ftrl") continue;  // Ftrl recomputes the variable from its accumulators
    auto opt = Optimizer::deserialize(json{{"class_name", cls}, {"config", config}});
    auto x = make_var("x", {2}, {1});
    opt->apply_gradients({grad_of({0})}, {x});
    CHECK(value0(x) == Approx(2 * (1 - 0.05)));
  }
  // AdamW decays even when the gradient is large: the decay does not pass through the Adam moments.
  AdamW w({.learning_rate = 0.1, .weight_decay = 1.0});
  auto y = make_var("y", {10}, {1});
  w.apply_gradients({grad_of({1e6f})}, {y});
  CHECK(value0(y) == Approx(10 * 0.9 - 0.1).epsilon(1e-4));
}

TEST_CASE("exclude_from_weight_decay skips given variables and name patterns") {
  SGD opt({.learning_rate = 0.1, .weight_decay = 1.0});
  auto kernel = make_var("dense/kernel", {1}, {1});
  auto bias = make_var("dense/bias", {1}, {1});
  auto gamma = make_var("layer_norm/gamma", {1}, {1});
  opt.exclude_from_weight_decay({gamma}, {"bias"});
  opt.apply_gradients({grad_of({0}), grad_of({0}), grad_of({0})}, {kernel, bias, gamma});
  CHECK(value0(kernel) == Approx(0.9));
  CHECK(value0(bias) == 1.f);
  CHECK(value0(gamma) == 1.f);
  CHECK_THROWS_AS(opt.exclude_from_weight_decay({}, {"(unclosed"}), ValueError);
}

TEST_CASE("use_ema keeps moving averages and finalize_variable_values copies them in") {
  auto x = make_var("x", {1}, {1});
  SGD opt({.learning_rate = 1.0, .use_ema = true, .ema_momentum = 0.5});
  opt.apply_gradients({grad_of({1})}, {x});  // x = 0, average = 0.5 * 1 + 0.5 * 0
  opt.apply_gradients({grad_of({1})}, {x});  // x = -1, average = 0.5 * 0.5 + 0.5 * -1
  CHECK(value0(x) == Approx(-1));
  const auto vars = opt.variables();
  REQUIRE(vars.size() == 2);
  CHECK(vars[0]->name() == "average/x");  // averages come first, as Keras's base build() makes them
  CHECK(vars[1]->name() == "m/x");
  CHECK(value0(vars[0]) == Approx(-0.25));
  opt.finalize_variable_values({x});
  CHECK(value0(x) == Approx(-0.25));

  auto y = make_var("y", {1}, {1});
  SGD again({.learning_rate = 1.0, .use_ema = true, .ema_momentum = 0.5});
  again.apply_gradients({grad_of({1})}, {y});
  again.finalize_variable_values();  // every live variable it updated
  CHECK(value0(y) == Approx(0.5));
  CHECK_THROWS_WITH(again.finalize_variable_values({x}), Contains("never updated"));

  SGD no_ema({.learning_rate = 1.0});
  no_ema.apply_gradients({grad_of({1})}, {y});
  no_ema.finalize_variable_values({y});  // nothing to do without use_ema
  CHECK(value0(y) == Approx(-0.5));
}

TEST_CASE("ema_overwrite_frequency copies the averages into the variables every n steps") {
  auto x = make_var("x", {0}, {1});
  SGD opt({.learning_rate = 1.0, .use_ema = true, .ema_momentum = 0.5, .ema_overwrite_frequency = 2});
  opt.apply_gradients({grad_of({-1})}, {x});  // x = 1, average 0.5
  CHECK(value0(x) == Approx(1));
  opt.apply_gradients({grad_of({-1})}, {x});  // x = 2, average 1.25, then x = average
  CHECK(value0(x) == Approx(1.25));
}

TEST_CASE("variables() lists slots in the order Keras's build() creates them") {
  auto a = make_var("a", {1, 2}, {2});
  auto b = make_var("b", {3}, {1});
  auto step = [&](Optimizer& opt) { opt.apply_gradients({grad_of({1, 1}), grad_of({1})}, {a, b}); };
  Adam adam({.amsgrad = true});
  step(adam);
  CHECK(names_of(adam.variables()) == std::vector<std::string>{"m/a", "v/a", "m/b", "v/b", "vhat/a", "vhat/b"});
  RMSprop rms({.momentum = 0.5, .centered = true});
  step(rms);
  CHECK(names_of(rms.variables()) == std::vector<std::string>{"velocity/a", "velocity/b", "momentum/a", "momentum/b",
                                                              "average_gradient/a", "average_gradient/b"});
  Ftrl ftrl;
  step(ftrl);
  CHECK(names_of(ftrl.variables()) ==
        std::vector<std::string>{"accumulator/a", "linear/a", "accumulator/b", "linear/b"});
  CHECK(ftrl.variables()[0]->value().to_vector<float>() == std::vector<float>{1.1f, 1.1f});  // 0.1 + g^2
  Adadelta adadelta;
  step(adadelta);
  CHECK(names_of(adadelta.variables()) == std::vector<std::string>{"accumulated_grad/a", "accumulated_delta_var/a",
                                                                   "accumulated_grad/b", "accumulated_delta_var/b"});
  Adamax adamax({.use_ema = true});
  step(adamax);
  CHECK(names_of(adamax.variables()) == std::vector<std::string>{"average/a", "average/b", "m/a", "u/a", "m/b", "u/b"});
  for (const auto& v : adamax.variables()) CHECK_FALSE(v->trainable());
}

namespace {

// A custom optimizer written against the protected API: slots by name, no layout declared.
class SignDescent : public Optimizer {
 public:
  SignDescent() : Optimizer("SignDescent", 0.5) {}
  std::string class_name() const override { return "SignDescent"; }

 protected:
  void update_step(const Tensor& grad, Variable& var, double lr, std::int64_t step) override {
    float* count = slot(var, "count").value().data<float>();
    float* last = slot(var, "last").value().data<float>();
    float* w = var.value().data<float>();
    const float* g = grad.data<float>();
    for (std::int64_t i = 0; i < grad.size(); ++i) {
      w[i] -= static_cast<float>(lr) * static_cast<float>((g[i] > 0) - (g[i] < 0));
      count[i] = static_cast<float>(step);
      last[i] = g[i];
    }
  }
};

}  // namespace

TEST_CASE("a custom optimizer gets lazily created slots, grouped by kind") {
  auto a = make_var("a", {0}, {1});
  auto b = make_var("b", {0}, {1});
  SignDescent opt;
  opt.apply_gradients({grad_of({3}), grad_of({-2})}, {a, b});
  opt.apply_gradients({grad_of({3}), grad_of({-2})}, {a, b});
  CHECK(value0(a) == Approx(-1));
  CHECK(value0(b) == Approx(1));
  CHECK(names_of(opt.variables()) == std::vector<std::string>{"count/a", "count/b", "last/a", "last/b"});
  CHECK(value0(opt.variables()[0]) == 2.f);
  CHECK(opt.get_config()["learning_rate"].get<double>() == 0.5);
}

TEST_CASE("state does not leak from a dead variable to a new one at the same address") {
  Adam opt({.learning_rate = 0.1});
  for (int round = 0; round < 3; ++round) {
    auto x = make_var("x", {0}, {1});
    opt.set_iterations(0);
    opt.apply_gradients({grad_of({1})}, {x});
    CHECK(value0(x) == Approx(-0.1).epsilon(1e-4));  // a fresh first step every time
  }
}

TEST_CASE("get_config writes the Keras 2.11 keys and from_config round trips every optimizer") {
  Adam adam({.learning_rate = 0.02, .beta_1 = 0.8, .beta_2 = 0.99, .epsilon = 1e-6, .amsgrad = true, .clipnorm = 2.0});
  json c = adam.get_config();
  CHECK(c == json::parse(R"({"name": "Adam", "weight_decay": null, "clipnorm": 2.0, "global_clipnorm": null,
      "clipvalue": null, "use_ema": false, "ema_momentum": 0.99, "ema_overwrite_frequency": null,
      "jit_compile": false, "is_legacy_optimizer": false, "learning_rate": 0.02, "beta_1": 0.8, "beta_2": 0.99,
      "epsilon": 1e-6, "amsgrad": true})"));
  auto back = Optimizer::deserialize(serialize(adam));
  CHECK(back->class_name() == "Adam");
  CHECK(back->get_config() == c);

  const std::vector<std::shared_ptr<Optimizer>> all{
      std::make_shared<SGD>(SGDOptions{.learning_rate = 0.3, .momentum = 0.7, .nesterov = true, .clipvalue = 1.0}),
      std::make_shared<RMSprop>(RMSpropOptions{.learning_rate = 0.004, .rho = 0.8, .momentum = 0.2, .epsilon = 1e-5,
                                               .centered = true, .global_clipnorm = 3.0}),
      std::make_shared<AdamW>(AdamWOptions{.learning_rate = 0.01, .weight_decay = 0.1, .amsgrad = true}),
      std::make_shared<Adamax>(AdamaxOptions{.beta_1 = 0.8, .weight_decay = 0.01, .use_ema = true,
                                             .ema_momentum = 0.9, .ema_overwrite_frequency = 10}),
      std::make_shared<Nadam>(NadamOptions{.learning_rate = 0.002, .beta_2 = 0.98, .epsilon = 1e-6, .name = "nad"}),
      std::make_shared<Adagrad>(AdagradOptions{.learning_rate = 0.01, .initial_accumulator_value = 0.5}),
      std::make_shared<Adadelta>(AdadeltaOptions{.learning_rate = 1.0, .rho = 0.9, .epsilon = 1e-6}),
      std::make_shared<Ftrl>(FtrlOptions{.learning_rate_power = -0.6, .l1_regularization_strength = 0.01,
                                         .l2_regularization_strength = 0.02,
                                         .l2_shrinkage_regularization_strength = 0.03, .beta = 0.1}),
      std::make_shared<Lion>(LionOptions{.learning_rate = 3e-4, .beta_1 = 0.95, .beta_2 = 0.98,
                                         .weight_decay = 0.1})};
  for (const auto& opt : all) {
    INFO(opt->class_name());
    const json config = opt->get_config();
    for (const char* key : {"name", "weight_decay", "clipnorm", "global_clipnorm", "clipvalue", "use_ema",
                            "ema_momentum", "ema_overwrite_frequency", "jit_compile", "is_legacy_optimizer",
                            "learning_rate"})
      CHECK(config.contains(key));
    auto again = Optimizer::deserialize(serialize(*opt));
    CHECK(again->class_name() == opt->class_name());
    CHECK(again->get_config() == config);
  }
  const json adamw = all[2]->get_config();
  CHECK(adamw["weight_decay"].get<double>() == Approx(0.1));
  CHECK(adamw["amsgrad"].get<bool>());
  const json ftrl = all[7]->get_config();
  CHECK(ftrl["learning_rate_power"].get<double>() == Approx(-0.6));
  CHECK(ftrl["l2_shrinkage_regularization_strength"].get<double>() == Approx(0.03));
  CHECK(ftrl["initial_accumulator_value"].get<double>() == Approx(0.1));
  const json adamax = all[3]->get_config();
  CHECK(adamax["use_ema"].get<bool>());
  CHECK(adamax["ema_overwrite_frequency"].get<int>() == 10);
}

TEST_CASE("from_config accepts real Keras configs and rejects what it cannot honour") {
  json keras_adam = json::parse(R"({"name": "Adam", "weight_decay": null, "clipnorm": null, "global_clipnorm": null,
      "clipvalue": null, "use_ema": false, "ema_momentum": 0.99, "ema_overwrite_frequency": null,
      "jit_compile": false, "is_legacy_optimizer": false, "learning_rate": 0.0010000000474974513,
      "beta_1": 0.9, "beta_2": 0.999, "epsilon": 1e-07, "amsgrad": false})");
  auto opt = Adam::from_config(keras_adam);
  CHECK(opt->learning_rate() == Approx(1e-3));
  json keras_adamw = json::parse(R"({"name": "AdamW", "weight_decay": 0.004, "clipnorm": null,
      "global_clipnorm": null, "clipvalue": null, "use_ema": true, "ema_momentum": 0.99,
      "ema_overwrite_frequency": 100, "jit_compile": true, "is_legacy_optimizer": false,
      "learning_rate": 0.0010000000474974513, "beta_1": 0.9, "beta_2": 0.999, "epsilon": 1e-07, "amsgrad": false})");
  auto w = Optimizer::deserialize(json{{"class_name", "AdamW"}, {"config", keras_adamw}});
  CHECK(*w->weight_decay() == Approx(0.004));
  CHECK(w->use_ema());
  CHECK(*w->common_options().ema_overwrite_frequency == 100);
  auto legacy = SGD::from_config(json{{"lr", 0.2}, {"decay", 0.0}, {"momentum", 0.5}});
  CHECK(legacy->learning_rate() == Approx(0.2));
  // A legacy decay is the schedule lr / (1 + decay * iterations), as tf.keras < 2.11 applied it.
  auto decayed = SGD::from_config(json{{"lr", 0.2}, {"decay", 0.5}});
  CHECK(decayed->learning_rate() == Approx(0.2));
  decayed->set_iterations(2);
  CHECK(decayed->learning_rate() == Approx(0.1));
  CHECK(decayed->get_config()["learning_rate"]["class_name"] == "InverseTimeDecay");
  CHECK_THROWS_WITH(SGD::from_config(json::parse(R"({"decay": 0.01, "learning_rate": {"class_name":
      "ExponentialDecay", "config": {"initial_learning_rate": 0.1, "decay_steps": 10, "decay_rate": 0.5}}})")),
                    Contains("decay") && Contains("schedule"));
  CHECK_THROWS_WITH(Adam::from_config(json{{"beta_1", "high"}}), Contains("beta_1"));
  CHECK_THROWS_WITH(Adam::from_config(json{{"amsgrad", "yes"}}), Contains("amsgrad"));
  // As Python Keras reads configs: null is the default, 1 is True (tests/keras/config/lenient_test.cpp).
  CHECK(AdamW::from_config(json{{"weight_decay", nullptr}})->get_config()["weight_decay"] == 0.004);
  CHECK(Adam::from_config(json{{"amsgrad", 1}})->get_config()["amsgrad"] == true);
}

TEST_CASE("Optimizer::get resolves class names and snake_case aliases and lists valid ones on error") {
  const std::vector<std::pair<std::string, std::string>> names{
      {"sgd", "SGD"},         {"adam", "Adam"},       {"adamw", "AdamW"}, {"adamax", "Adamax"},
      {"nadam", "Nadam"},     {"rmsprop", "RMSprop"}, {"adagrad", "Adagrad"}, {"adadelta", "Adadelta"},
      {"ftrl", "Ftrl"},       {"lion", "Lion"}};
  for (const auto& [alias, cls] : names) {
    INFO(alias);
    CHECK(Optimizer::get(alias)->class_name() == cls);
    CHECK(Optimizer::get(cls)->class_name() == cls);
    CHECK(Optimizer::get(cls)->name() == cls);
  }
  CHECK(Optimizer::get("SGD")->learning_rate() == Approx(0.01));
  CHECK(Optimizer::get("lion")->learning_rate() == Approx(1e-4));
  CHECK_THROWS_AS(Optimizer::get("adamw_typo"), ValueError);
  CHECK_THROWS_WITH(Optimizer::get("adamw_typo"),
                    Contains("adamw_typo") && Contains("adam") && Contains("rmsprop") && Contains("lion") &&
                        Contains("Ftrl"));
  CHECK_THROWS_AS(Optimizer::deserialize(json{{"class_name", "Adamm"}, {"config", json::object()}}), ValueError);
  CHECK_THROWS_AS(Optimizer::deserialize(json::array()), ValueError);
  OptimizerRef ref = "nadam";
  CHECK(ref->class_name() == "Nadam");
  OptimizerRef direct = SGD({.learning_rate = 0.5});
  CHECK(direct->learning_rate() == Approx(0.5));
}

TEST_CASE("minimize: SGD(0.01) drives x^2 - 2x + 1 to x = 1 (the seed's test)") {
  auto x = make_var("x", {0}, {1});
  SGD opt({.learning_rate = 0.01});
  for (int i = 0; i < 1000; ++i)
    opt.minimize([&] {
      // x * x rather than ops::square: square goes through a oneDNN primitive whose OpenMP region costs
      // milliseconds per call on a loaded machine, even for one element.
      const Tensor& v = x->value();
      return ops::add(ops::subtract(ops::multiply(v, v), ops::multiply(Tensor::scalar(2.f), v)), Tensor::scalar(1.f));
    }, {x});
  CHECK(value0(x) == Approx(1.0).margin(1e-4));
  CHECK(opt.iterations() == 1000);
}

TEST_CASE("minimize drives (x - 3)^2 to its minimum with every optimizer") {
  auto check_converges = [](Optimizer& opt, int steps, double margin) {
    auto x = make_var("x", {0}, {1});
    for (int i = 0; i < steps; ++i)
      opt.minimize([&] {
        const Tensor d = ops::subtract(x->value(), Tensor::scalar(3.f));
        return ops::sum(ops::multiply(d, d));
      }, {x});
    INFO(opt.class_name());
    CHECK(value0(x) == Approx(3.0).margin(margin));
    CHECK(opt.iterations() == steps);
  };
  SGD sgd({.learning_rate = 0.1});
  check_converges(sgd, 100, 1e-2);
  SGD nesterov({.learning_rate = 0.05, .momentum = 0.9, .nesterov = true});
  check_converges(nesterov, 200, 1e-2);
  Adam adam({.learning_rate = 0.1});
  check_converges(adam, 500, 1e-2);
  RMSprop rms({.learning_rate = 0.01, .momentum = 0.5, .centered = true});
  check_converges(rms, 1000, 1e-2);
  AdamW adamw({.learning_rate = 0.1, .weight_decay = 0.0});
  check_converges(adamw, 500, 1e-2);
  Adamax adamax({.learning_rate = 0.1});
  check_converges(adamax, 500, 1e-2);
  Nadam nadam({.learning_rate = 0.1});
  check_converges(nadam, 500, 1e-2);
  Adagrad adagrad({.learning_rate = 1.0});
  check_converges(adagrad, 500, 1e-2);
  Adadelta adadelta({.learning_rate = 10.0});
  check_converges(adadelta, 2000, 5e-2);
  Ftrl ftrl({.learning_rate = 1.0});
  check_converges(ftrl, 500, 1e-2);
  Lion lion({.learning_rate = 0.01, .beta_1 = 0.5});
  check_converges(lion, 500, 2e-2);
}

TEST_CASE("large variables update in parallel with the same values as small ones") {
  const std::int64_t n = 200000, small = 1000;
  std::vector<float> init(n), grad(n);
  for (std::int64_t i = 0; i < n; ++i) {
    init[i] = std::sin(0.001f * float(i));
    grad[i] = std::cos(0.003f * float(i));
  }
  const std::vector<float> init_small(init.begin(), init.begin() + small);
  const std::vector<float> grad_small(grad.begin(), grad.begin() + small);
  for (const auto& cls : kAllClassNames) {
    INFO(cls);
    const json config{{"class_name", cls},
                      {"config", {{"learning_rate", 0.01}, {"weight_decay", 0.01}, {"use_ema", true}}}};
    auto big_opt = Optimizer::deserialize(config), small_opt = Optimizer::deserialize(config);
    auto big = make_var("x", init, {n});
    auto part = make_var("x", init_small, {small});
    for (int step = 0; step < 3; ++step) {
      big_opt->apply_gradients({Tensor::from_vector(grad)}, {big});
      small_opt->apply_gradients({Tensor::from_vector(grad_small)}, {part});
    }
    const auto got = big->value().to_vector<float>(), want = part->value().to_vector<float>();
    for (std::int64_t i = 0; i < small; i += 37) CHECK(got[i] == Approx(want[i]).epsilon(1e-6).margin(1e-7));
  }
  // And Adam against its formula.
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
