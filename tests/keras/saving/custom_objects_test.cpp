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
