// A forward pass of every application builds and runs on small images (the smallest Keras allows), and
// MobileNetV2 whole at 224x224 with ImageNet's 1000 classes.
#include <cmath>

#include <catch2/catch.hpp>

#include "application_builders.hpp"

using namespace keras;
using keras::testing::images;

namespace {

std::int64_t min_size(const std::string& name) {
  return name == "InceptionV3" ? 75 : name == "Xception" ? 71 : 32;
}

void check_finite(const Tensor& t) {
  int bad = 0;
  for (float v : t.to_vector<float>()) bad += !std::isfinite(v);
  CHECK(bad == 0);
}

// Without the top on small images, pooled to (batch, channels); with a small top (classes = 7), softmax rows that
// sum to one (for the larger models only the first, to stay within a few seconds on a loaded machine: their top is
// the global average pooling and Dense that MobileNetV2's and EfficientNetB0's run, and ResNet50V2's runs below).
void check_forward(const std::string& name, bool with_top = true) {
  const auto build = keras::testing::builder(name);
  const std::int64_t size = min_size(name);
  auto model = build({.include_top = false, .input_shape = Shape{size, size, 3}, .pooling = "avg"});
  const Tensor out = model->predict(images(1, size, 7), {.verbose = 0});
  const std::int64_t channels = model->outputs()[0].shape()[1];
  REQUIRE(out.shape() == Shape{1, channels});
  check_finite(out);
  if (!with_top) return;
  auto top = build({.input_shape = Shape{size, size, 3}, .classes = 7});
  const Tensor probabilities = top->predict(images(2, size, 11), {.verbose = 0});
  REQUIRE(probabilities.shape() == Shape{2, 7});
  const auto v = probabilities.to_vector<float>();
  for (int r = 0; r < 2; ++r) {
    double sum = 0;
    for (int c = 0; c < 7; ++c) {
      CHECK(v[r * 7 + c] >= 0.f);
      sum += v[r * 7 + c];
    }
    CHECK(sum == Approx(1.0).epsilon(1e-5));
  }
}

}  // namespace

TEST_CASE("VGG16 runs on small images", "[applications]") { check_forward("VGG16"); }
TEST_CASE("ResNet50 runs on small images", "[applications]") { check_forward("ResNet50", false); }
TEST_CASE("ResNet50V2 runs on small images", "[applications]") { check_forward("ResNet50V2", false); }
TEST_CASE("MobileNet runs on small images", "[applications]") { check_forward("MobileNet"); }
TEST_CASE("MobileNetV2 runs on small images", "[applications]") { check_forward("MobileNetV2"); }
TEST_CASE("InceptionV3 runs on small images", "[applications]") { check_forward("InceptionV3", false); }
TEST_CASE("Xception runs on small images", "[applications]") { check_forward("Xception", false); }
TEST_CASE("DenseNet121 runs on small images", "[applications]") { check_forward("DenseNet121", false); }
TEST_CASE("EfficientNetB0 runs on small images", "[applications]") { check_forward("EfficientNetB0"); }

TEST_CASE("pooling max or none, and logits with classifier_activation linear", "[applications]") {
  const applications::MobileNetOptions base{.include_top = false, .input_shape = Shape{32, 32, 3}, .alpha = 0.5};
  auto maxed = base;
  maxed.pooling = "max";
  CHECK(applications::MobileNet(maxed)->outputs()[0].shape() == Shape{-1, 512});
  CHECK(applications::MobileNet(base)->outputs()[0].shape() == Shape{-1, 1, 1, 512});
  auto logits =
      applications::ResNet50V2({.input_shape = Shape{32, 32, 3}, .classes = 4, .classifier_activation = "linear"});
  CHECK(logits->get_layer("predictions")->get_config()["activation"] == "linear");
  check_finite(logits->predict(images(1, 32, 3), {.verbose = 0}));
}

TEST_CASE("MobileNetV2 runs whole: 224x224 images to 1000 ImageNet classes", "[applications]") {
  auto model = applications::MobileNetV2();
  REQUIRE(model->name() == "mobilenetv2_1.00_224");
  const Tensor x = applications::mobilenet_v2::preprocess_input(images(1, 224, 5));
  const Tensor out = model->predict(x, {.verbose = 0});
  REQUIRE(out.shape() == Shape{1, 1000});
  double sum = 0;
  for (float v : out.to_vector<float>()) sum += v;
  CHECK(sum == Approx(1.0).epsilon(1e-4));
}

TEST_CASE("Applications build on a given input tensor, and MobileNet follows alpha", "[applications]") {
  KerasTensor raw = Input({48, 48, 3}, {.name = "pixels"});
  KerasTensor scaled = layers::Rescaling(1.0 / 127.5, {.offset = -1.0})(raw);
  auto model = applications::MobileNet({.include_top = false, .input_tensor = scaled, .pooling = "avg", .alpha = 0.25});
  REQUIRE(model->inputs().size() == 1);
  CHECK(model->input_names() == std::vector<std::string>{"pixels"});  // the source input, as get_source_inputs
  CHECK(model->outputs()[0].shape() == Shape{-1, 256});               // 1024 * alpha
  CHECK(model->get_layer("conv1")->weights()[0]->shape() == Shape{3, 3, 3, 8});
  CHECK(model->predict(images(1, 48, 2), {.verbose = 0}).shape() == Shape{1, 256});
}
