#include <sstream>

#include <catch2/catch.hpp>

#include "keras/keras.hpp"

using namespace keras;
namespace k = keras;

namespace {
// Two Gaussian blobs per class in 4-D: an easy 3-class problem.
std::pair<Tensor, Tensor> blobs(std::int64_t n, unsigned seed = 0) {
  std::mt19937 gen(seed);
  std::normal_distribution<float> noise(0.f, 0.3f);
  Tensor x = Tensor::empty({n, 4});
  Tensor y = Tensor::empty({n}, DType::int32);
  for (std::int64_t i = 0; i < n; ++i) {
    const int c = int(i % 3);
    y.data<std::int32_t>()[i] = c;
    for (int j = 0; j < 4; ++j) x.data<float>()[i * 4 + j] = (j == c ? 2.f : 0.f) + noise(gen);
  }
  return {x, y};
}

Sequential small_model() {
  return Sequential({layers::Input({4}), layers::Dense(16, {.activation = "relu"}), layers::Dense(3)});
}

CompileOptions classifier() {
  return {.optimizer = optimizers::Adam({.learning_rate = 0.01}),
          .loss = losses::SparseCategoricalCrossentropy({.from_logits = true}),
          .metrics = {"accuracy"}};
}
}  // namespace

TEST_CASE("Sequential builds from Input, names itself and prints Keras's summary") {
  backend::clear_session();
  Sequential model({layers::Input({28, 28}), layers::Flatten(), layers::Dense(512, {.activation = "relu"}),
                    layers::Dense(10)});
  CHECK(model.name() == "sequential");
  CHECK(model.layers().size() == 3);
  CHECK(model.count_params() == 784 * 512 + 512 + 512 * 10 + 10);
  std::ostringstream out;
  model.summary(out);
  const std::string expected =
      "Model: \"sequential\"\n"
      "_________________________________________________________________\n"
      " Layer (type)                Output Shape              Param #   \n"
      "=================================================================\n"
      " flatten (Flatten)           (None, 784)               0         \n"
      "                                                                 \n"
      " dense (Dense)               (None, 512)               401920    \n"
      "                                                                 \n"
      " dense_1 (Dense)             (None, 10)                5130      \n"
      "=================================================================\n"
      "Total params: 407,050\n"
      "Trainable params: 407,050\n"
      "Non-trainable params: 0\n"
      "_________________________________________________________________\n";
  CHECK(out.str() == expected);
  CHECK(model.get_layer("dense_1")->class_name() == "Dense");
  CHECK_THROWS_WITH(model.get_layer("nope"), Catch::Contains("dense_1"));
}

TEST_CASE("Sequential add, pop and summary before build") {
  Sequential model;
  model.add(layers::Dense(4));
  model.add(std::make_shared<layers::Dense>(2));
  CHECK(model.layers().size() == 2);
  std::ostringstream out;
  CHECK_THROWS_WITH(model.summary(out), Catch::Contains("not yet been built"));
  model.pop();
  CHECK(model.layers().size() == 1);
  model.build({-1, 3});
  CHECK(model.layers()[0]->output_shape() == Shape{-1, 4});
  CHECK_THROWS_AS(model.add(layers::Input({3})), ValueError);
}

TEST_CASE("fit learns, reports Keras's log names, and evaluate/predict agree") {
  utils::set_random_seed(1);
  auto [x, y] = blobs(600);
  Sequential model = small_model();
  model.compile(classifier());
  auto history = model.fit(x, y, {.batch_size = 32, .epochs = 8, .verbose = 0, .validation_split = 0.2});
  REQUIRE(history.history.size() == 4);
  CHECK(history.history.count("val_accuracy") == 1);
  CHECK(history.epoch == std::vector<int>{0, 1, 2, 3, 4, 5, 6, 7});
  CHECK(history.history["loss"].back() < history.history["loss"].front());
  CHECK(history.history["val_accuracy"].back() > 0.9);
  Logs results = model.evaluate(x, y, {.verbose = 0});
  CHECK(results.keys_str() == "loss, accuracy");
  CHECK(results.at("accuracy") > 0.9);
  Tensor probs = model.predict(x, {.batch_size = 7});
  CHECK(probs.shape() == Shape{600, 3});
  Tensor classes = ops::argmax(probs);
  int correct = 0;
  for (int i = 0; i < 600; ++i) correct += classes.data<std::int64_t>()[i] == y.data<std::int32_t>()[i];
  CHECK(double(correct) / 600 == Approx(results.at("accuracy")).margin(1e-9));
  CHECK(model.metrics_names() == std::vector<std::string>{"loss", "accuracy"});
}

TEST_CASE("validation_data, sample weights and train/test/predict_on_batch") {
  auto [x, y] = blobs(90);
  Sequential model = small_model();
  model.compile({.optimizer = optimizers::SGD({.learning_rate = 0.1}), .loss = "sparse_categorical_crossentropy",
                 .metrics = {"sparse_categorical_accuracy"}});
  auto h = model.fit(x, y, {.batch_size = 16, .epochs = 2, .verbose = 0, .validation_data = ValidationData{x, y}});
  CHECK(h.history.count("val_sparse_categorical_accuracy") == 1);
  Logs a = model.train_on_batch(x.slice(0, 10), y.slice(0, 10));
  CHECK(a.contains("loss"));
  model.reset_metrics();
  Logs b = model.test_on_batch(x.slice(0, 10), y.slice(0, 10), Tensor::ones({10}));
  Logs c = model.test_on_batch(x.slice(0, 10), y.slice(0, 10));
  CHECK(b.at("loss") == Approx(c.at("loss")));
  CHECK(model.predict_on_batch(x.slice(0, 5)).shape() == Shape{5, 3});
  // A zero weight removes a sample from the loss: sum over the other samples / batch size, as in Keras.
  model.reset_metrics();
  Tensor w = Tensor::ones({10});
  w.data<float>()[0] = 0;
  Logs weighted = model.test_on_batch(x.slice(0, 10), y.slice(0, 10), w);
  losses::SparseCategoricalCrossentropy per_sample({.reduction = losses::Reduction::none});
  auto l = per_sample(y.slice(0, 10), model.predict_on_batch(x.slice(0, 10))).to_vector<float>();
  double expected = 0;
  for (int i = 1; i < 10; ++i) expected += l[i];
  CHECK(weighted.at("loss") == Approx(expected / 10).epsilon(1e-5));
}

TEST_CASE("compile accepts Keras string identifiers and rejects unknown ones with the valid list") {
  Sequential model = small_model();
  model.compile({.optimizer = "rmsprop", .loss = "mse", .metrics = {"mae"}});
  CHECK(model.optimizer().class_name() == "RMSprop");
  CHECK(model.loss().class_name() == "MeanSquaredError");
  CHECK_THROWS_WITH(model.compile({.optimizer = "adamm", .loss = "mse"}), Catch::Contains("adam"));
  CHECK_THROWS_WITH(model.compile({.optimizer = "adam", .loss = "msee"}), Catch::Contains("mean_squared_error"));
  CHECK_THROWS_AS(model.compile({.optimizer = "adam"}), ValueError);
  Sequential fresh = small_model();
  auto [x, y] = blobs(10);
  CHECK_THROWS_WITH(fresh.fit(x, y, {.verbose = 0}), Catch::Contains("compile"));
}

TEST_CASE("bad data gives errors that name the shapes") {
  Sequential model = small_model();
  model.compile(classifier());
  CHECK_THROWS_WITH(model.fit(Tensor::zeros({10, 4}), Tensor::zeros({9}, DType::int32), {.verbose = 0}),
                    Catch::Contains("(10, 4)") && Catch::Contains("(9,)"));
  CHECK_THROWS_WITH(model.predict(Tensor::zeros({2, 5})), Catch::Contains("sequential") && Catch::Contains("(2, 5)"));
  CHECK_THROWS_WITH(model.predict(Tensor::zeros({0, 4})), Catch::Contains("no samples"));
  CHECK_THROWS_WITH(Sequential().predict(Tensor::zeros({2, 4})), Catch::Contains("no layers"));
  CHECK_THROWS_AS(model.fit(Tensor::zeros({10, 4}), Tensor::zeros({10}, DType::int32), {.verbose = 0, .validation_split = 1.5}),
                  ValueError);
  CHECK_THROWS_AS(model.fit(Tensor::zeros({10, 4}), Tensor::zeros({10}, DType::int32), {.batch_size = 0, .verbose = 0}),
                  ValueError);
  CHECK_THROWS_WITH(model.fit(Tensor::zeros({4, 4}), Tensor::full({4}, 7, DType::int32), {.verbose = 0}),
                    Catch::Contains("label 7"));
}

TEST_CASE("training is reproducible with set_random_seed on one thread") {
  auto run = [] {
    utils::set_num_threads(1);
    utils::set_random_seed(42);
    auto [x, y] = blobs(64);
    Sequential model = small_model();
    model.compile(classifier());
    model.fit(x, y, {.batch_size = 8, .epochs = 2, .verbose = 0});
    return model.get_weights();
  };
  auto a = run(), b = run();
  utils::set_num_threads(2);
  REQUIRE(a.size() == b.size());
  for (std::size_t i = 0; i < a.size(); ++i) CHECK(a[i].to_vector<float>() == b[i].to_vector<float>());
}

TEST_CASE("a custom training loop uses GradientTape and apply_gradients") {
  auto [x, y] = blobs(96);
  Sequential model = small_model();
  optimizers::Adam opt({.learning_rate = 0.01});
  losses::SparseCategoricalCrossentropy loss_fn({.from_logits = true});
  double first = 0, last = 0;
  for (int step = 0; step < 60; ++step) {
    GradientTape tape;
    Tensor loss = loss_fn(y, model(x, true));
    auto grads = tape.gradient(loss, model.trainable_weights());
    opt.apply_gradients(grads, model.trainable_weights());
    (step == 0 ? first : last) = loss.item();
  }
  CHECK(last < first * 0.5);
  CHECK(opt.iterations() == 60);
}

namespace {
class TwoLayer : public Model {
 public:
  TwoLayer() : Model("two_layer") {
    hidden_ = track(layers::Dense(8, {.activation = "tanh"}));
    out_ = track(layers::Dense(3));
  }
  Tensor call(const Tensor& x, bool training) override { return (*out_)((*hidden_)(x, training), training); }

 private:
  std::shared_ptr<layers::Dense> hidden_, out_;
};
}  // namespace

TEST_CASE("a subclassed model trains, counts and freezes its tracked layers") {
  auto [x, y] = blobs(120);
  TwoLayer model;
  model.compile(classifier());
  auto h = model.fit(x, y, {.batch_size = 16, .epochs = 15, .verbose = 0});
  CHECK(model.trainable_weights().size() == 4);
  CHECK(model.count_params() == 4 * 8 + 8 + 8 * 3 + 3);
  CHECK(h.history["accuracy"].back() > 0.8);
  model.set_trainable(false);
  CHECK(model.trainable_weights().empty());
}

TEST_CASE("a custom loss is any callable built from ops") {
  auto [x, y] = blobs(60);
  Tensor onehot = ops::one_hot(y, 3);
  Sequential model({layers::Input({4}), layers::Dense(3, {.activation = "softmax"})});
  model.compile({.optimizer = "adam",
                 .loss = [](const Tensor& t, const Tensor& p) { return ops::mean(ops::square(t - p), {-1}); },
                 .metrics = {"accuracy"}});
  auto h = model.fit(x, onehot, {.batch_size = 10, .epochs = 3, .verbose = 0});
  CHECK(h.history["loss"].back() < h.history["loss"].front());
}

TEST_CASE("class_weight weighs each sample's loss by its class") {
  auto [x, y] = blobs(30);
  Sequential model = small_model();
  model.compile({.optimizer = optimizers::SGD({.learning_rate = 0.0}), .loss = losses::SparseCategoricalCrossentropy({.from_logits = true})});
  auto plain = model.fit(x, y, {.batch_size = 30, .verbose = 0, .shuffle = false});
  auto weighted = model.fit(x, y, {.batch_size = 30, .verbose = 0, .shuffle = false, .class_weight = {{0, 3.0}, {1, 0.0}, {2, 0.0}}});
  losses::SparseCategoricalCrossentropy per_sample({.from_logits = true, .reduction = losses::Reduction::none});
  auto l = per_sample(y, model.predict(x)).to_vector<float>();
  double class0 = 0;
  for (int i = 0; i < 30; i += 3) class0 += l[i];
  CHECK(weighted.history["loss"][0] == Approx(3.0 * class0 / 30).epsilon(1e-5));
  CHECK(plain.history["loss"][0] != Approx(weighted.history["loss"][0]));
  CHECK_THROWS_WITH(model.fit(x, y, {.verbose = 0, .class_weight = {{0, 1.0}}}), Catch::Contains("no entry for class"));
}

TEST_CASE("train_on_batch reports one batch by default and accumulates with reset_metrics = false") {
  auto [x, y] = blobs(20);
  Sequential model = small_model();
  model.compile({.optimizer = optimizers::SGD({.learning_rate = 0.0}), .loss = "sparse_categorical_crossentropy"});
  const double a = model.test_on_batch(x.slice(0, 10), y.slice(0, 10)).at("loss");
  const double b = model.test_on_batch(x.slice(10, 20), y.slice(10, 20)).at("loss");
  model.test_on_batch(x.slice(0, 10), y.slice(0, 10), Tensor(), false);
  const double both = model.test_on_batch(x.slice(10, 20), y.slice(10, 20), Tensor(), false).at("loss");
  CHECK(both == Approx((a + b) / 2));
  model.optimizer().set_learning_rate(0.5);
  CHECK(model.optimizer().learning_rate() == 0.5);
}

namespace {
// A subclassed model whose train_step also counts the batches it saw.
class CountingModel : public Model {
 public:
  CountingModel() : Model("counting") { dense_ = track(layers::Dense(3)); }
  Tensor call(const Tensor& x, bool training) override { return (*dense_)(x, training); }
  Logs train_step(const Batch& data) override {
    ++steps;
    Logs logs = Model::train_step(data);
    logs["steps"] = steps;
    return logs;
  }
  int steps = 0;

 private:
  std::shared_ptr<layers::Dense> dense_;
};
}  // namespace

namespace {
// The README's train_step override: gradients clipped to [-1, 1] before the optimizer sees them.
class ClippedModel : public CountingModel {
 public:
  Logs train_step(const Batch& data) override {
    GradientTape tape;
    auto y_pred = call_all(data.x, {.training = true});
    Tensor loss = compute_loss(data.x, data.y, y_pred, data.sample_weight);
    auto vars = trainable_weights();
    auto grads = tape.gradient(loss, vars);
    for (auto& g : grads) g = ops::clip(g, -1.f, 1.f);
    optimizer().apply_gradients(grads, vars);
    return compute_metrics(data.x, data.y, y_pred, data.sample_weight);
  }
};
}  // namespace

TEST_CASE("a subclassed train_step sees one Batch and can change the gradients") {
  auto [x, y] = blobs(40);
  ClippedModel model;
  // A loss scaled by 1000 makes raw gradients far larger than 1: with SGD(learning_rate=1) no weight may
  // move by more than 1 per step when the override clips them.
  model.compile({.optimizer = optimizers::SGD({.learning_rate = 1.0}),
                 .loss = [](const Tensor& t, const Tensor& p) { return ops::mean(ops::square(t - p), {-1}) * 1000.f; }});
  const Tensor xs = x.slice(0, 8), ys = ops::one_hot(y.slice(0, 8), 3);
  model.build(Shape{-1, x.dim(1)});
  const auto before = model.get_weights();
  const Logs logs = model.train_on_batch(xs, ys);
  CHECK(logs.at("loss") > 1.0);
  const auto after = model.get_weights();
  float largest = 0.f;
  for (std::size_t i = 0; i < before.size(); ++i)
    for (std::int64_t j = 0; j < before[i].size(); ++j)
      largest = std::max(largest, std::abs(after[i].data<float>()[j] - before[i].data<float>()[j]));
  CHECK(largest > 0.5f);
  CHECK(largest <= 1.0f + 1e-6f);
}

TEST_CASE("a subclassed model can override train_step") {
  auto [x, y] = blobs(40);
  CountingModel model;
  model.compile(classifier());
  auto h = model.fit(x, y, {.batch_size = 10, .epochs = 2, .verbose = 0});
  CHECK(model.steps == 8);
  CHECK(h.history["steps"] == std::vector<double>{4, 8});
}
