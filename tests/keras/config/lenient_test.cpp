// Configs are read the way Python Keras reads them: null is the default, 1/0 stand for booleans, an
// integral float stands for an integer, unknown keys are ignored, Keras 3's wrapper keys (module,
// registered_name, build_config) and dtype-policy objects are understood. What Keras itself rejects
// (a string where a number belongs, 2.5 filters) is still a ValueError naming the field.
#include <catch2/catch.hpp>

#include "keras/config/codec.hpp"
#include "keras/config/dtype_policy.hpp"
#include "keras/config/fields.hpp"
#include "keras/json.hpp"
#include "keras/layer.hpp"
#include "losses/loss.hpp"

using namespace keras;

namespace test_lenient {

struct Options {
  std::int64_t units = 4;
  bool use_bias = true;
  double rate = 0.5;
  std::string padding = "valid";
  std::array<std::int64_t, 2> strides{1, 1};
  std::vector<int> axes{-1};
  std::optional<double> clipnorm = 2.0;
};
KERAS_FIELDS(Options, units, use_bias, rate, padding, strides, axes, clipnorm)

}  // namespace test_lenient

TEST_CASE("null is the default for plain fields and None for fields that can hold it") {
  test_lenient::Options o;
  config::read_fields(json::parse(R"({"units": null, "use_bias": null, "rate": null, "padding": null,
                                      "strides": null, "axes": null, "clipnorm": null})"), o);
  CHECK(o.units == 4);
  CHECK(o.use_bias);
  CHECK(o.rate == 0.5);
  CHECK(o.padding == "valid");
  CHECK(o.strides == std::array<std::int64_t, 2>{1, 1});
  CHECK(o.axes == std::vector<int>{-1});
  CHECK_FALSE(o.clipnorm);  // Keras's None
}

TEST_CASE("1/0 read as booleans, integral floats as integers, booleans as numbers - unknown keys are ignored") {
  test_lenient::Options o;
  config::read_fields(json::parse(R"({"units": 8.0, "use_bias": 0, "rate": true, "strides": [2.0, 3],
                                      "axes": [1.0], "no_such_field": {"anything": [1, 2]}})"), o);
  CHECK(o.units == 8);
  CHECK_FALSE(o.use_bias);
  CHECK(o.rate == 1.0);
  CHECK(o.strides == std::array<std::int64_t, 2>{2, 3});
  CHECK(o.axes == std::vector<int>{1});
  config::read_fields(json::parse(R"({"use_bias": 1})"), o);
  CHECK(o.use_bias);
}

TEST_CASE("what Keras rejects stays a ValueError naming the field") {
  test_lenient::Options o;
  CHECK_THROWS_WITH(config::read_fields(json::parse(R"({"units": "8"})"), o), Catch::Contains("\"units\""));
  CHECK_THROWS_WITH(config::read_fields(json::parse(R"({"units": 2.5})"), o), Catch::Contains("\"units\""));
  CHECK_THROWS_WITH(config::read_fields(json::parse(R"({"use_bias": "yes"})"), o), Catch::Contains("\"use_bias\""));
  CHECK_THROWS_WITH(config::read_fields(json::parse(R"({"use_bias": 0.5})"), o), Catch::Contains("\"use_bias\""));
  CHECK_THROWS_WITH(config::read_fields(json::parse(R"({"rate": "high"})"), o), Catch::Contains("\"rate\""));
  CHECK_THROWS_WITH(config::read_fields(json::parse(R"({"strides": [1, "2"]})"), o), Catch::Contains("\"strides\""));
  CHECK_THROWS_AS(config::required<std::int64_t>(json::parse(R"({"units": null})"), "units"), ValueError);
  CHECK(config::value_or(json::parse(R"({"alpha": null})"), "alpha", 0.3) == 0.3);
}

TEST_CASE("dtype policies of every Keras version name their dtype - anything else is refused") {
  CHECK(config::dtype_policy_name(json("float32")) == "float32");
  CHECK(config::dtype_policy_name(json(nullptr)) == "float32");
  CHECK(config::dtype_policy_name(json::parse(
            R"({"module": "keras", "class_name": "DTypePolicy", "config": {"name": "mixed_float16"}, "registered_name": null})")) ==
        "mixed_float16");
  CHECK(config::dtype_policy_name(json::parse(
            R"({"module": "keras", "class_name": "FloatDTypePolicy", "config": {"name": "float32"}})")) == "float32");
  CHECK(config::dtype_policy_name(json::parse(R"({"class_name": "Policy", "config": {"name": "mixed_bfloat16"}})")) ==
        "mixed_bfloat16");
  CHECK_THROWS_AS(config::dtype_policy_name(json(3)), ValueError);
  CHECK_THROWS_AS(config::dtype_policy_name(json::parse(R"({"class_name": "Dense", "config": {}})")), ValueError);
}

TEST_CASE("a Keras 3 layer entry (module, registered_name, build_config, a policy dtype, 1 for true) loads") {
  const json entry = json::parse(R"({
    "module": "keras.layers", "class_name": "Dense", "registered_name": null,
    "build_config": {"input_shape": [null, 3]},
    "config": {"name": "d", "trainable": 1,
               "dtype": {"module": "keras", "class_name": "DTypePolicy", "config": {"name": "mixed_float16"}, "registered_name": null},
               "units": 2.0, "activation": "relu", "use_bias": 0, "lora_rank": null,
               "kernel_initializer": {"module": "keras.initializers", "class_name": "GlorotUniform", "config": {"seed": null}, "registered_name": null},
               "bias_initializer": null, "kernel_regularizer": null, "bias_regularizer": null,
               "kernel_constraint": null, "bias_constraint": null, "activity_regularizer": null, "quantization_config": null}})");
  auto layer = Layer::deserialize(entry);
  CHECK(layer->name() == "d");
  CHECK(layer->trainable());
  CHECK(layer->get_config()["units"] == 2);
  CHECK(layer->get_config()["use_bias"] == false);
  json bad = entry;
  bad["config"]["dtype"] = 16;
  CHECK_THROWS_WITH(Layer::deserialize(bad), Catch::Contains("dtype"));
  bad = entry;
  bad["config"]["units"] = "two";
  CHECK_THROWS_WITH(Layer::deserialize(bad), Catch::Contains("units"));
}

TEST_CASE("Keras 3's serialized function ({class_name: function, config: name}) names a built-in loss") {
  auto loss = losses::Loss::deserialize(json::parse(
      R"({"module": "keras.losses", "class_name": "function", "config": "mean_squared_error", "registered_name": "function"})"));
  REQUIRE(loss);
  const Tensor y = Tensor::from_vector<float>({1.f, 3.f}, {2, 1});
  const Tensor p = Tensor::from_vector<float>({0.f, 1.f}, {2, 1});
  CHECK((*loss)(y, p).item() == Approx(2.5));
}
