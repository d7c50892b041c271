// Regularizers and constraints: NumPy golden values, Keras's identifiers and JSON, and their integration
// in layers (losses()), the compiled loss, and optimizer steps.
#include <cmath>
#include <filesystem>

#include <catch2/catch.hpp>

#include "golden.hpp"
#include "gradient_check.hpp"
#include "keras/json.hpp"
#include "keras/keras.hpp"

using namespace keras;
using keras::testing::golden_tensor;
using keras::testing::random_tensor;

namespace {
void check_values(const Tensor& got, const Tensor& want, double rel = 1e-5) {
  REQUIRE(got.shape() == want.shape());
  const auto g = got.to_vector<float>(), w = want.to_vector<float>();
  for (std::size_t i = 0; i < w.size(); ++i) {
    INFO("element " << i);
    CHECK(g[i] == Approx(w[i]).epsilon(rel).margin(1e-6));
  }
}

double sum_of_squares(const Tensor& t) {
  double s = 0;
  for (float v : t.to_vector<float>()) s += double(v) * v;
  return s;
}
}  // namespace

TEST_CASE("L1, L2 and L1L2 penalties and their gradients match NumPy", "[regularizers]") {
  const json golden = keras::testing::load_golden("layer_catalogue.json");  // kept alive for the loop
  for (const auto& c : golden["regularizers"]) {
    auto reg = regularizers::Regularizer::deserialize(c["regularizer"]);
    CHECK(regularizers::serialize(reg) == c["regularizer"]);
    Tensor x = golden_tensor(c["x"]);
    GradientTape tape;
    tape.watch(x);
    Tensor penalty = (*reg)(x);
    REQUIRE(penalty.size() == 1);
    CHECK(penalty.item() == Approx(c["penalty"].get<double>()).epsilon(1e-5));
    check_values(tape.gradient(penalty, x), golden_tensor(c["grad"]));
  }
}

TEST_CASE("regularizer identifiers and JSON are Keras's", "[regularizers]") {
  CHECK(regularizers::serialize(regularizers::RegularizerRef("l2")) == json::parse(R"({"class_name": "L2", "config": {"l2": 0.01}})"));
  CHECK(regularizers::serialize(regularizers::RegularizerRef("l1")) == json::parse(R"({"class_name": "L1", "config": {"l1": 0.01}})"));
  CHECK(regularizers::serialize(regularizers::RegularizerRef("l1_l2")) ==
        json::parse(R"({"class_name": "L1L2", "config": {"l1": 0.01, "l2": 0.01}})"));
  CHECK(regularizers::serialize(regularizers::L1L2()) ==
        json::parse(R"({"class_name": "L1L2", "config": {"l1": 0.0, "l2": 0.0}})"));
  CHECK(regularizers::serialize(regularizers::RegularizerRef()).is_null());
  CHECK(!regularizers::deserialize_or_null(json()));
  CHECK_THROWS_WITH(regularizers::Regularizer::get("l3"), Catch::Contains("Unknown regularizer: 'l3'"));
  CHECK_THROWS_AS(regularizers::L2(-1.0), ValueError);
}

TEST_CASE("MaxNorm, MinMaxNorm, UnitNorm and NonNeg project as Keras's formulas (NumPy golden)", "[constraints]") {
  const json golden = keras::testing::load_golden("layer_catalogue.json");  // kept alive for the loop
  for (const auto& c : golden["constraints"]) {
    INFO(c["constraint"].dump());
    auto con = constraints::Constraint::deserialize(c["constraint"]);
    json expected = c["constraint"];
    json written = constraints::serialize(con);
    for (auto& [k, v] : expected["config"].items()) CHECK(written["config"][k] == v);
    check_values((*con)(golden_tensor(c["w"])), golden_tensor(c["out"]));
  }
  CHECK(constraints::serialize(constraints::ConstraintRef("max_norm")) ==
        json::parse(R"({"class_name": "MaxNorm", "config": {"max_value": 2.0, "axis": 0}})"));
  CHECK(constraints::serialize(constraints::ConstraintRef("unit_norm")) ==
        json::parse(R"({"class_name": "UnitNorm", "config": {"axis": 0}})"));
  CHECK(constraints::serialize(constraints::ConstraintRef("non_neg"))["class_name"] == "NonNeg");
  CHECK(constraints::serialize(constraints::ConstraintRef("min_max_norm"))["config"] ==
        json::parse(R"({"min_value": 0.0, "max_value": 1.0, "rate": 1.0, "axis": 0})"));
  CHECK_THROWS_WITH(constraints::Constraint::get("positive"), Catch::Contains("Unknown constraint: 'positive'"));
  CHECK_THROWS_WITH(constraints::MaxNorm(2.0, 3)(Tensor::ones({2, 2})), Catch::Contains("axis 3"));
}

TEST_CASE("Dense collects kernel, bias and activity penalties in losses(), and writes them in its config", "[regularizers]") {
  layers::Dense dense(3, {.kernel_regularizer = regularizers::L2(0.1),
                          .bias_regularizer = "l1",
                          .activity_regularizer = regularizers::L1L2(0.0, 0.5),
                          .kernel_constraint = constraints::MaxNorm(1.5),
                          .bias_constraint = "non_neg"});
  const Tensor x = random_tensor({4, 2});
  const Tensor y = dense(x);
  dense.bias()->assign(Tensor::from_vector<float>({0.5f, -1.f, 2.f}));
  const auto losses = dense.losses();
  REQUIRE(losses.size() == 3);
  CHECK(losses[0].item() == Approx(0.5 * sum_of_squares(y) / 4.0).epsilon(1e-5));  // activity, per sample
  CHECK(losses[1].item() == Approx(0.1 * sum_of_squares(dense.kernel()->value())).epsilon(1e-5));
  CHECK(losses[2].item() == Approx(0.01 * 3.5).epsilon(1e-5));
  CHECK(dense.kernel()->constraint() != nullptr);

  // Calling again replaces the activity loss instead of piling them up.
  dense(x);
  dense(x);
  CHECK(dense.losses().size() == 3);

  const json c = dense.get_config();
  CHECK(c["kernel_regularizer"] == json::parse(R"({"class_name": "L2", "config": {"l2": 0.1}})"));
  CHECK(c["bias_regularizer"]["class_name"] == "L1");
  CHECK(c["activity_regularizer"]["class_name"] == "L1L2");
  CHECK(c["kernel_constraint"] == json::parse(R"({"class_name": "MaxNorm", "config": {"max_value": 1.5, "axis": 0}})"));
  CHECK(c["bias_constraint"]["class_name"] == "NonNeg");
  auto again = Layer::deserialize(serialize_object("Dense", c));
  json c2 = again->get_config();
  c2["name"] = c["name"];
  CHECK(c2 == c);
  // Without options the five keys are null, as Keras writes them.
  const json plain = layers::Dense(2).get_config();
  for (const char* k : {"kernel_regularizer", "bias_regularizer", "activity_regularizer", "kernel_constraint", "bias_constraint"})
    CHECK(plain[k].is_null());
}

TEST_CASE("Conv2D takes the same regularizer and constraint options", "[regularizers]") {
  layers::Conv2D conv(2, {3, 3}, {.kernel_regularizer = "l2", .kernel_constraint = "unit_norm"});
  conv(random_tensor({1, 5, 5, 1}));
  REQUIRE(conv.losses().size() == 1);
  CHECK(conv.losses()[0].item() == Approx(0.01 * sum_of_squares(conv.kernel()->value())).epsilon(1e-5));
  auto again = Layer::deserialize(serialize_object("Conv2D", conv.get_config()));
  CHECK(again->get_config()["kernel_regularizer"] == conv.get_config()["kernel_regularizer"]);
  CHECK(again->get_config()["kernel_constraint"]["class_name"] == "UnitNorm");
}

TEST_CASE("the compiled loss adds the layers' penalties, and training follows their gradient", "[regularizers]") {
  const Tensor x = random_tensor({8, 3}, -1.f, 1.f, 5), y = random_tensor({8, 2}, -1.f, 1.f, 6);
  auto make = [](bool regularized) {
    utils::set_random_seed(11);
    layers::DenseOptions o;
    if (regularized) o.kernel_regularizer = regularizers::L2(0.05);
    Sequential m({layers::Input({3}), layers::Dense(2, o)});
    m.compile({.optimizer = optimizers::SGD({.learning_rate = 0.1}), .loss = "mse"});
    return m;
  };
  Sequential reg = make(true), plain = make(false);
  auto kernel_of = [](Sequential& m) { return std::static_pointer_cast<layers::Dense>(m.layers().back())->kernel(); };
  REQUIRE(kernel_of(reg)->numpy().to_vector<float>() == kernel_of(plain)->numpy().to_vector<float>());

  // The reported loss is the data loss plus the penalty.
  const double mse = plain.test_on_batch(x, y).at("loss");
  const double penalty = 0.05 * sum_of_squares(kernel_of(reg)->value());
  CHECK(reg.test_on_batch(x, y).at("loss") == Approx(mse + penalty).epsilon(1e-5));

  // One step: the regularized kernel moves by the extra 2 * 0.05 * lr * kernel.
  const Tensor k0 = kernel_of(reg)->numpy();
  reg.train_on_batch(x, y);
  plain.train_on_batch(x, y);
  const auto kr = kernel_of(reg)->numpy().to_vector<float>(), kp = kernel_of(plain)->numpy().to_vector<float>();
  const auto k0v = k0.to_vector<float>();
  for (std::size_t i = 0; i < kr.size(); ++i) CHECK(kr[i] == Approx(kp[i] - 0.1 * 2 * 0.05 * k0v[i]).margin(1e-6));
}

TEST_CASE("constraints apply after every optimizer step, in fit and in custom loops", "[constraints]") {
  utils::set_random_seed(2);
  Sequential model({layers::Input({4}), layers::Dense(3, {.kernel_constraint = constraints::MaxNorm(0.5),
                                                          .bias_constraint = "non_neg"})});
  model.compile({.optimizer = optimizers::SGD({.learning_rate = 1.0}), .loss = "mse"});
  const Tensor x = random_tensor({16, 4}, -3.f, 3.f, 1), y = random_tensor({16, 3}, -5.f, 5.f, 2);
  model.fit(x, y, {.batch_size = 8, .epochs = 2, .verbose = 0});
  auto dense = std::static_pointer_cast<layers::Dense>(model.layers().back());
  const Tensor k = dense->kernel()->numpy();
  for (std::int64_t j = 0; j < 3; ++j) {
    double n = 0;
    for (std::int64_t i = 0; i < 4; ++i) n += std::pow(k.data<float>()[i * 3 + j], 2);
    CHECK(std::sqrt(n) <= 0.5 + 1e-5);
  }
  for (float b : dense->bias()->numpy().to_vector<float>()) CHECK(b >= 0.f);

  // A custom loop: apply_gradients projects too.
  optimizers::SGD opt({.learning_rate = 10.0});
  auto vars = model.trainable_weights();
  std::vector<Tensor> grads;
  for (const auto& v : vars) grads.push_back(Tensor::full(v->shape(), 1.0));
  opt.apply_gradients(grads, vars);
  for (float b : dense->bias()->numpy().to_vector<float>()) CHECK(b == 0.f);
}

TEST_CASE("a model with regularized layers saves and loads its regularizers and constraints", "[regularizers]") {
  Sequential model({layers::Input({3}), layers::Dense(2, {.kernel_regularizer = "l1_l2", .bias_constraint = "non_neg"}),
                    layers::ActivityRegularization({.l1 = 0.01})});
  const auto path = (std::filesystem::temp_directory_path() / "kerascpp_regularized.h5").string();
  model.save(path);
  auto loaded = models::load_model(path);
  const json c = loaded->get_layer(model.layers()[0]->name())->get_config();
  CHECK(c["kernel_regularizer"] == json::parse(R"({"class_name": "L1L2", "config": {"l1": 0.01, "l2": 0.01}})"));
  CHECK(c["bias_constraint"]["class_name"] == "NonNeg");
  const Tensor x = random_tensor({4, 3});
  (*loaded)(x);
  model(x);
  REQUIRE(loaded->losses().size() == model.losses().size());
  for (std::size_t i = 0; i < model.losses().size(); ++i)
    CHECK(loaded->losses()[i].item() == Approx(model.losses()[i].item()).epsilon(1e-6));
  std::filesystem::remove(path);
}
