// Each application's layers — names, classes, order — and parameter counts equal Keras's: the expected values
// come from Keras's own application sources, executed by tests/golden/make_applications_golden.py, and the
// parameter counts also round to the keras.io/api/applications table's "Size"/"Parameters" column.
#include <cmath>

#include <catch2/catch.hpp>

#include "application_builders.hpp"
#include "golden.hpp"

using namespace keras;
using keras::testing::build_application;

namespace {

// keras.io/api/applications: the "Parameters" column (millions, one decimal).
const std::map<std::string, double> kDocumentedMillions = {
    {"VGG16", 138.4},     {"ResNet50", 25.6},    {"ResNet50V2", 25.6}, {"MobileNet", 4.3},         {"MobileNetV2", 3.5},
    {"InceptionV3", 23.9}, {"Xception", 22.9},   {"DenseNet121", 8.1}, {"EfficientNetB0", 5.3}};

void check_against_keras(const std::string& name, bool top) {
  const json golden = keras::testing::load_golden("applications.json")["models"][name][top ? "top" : "notop"];
  backend::clear_session();  // auto-named layers start at "conv2d", as in a fresh Keras session
  auto model = build_application(name, {.include_top = top});
  INFO(name << (top ? " with top" : " without top"));
  CHECK(model->name() == golden["name"].get<std::string>());
  const auto layers = model->layers();
  const auto& want = golden["layers"];
  REQUIRE(layers.size() == want.size());
  CHECK(layers[0]->class_name() == "InputLayer");  // named "input_1" as tf.keras 2 names it (Keras 3: "input_layer")
  std::size_t mismatches = 0;
  for (std::size_t i = 1; i < layers.size(); ++i) {
    const std::string want_name = want[i][0].get<std::string>(), want_class = want[i][1].get<std::string>();
    if (layers[i]->name() != want_name || layers[i]->class_name() != want_class) {
      if (++mismatches <= 5)
        UNSCOPED_INFO("layer " << i << ": " << layers[i]->name() << " (" << layers[i]->class_name() << "), Keras has "
                               << want_name << " (" << want_class << ")");
    }
  }
  CHECK(mismatches == 0);
  const std::int64_t total = model->count_params();
  CHECK(total == golden["total_params"].get<std::int64_t>());
  CHECK(keras::testing::count(model->trainable_weights()) == golden["trainable_params"].get<std::int64_t>());
  if (top) CHECK(std::round(total / 1e5) / 10 == Approx(kDocumentedMillions.at(name)));
  const auto out = model->outputs().at(0).shape();
  CHECK(out == golden["output_shape"].get<Shape>());
}

}  // namespace

// Two test cases per model (each builds one model at Keras's default size).
#define KERAS_TEST_STRUCTURE(Model)                                                                        \
  TEST_CASE(#Model " without top: layers and parameters are Keras's", "[applications]") {                 \
    check_against_keras(#Model, false);                                                                    \
  }                                                                                                        \
  TEST_CASE(#Model " with top: layers and parameters are Keras's", "[applications]") {                    \
    check_against_keras(#Model, true);                                                                     \
  }

KERAS_TEST_STRUCTURE(VGG16)
KERAS_TEST_STRUCTURE(ResNet50)
KERAS_TEST_STRUCTURE(ResNet50V2)
KERAS_TEST_STRUCTURE(MobileNet)
KERAS_TEST_STRUCTURE(MobileNetV2)
KERAS_TEST_STRUCTURE(InceptionV3)
KERAS_TEST_STRUCTURE(Xception)
KERAS_TEST_STRUCTURE(DenseNet121)
KERAS_TEST_STRUCTURE(EfficientNetB0)
