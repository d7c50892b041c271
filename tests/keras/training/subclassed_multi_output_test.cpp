// A subclassed model with two outputs (overriding the general call): compile with a loss, a weight and metrics per
// output, resolved when the first call shows the outputs; fit / evaluate / predict_outputs; tf.keras 2.x's
// names output_1, output_2 and logs output_1_loss, output_2_accuracy. Losses checked by hand.
#include <cmath>

#include <catch2/catch.hpp>

#include "gradient_check.hpp"
#include "keras/keras.hpp"
#include "reference_losses.hpp"

using namespace keras;
using keras_test::accuracy;
using keras_test::mse;
using keras_test::sparse_ce_from_logits;
using keras::testing::random_tensor;

namespace {

// x [n, 4] → Dense(6, tanh) → Dense(2) (regression) and Dense(3) (logits of 3 classes).
class TwoHeads : public Model {
 public:
  TwoHeads() : Model("two_heads") {}
  std::vector<Tensor> call(const std::vector<Tensor>& inputs, const CallContext& context) override {
    const Tensor h = (*hidden_)(inputs.at(0), context.training);
    return {(*regression_)(h, context.training), (*classes_)(h, context.training)};
  }

 private:
  std::shared_ptr<layers::Dense> hidden_ = track(layers::Dense(6, {.activation = "tanh"}));
  std::shared_ptr<layers::Dense> regression_ = track(layers::Dense(2));
  std::shared_ptr<layers::Dense> classes_ = track(layers::Dense(3));
};

struct Data {
  Tensor x, y1, y2;
};

Data make_data(std::int64_t n) {
  Data d{random_tensor({n, 4}, -1.f, 1.f, 3), random_tensor({n, 2}, -1.f, 1.f, 4), Tensor::empty({n}, DType::int32)};
  for (std::int64_t i = 0; i < n; ++i) d.y2.data<std::int32_t>()[i] = static_cast<std::int32_t>((i * 7) % 3);
  return d;
}

CompileOptions two_head_compile() {
  return {.optimizer = optimizers::SGD({.learning_rate = 0.1}),
          .loss = {"mse", losses::SparseCategoricalCrossentropy({.from_logits = true})},
          .loss_weights = {0.5, 2.0},
          .metrics = std::vector<MetricsSpec::List>{{"mae"}, {"accuracy"}}};
}

}  // namespace

TEST_CASE("a subclassed model with two outputs compiles before its first call and trains with Keras's names",
          "[subclassed][multi-output]") {
  backend::clear_session();
  utils::set_random_seed(12);
  TwoHeads model;
  model.compile(two_head_compile());  // the outputs are not known yet: the spec waits for the first call
  CHECK(model.output_names() == std::vector<std::string>{"output_1"});
  const Data d = make_data(8);
  const auto before = model.predict_outputs(d.x, {.batch_size = 8});
  REQUIRE(before.size() == 2);
  CHECK(model.output_names() == std::vector<std::string>{"output_1", "output_2"});
  CHECK(before[0].shape() == Shape{8, 2});
  CHECK(before[1].shape() == Shape{8, 3});

  // One step: the logs describe the batch before the update, by tf.keras's formula.
  const Logs logs = model.train_on_batch(d.x, std::vector<Tensor>{d.y1, d.y2});
  const double l1 = mse(d.y1, before[0]), l2 = sparse_ce_from_logits(d.y2, before[1]);
  CHECK(logs.at("output_1_loss") == Approx(l1).epsilon(1e-5));
  CHECK(logs.at("output_2_loss") == Approx(l2).epsilon(1e-5));
  CHECK(logs.at("loss") == Approx(0.5 * l1 + 2.0 * l2).epsilon(1e-5));
  CHECK(logs.at("output_2_accuracy") == Approx(accuracy(d.y2, before[1])));
  CHECK(logs.contains("output_1_mae"));
  CHECK(model.metrics_names() ==
        std::vector<std::string>{"loss", "output_1_loss", "output_2_loss", "output_1_mae", "output_2_accuracy"});

  // evaluate on the updated weights, checked against predict_outputs.
  const auto after = model.predict_outputs(d.x);
  const Logs eval = model.evaluate(d.x, std::vector<Tensor>{d.y1, d.y2}, {.batch_size = 8, .verbose = 0});
  CHECK(eval.at("loss") == Approx(0.5 * mse(d.y1, after[0]) + 2.0 * sparse_ce_from_logits(d.y2, after[1])).epsilon(1e-5));
  CHECK(after[1].to_vector<float>() != before[1].to_vector<float>());

  auto history = model.fit(d.x, std::map<std::string, Tensor>{{"output_1", d.y1}, {"output_2", d.y2}},
                           {.batch_size = 4, .epochs = 2, .verbose = 0, .validation_split = 0.25});
  for (const char* key : {"loss", "output_1_loss", "output_2_loss", "output_2_accuracy", "val_loss", "val_output_1_loss",
                          "val_output_2_accuracy"}) {
    INFO(key);
    CHECK(history.history[key].size() == 2);
  }
  CHECK_THROWS_WITH(model.predict(d.x), Catch::Contains("predict_outputs"));
}

TEST_CASE("a built subclassed model resolves its per-output spec at compile - maps by output name work",
          "[subclassed][multi-output]") {
  backend::clear_session();
  utils::set_random_seed(13);
  TwoHeads model;
  model.build({-1, 4});
  CHECK(model.output_names() == std::vector<std::string>{"output_1", "output_2"});
  CHECK_THROWS_WITH(model.compile({.optimizer = "sgd", .loss = {"mse", "mse", "mse"}}), Catch::Contains("output_2"));
  // Only output_2 has a loss: y for it alone, and the loss is its loss times its weight.
  model.compile({.optimizer = "sgd",
                 .loss = {{"output_2", losses::SparseCategoricalCrossentropy({.from_logits = true})}},
                 .loss_weights = {{"output_2", 3.0}}});
  const Data d = make_data(6);
  const auto p = model.predict_outputs(d.x);
  const Logs eval = model.evaluate(d.x, std::map<std::string, Tensor>{{"output_2", d.y2}}, {.batch_size = 6, .verbose = 0});
  CHECK(eval.at("loss") == Approx(3.0 * sparse_ce_from_logits(d.y2, p[1])).epsilon(1e-5));
  CHECK(eval.at("output_2_loss") == Approx(sparse_ce_from_logits(d.y2, p[1])).epsilon(1e-5));
  CHECK_FALSE(eval.contains("output_1_loss"));
}

TEST_CASE("a subclassed model compiled for two outputs refuses targets or losses that do not match them",
          "[subclassed][multi-output]") {
  backend::clear_session();
  TwoHeads model;
  model.compile({.optimizer = "sgd", .loss = {"mse", "mse", "mse"}});
  const Data d = make_data(4);
  CHECK_THROWS_WITH(model.train_on_batch(d.x, std::vector<Tensor>{d.y1, d.y1}), Catch::Contains("a list of 3"));
  TwoHeads fresh;
  fresh.compile({.optimizer = "sgd", .loss = "mse"});  // one loss serves both outputs, as in Keras
  CHECK_THROWS_WITH(fresh.train_on_batch(d.x, d.y1), Catch::Contains("output_2"));
}
