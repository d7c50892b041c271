#include <atomic>
#include <cmath>
#include <thread>

#include <catch2/catch.hpp>

#include "keras/json.hpp"
#include "keras/keras.hpp"
#include "temp_dir.hpp"

using namespace keras;

namespace {

// A layer the registry does not know: y = scale * x.
class Scale : public Layer {
 public:
  explicit Scale(double scale, const std::string& name = "") : Layer(name, "scale"), scale_(scale) {}
  Tensor call(const Tensor& x, bool) override { return x * static_cast<float>(scale_); }
  std::string class_name() const override { return "Scale"; }
  json get_config() const override {
    json c = Layer::get_config();
    c["scale"] = scale_;
    return c;
  }
  static std::shared_ptr<Layer> from_config(const json& c) {
    return std::make_shared<Scale>(c.at("scale").get<double>(), c.value("name", std::string()));
  }

 private:
  double scale_;
};

}  // namespace

TEST_CASE("custom_objects let load_model and model_from_json build unregistered classes, for that load only") {
  keras_test::TempDir dir("custom_objects");
  Sequential model({layers::Input({3}), layers::Dense(2), Scale(3.0)});
  const std::string json_text = model.to_json();
  CHECK_THROWS_WITH(models::model_from_json(json_text), Catch::Contains("Unknown layer: 'Scale'"));

  auto rebuilt = models::model_from_json(json_text, {.layers = {{"Scale", custom_object<Scale>()}}});
  CHECK(rebuilt->layers().back()->class_name() == "Scale");
  CHECK_FALSE(Registry<Layer>::instance().contains("Scale"));  // the scope ended with the call

  model.save(dir / "m.h5");
  auto loaded = models::load_model(dir / "m.h5", {.custom_objects = {.layers = {{"Scale", custom_object<Scale>()}}}});
  Tensor x = Tensor::ones({2, 3});
  CHECK(loaded->predict(x).to_vector<float>() == model.predict(x).to_vector<float>());
}

TEST_CASE("a custom object overrides a registered class during the load and the original comes back") {
  auto replacement = [](const json& c) -> std::shared_ptr<Layer> { return std::make_shared<Scale>(2.0, c.value("name", "")); };
  {
    CustomObjectScope scope({.layers = {{"Dropout", replacement}}});
    auto layer = Layer::deserialize(json{{"class_name", "Dropout"}, {"config", {{"rate", 0.5}, {"name", "d"}}}});
    CHECK(layer->class_name() == "Scale");
  }
  auto layer = Layer::deserialize(json{{"class_name", "Dropout"}, {"config", {{"rate", 0.5}, {"name", "d"}}}});
  CHECK(layer->class_name() == "Dropout");
}

TEST_CASE("custom objects are a scope of the loading thread: another thread never sees them") {
  auto replacement = [](const json& c) -> std::shared_ptr<Layer> { return std::make_shared<Scale>(2.0, c.value("name", "")); };
  const json dropout{{"class_name", "Dropout"}, {"config", {{"rate", 0.5}, {"name", "d"}}}};
  CustomObjectScope scope({.layers = {{"Dropout", replacement}, {"Scale", custom_object<Scale>()}}});
  CHECK(Layer::deserialize(dropout)->class_name() == "Scale");
  std::string seen_by_other_thread;
  bool other_thread_knows_scale = true;
  std::thread other([&] {
    seen_by_other_thread = Layer::deserialize(dropout)->class_name();
    other_thread_knows_scale = Registry<Layer>::instance().contains("Scale");
  });
  other.join();
  CHECK(seen_by_other_thread == "Dropout");
  CHECK_FALSE(other_thread_knows_scale);
}

TEST_CASE("every family takes custom objects: an activation and a Lambda function by name, for one load") {
  const auto mish = [](const Tensor& x) { return x * ops::tanh(ops::softplus(x)); };
  const auto twice = [](const Tensor& x) { return x * 2.f; };
  const json dense{{"class_name", "Dense"},
                   {"config", {{"units", 2}, {"activation", "mish_for_this_load"}, {"name", "d"}}}};
  CHECK_THROWS_WITH(Layer::deserialize(dense), Catch::Contains("Unknown activation function: 'mish_for_this_load'"));
  const json lambda{{"class_name", "Lambda"}, {"config", {{"function", "twice_for_this_load"}, {"name", "l"}}}};
  CHECK_THROWS_WITH(Layer::deserialize(lambda), Catch::Contains("twice_for_this_load"));

  CustomObjectScope scope({.activations = {{"mish_for_this_load", mish}}, .lambdas = {{"twice_for_this_load", twice}}});
  auto layer = Layer::deserialize(dense);
  Tensor x = Tensor::full({1, 3}, 1.f);
  auto y = (*layer)(x);
  CHECK(layer->get_config()["activation"] == "mish_for_this_load");
  auto kernel = layer->get_weights()[0].to_vector<float>();
  const float pre = kernel[0] + kernel[2] + kernel[4];  // bias 0; kernel [3, 2] row-major, column 0
  CHECK(y.to_vector<float>()[0] == Approx(pre * std::tanh(std::log1p(std::exp(pre)))).epsilon(1e-5));
  CHECK((*Layer::deserialize(lambda))(x).to_vector<float>() == std::vector<float>{2.f, 2.f, 2.f});
}

TEST_CASE("registries are safe to use from several threads at once") {
  std::vector<std::thread> threads;
  std::atomic<int> built{0};
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([t, &built] {
      for (int i = 0; i < 50; ++i) {
        activations::register_activation("thread_" + std::to_string(t) + "_" + std::to_string(i),
                                         [](const Tensor& x) { return x; });
        auto layer = Layer::deserialize(json{{"class_name", "Dense"}, {"config", {{"units", 1}, {"activation", "relu"}}}});
        if (layer->class_name() == "Dense" && activations::get("thread_" + std::to_string(t) + "_0").name ==
                                                  "thread_" + std::to_string(t) + "_0")
          ++built;
      }
    });
  for (auto& thread : threads) thread.join();
  CHECK(built == 200);
}
