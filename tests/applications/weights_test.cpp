// Weights files: an application's weights saved in Keras's HDF5 layout (the layout of Keras's published
// "..._tf_dim_ordering_tf_kernels.h5" files: layer_names, weight_names "conv1/kernel:0") load by layer name into
// a new model through `weights`; a file whose automatically named layers do not match loads by position, as
// Keras loads it; a file of the wrong variant is refused; and a whole model saved as .h5 loads back.
#include <cmath>

#include <catch2/catch.hpp>

#include "application_builders.hpp"
#include "golden.hpp"
#include "temp_dir.hpp"

using namespace keras;
using keras::testing::images;

namespace {

// Every weight (batch norm statistics and Normalization's mean and variance included) set to distinct values,
// so that a weight loaded into the wrong place shows in the outputs.
void randomize(Model& model, unsigned seed) {
  unsigned s = seed;
  for (const auto& w : model.weights()) {
    Tensor v = Tensor::empty(w->shape());
    float* p = v.data<float>();
    const bool positive = w->name().find("variance") != std::string::npos;
    for (std::int64_t i = 0; i < v.size(); ++i) {
      const float u = static_cast<float>((s = s * 1664525u + 1013904223u) >> 8) / 16777216.f;
      p[i] = positive ? 0.5f + u : (u - 0.5f) * 0.2f;
    }
    w->assign(v);
  }
}

void check_equal(const Tensor& a, const Tensor& b) {
  REQUIRE(a.shape() == b.shape());
  const auto x = a.to_vector<float>(), y = b.to_vector<float>();
  for (std::size_t i = 0; i < x.size(); ++i) REQUIRE(x[i] == y[i]);
}

}  // namespace

TEST_CASE("MobileNet weights in Keras's HDF5 layout load by name through weights=", "[applications]") {
  keras_test::TempDir dir("apps_weights");
  const applications::MobileNetOptions options{.include_top = false, .input_shape = Shape{32, 32, 3},
                                               .pooling = "avg", .alpha = 0.25};
  auto source = applications::MobileNet(options);
  randomize(*source, 3);
  source->save_weights(dir / "mobilenet_2_5_32_tf_no_top.h5");
  const Tensor x = applications::mobilenet::preprocess_input(images(2, 32, 1));
  const Tensor want = source->predict(x);

  auto options_with_file = options;
  options_with_file.weights = dir / "mobilenet_2_5_32_tf_no_top.h5";
  auto loaded = applications::MobileNet(options_with_file);
  check_equal(loaded->predict(x), want);

  // the same file into a MobileNet with its classifier: Keras's count check, with the missing layer named
  auto top = options_with_file;
  top.include_top = true;
  top.classes = 10;
  top.pooling = "";
  CHECK_THROWS_WITH(applications::MobileNet(top), Catch::Contains("conv_preds") && Catch::Contains("include_top"));
}

TEST_CASE("EfficientNetB0 weights load by position when automatic names differ, Normalization included", "[applications]") {
  keras_test::TempDir dir("apps_weights_position");
  backend::clear_session();
  auto source = applications::EfficientNetB0({.include_top = false, .input_shape = Shape{32, 32, 3}, .pooling = "avg"});
  randomize(*source, 9);
  REQUIRE(source->get_layer("normalization"));
  source->save_weights(dir / "efficientnetb0_notop.h5");
  const Tensor x = images(2, 32, 4);
  const Tensor want = source->predict(x);

  // A second model in the same session: its Normalization is "normalization_1", which the file lacks, so the
  // weights go by position, as Keras's load_weights puts them.
  auto loaded = applications::EfficientNetB0({.include_top = false, .weights = dir / "efficientnetb0_notop.h5",
                                              .input_shape = Shape{32, 32, 3}, .pooling = "avg"});
  REQUIRE(loaded->get_layer("normalization_1"));
  check_equal(loaded->predict(x), want);
}

TEST_CASE("A whole MobileNetV2 saved as .h5 loads back with its outputs", "[applications]") {
  keras_test::TempDir dir("apps_model_h5");
  auto model = applications::MobileNetV2({.input_shape = Shape{32, 32, 3}, .classes = 5, .alpha = 0.35});
  randomize(*model, 5);
  model->save(dir / "mobilenetv2.h5");
  auto again = models::load_model(dir / "mobilenetv2.h5");
  CHECK(again->name() == "mobilenetv2_0.35_32");
  REQUIRE(again->layers().size() == model->layers().size());
  for (std::size_t i = 0; i < model->layers().size(); ++i) CHECK(again->layers()[i]->name() == model->layers()[i]->name());
  const Tensor x = applications::mobilenet_v2::preprocess_input(images(2, 32, 8));
  check_equal(again->predict(x), model->predict(x));
}

TEST_CASE("Applications refuse arguments Keras refuses", "[applications]") {
  using applications::ApplicationOptions;
  CHECK_THROWS_AS(applications::ResNet50({.weights = "imagenet"}), ValueError);  // no downloads: give a path
  CHECK_THROWS_WITH(applications::ResNet50({.weights = "/nonexistent/resnet50.h5"}), Catch::Contains("weights"));
  CHECK_THROWS_WITH(applications::VGG16({.input_shape = Shape{-1, -1, 3}}), Catch::Contains("static `input_shape`"));
  CHECK_THROWS_WITH(applications::VGG16({.include_top = false, .input_shape = Shape{16, 16, 3}}),
                    Catch::Contains("at least 32x32"));
  CHECK_THROWS_WITH(applications::InceptionV3({.include_top = false, .input_shape = Shape{64, 64, 3}}),
                    Catch::Contains("at least 75x75"));
  CHECK_THROWS_WITH(applications::DenseNet121({.include_top = false, .pooling = "mean"}), Catch::Contains("pooling"));
  CHECK_THROWS_WITH(applications::ResNet50({.input_shape = Shape{64, 64}}), Catch::Contains("three integers"));
}

TEST_CASE("MobileNet loads a weights file h5py wrote in Keras's layout and computes what PyTorch computes", "[applications]") {
  // tests/golden/make_applications_weights_golden.py: the file, and the output of an independent forward pass.
  const json golden = keras::testing::load_golden("applications_mobilenet.json");
  auto model = applications::MobileNet({.include_top = false,
                                         .weights = std::string(keras_test::golden_dir) + "/applications_mobilenet_0.125_no_top.h5",
                                         .input_shape = Shape{32, 32, 3}, .pooling = "avg", .alpha = 0.125});
  const Tensor got = model->predict(keras::testing::golden_tensor(golden["input"]));
  const Tensor want = keras::testing::golden_tensor(golden["output"]);
  REQUIRE(got.shape() == want.shape());
  const auto g = got.to_vector<float>(), w = want.to_vector<float>();
  double worst = 0;
  for (std::size_t i = 0; i < g.size(); ++i) worst = std::max(worst, std::abs(g[i] - w[i]) / (1e-3 + std::abs(w[i])));
  CHECK(worst < 1e-4);
}
