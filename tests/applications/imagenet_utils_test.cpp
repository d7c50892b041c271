// preprocess_input's three modes on known pixels (Keras's imagenet_utils arithmetic), each application's mode,
// and decode_predictions on a class index in Keras's imagenet_class_index.json format.
#include <fstream>

#include <catch2/catch.hpp>

#include "keras/applications/applications.hpp"
#include "keras/keras.hpp"
#include "temp_dir.hpp"

using namespace keras;
namespace A = keras::applications;

namespace {

Tensor pixel(float r, float g, float b) { return Tensor::from_vector<float>({r, g, b}, {1, 1, 1, 3}); }

void check(const Tensor& t, std::vector<float> want) {
  const auto got = t.to_vector<float>();
  REQUIRE(got.size() == want.size());
  for (std::size_t i = 0; i < want.size(); ++i) CHECK(got[i] == Approx(want[i]).margin(1e-5));
}

}  // namespace

TEST_CASE("preprocess_input: caffe, tf and torch modes", "[applications]") {
  const Tensor x = pixel(10, 20, 30);
  check(A::imagenet_utils::preprocess_input(x, "caffe"), {30 - 103.939f, 20 - 116.779f, 10 - 123.68f});
  check(A::imagenet_utils::preprocess_input(x, "tf"), {10 / 127.5f - 1, 20 / 127.5f - 1, 30 / 127.5f - 1});
  check(A::imagenet_utils::preprocess_input(x, "torch"),
        {(10 / 255.f - 0.485f) / 0.229f, (20 / 255.f - 0.456f) / 0.224f, (30 / 255.f - 0.406f) / 0.225f});
  check(x, {10, 20, 30});  // the input is left as it was
  // uint8 pixels become float32
  const Tensor bytes = Tensor::from_vector<std::uint8_t>({255, 0, 128}, {1, 3});
  const Tensor scaled = A::imagenet_utils::preprocess_input(bytes, "tf");
  CHECK(scaled.dtype() == DType::float32);
  check(scaled, {1.f, -1.f, 128 / 127.5f - 1});
  CHECK_THROWS_AS(A::imagenet_utils::preprocess_input(x, "keras"), ValueError);
  CHECK_THROWS_WITH(A::imagenet_utils::preprocess_input(Tensor::zeros({1, 4, 4, 1}), "caffe"),
                    Catch::Contains("3 channels"));
}

TEST_CASE("Each application's preprocess_input uses Keras's mode", "[applications]") {
  const Tensor x = pixel(10, 20, 30);
  for (const auto& caffe : {A::vgg16::preprocess_input(x), A::resnet50::preprocess_input(x)})
    check(caffe, A::imagenet_utils::preprocess_input(x, "caffe").to_vector<float>());
  for (const auto& tf : {A::resnet_v2::preprocess_input(x), A::mobilenet::preprocess_input(x),
                         A::mobilenet_v2::preprocess_input(x), A::inception_v3::preprocess_input(x),
                         A::xception::preprocess_input(x)})
    check(tf, A::imagenet_utils::preprocess_input(x, "tf").to_vector<float>());
  check(A::densenet::preprocess_input(x), A::imagenet_utils::preprocess_input(x, "torch").to_vector<float>());
  check(A::efficientnet::preprocess_input(x), {10, 20, 30});
}

TEST_CASE("decode_predictions names the best classes from Keras's class index file", "[applications]") {
  keras_test::TempDir dir("apps_decode");
  {
    std::ofstream f(dir / "imagenet_class_index.json");
    f << "{";
    for (int i = 0; i < 1000; ++i)
      f << (i ? ", " : "") << "\"" << i << "\": [\"n" << 1000000 + i << "\", \"class_" << i << "\"]";
    f << "}";
  }
  std::vector<float> p(2 * 1000, 0.f);
  p[7] = 0.5f, p[3] = 0.3f, p[999] = 0.2f;           // row 0
  p[1000 + 42] = 0.9f, p[1000 + 0] = 0.05f;          // row 1
  const auto decoded =
      A::imagenet_utils::decode_predictions(Tensor::from_vector(p, {2, 1000}), 3, dir / "imagenet_class_index.json");
  REQUIRE(decoded.size() == 2);
  REQUIRE(decoded[0].size() == 3);
  CHECK(decoded[0][0].wnid == "n1000007");
  CHECK(decoded[0][0].label == "class_7");
  CHECK(decoded[0][0].score == 0.5f);
  CHECK(decoded[0][1].label == "class_3");
  CHECK(decoded[0][2].label == "class_999");
  CHECK(decoded[1][0].label == "class_42");
  CHECK(decoded[1][1].label == "class_0");
  // Keras's shape check, and a clear error without the file
  CHECK_THROWS_WITH(A::imagenet_utils::decode_predictions(Tensor::zeros({2, 10}), 5, dir / "imagenet_class_index.json"),
                    Catch::Contains("(samples, 1000)"));
  CHECK_THROWS_AS(A::imagenet_utils::decode_predictions(Tensor::zeros({1, 1000}), 5, dir / "missing.json"), IOError);
  {
    std::ofstream f(dir / "short.json");
    f << "{\"0\": [\"n01440764\", \"tench\"]}";
  }
  CHECK_THROWS_WITH(A::imagenet_utils::decode_predictions(Tensor::zeros({1, 1000}), 5, dir / "short.json"),
                    Catch::Contains("\"1\""));
}

TEST_CASE("preprocess_input on a symbolic input puts the preprocessing in the model", "[applications]") {
  keras_test::TempDir dir("apps_symbolic_preprocess");
  const Tensor x = Tensor::from_vector<float>({10, 20, 30, 250, 0, 128, 1, 2, 3, 64, 32, 16}, {1, 2, 2, 3});
  for (const std::string mode : {"caffe", "tf", "torch"}) {
    INFO(mode);
    KerasTensor in = Input({2, 2, 3});
    Model model(in, A::imagenet_utils::preprocess_input(in, mode));
    const auto want = A::imagenet_utils::preprocess_input(x, mode).to_vector<float>();
    check(model.predict(x), want);
    model.save(dir / (mode + ".h5"));  // raw-op nodes and a Concatenate, as tf.keras writes them
    check(models::load_model(dir / (mode + ".h5"))->predict(x), want);
  }
  KerasTensor in = Input({2, 2, 3});
  check(Model(in, A::vgg16::preprocess_input(in)).predict(x), A::vgg16::preprocess_input(x).to_vector<float>());
  check(Model(in, A::densenet::preprocess_input(in)).predict(x), A::densenet::preprocess_input(x).to_vector<float>());
}
